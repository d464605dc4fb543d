"""Synapse-Ice: lay Icehouse pieces that point where the next one must go; who is stuck loses."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome, Viewer
from pbm.games.grid import Cell, Grid
from pbm.games.synapse_ice.bots import BEST_NODES, GOOD_NODES, AlphaBetaBot

GRID = Grid(6, 5)
COLUMNS = GRID.letters
ROWS = GRID.rows
SIZES = (1, 2, 3)
STASH = 5  # pieces of each size in each player's stash at the start
SEATS = ("Red", "Green")
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}
# The most placements a game can have. After k placements k squares are full and the last
# piece points at a further empty one, so k <= 29. And 29 is impossible: Red would have laid
# all 15 pieces, pairing all 30 squares as (square, square pointed at). On a checkerboard
# (15 light, 15 dark) each of the ten 1- and 3-pointers pairs a light with a dark square, so
# the five 2-pointers, which pair equal colours, would have to cover 5 light squares in pairs.
MAX_PLACEMENTS = 28
EXAMPLE = "C3:2E"

# The source's sample play comes without its diagrams. SAMPLE_OPENING (19 placements, legal
# from the empty board) rebuilds its first position, where Red has just laid a 1-pointer
# pointing up at C3; SAMPLE_PLAY is the play it then describes. The game's test file
# documents how it was found and checks every statement of the sample against it.
SAMPLE_OPENING = (
    "D5:1N", "D4:1N", "D3:1N", "D2:1N", "D1:3W", "A1:2S", "A3:2S", "A5:3N", "A2:2E", "C2:3S",
    "C5:3E", "F5:1W", "E5:3N", "E2:3W", "B2:2S", "B4:3N", "B1:1E", "C1:3S", "C4:1N",
)  # fmt: skip
SAMPLE_PLAY = ("C3:2E", "E3:1E", "F3:1N", "F2:2S", "F4:1W", "E4:3N")
# Help page figure -> placements of the sample played before that diagram: the source's
# first, second and third diagrams and its final situation.
SAMPLE_DIAGRAMS = {"sample-1": 0, "sample-2": 1, "sample-3": 2, "sample-4": 6}


class Direction(Enum):
    """Where a piece points; the value is its canonical letter."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def step(self) -> tuple[int, int]:
        """(columns, rows) moved per square; rows grow downwards as printed."""
        return _STEPS[self]

    @property
    def arrow(self) -> str:
        return _ARROWS[self]

    @property
    def word(self) -> str:
        return _WORDS[self]


_STEPS = {Direction.N: (0, -1), Direction.E: (1, 0), Direction.S: (0, 1), Direction.W: (-1, 0)}
_ARROWS = {Direction.N: "^", Direction.E: ">", Direction.S: "v", Direction.W: "<"}
_WORDS = {Direction.N: "north", Direction.E: "east", Direction.S: "south", Direction.W: "west"}
# Players may also think in screen terms: up, right, down, left.
_DIRECTION_LETTERS = {
    "N": Direction.N, "U": Direction.N,
    "E": Direction.E, "R": Direction.E,
    "S": Direction.S, "D": Direction.S,
    "W": Direction.W, "L": Direction.W,
}  # fmt: skip
_SIZE_LETTERS = {"1": 1, "2": 2, "3": 3, "S": 1, "M": 2, "L": 3}


ALL_SQUARES = GRID.cells


@dataclass(frozen=True)
class Piece:
    """A piece lying on the board."""

    owner: int
    size: int
    direction: Direction

    @property
    def code(self) -> str:
        """Three characters for the board: owner initial, size, arrow (e.g. `R2>`)."""
        return f"{SEATS[self.owner][0]}{self.size}{self.direction.arrow}"


@dataclass(frozen=True)
class Move:
    """Lay a piece of `size` on `square`, pointing `direction`."""

    square: Cell
    size: int
    direction: Direction

    @property
    def target(self) -> Cell:
        """The square the piece points at (which may be off the board)."""
        return self.square.step(*self.direction.step, times=self.size)


Stash = tuple[int, int, int]  # pieces left of size 1, 2 and 3


@dataclass(frozen=True)
class SynapseState:
    """The board (row-major, None = empty), both stashes, the forced square and the turn."""

    board: tuple[Piece | None, ...]
    stashes: tuple[Stash, Stash]
    forced: Cell | None  # where the next piece must go; None before the first move
    turn: int  # the seat to place next
    placements: int
    last: Cell | None = None  # the square of the last piece laid, for the picture

    def at(self, square: Cell) -> Piece | None:
        return self.board[GRID.index(square)]

    def left(self, seat: int, size: int) -> int:
        return self.stashes[seat][size - 1]


