"""Loophole's board: hex rhombus geometry, windows, rims and incremental loop detection."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pbm.games.text import and_list

SIZE = 19
COLUMNS = "ABCDEFGHIJKLMNOPQRS"
CELL_COUNT = SIZE * SIZE

# Union-find slots after the cells: the four board edges, each one extra "stone" of its owner.
TOP, BOTTOM, LEFT, RIGHT = CELL_COUNT, CELL_COUNT + 1, CELL_COUNT + 2, CELL_COUNT + 3
SLOTS = CELL_COUNT + 4

# Cell codes in the board bytes; a seat's stone is seat + 1.
EMPTY, BLACK, WHITE, HOLE = 0, 1, 2, 3
STONE_CHARS = {EMPTY: ".", BLACK: "#", WHITE: "O", HOLE: " "}

NODE_NAMES = ("C", "W1", "W2")
# Node sets are bit masks over NODE_NAMES: bit 0 is C, bit 1 W1, bit 2 W2.
ALL_MASKS = tuple(range(1, 1 << len(NODE_NAMES)))
LOOP_KINDS = {1: "single", 2: "double", 3: "triple"}


def index(col: int, row: int) -> int:
    """Cell index of 0-based column and row (row 0 is row 1, the top row)."""
    return row * SIZE + col


def cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"{COLUMNS[col]}{row + 1}"


def named(name: str) -> int:
    """Cell index of a well-formed upper-case name such as 'M4' (for tables and tests)."""
    return index(COLUMNS.index(name[0]), int(name[1:]) - 1)


def _block(cols: range, rows: range) -> frozenset[int]:
    return frozenset(index(c, r) for c in cols for r in rows)


# The windows are holes in the board: W1 is M5-O7, W2 is E13-G15.
WINDOWS = {"W1": _block(range(12, 15), range(4, 7)), "W2": _block(range(4, 7), range(12, 15))}
WINDOW_SPANS = {"W1": "M5-O7", "W2": "E13-G15"}
WINDOW_OF = {cell: name for name, cells in WINDOWS.items() for cell in cells}


def _cells(names: str) -> tuple[int, ...]:
    return tuple(named(n) for n in names.split())


# Pre-placed rim stones of each seat, in the order the rulings list them.
INITIAL_STONES = (
    _cells("M4 N4 O4 M8 N8 O8 E12 F12 G12 E16 F16 G16"),
    _cells("L5 L6 L7 P5 P6 P7 D13 D14 D15 H13 H14 H15"),
)

# The two rims of each node, per seat, as one representative slot each. Each window rim is a
# row or column of three touching pre-placed stones, so any one of them names its component.
RIMS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((TOP, BOTTOM), (named("M4"), named("M8")), (named("E12"), named("E16"))),
    ((LEFT, RIGHT), (named("L5"), named("P5")), (named("D13"), named("H13"))),
)
RIM_SLOTS = tuple(tuple(slot for pair in rims for slot in pair) for rims in RIMS)

# Hex neighbours on the rhombus: same row, same column, and the (+1,-1)/(-1,+1) diagonal.
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _neighbours(cell: int) -> tuple[int, ...]:
    row, col = divmod(cell, SIZE)
    found = []
    for dc, dr in _STEPS:
        c, r = col + dc, row + dr
        if 0 <= c < SIZE and 0 <= r < SIZE and index(c, r) not in WINDOW_OF:
            found.append(index(c, r))
    return tuple(found)


def _edges(cell: int, seat: int) -> tuple[int, ...]:
    """The board edges of `seat` that `cell` touches (Black: top/bottom, White: left/right)."""
    row, col = divmod(cell, SIZE)
    if seat == 0:
        return tuple(e for e, on in ((TOP, row == 0), (BOTTOM, row == SIZE - 1)) if on)
    return tuple(e for e, on in ((LEFT, col == 0), (RIGHT, col == SIZE - 1)) if on)


NEIGHBOURS = tuple(_neighbours(cell) for cell in range(CELL_COUNT))
# Neighbours earlier in reading order: enough to join every touching pair in one sweep.
EARLIER_NEIGHBOURS = tuple(tuple(n for n in ns if n < cell) for cell, ns in enumerate(NEIGHBOURS))
EDGES = tuple(tuple(_edges(cell, seat) for cell in range(CELL_COUNT)) for seat in (0, 1))


# ----- union-find ------------------------------------------------------------------------
# parent[i] >= 0 is i's parent; parent[i] < 0 marks a root whose set has -parent[i] members.
# Union by size keeps trees shallow, so read-only finds on a stored state stay short.


def find(parent: Sequence[int], slot: int) -> int:
    """Root of `slot`, without changing `parent` (usable on an immutable tuple)."""
    while parent[slot] >= 0:
        slot = parent[slot]
    return slot


def find_halving(parent: list[int], slot: int) -> int:
    """Root of `slot`, halving the path on the way (only on a private working copy)."""
    while True:
        up = parent[slot]
        if up < 0:
            return slot
        above = parent[up]
        if above < 0:
            return up
        parent[slot] = above
        slot = above


def union(parent: list[int], a: int, b: int) -> None:
    ra, rb = find_halving(parent, a), find_halving(parent, b)
    if ra == rb:
        return
    if parent[ra] > parent[rb]:  # ra is the smaller set: hang it under rb
        ra, rb = rb, ra
    parent[ra] += parent[rb]
    parent[rb] = ra


def attach(parent: list[int], cells: bytes | bytearray, cell: int, seat: int) -> None:
    """Join the stone of `seat` just put on `cell` to its like neighbours and own edges."""
    stone = seat + 1
    for other in NEIGHBOURS[cell]:
        if cells[other] == stone:
            union(parent, cell, other)
    for edge in EDGES[seat][cell]:
        union(parent, cell, edge)


def build_parent(cells: bytes) -> list[int]:
    """Union-find of a whole board, stone by stone (for decode; play() updates incrementally)."""
    parent = [-1] * SLOTS
    for cell in range(CELL_COUNT):
        code = cells[cell]
        if code != BLACK and code != WHITE:
            continue
        for other in EARLIER_NEIGHBOURS[cell]:
            if cells[other] == code:
                union(parent, cell, other)
        for edge in EDGES[code - 1][cell]:
            union(parent, cell, edge)
    return parent


# ----- loops -----------------------------------------------------------------------------


def rim_pattern(parent: Sequence[int], seat: int) -> tuple[int, ...]:
    """Which of the six rims of `seat` share a component, as first-seen labels 0..5.

    Loops depend only on this partition, so the answer is cached per pattern.
    """
    labels: dict[int, int] = {}
    return tuple(labels.setdefault(find(parent, slot), len(labels)) for slot in RIM_SLOTS[seat])


@cache
def loops_of_pattern(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """Node-set masks that form loops, given the rim partition (see rim_pattern)."""
    ends = [(pattern[2 * k], pattern[2 * k + 1]) for k in range(len(NODE_NAMES))]
    return tuple(mask for mask in ALL_MASKS if _closed_trail(ends, mask))


def _closed_trail(ends: list[tuple[int, int]], mask: int) -> bool:
    """Do the node-edges picked by `mask` form one closed trail (connected, all degrees even)?"""
    chosen = [ends[k] for k in range(len(ends)) if mask >> k & 1]
    degree: dict[int, int] = {}
    for a, b in chosen:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1  # a node whose rims are one component adds 2
    if any(d % 2 for d in degree.values()):
        return False
    reached = set(chosen[0])
    pending = chosen[1:]
    while pending:
        joining = [edge for edge in pending if edge[0] in reached or edge[1] in reached]
        if not joining:
            return False
        for edge in joining:
            reached.update(edge)
            pending.remove(edge)
    return True


def loop_masks(parent: Sequence[int], seat: int) -> tuple[int, ...]:
    """The distinct node sets of `seat`'s loops, as masks in ascending order."""
    return loops_of_pattern(rim_pattern(parent, seat))


def mask_nodes(mask: int) -> tuple[str, ...]:
    return tuple(name for k, name in enumerate(NODE_NAMES) if mask >> k & 1)


def describe_loop(mask: int) -> str:
    """'double node loop through C and W2'."""
    nodes = mask_nodes(mask)
    return f"{LOOP_KINDS[len(nodes)]} node loop through {and_list(nodes)}"


def loop_order(mask: int) -> tuple[int, tuple[int, ...]]:
    """Sort key: single before double before triple, then C, W1, W2 order."""
    return (bin(mask).count("1"), tuple(k for k in range(len(NODE_NAMES)) if mask >> k & 1))


def describe_loops(masks: Sequence[int]) -> str:
    return ", ".join(describe_loop(m) for m in sorted(masks, key=loop_order))


def initial_cells() -> bytes:
    cells = bytearray(CELL_COUNT)
    for cell in WINDOW_OF:
        cells[cell] = HOLE
    for seat, stones in enumerate(INITIAL_STONES):
        for cell in stones:
            cells[cell] = seat + 1
    return bytes(cells)
