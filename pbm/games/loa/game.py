"""Lines of Action (Claude Soucie; Sid Sackson, A Gamut of Games, 1969): move a piece as far as
its line holds pieces; the first side whose pieces form one connected group wins.

Where the sources differ, pbm follows the rules of the Mind Sports Olympiad 2000, which the
Computer Olympiad adopted (M. Winands' page of the rules, rules 1 to 10): a move that
connects both sides at once is a draw (rule 8; the second edition of A Gamut of Games, 1982,
gives the mover the win, and OpenSpiel does so too), a player with no legal move passes
(rule 9; OpenSpiel makes that player lose), and a position occurring for the third time with
the same player to move is a draw (rule 10; OpenSpiel draws at the second time the board
recurs, whoever is to move). There is no limit on the game's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome, Viewer
from pbm.games.loa.board import FILES, FULL, SIZE, at, bit, connected, groups, name
from pbm.games.loa.moves import (
    PASS,
    Move,
    Pass,
    Step,
    all_steps,
    random_step,
    steps_of,
    why_illegal,
)
from pbm.games.text import number_word, or_list, plural

BLACK, WHITE = 0, 1
SEATS = ("Black", "White")
SYMBOLS = ("x", "o")  # as on pbmserv's board and in OpenSpiel's
EMPTY = "."
LEFT_MARK = "+"  # the square the last move left
EXAMPLE = "D1-D3"
REPEATS_TO_DRAW = 3

_LONGEST = 60  # characters of a move text worth reading at all
_MOVE_RE = re.compile(
    r"\s*([a-z])\s*([0-9]{1,3})\s*(?:(?:-|x|:|to)\s*)?([a-z])\s*([0-9]{1,3})\s*", re.I)
_PASS_RE = re.compile(r"\s*pass\s*", re.I)
_NOTATION_RE = re.compile(r"([A-H][1-8])([-x])([A-H][1-8])")


def position_key(black: int, white: int, mover: int) -> int:
    """One number for a position and the player to move, for counting repetitions."""
    return black | white << 64 | mover << 128


@dataclass(frozen=True, slots=True)
class LoaState:
    """The pieces of each side as sets of squares (board.py), the seat to move, and the
    positions since the last capture, oldest first, this one last (no position before a
    capture can recur: the pieces only get fewer). `last` and `end` follow from the move
    that led here; `end` is kept so that playouts judge each position once."""

    black: int
    white: int
    mover: int = BLACK
    history: tuple[int, ...] = ()
    last: Move | None = field(default=None, compare=False)
    end: Outcome | None = field(default=None, compare=False)

    def pieces(self, seat: int) -> int:
        return self.white if seat else self.black

    def at(self, square: int) -> int | None:
        """The seat whose piece is on `square`, or None."""
        if self.black >> square & 1:
            return BLACK
        if self.white >> square & 1:
            return WHITE
        return None

    @property
    def repeats(self) -> int:
        """How many times this position, with this player to move, has occurred."""
        return self.history.count(self.history[-1]) if self.history else 1


def new_state(black: int, white: int, mover: int = BLACK,
              history: tuple[int, ...] = (), last: Move | None = None) -> LoaState:
    """A state with its history ending in this position and its end judged."""
    key = position_key(black, white, mover)
    if not history or history[-1] != key:
        history = (*history, key)
    return LoaState(black, white, mover, history, last, judge(black, white, mover, history, last))


def from_rows(rows: list[str] | tuple[str, ...], mover: int = BLACK) -> LoaState:
    """A position drawn as eight rows of `x`, `o` and `.`, rank 8 first (as printed), with
    no move before it: for figures and tests."""
    black = white = 0
    if len(rows) != SIZE:
        raise ValueError(f"a Lines of Action board has {SIZE} rows, not {len(rows)}")
    for index, line in enumerate(rows):
        cells = line.split()
        if len(cells) != SIZE or set(cells) - {*SYMBOLS, EMPTY}:
            raise ValueError(f"not a row of eight x, o or .: {line!r}")
        for file, mark in enumerate(cells):
            square = (SIZE - 1 - index) * SIZE + file
            black |= bit(square) if mark == SYMBOLS[BLACK] else 0
            white |= bit(square) if mark == SYMBOLS[WHITE] else 0
    return new_state(black, white, mover)


def judge(black: int, white: int, mover: int, history: tuple[int, ...],
          last: Move | None) -> Outcome | None:
    """How the game stands after `last` (made by the seat not to move now): None if it runs.

    The mover's pieces change on every move, the opponent's only by a capture, so only a
    capture can connect the opponent (by taking its last piece apart from the rest)."""
    if last is None:
        return None
    moved = 1 - mover
    own, other = (white, black) if moved else (black, white)
    if isinstance(last, Step):
        own_joined = connected(own)
        other_joined = last.capture and connected(other)
        where = name(last.target)
        if own_joined and other_joined:
            # Rule 8 of the Mind Sports Olympiad rules; OpenSpiel gives the mover the win.
            return Outcome(frozenset(), (
                f"{SEATS[moved]}'s capture on {where} leaves both sides in one connected"
                f" group each ({SEATS[moved]}'s {plural(own.bit_count(), 'piece')},"
                f" {SEATS[mover]}'s {other.bit_count()}): a draw."))
        if own_joined:
            return Outcome(frozenset({moved}), (
                f"{SEATS[moved]}'s {own.bit_count()} pieces form one connected group."))
        if other_joined:
            left = (f"{SEATS[mover]} a single piece, which is a connected group by itself"
                    if other.bit_count() == 1 else
                    f"{SEATS[mover]}'s {other.bit_count()} pieces in one connected group")
            return Outcome(frozenset({mover}),
                           f"{SEATS[moved]}'s capture on {where} leaves {left}.")
    if history.count(history[-1]) >= REPEATS_TO_DRAW:
        return Outcome(frozenset(), (
            f"The same position with {SEATS[mover]} to move has occurred"
            f" {number_word(REPEATS_TO_DRAW)} times: a draw."))
    return None


START = new_state(
    black=sum(bit(rank * SIZE + file) for rank in (0, SIZE - 1) for file in range(1, SIZE - 1)),
    white=sum(bit(rank * SIZE + file) for rank in range(1, SIZE - 1) for file in (0, SIZE - 1)),
)


class LinesOfAction(Game[LoaState, Move]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="loa",
        title="Lines of Action",
        seats=SEATS,
        rules_version=1,
        aliases=("lines-of-action", "linesofaction"),
        summary="Move as far as the line holds pieces; first to join all theirs in one group wins.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> LoaState:
        return START

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: LoaState) -> frozenset[int]:
        return frozenset() if state.end is not None else frozenset({state.mover})

    def parse(self, state: LoaState, seat: int, text: str) -> Move:
        shown = text.strip()[:20]
        if len(text) > _LONGEST:
            raise InvalidMove(_how_to_write(shown))
        if _PASS_RE.fullmatch(text):
            _check_turn(state, seat)
            every = all_steps(state.pieces(seat), state.pieces(1 - seat))
            if every:
                raise IllegalMove(
                    "You cannot pass while you have a legal move: you have"
                    f" {len(every)}, e.g. {_examples(every)}.")
            return PASS
        found = _MOVE_RE.fullmatch(text)
        if found is None:
            raise InvalidMove(_how_to_write(shown))
        ends = []
        for letter, number in ((found[1], found[2]), (found[3], found[4])):
            square = at(letter, int(number))
            if square is None:
                raise IllegalMove(
                    f"There is no square {letter.upper()}{int(number)}: the board has columns"
                    f" A to H and rows 1 to 8.")
            ends.append(square)
        origin, target = ends
        _check_turn(state, seat)
        own, other = state.pieces(seat), state.pieces(1 - seat)
        reason = why_illegal(own, other, origin, target, (SEATS[seat], SEATS[1 - seat]))
        if reason is not None:
            raise IllegalMove(reason + _what_is_legal(own, other, origin))
        return Step(origin, target, bool(other >> target & 1))

    def play(self, state: LoaState, seat: int, move: Move) -> LoaState:
        black, white = state.black, state.white
        history = state.history
        if isinstance(move, Step):
            moved = bit(move.origin) | bit(move.target)
            if seat == BLACK:
                black ^= moved
                white &= ~bit(move.target)
            else:
                white ^= moved
                black &= ~bit(move.target)
            if move.capture:
                history = ()  # no position before a capture can come back
        return new_state(black, white, 1 - seat, history, move)

    def notation(self, move: Move) -> str:
        return move.notation

    def result(self, state: LoaState) -> Outcome | None:
        return state.end

    def legal_moves(self, state: LoaState, seat: int) -> list[Move]:
        if state.end is not None or seat != state.mover:
            return []
        every: list[Move] = [*all_steps(state.pieces(seat), state.pieces(1 - seat))]
        return every or [PASS]

    def random_move(self, state: LoaState, seat: int, rng: Any) -> Move:
        if state.end is not None or seat != state.mover:
            raise ValueError("no move: it is not this seat's turn")
        return random_step(state.pieces(seat), state.pieces(1 - seat), rng)

    def prompt(self, state: LoaState, seat: int) -> str | None:
        if state.end is not None or seat != state.mover:
            return None
        if all_steps(state.pieces(seat), state.pieces(1 - seat)):
            return None
        return "None of your pieces can move: send pass."

    # ----- showing --------------------------------------------------------------------
    def render(self, state: LoaState, viewer: Viewer) -> str:
        # Lines of Action hides nothing: every viewer sees the same board.
        return render_board(state)

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: LoaState) -> Any:
        return {"black": f"{state.black:016x}", "white": f"{state.white:016x}",
                "mover": state.mover, "history": [f"{key:x}" for key in state.history],
                "last": None if state.last is None else state.last.notation}

    def decode(self, data: Any) -> LoaState:
        black, white = int(data["black"], 16), int(data["white"], 16)
        mover = int(data["mover"])
        if black & white or (black | white) & ~FULL or mover not in (BLACK, WHITE):
            raise ValueError("not a Lines of Action position")
        history = tuple(int(key, 16) for key in data["history"])
        return new_state(black, white, mover, history, _read_notation(data["last"]))

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        return {"start": render_board(START),
                "row five": render_board(row_five_example(), status=False),
                "short game": render_board(short_game())}


def _how_to_write(shown: str) -> str:
    return (f"Cannot read '{shown}' as a Lines of Action move: write the square of your piece"
            f" and the square it goes to, e.g. {EXAMPLE} (or C1xA3 for a capture); write"
            " pass only when none of your pieces can move.")


def _check_turn(state: LoaState, seat: int) -> None:
    if state.end is not None:
        raise IllegalMove(f"The game is over: {state.end.reason}")
    if seat != state.mover:
        raise IllegalMove(f"It is {SEATS[state.mover]}'s turn, not {SEATS[seat]}'s.")


def _examples(steps: list[Step]) -> str:
    """Three of the moves, spread over the list (so over several pieces)."""
    stride = max(1, len(steps) // 3)
    return or_list(step.notation for step in steps[::stride][:3])


def _what_is_legal(own: int, other: int, origin: int) -> str:
    """What the player may do instead: the piece's own moves, or a few of all."""
    if own >> origin & 1:
        mine = steps_of(own, other, origin)
        if mine:
            return f" The piece on {name(origin)} can move {or_list(s.notation for s in mine)}."
        intro = f" The piece on {name(origin)} cannot move at all; you have"
    else:
        intro = " You have"
    every = all_steps(own, other)
    if not every:
        return " None of your pieces can move: send pass."
    return f"{intro} {plural(len(every), 'legal move')}, e.g. {_examples(every)}."


