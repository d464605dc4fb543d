"""Trou: place pawns 1-4 on a 3x3 grid under parity rules; fewest pawns beside the hole wins."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome, Viewer
from pbm.games.grid import Cell, Grid
from pbm.games.text import and_list, or_list, plural
from pbm.games.trou.bots import BestBot, GoodBot

SIZE = 3
GRID = Grid(SIZE, SIZE)
COLUMNS = GRID.letters
VALUES = (1, 2, 3, 4)
SEATS = ("Red", "Black")
COLOUR_LETTERS = ("R", "B")
HOLE_MARK = "()"
EXAMPLE = "3B2"

# Numbers of a few digits: int() refuses a text of more than 4300 (and no pawn or row has them).
_MOVE_RE = re.compile(r"^\s*([0-9]{1,6})\s*([A-Za-z])\s*([0-9]{1,6})\s*$")


CELLS = GRID.cells


@dataclass(frozen=True)
class Pawn:
    """A placed pawn: its owner's seat and its value."""

    seat: int
    value: int

    @property
    def label(self) -> str:
        return f"{COLOUR_LETTERS[self.seat]}{self.value}"

    @property
    def described(self) -> str:
        """How messages name the pawn: "Black's 2" (never "B2", which reads as a cell)."""
        return f"{SEATS[self.seat]}'s {self.value}"


@dataclass(frozen=True)
class Placement:
    """A move: put the mover's pawn `value` on `cell`."""

    value: int
    cell: Cell


@dataclass(frozen=True)
class TrouState:
    """The grid, row by row from A1 to C3; everything else follows from it.

    `last` is the cell of the last pawn placed, for the picture to highlight; it is no part
    of the position (two move orders reaching one board are one position).
    """

    board: tuple[Pawn | None, ...] = (None,) * (SIZE * SIZE)
    last: Cell | None = field(default=None, compare=False)

    def at(self, cell: Cell) -> Pawn | None:
        return self.board[GRID.index(cell)]

    @property
    def placed(self) -> int:
        return sum(pawn is not None for pawn in self.board)

    @property
    def seat_to_move(self) -> int:
        # Red places the 1st, 3rd, 5th and 7th pawns, Black the others.
        return self.placed % 2

    @property
    def finished(self) -> bool:
        return self.placed == len(VALUES) * len(SEATS)

    def pawns_left(self, seat: int) -> tuple[int, ...]:
        used = {pawn.value for pawn in self.board if pawn is not None and pawn.seat == seat}
        return tuple(v for v in VALUES if v not in used)

    def where(self, seat: int, value: int) -> Cell | None:
        for cell in CELLS:
            if self.at(cell) == Pawn(seat, value):
                return cell
        return None

    def hole(self) -> Cell | None:
        if not self.finished:
            return None
        return next(cell for cell in CELLS if self.at(cell) is None)


@dataclass(frozen=True)
class Requirement:
    """The parity an occupied neighbour forces on a cell: 0 even, 1 odd."""

    neighbour: Cell
    pawn: Pawn
    by_side: bool

    @property
    def parity(self) -> int:
        # A side neighbour forces the opposite parity, a corner neighbour the same parity.
        own = self.pawn.value % 2
        return 1 - own if self.by_side else own

    def explain(self) -> str:
        where = "side" if self.by_side else "corner"
        kind = "odd" if self.pawn.value % 2 else "even"
        return f"its {where} neighbour {self.neighbour.name} holds {self.pawn.described} ({kind})"


@dataclass(frozen=True)
class Scoring:
    """Pawns beside the hole (side neighbours only), per seat: how many and their sum."""

    hole: Cell
    beside: tuple[tuple[Cell, Pawn], ...]

    def count(self, seat: int) -> int:
        return sum(1 for _, pawn in self.beside if pawn.seat == seat)

    def total(self, seat: int) -> int:
        return sum(pawn.value for _, pawn in self.beside if pawn.seat == seat)


def parity_word(parity: int) -> str:
    return "odd" if parity else "even"


def requirements(state: TrouState, cell: Cell) -> list[Requirement]:
    """What every occupied neighbour of `cell` demands, sides first, whatever its colour."""
    found = []
    sides, corners = GRID.side_neighbours(cell), GRID.corner_neighbours(cell)
    for by_side, neighbours in ((True, sides), (False, corners)):
        for neighbour in neighbours:
            pawn = state.at(neighbour)
            if pawn is not None:
                found.append(Requirement(neighbour, pawn, by_side))
    return found


def touches_a_pawn(state: TrouState, cell: Cell) -> bool:
    neighbours = [*GRID.side_neighbours(cell), *GRID.corner_neighbours(cell)]
    return any(state.at(n) is not None for n in neighbours)


