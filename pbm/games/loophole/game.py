"""Loophole's rule module: placing stones, finding the winner, showing the board."""

from __future__ import annotations

import random
import re
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome, Viewer
from pbm.games.loophole.board import (
    CELL_COUNT,
    COLUMNS,
    EMPTY,
    HOLE,
    INITIAL_STONES,
    SIZE,
    STONE_CHARS,
    WINDOW_OF,
    WINDOW_SPANS,
    attach,
    build_parent,
    cell_name,
    describe_loops,
    index,
    initial_cells,
    loop_masks,
    named,
)
from pbm.games.loophole.rhombus import LAST_CLOSE, LAST_OPEN, board_text
from pbm.games.text import number_word

SEATS = ("Black", "White")
EXAMPLE = "K10"
STORED_HOLE = "-"  # how a window cell is spelt in encode(); blank would be easy to mangle

_MOVE_RE = re.compile(r"^\s*([A-Za-z])\s*(\d{1,4})\s*$")
_RIM_STONES = sum(len(stones) for stones in INITIAL_STONES)

# Empty cells nearest the centre first: the prompt suggests the first one still free.
_CENTRE = named(EXAMPLE)
_BY_CENTRE = tuple(
    sorted(
        (c for c in range(CELL_COUNT) if c not in WINDOW_OF),
        key=lambda c: (abs(c // SIZE - _CENTRE // SIZE) + abs(c % SIZE - _CENTRE % SIZE), c),
    )
)


@dataclass(frozen=True)
class Placement:
    """A move: put the mover's stone on `cell` (a cell index, see board.index)."""

    cell: int

    @property
    def name(self) -> str:
        return cell_name(self.cell)


@dataclass(frozen=True)
class LoopholeState:
    """The board and the union-find of its stones.

    `cells` holds one code per cell (EMPTY, BLACK, WHITE, HOLE). `parent` is the union-find
    over cells and the four board edges; it is derived from `cells`, so it takes no part in
    equality (decode() rebuilds it, with a different but equivalent shape).
    """

    cells: bytes
    last: int = -1  # cell of the last stone placed; -1 before the first move
    winner: int = -1  # the seat that has won; -1 while the game runs
    parent: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def placed(self) -> int:
        """Stones placed by the players (the 24 rim stones not counted)."""
        return CELL_COUNT - self.cells.count(EMPTY) - self.cells.count(HOLE) - _RIM_STONES

    @property
    def seat_to_move(self) -> int:
        return self.placed % 2  # Black places the 1st, 3rd, ... stones

    def loops(self, seat: int) -> tuple[int, ...]:
        """Node-set masks of `seat`'s loops (bit 0 C, bit 1 W1, bit 2 W2)."""
        return loop_masks(self.parent, seat)


def new_state(cells: bytes, last: int = -1) -> LoopholeState:
    """A state for any board: rebuilds the union-find and finds a winner (if any)."""
    parent = tuple(build_parent(cells))
    winners = [seat for seat in (0, 1) if len(loop_masks(parent, seat)) >= 2]
    # Play stops at the first win, so a reachable board has at most one winner.
    return LoopholeState(cells, last, winners[0] if winners else -1, parent)


def win_reason(state: LoopholeState, seat: int) -> str:
    masks = state.loops(seat)
    return f"{SEATS[seat]} has {number_word(len(masks))} distinct loops: {describe_loops(masks)}."


class Loophole(Game[LoopholeState, Placement]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="loophole",
        title="Loophole",
        seats=SEATS,
        rules_version=1,
        summary="Mark Steere's hex game on a board with two windows: make two distinct loops.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> LoopholeState:
        return new_state(initial_cells())

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: LoopholeState) -> frozenset[int]:
        if state.winner >= 0:
            return frozenset()
        return frozenset({state.seat_to_move})

    def parse(self, state: LoopholeState, seat: int, text: str) -> Placement:
        cell = read_cell(text)
        code = state.cells[cell]
        if code == HOLE:
            window = WINDOW_OF[cell]
            raise IllegalMove(
                f"{cell_name(cell)} is inside window {window} ({WINDOW_SPANS[window]}), which"
                " has no cells: place your stone on an empty cell of the board."
            )
        if code != EMPTY:
            raise IllegalMove(
                f"{cell_name(cell)} is already occupied by a {SEATS[code - 1]} stone:"
                " place your stone on an empty cell."
            )
        return Placement(cell)

    def play(self, state: LoopholeState, seat: int, move: Placement) -> LoopholeState:
        cells = bytearray(state.cells)
        cells[move.cell] = seat + 1
        parent = list(state.parent)  # a private copy: the input state is never touched
        attach(parent, cells, move.cell, seat)
        # Only the mover's loops can change, and the opponent cannot already have two.
        won = len(loop_masks(parent, seat)) >= 2
        return LoopholeState(bytes(cells), move.cell, seat if won else -1, tuple(parent))

    def notation(self, move: Placement) -> str:
        return move.name

    def result(self, state: LoopholeState) -> Outcome | None:
        if state.winner < 0:
            return None
        return Outcome(frozenset({state.winner}), win_reason(state, state.winner))

    def legal_moves(self, state: LoopholeState, seat: int) -> Iterator[Placement]:
        if state.winner >= 0:
            return
        for cell in range(CELL_COUNT):
            if state.cells[cell] == EMPTY:
                yield Placement(cell)

    def random_move(self, state: LoopholeState, seat: int, rng: random.Random) -> Placement:
        # Uniform over empty cells: a few blind draws (cheap on an open board), then a list.
        for _ in range(8):
            cell = rng.randrange(CELL_COUNT)
            if state.cells[cell] == EMPTY:
                return Placement(cell)
        return rng.choice(list(self.legal_moves(state, seat)))

    def prompt(self, state: LoopholeState, seat: int) -> str | None:
        if state.winner >= 0 or seat != state.seat_to_move:
            return None
        example = next(c for c in _BY_CENTRE if state.cells[c] == EMPTY)
        return (
            f"Place one {SEATS[seat]} stone ({STONE_CHARS[seat + 1]}) on any empty cell,"
            f" e.g. {cell_name(example)}."
        )

    # ----- showing --------------------------------------------------------------------
    def render(self, state: LoopholeState, viewer: Viewer) -> str:
        # Loophole has no hidden information: every viewer sees the same board.
        return board_text(state.cells, state.last) + "\n" + "\n".join(status_lines(state)) + "\n"

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: LoopholeState) -> Any:
        rows = []
        for row in range(SIZE):
            codes = state.cells[row * SIZE : (row + 1) * SIZE]
            rows.append("".join(STORED_HOLE if c == HOLE else STONE_CHARS[c] for c in codes))
        last = cell_name(state.last) if state.last >= 0 else None
        return {"board": rows, "last": last}

    def decode(self, data: Any) -> LoopholeState:
        cells = cells_from_rows(data["board"])
        last = data.get("last")
        return new_state(cells, named(last) if last else -1)

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        return {
            name: self.render(position(black, white), None)
            for name, (black, white) in HELP_DIAGRAMS.items()
        }


def read_cell(text: str) -> int:
    """The cell index named by `text`; InvalidMove/IllegalMove when it names no cell."""
    match = _MOVE_RE.match(text)
    if match is None:
        shown = f"'{text.strip()}'" if text.strip() else "an empty move"
        raise InvalidMove(
            f"Cannot read {shown} as a Loophole move: write one cell, a column letter A-S"
            f" and a row number 1-19, e.g. {EXAMPLE}."
        )
    letter, row = match[1].upper(), int(match[2])
    if letter not in COLUMNS or not 1 <= row <= SIZE:
        raise IllegalMove(
            f"There is no cell {letter}{row}: the board has columns A to S and rows 1 to 19."
        )
    return index(COLUMNS.index(letter), row - 1)


def cells_from_rows(rows: Iterable[str]) -> bytes:
    """Board bytes from 19 rows of 19 characters: '.', '#', 'O', and '-' or ' ' for windows."""
    codes = {".": EMPTY, "#": 1, "O": 2, STORED_HOLE: HOLE, " ": HOLE}
    rows = list(rows)
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError(f"a Loophole board has {SIZE} rows of {SIZE} cells")
    cells = bytes(codes[ch] for row in rows for ch in row)
    holes = {cell for cell in range(CELL_COUNT) if cells[cell] == HOLE}
    if holes != set(WINDOW_OF):
        raise ValueError("the window cells of a Loophole board are M5-O7 and E13-G15")
    return cells


# ----- the text under the board ------------------------------------------------------------

STATUS_WIDTH = 72  # leaves room for the help page's indent within 76 columns


def loops_lines(state: LoopholeState, seat: int) -> list[str]:
    """'Black (#) loops: ...', wrapped: a player can have up to seven loops."""
    masks = state.loops(seat)
    mark = STONE_CHARS[seat + 1]
    text = f"{SEATS[seat]} ({mark}) loops: {describe_loops(masks) if masks else 'none'}"
    return textwrap.wrap(text, STATUS_WIDTH, subsequent_indent="    ")


def status_lines(state: LoopholeState) -> list[str]:
    lines = [line for seat in (0, 1) for line in loops_lines(state, seat)]
    if state.last >= 0:
        code = state.cells[state.last]
        lines.append(
            f"Last stone: {SEATS[code - 1]} {cell_name(state.last)},"
            f" shown as {LAST_OPEN}{STONE_CHARS[code]}{LAST_CLOSE}."
        )
    return lines


# ----- help diagrams ------------------------------------------------------------------------
# Figure name -> the Black and White stones (by cell) of a position the help page draws with
# render(). None of these boards is reached by a particular move order, only the loops matter.
HELP_DIAGRAMS: dict[str, tuple[str, str]] = {
    "start": ("", ""),
    "single": (
        "C1 C2 C3 C4 C5 C6 C7 C8 C9 C10 C11 C12 C13 C14 C15 C16 C17 C18 C19",
        "L8 L9 M9 N9 O9 P8",
    ),
    "double": ("N1 N2 N3 N9 N10 N11 N12 N13 N14 N15 N16 N17 N18 N19", ""),
    "triple": ("N1 N2 N3 L9 K10 J11 I12 H12 F17 F18 F19", ""),
    "win": ("N1 N2 N3 N9 N10 N11 N12 N13 N14 N15 N16 N17 N18 N19 L4 K5 K6 K7 K8 L8", ""),
}


def position(black: str, white: str) -> LoopholeState:
    """The start position plus the listed Black and White stones (space-separated cells)."""
    cells = bytearray(initial_cells())
    for seat, names in enumerate((black, white)):
        for name in names.split():
            cell = named(name)
            if cells[cell] != EMPTY:
                raise ValueError(f"{name} is not an empty cell")
            cells[cell] = seat + 1
    return new_state(bytes(cells))


GAME = Loophole()