def _read_notation(text: str | None) -> Move | None:
    """A stored move's canonical notation read back without a position."""
    if text is None:
        return None
    if text == PASS.notation:
        return PASS
    found = _NOTATION_RE.fullmatch(text)
    if found is None:
        raise ValueError(f"not a Lines of Action notation: {text!r}")
    origin, target = (at(found[i][0], int(found[i][1])) for i in (1, 3))
    assert origin is not None and target is not None
    return Step(origin, target, found[2] == "x")


# ----- the text board ----------------------------------------------------------------------
def render_board(state: LoaState, status: bool = True) -> str:
    """The board with rank 8 on top, the last move marked, then (with `status`) each side's
    pieces, groups and captures, the last move, and a warning before a third repetition."""
    last = state.last if isinstance(state.last, Step) else None
    letters = ("    " + "".join(f" {letter} " for letter in FILES)).rstrip()
    lines = [letters]
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for file in range(SIZE):
            square = rank * SIZE + file
            seat = state.at(square)
            mark = EMPTY if seat is None else SYMBOLS[seat]
            if last is not None and square == last.target:
                cells.append(f"[{mark}]")
            elif last is not None and square == last.origin:
                cells.append(f" {LEFT_MARK} ")
            else:
                cells.append(f" {mark} ")
        lines.append(f"{rank + 1:>3} " + "".join(cells) + f"  {rank + 1}")
    lines.append(letters)
    if not status:
        return "\n".join(lines) + "\n"
    return "\n".join([*lines, "", *status_lines(state, f"from {LEFT_MARK} to [ ]")]) + "\n"


