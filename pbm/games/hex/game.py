"""Hex's rule module: placing stones, the swap, finding the winner, showing the board."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Option, Outcome, Viewer
from pbm.games.hex.board import (
    BLACK_STONE,
    DEFAULT_SIZE,
    EMPTY,
    LARGEST,
    SMALLEST,
    WHITE_STONE,
    Board,
    board_of,
    cell_name,
)
from pbm.games.hex.rhombus import LAST_CLOSE, LAST_OPEN, STONE_CHARS, board_text
from pbm.games.text import or_list

SEATS = ("Black", "White")
BLACK, WHITE = 0, 1
EDGE_WORDS = ("top and bottom", "left and right")
SWAP_WORD = "swap"

# A cell is a letter and at most three digits (int() of a long digit string is slow, and no
# row has more); mail may hold anything, so every part of a pattern is bounded.
_CELL_RE = re.compile(r"\s{0,20}([A-Za-z])\s{0,5}([0-9]{1,3})\s{0,20}")
_SWAP_RE = re.compile(r"\s{0,20}swap\s{0,20}", re.IGNORECASE)
_PASS_RE = re.compile(r"\s{0,20}pass\s{0,20}", re.IGNORECASE)
_SHOWN = 20  # characters of an unreadable move quoted back to its sender


@dataclass(frozen=True)
class Place:
    """A move: put the mover's stone on the cell in column `col`, row `row` (0-based)."""

    col: int
    row: int

    @property
    def name(self) -> str:
        return cell_name(self.col, self.row)


@dataclass(frozen=True)
class Swap:
    """White's answer to Black's first stone: it becomes White's, mirrored (see play())."""


SWAP = Swap()
HexMove = Place | Swap


@dataclass(frozen=True)
class HexState:
    """The board of one size and the union-find of its stones.

    `stones` holds one code per cell (EMPTY, BLACK_STONE, WHITE_STONE), row 1 first. `parent`
    is the union-find over the cells and the four edges (board.Board); it is derived from
    `stones`, so it takes no part in equality (decode() rebuilds it, shaped differently), and
    neither does `last`, the cell the last move put a stone on, which only the pictures use.
    """

    size: int
    stones: bytes
    moves: int = 0  # moves played so far, a swap counted as one
    swapped: bool = False  # White answered Black's first stone with swap
    winner: int = -1  # the seat whose edges are joined; -1 while the game runs
    last: int = field(default=-1, compare=False)
    parent: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def board(self) -> Board:
        return board_of(self.size)

    @property
    def seat_to_move(self) -> int:
        # Black places the first stone, then the players alternate; after a swap the white
        # stone counts as White's move, so Black moves next, as after any White move.
        return self.moves % 2

    @property
    def may_swap(self) -> bool:
        """White's first move, the only time swap is allowed."""
        return self.moves == 1 and self.winner < 0

    def count(self, seat: int) -> int:
        return self.stones.count(seat + 1)


def new_state(board: Board, stones: bytes, moves: int, swapped: bool, last: int) -> HexState:
    """A state with its union-find and winner worked out from the stones (decode, figures)."""
    parent = board.build_parent(stones)
    # At most one seat's edges are joined: a chain from top to bottom cuts left from right.
    winner = next((seat for seat in (BLACK, WHITE) if board.joined(parent, seat)), -1)
    return HexState(board.size, stones, moves, swapped, winner, last, tuple(parent))