def allowed_values(state: TrouState, cell: Cell, seat: int) -> tuple[int, ...]:
    """The pawns `seat` still has that may go on `cell` now (empty if none or cell illegal)."""
    if state.at(cell) is not None:
        return ()
    if state.placed and not touches_a_pawn(state, cell):
        return ()
    parities = {req.parity for req in requirements(state, cell)}
    return tuple(v for v in state.pawns_left(seat) if parities <= {v % 2})


def scoring(state: TrouState) -> Scoring | None:
    hole = state.hole()
    if hole is None:
        return None
    beside = []
    for cell in GRID.side_neighbours(hole):
        pawn = state.at(cell)
        assert pawn is not None  # all eight other cells are filled at the end
        beside.append((cell, pawn))
    return Scoring(hole, tuple(beside))


def decide(score: Scoring) -> Outcome:
    """Fewer own pawns beside the hole wins; then the smaller sum; then nobody."""
    red, black = (score.count(0), score.count(1))
    if red != black:
        winner = 0 if red < black else 1
        reason = (
            f"{SEATS[winner]} has fewer pawns beside the hole "
            f"({score.count(winner)} against {score.count(1 - winner)})."
        )
        return Outcome(frozenset({winner}), reason)
    red_sum, black_sum = score.total(0), score.total(1)
    pawns = plural(red, "pawn")
    if red_sum != black_sum:
        winner = 0 if red_sum < black_sum else 1
        reason = (
            f"Both have {pawns} beside the hole and {SEATS[winner]}'s sum is smaller "
            f"({score.total(winner)} against {score.total(1 - winner)})."
        )
        return Outcome(frozenset({winner}), reason)
    return Outcome(
        frozenset(),
        f"Both have {pawns} beside the hole with the same sum ({red_sum}): no winner.",
    )


class Trou(Game[TrouState, Placement]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="trou",
        title="Trou",
        seats=SEATS,
        rules_version=1,
        summary="Place pawns 1-4 on a 3x3 grid by parity; fewest beside the hole wins.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> TrouState:
        return TrouState()

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: TrouState) -> frozenset[int]:
        if state.finished:
            return frozenset()
        return frozenset({state.seat_to_move})

    def parse(self, state: TrouState, seat: int, text: str) -> Placement:
        value, cell = _read(text)
        _check(state, seat, value, cell)
        return Placement(value, cell)

    def play(self, state: TrouState, seat: int, move: Placement) -> TrouState:
        board = list(state.board)
        board[GRID.index(move.cell)] = Pawn(seat, move.value)
        return TrouState(tuple(board), move.cell)

    def notation(self, move: Placement) -> str:
        return f"{move.value}{move.cell.name}"

    def result(self, state: TrouState) -> Outcome | None:
        score = scoring(state)
        return None if score is None else decide(score)

    def legal_moves(self, state: TrouState, seat: int) -> Iterator[Placement]:
        if state.finished:
            return
        for cell in CELLS:
            for value in allowed_values(state, cell, seat):
                yield Placement(value, cell)

    def prompt(self, state: TrouState, seat: int) -> str | None:
        if state.finished or seat != state.seat_to_move:
            return None
        if state.placed == 0:
            return f"Place any of your pawns on any cell, e.g. {EXAMPLE}."
        groups: dict[tuple[int, ...], list[str]] = {}
        for cell in CELLS:
            values = allowed_values(state, cell, seat)
            if values:
                groups.setdefault(values, []).append(cell.name)
        parts = [f"{or_list(values)} on {' '.join(cells)}" for values, cells in groups.items()]
        return "You may place " + "; ".join(parts) + "."

    # ----- bots -----------------------------------------------------------------------
    def own_bots(self) -> Mapping[str, Any]:
        # Trou is solved (solver.py): exact players replace the Monte Carlo ones.
        return {"good": GoodBot(), "best": BestBot()}

    # ----- showing --------------------------------------------------------------------
    def render(self, state: TrouState, viewer: Viewer) -> str:
        # Trou has no hidden information: every viewer sees the same board.
        hole = state.hole()
        lines = ["    " + "".join(f"{letter:^4}" for letter in COLUMNS).rstrip()]
        for row in range(SIZE):
            texts = [_cell_text(state, Cell(col, row), hole) for col in range(SIZE)]
            lines.append(f"{row + 1:>3} " + "".join(f"{t:^4}" for t in texts).rstrip())
        lines.append("")
        score = scoring(state)
        if score is None:
            for seat, name in enumerate(SEATS):
                left = " ".join(str(v) for v in state.pawns_left(seat)) or "none"
                lines.append(f"{name + ' pawns left:':<19}{left}")
        else:
            lines.extend(_scoring_lines(score))
        return "\n".join(lines) + "\n"

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: TrouState) -> Any:
        board = [None if p is None else [p.seat, p.value] for p in state.board]
        return {"board": board, "last": None if state.last is None else state.last.name}

    def decode(self, data: Any) -> TrouState:
        board = tuple(None if p is None else Pawn(int(p[0]), int(p[1])) for p in data["board"])
        if len(board) != SIZE * SIZE:
            raise ValueError(f"a Trou board has {SIZE * SIZE} cells, not {len(board)}")
        # Snapshots stored before `last` was kept have none: the picture then rings nothing.
        last = data.get("last")
        return TrouState(board, None if last is None else GRID.named(last))

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        return {"finished board": self.render(help_example_state(), None)}