_MOVE_RE = re.compile(r"(?:([A-Z])(\d{1,2})\s*[:\-]?\s*)?([123SML])\s*([NESWURDL])")


def _size_word(size: int) -> str:
    return f"{size}-pointer"


def _stash_text(stash: Stash) -> str:
    return ", ".join(f"{n} {SIZE_NAMES[s]} ({s})" for s, n in zip(SIZES, stash, strict=True))


class SynapseIce(Game[SynapseState, Move]):
    """Synapse-Ice by Joseph Kisenwether, on a 6x5 board, Red against Green."""

    info = GameInfo(
        name="synapse-ice",
        title="Synapse-Ice",
        seats=SEATS,
        rules_version=1,
        aliases=("synapse",),
        summary="Lay pieces pointing where your opponent must play next; who is stuck loses.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> SynapseState:
        full: Stash = (STASH, STASH, STASH)
        return SynapseState((None,) * len(ALL_SQUARES), (full, full), None, 0, 0)

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: SynapseState) -> frozenset[int]:
        return frozenset() if self.result(state) is not None else frozenset({state.turn})

    def parse(self, state: SynapseState, seat: int, text: str) -> Move:
        move = self._read(state, text)
        self._check(state, seat, move)
        return move

    def play(self, state: SynapseState, seat: int, move: Move) -> SynapseState:
        board = list(state.board)
        board[GRID.index(move.square)] = Piece(seat, move.size, move.direction)
        stash = list(state.stashes[seat])
        stash[move.size - 1] -= 1
        stashes = list(state.stashes)
        stashes[seat] = (stash[0], stash[1], stash[2])
        return SynapseState(
            board=tuple(board),
            stashes=(stashes[0], stashes[1]),
            forced=move.target,
            turn=1 - seat,
            placements=state.placements + 1,
            last=move.square,
        )

    def notation(self, move: Move) -> str:
        return f"{move.square.name}:{move.size}{move.direction.value}"

    def result(self, state: SynapseState) -> Outcome | None:
        if state.forced is None or self._has_move(state, state.turn):
            return None
        loser = SEATS[state.turn]
        reason = (
            f"{loser} has no piece that can point from {state.forced.name} "
            f"at an empty square."
        )
        return Outcome(frozenset({1 - state.turn}), reason)

    def legal_moves(self, state: SynapseState, seat: int) -> Iterator[Move]:
        if seat != state.turn:
            return iter(())
        squares = ALL_SQUARES if state.forced is None else (state.forced,)
        return (move for square in squares for move in self._moves_from(state, seat, square))

    def own_bots(self) -> Mapping[str, Any]:
        # Alpha-beta beats the Monte Carlo bots of the same strength (bots.py has the match).
        return {"good": AlphaBetaBot("good", GOOD_NODES), "best": AlphaBetaBot("best", BEST_NODES)}

    def prompt(self, state: SynapseState, seat: int) -> str | None:
        if state.forced is None:
            return f"Lay your first piece on any square, e.g. {EXAMPLE}."
        # The example is a move the player could send now: 2E where it is legal.
        square = state.forced
        legal = [f"{m.size}{m.direction.value}" for m in self._moves_from(state, seat, square)]
        if not legal:  # stuck: the game is over and nobody is asked to move
            return None
        example = "2E" if "2E" in legal else legal[0]
        return f"Your piece goes on {square.name}: send its size and direction, e.g. {example}."

    # ----- showing --------------------------------------------------------------------
    def render(self, state: SynapseState, viewer: Viewer) -> str:
        lines = self._board_lines(state)
        lines += [
            "Key: R2> = Red 2-pointer pointing east (R Red, G Green; size 1-3;",
            "     ^ > v < = N E S W); [*] = the square the next piece must go on.",
            "",
        ]
        for seat, name in enumerate(SEATS):
            counts = "  ".join(f"{s}-pointers {state.left(seat, s)}" for s in SIZES)
            lines.append(f"{name + ' stash:':<13}{counts}")
        lines.append(
            f"Pieces on the board: {state.placements} (a game has at most {MAX_PLACEMENTS})."
        )
        lines += self._status_lines(state)
        return "\n".join(lines) + "\n"

    def _board_lines(self, state: SynapseState) -> list[str]:
        header = "     " + "    ".join(COLUMNS)
        lines = [header]
        for row in range(ROWS):
            cells = "  ".join(self._cell(state, Cell(col, row)) for col in range(len(COLUMNS)))
            lines.append(f"{row + 1:>2}  {cells}  {row + 1}")
        lines += [header, ""]
        return lines

    @staticmethod
    def _cell(state: SynapseState, square: Cell) -> str:
        piece = state.at(square)
        if piece is not None:
            return piece.code
        return "[*]" if square == state.forced else " . "

    def _status_lines(self, state: SynapseState) -> list[str]:
        name = SEATS[state.turn]
        if state.forced is None:
            return [f"{name} lays the first piece on any square, e.g. {EXAMPLE}."]
        outcome = self.result(state)
        if outcome is not None:
            return [outcome.reason]
        moves = "  ".join(self.notation(m) for m in self.legal_moves(state, state.turn))
        count = len(moves.split())
        text = f"{name} must play on {state.forced.name}; legal moves ({count}): {moves}"
        return textwrap.wrap(text, 76, subsequent_indent="  ", break_on_hyphens=False)

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: SynapseState) -> Any:
        return {
            "board": [
                None if p is None else [p.owner, p.size, p.direction.value] for p in state.board
            ],
            "stashes": [list(s) for s in state.stashes],
            "forced": None if state.forced is None else state.forced.name,
            "turn": state.turn,
            "placements": state.placements,
            "last": None if state.last is None else state.last.name,
        }

    def decode(self, data: Any) -> SynapseState:
        board = tuple(
            None if p is None else Piece(p[0], p[1], Direction(p[2])) for p in data["board"]
        )
        red, green = ((s[0], s[1], s[2]) for s in data["stashes"])
        forced = None if data["forced"] is None else GRID.named(data["forced"])
        # Snapshots stored before `last` was kept have none: the picture then marks nothing.
        last = None if data.get("last") is None else GRID.named(data["last"])
        return SynapseState(board, (red, green), forced, data["turn"], data["placements"], last)

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        """The source's sample play, drawn by render()."""
        return {
            name: self.render(self._replay(SAMPLE_OPENING + SAMPLE_PLAY[:played]), None)
            for name, played in SAMPLE_DIAGRAMS.items()
        }

    def _replay(self, texts: Iterable[str]) -> SynapseState:
        """The position after these moves from the empty board (seats alternate)."""
        state = self.start({}, 0)
        for text in texts:
            state = self.play(state, state.turn, self.parse(state, state.turn, text))
        return state

    # ----- rules ----------------------------------------------------------------------
    def _moves_from(self, state: SynapseState, seat: int, square: Cell) -> Iterator[Move]:
        for size in SIZES:
            if state.left(seat, size) == 0:
                continue
            for direction in Direction:
                move = Move(square, size, direction)
                target = move.target
                if target in GRID and state.at(target) is None:
                    yield move

    def _has_move(self, state: SynapseState, seat: int) -> bool:
        assert state.forced is not None
        return next(self._moves_from(state, seat, state.forced), None) is not None

    def _read(self, state: SynapseState, text: str) -> Move:
        match = _MOVE_RE.fullmatch(text.strip().upper())
        if match is None:
            raise InvalidMove(
                f"Cannot read '{text.strip()}' as a move. Write the size (1-3 or S/M/L) and "
                f"the direction (N/E/S/W or U/R/D/L), e.g. 2E; the first move also names "
                f"its square, e.g. {EXAMPLE}."
            )
        letter, number, size, direction = match.groups()
        move_square = self._read_square(state, letter, number)
        return Move(move_square, _SIZE_LETTERS[size], _DIRECTION_LETTERS[direction])

    @staticmethod
    def _read_square(state: SynapseState, letter: str | None, number: str | None) -> Cell:
        if letter is None or number is None:
            if state.forced is None:
                raise InvalidMove(
                    f"The first piece may go on any square, so name it, e.g. {EXAMPLE}."
                )
            return state.forced
        square = GRID.at(letter, int(number))
        if square is None:
            raise InvalidMove(
                f"There is no square {letter}{int(number)}: the board has columns A-F and "
                f"rows 1-5 (e.g. {EXAMPLE})."
            )
        return square

    def _check(self, state: SynapseState, seat: int, move: Move) -> None:
        if state.forced is not None and move.square != state.forced:
            raise IllegalMove(
                f"Your piece must go on {state.forced.name}, the square the last piece "
                f"points at, not on {move.square.name}."
            )
        if state.left(seat, move.size) == 0:
            raise IllegalMove(
                f"You have no {_size_word(move.size)} ({SIZE_NAMES[move.size]} piece) left; "
                f"your stash holds {_stash_text(state.stashes[seat])}."
            )
        what = f"A {_size_word(move.size)} on {move.square.name} pointing {move.direction.word}"
        target = move.target
        if target not in GRID:
            raise IllegalMove(f"{what} would point off the board.")
        occupant = state.at(target)
        if occupant is not None:
            raise IllegalMove(
                f"{what} would point at {target.name}, which holds {SEATS[occupant.owner]}'s "
                f"{_size_word(occupant.size)}; it must point at an empty square."
            )


GAME = SynapseIce()