@cache
def places(size: int) -> tuple[Place, ...]:
    """Every cell's Place, by cell index: made once, so listing moves allocates nothing."""
    return tuple(Place(i % size, i // size) for i in range(size * size))


def centre(size: int) -> str:
    """The centre cell's name (F6 on 11), the example the messages give."""
    return cell_name(size // 2, size // 2)


def swap_image(state: HexState) -> tuple[int, int]:
    """Black's first stone and the cell White's stone goes on if White swaps: its mirror
    image across the long diagonal (from A1 to the far corner), column and row exchanged."""
    first = state.stones.index(BLACK_STONE)
    return first, state.board.mirror[first]


_TO_MOVE = (frozenset({BLACK}), frozenset({WHITE}))
_NOBODY: frozenset[int] = frozenset()
_RANDOM_TRIES = 8  # random cells tried before listing the empty ones (see random_move)


class Hex(Game[HexState, HexMove]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="hex",
        title="Hex",
        seats=SEATS,
        rules_version=1,
        options=(
            Option("size", DEFAULT_SIZE,
                   f"cells along each side of the board, {SMALLEST} to {LARGEST}",
                   choices=tuple(range(SMALLEST, LARGEST + 1))),
        ),
        summary="Join your two opposite edges of a rhombus of hexagons; never a draw.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> HexState:
        board = board_of(int(options.get("size", DEFAULT_SIZE)))
        return HexState(board.size, bytes(board.cells), parent=(-1,) * board.slots)

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: HexState) -> frozenset[int]:
        if state.winner >= 0:
            return _NOBODY
        return _TO_MOVE[state.moves % 2]

    def parse(self, state: HexState, seat: int, text: str) -> HexMove:
        move = _read(state, text)
        _check(state, seat, move)
        return move

    def play(self, state: HexState, seat: int, move: HexMove) -> HexState:
        board = state.board
        if isinstance(move, Swap):
            # The piece swap (HexWiki, "Swap rule"): Black's stone leaves the board and a
            # white stone goes on its mirror image, so White now holds exactly the position
            # Black had, and each seat keeps its colour and its edges. OpenSpiel's hex with
            # swap=True does the same.
            _, image = swap_image(state)
            stones = bytearray(board.cells)
            stones[image] = WHITE_STONE
            return new_state(board, bytes(stones), state.moves + 1, True, image)
        cell = move.row * board.size + move.col
        stones = bytearray(state.stones)
        stones[cell] = seat + 1
        parent = list(state.parent)
        board.attach(parent, stones, cell, seat)
        winner = seat if board.joined(parent, seat) else -1
        return HexState(board.size, bytes(stones), state.moves + 1, state.swapped, winner,
                        cell, tuple(parent))

    def notation(self, move: HexMove) -> str:
        return SWAP_WORD if isinstance(move, Swap) else move.name

    def result(self, state: HexState) -> Outcome | None:
        if state.winner < 0:
            # No draws: a full board always holds one player's chain (Gale, 1979), so a
            # game without a winner always has an empty cell to play.
            return None
        seat = state.winner
        how = "" if state.last < 0 else f"; {state.board.names[state.last]} completed it"
        return Outcome(frozenset({seat}),
                       f"{SEATS[seat]} joined the {EDGE_WORDS[seat]} edges with an unbroken"
                       f" chain of stones{how}.")

    def legal_moves(self, state: HexState, seat: int) -> Iterator[HexMove]:
        if state.winner >= 0 or seat != state.seat_to_move:
            return
        stones = state.stones
        yield from (place for place, code in zip(places(state.size), stones) if code == EMPTY)
        if state.may_swap:
            yield SWAP

    def random_move(self, state: HexState, seat: int, rng: random.Random) -> HexMove:
        """Uniform over the legal moves: a random cell (or swap's extra slot) is tried a
        few times, which on most boards finds a legal one without listing any; a board
        nearly full falls back to choosing among the empty cells listed."""
        stones, cells = state.stones, len(state.stones)
        slots = cells + 1 if state.may_swap else cells
        placed = places(state.size)
        draw = rng.random
        for _ in range(_RANDOM_TRIES):
            at = int(draw() * slots)
            if at == cells:
                return SWAP
            if stones[at] == EMPTY:
                return placed[at]
        # Each try above was uniform over the slots and kept only a legal one, so the move
        # found is uniform over the legal moves, and so is this choice among all of them.
        moves = list(self.legal_moves(state, seat))
        return moves[int(draw() * len(moves))]

    def prompt(self, state: HexState, seat: int) -> str | None:
        if state.winner >= 0 or seat != state.seat_to_move:
            return None
        if state.moves == 0:
            return f"Place your first stone, e.g. {centre(state.size)}; White may then swap it."
        if state.may_swap:
            first, image = swap_image(state)
            names = state.board.names
            return (f"Place a stone, or swap: Black's {names[first]} becomes your"
                    f" {names[image]}.")
        return None

    # ----- showing --------------------------------------------------------------------
    def render(self, state: HexState, viewer: Viewer) -> str:
        # Hex has no hidden information: every viewer sees the same board.
        text = board_text(state.board, state.stones, state.last)
        return text + "\n" + "\n".join(status_lines(state)) + "\n"

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: HexState) -> Any:
        n = state.size
        rows = ["".join(STONE_CHARS[code] for code in state.stones[r * n:(r + 1) * n])
                for r in range(n)]
        last = state.board.names[state.last] if state.last >= 0 else None
        return {"size": n, "board": rows, "last": last, "swapped": state.swapped}

    def decode(self, data: Any) -> HexState:
        board = board_of(int(data["size"]))
        rows = data["board"]
        if len(rows) != board.size or any(len(row) != board.size for row in rows):
            raise ValueError(f"a Hex board of size {board.size} has {board.size} rows of"
                             f" {board.size} cells")
        codes = {char: code for code, char in STONE_CHARS.items()}
        stones = bytes(codes[char] for row in rows for char in row)
        swapped = bool(data.get("swapped", False))
        # A swap replaced a stone: it is the one move that left no stone of its own.
        moves = len(stones) - stones.count(EMPTY) + swapped
        last = data.get("last")
        return new_state(board, stones, moves, swapped, -1 if last is None
                         else board.index_of[last])

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        return {name: self.render(figure_state(name), None) for name in HELP_FIGURES}


def _read(state: HexState, text: str) -> HexMove:
    """The move `text` names: a cell of this board or swap (whether legal or not)."""
    board = state.board
    cell = _CELL_RE.fullmatch(text)
    if cell is not None:
        letter, row = cell[1].upper(), int(cell[2])
        col = board.letters.find(letter)
        if col < 0 or not 1 <= row <= board.size:
            raise IllegalMove(
                f"There is no cell {letter}{row}: the board has columns A to"
                f" {board.letters[-1]} and rows 1 to {board.size}.")
        return places(board.size)[(row - 1) * board.size + col]
    if _SWAP_RE.fullmatch(text):
        return SWAP
    if _PASS_RE.fullmatch(text):
        raise IllegalMove("There is no passing in Hex: place a stone on an empty cell,"
                          f" e.g. {_empty_example(state)}.")
    shown = f"'{text.strip()[:_SHOWN]}'" if text.strip() else "an empty move"
    swap = ", or swap (White's first move only)" if state.may_swap else ""
    raise InvalidMove(
        f"Cannot read {shown} as a Hex move: write one cell, its column letter A to"
        f" {board.letters[-1]} and its row number 1 to {board.size}, e.g."
        f" {_empty_example(state)}{swap}.")


def _check(state: HexState, seat: int, move: HexMove) -> None:
    """Raise IllegalMove with the rule that forbids `move` now."""
    if state.winner >= 0:
        raise IllegalMove(f"The game is over: {SEATS[state.winner]} has joined the"
                          f" {EDGE_WORDS[state.winner]} edges.")
    if seat != state.seat_to_move:
        raise IllegalMove(f"It is {SEATS[state.seat_to_move]}'s turn, not {SEATS[seat]}'s.")
    board = state.board
    if isinstance(move, Swap):
        if state.moves == 0:
            raise IllegalMove("There is nothing to swap yet: swap is White's answer to"
                              f" Black's first stone. Place a stone, e.g. {centre(board.size)}.")
        if not state.may_swap:
            raise IllegalMove("Swap is only allowed as White's first move, answering Black's"
                              " first stone; now place a stone on an empty cell, e.g."
                              f" {_empty_example(state)}.")
        return
    cell = move.row * board.size + move.col
    code = state.stones[cell]
    if code != EMPTY:
        owner = SEATS[code - 1]
        raise IllegalMove(f"{move.name} already holds {owner}'s stone, and stones never move."
                          f" Place yours on an empty cell, e.g. {_empty_near(state, cell)}.")


def _empty_example(state: HexState) -> str:
    """An empty cell to suggest: the centre, or the empty cell nearest it."""
    n = state.size
    middle = (n // 2) * n + n // 2
    return _empty_near(state, middle, include=True)


def _empty_near(state: HexState, cell: int, include: bool = False) -> str:
    """Up to three empty cells nearest `cell` (and `cell` itself if `include`), as a list."""
    board = state.board
    row, col = divmod(cell, board.size)

    def distance(other: int) -> tuple[int, int]:
        # Hex distance on the rhombus: steps along the rows, columns and the one diagonal.
        dr, dc = other // board.size - row, other % board.size - col
        return max(abs(dr), abs(dc), abs(dr + dc)), other

    empty = [i for i in range(board.cells) if state.stones[i] == EMPTY
             and (include or i != cell)]
    nearest = sorted(empty, key=distance)[:1 if include else 3]
    return or_list(board.names[i] for i in nearest)


# ----- the text under the board ------------------------------------------------------------


def status_lines(state: HexState, how_shown: str | None = None) -> list[str]:
    """The lines under the board: the edges, the stones, the last move and the swap
    White may make. The last stone is said to be `how_shown` (the picture rings it), by
    default in brackets as the text board shows it."""
    names = state.board.names
    black, white = (f"{SEATS[s]} ({STONE_CHARS[s + 1]})" for s in (BLACK, WHITE))
    empty = state.stones.count(EMPTY)
    lines = [
        f"{black} joins top and bottom, {white} left and right.",
        f"Stones: Black {state.count(BLACK)}, White {state.count(WHITE)}; {empty} empty"
        f" {'cell' if empty == 1 else 'cells'}.",
    ]
    if state.last >= 0:
        code = state.stones[state.last]
        shown = how_shown or f"shown as {LAST_OPEN}{STONE_CHARS[code]}{LAST_CLOSE}"
        if state.swapped and state.moves == 2:
            first = state.board.mirror[state.last]
            lines.append(f"Last move: White swapped: Black's {names[first]} became White's"
                         f" {names[state.last]}, {shown}.")
        else:
            lines.append(f"Last move: {SEATS[code - 1]} {names[state.last]}, {shown}.")
    if state.may_swap:
        first, image = swap_image(state)
        lines.append(f"White may swap: Black's {names[first]} would become White's"
                     f" {names[image]}.")
    return lines


# ----- help figures -----------------------------------------------------------------------
# Figure name -> the board size and the moves played, Black first, that the help page draws
# with render().
HELP_FIGURES: dict[str, tuple[int, tuple[str, ...]]] = {
    "start": (DEFAULT_SIZE, ()),
    # HexWiki's "Rules" page, its example of a win by Red (here Black, who joins top and
    # bottom): Red d1 c2 c3 c4 d4 d5, Blue e1 d2 d3 b5 c5, in an order that ends on d5.
    "win": (5, ("D1", "E1", "C2", "D2", "C3", "D3", "C4", "B5", "D4", "C5", "D5")),
    "before swap": (5, ("B4",)),
    "after swap": (5, ("B4", SWAP_WORD)),
}


def figure_state(name: str) -> HexState:
    """The position of help figure `name`, played move by move from the start."""
    size, moves = HELP_FIGURES[name]
    state = GAME.start({"size": size}, 0)
    for text in moves:
        seat = state.seat_to_move
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    return state


GAME = Hex()