def _read(text: str) -> tuple[int, Cell]:
    """Syntax and range: value 1-4, then a cell of the 3x3 grid."""
    match = _MOVE_RE.match(text)
    if match is None:
        raise InvalidMove(
            f"Cannot read '{text.strip()}' as a Trou move: write the pawn's value, then the"
            f" cell, e.g. {EXAMPLE} puts your pawn 3 on B2."
        )
    value, letter, row = int(match[1]), match[2].upper(), int(match[3])
    if value not in VALUES:
        raise IllegalMove(f"There is no pawn {value}: each player's pawns are 1, 2, 3 and 4.")
    cell = GRID.at(letter, row)
    if cell is None:
        raise IllegalMove(
            f"There is no cell {letter}{row}: the board has columns A to C and rows 1 to 3."
        )
    return value, cell


def _check(state: TrouState, seat: int, value: int, cell: Cell) -> None:
    """Raise IllegalMove with the first rule that forbids pawn `value` on `cell`."""
    if state.finished:
        raise IllegalMove("The game is over: all eight pawns are placed.")
    if seat != state.seat_to_move:
        raise IllegalMove(f"It is {SEATS[state.seat_to_move]}'s turn, not {SEATS[seat]}'s.")
    if value not in state.pawns_left(seat):
        placed_at = state.where(seat, value)
        where = f" on {placed_at.name}" if placed_at else ""
        left = and_list(state.pawns_left(seat)) or "none"
        raise IllegalMove(
            f"Your pawn {value} is already{where}; you have {left} left to place."
        )
    occupant = state.at(cell)
    if occupant is not None:
        raise IllegalMove(f"{cell.name} is already occupied by {occupant.described}.")
    if state.placed and not touches_a_pawn(state, cell):
        raise IllegalMove(
            f"{cell.name} does not touch any pawn: place your pawn on a cell next to one,"
            " by a side or a corner."
        )
    _check_parity(state, value, cell)


def _check_parity(state: TrouState, value: int, cell: Cell) -> None:
    # Neighbours never disagree with each other: the rules amount to a checkerboard of
    # parities fixed by the first pawn, so naming the first one we break is enough.
    for req in requirements(state, cell):
        if req.parity != value % 2:
            raise IllegalMove(
                f"Your pawn {value} cannot go on {cell.name}: {req.explain()}, so the pawn"
                f" there must be {parity_word(req.parity)}."
            )


def _cell_text(state: TrouState, cell: Cell, hole: Cell | None) -> str:
    if cell == hole:
        return HOLE_MARK
    pawn = state.at(cell)
    return "." if pawn is None else pawn.label


def _scoring_lines(score: Scoring) -> list[str]:
    beside = ", ".join(f"{cell.name} {pawn.label}" for cell, pawn in score.beside)
    lines = [
        f"The hole {HOLE_MARK} is {score.hole.name}. Beside it by a side: {beside}.",
    ]
    for seat, name in enumerate(SEATS):
        values = [str(p.value) for _, p in score.beside if p.seat == seat]
        total = str(score.total(seat))
        summed = "+".join(values) + " = " + total if len(values) > 1 else total
        pawns = plural(score.count(seat), "pawn")
        lines.append(f"{name + ':':<7}{pawns} beside the hole, sum {summed}")
    return lines


# A finished game for the help page: the source's second scoring example (Red wins).
HELP_EXAMPLE_MOVES = ("1B2", "4C2", "2B1", "2B3", "4A2", "3C3", "3A3", "1A1")


def help_example_state() -> TrouState:
    """HELP_EXAMPLE_MOVES played out from the empty board."""
    state = GAME.start({}, 0)
    for text in HELP_EXAMPLE_MOVES:
        seat = state.seat_to_move
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    return state


GAME = Trou()