def status_lines(state: LoaState, marked: str) -> list[str]:
    """What the text board and the picture say under the board: each side's pieces, groups
    and captures, the last move (`marked` says how the board shows it), and a warning
    before a position's third time."""
    lines = []
    start = (START.black.bit_count(), START.white.bit_count())
    for seat in (BLACK, WHITE):
        pieces = state.pieces(seat)
        taken = start[1 - seat] - state.pieces(1 - seat).bit_count()
        lines.append(f"{SEATS[seat]} ({SYMBOLS[seat]}): {plural(pieces.bit_count(), 'piece')}"
                     f" in {plural(sum(1 for _ in groups(pieces)), 'group')};"
                     f" has captured {taken}.")
    if state.last is not None:
        mover = SEATS[1 - state.mover]
        if isinstance(state.last, Pass):
            lines.append(f"Last move: {mover} passed (none of its pieces could move).")
        else:
            lines.append(f"Last move: {mover} {state.last.notation}, {marked}.")
    if state.end is None and state.repeats == REPEATS_TO_DRAW - 1:
        lines.append(f"This position with {SEATS[state.mover]} to move has occurred twice;"
                     " a third time is a draw.")
    return lines


# ----- the help page's examples --------------------------------------------------------------
def row_five_example() -> LoaState:
    """The movement example of the rules on Richard's PBeM server: four pieces on row 5."""
    return from_rows((". . . . . . . .",) * 3 + ("o . . x . x . o",) + (". . . . . . . .",) * 4)


# A short game for the help page (found by a bot that joins its groups, against random
# White moves): Black connects with its seventh move.
SHORT_GAME = ("G8-A8", "A3xC1", "A8-B7", "A4-C4", "B1-D3", "H2-H8", "D1-D4", "H6-F4", "B8-B6",
              "H5-F5", "G1-C5", "H3xF1", "E1-E3")


def short_game() -> LoaState:
    """SHORT_GAME played from the start."""
    state = START
    for text in SHORT_GAME:
        state = GAME.play(state, state.mover, GAME.parse(state, state.mover, text))
    return state


GAME = LinesOfAction()
