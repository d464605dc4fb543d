"""Outguess's rule module: checking a whole move line, playing it, showing the board."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, Outcome, Viewer
from pbm.games.outguess.bots import BOTS
from pbm.games.outguess.notation import (
    COLUMNS,
    HOME_ROWS,
    SIZE,
    Action,
    Drop,
    DropItem,
    GuessItem,
    Item,
    Step,
    StepItem,
    Turn,
    cell_name,
    goal_row,
    orthogonal,
    read_line,
    row_of,
    square_at,
    step_targets,
)
from pbm.games.outguess.seats import OutguessView
from pbm.games.text import and_list, or_list, plural

SEATS = ("White", "Black")
LETTERS = ("W", "B")
SQUARES = range(SIZE * SIZE)


@dataclass(frozen=True)
class Piece:
    """A piece on the board: its owner's seat and which side is up."""

    owner: int
    heads: bool

    @property
    def label(self) -> str:
        return f"{LETTERS[self.owner]}{'h' if self.heads else 't'}"

    @property
    def described(self) -> str:
        return f"{SEATS[self.owner]}'s {'heads' if self.heads else 'tails'} piece"

    def flipped(self) -> Piece:
        return Piece(self.owner, not self.heads)


Board = tuple[Piece | None, ...]



@dataclass(frozen=True)
class LastTurn:
    """A finished turn: who moved, the square the guesser named (secret until the game ends)
    and how many times that piece moved, which is the guesser's extra moves next turn."""

    mover: int
    guess: int
    count: int


@dataclass(frozen=True)
class OutguessState:
    """The position between moves.

    `guess` is the square the guesser named for the mover's current turn, None only before
    the first guess. `winner`/`reason` are set when a line ends the game.
    """

    board: Board
    reserves: tuple[int, int] = (0, 0)
    mover: int = 0
    allotment: int = 1
    guess: int | None = None
    last: LastTurn | None = None
    winner: int | None = None
    reason: str = ""
    # Ended by a resignation (not by the rules): the pending guess is revealed.
    concluded: bool = False
    # The squares the last turn's steps and drops left and reached: public, like the moves,
    # kept so that the board picture can highlight them (empty in snapshots made before).
    left: frozenset[int] = frozenset()
    reached: frozenset[int] = frozenset()
    # A guess the winning line carried after its winning move: not used, and said so.
    spare_guess: int | None = None

    @property
    def guesser(self) -> int:
        return 1 - self.mover


def start_board() -> Board:
    cells: list[Piece | None] = [None] * len(SQUARES)
    for seat, row in enumerate(HOME_ROWS):
        for col in range(SIZE):
            cells[square_at(col, row)] = Piece(seat, heads=False)
    return tuple(cells)


class _Sim:
    """A working copy of the position through one turn, tracking the guesser's named piece."""

    def __init__(self, state: OutguessState) -> None:
        self.board: list[Piece | None] = list(state.board)
        self.reserves = list(state.reserves)
        self.seat = state.mover
        self.tracked = state.guess  # where the named piece is now; None once captured
        self.count = 0
        self.done = 0
        self.end: str | None = None  # why the game ended during this turn

    def copy(self) -> _Sim:
        twin = object.__new__(_Sim)
        twin.__dict__.update(self.__dict__)
        twin.board = list(self.board)
        twin.reserves = list(self.reserves)
        return twin

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    def anchors(self, square: int) -> list[int]:
        tails = Piece(self.seat, heads=False)
        return [n for n in sorted(orthogonal(square)) if self.board[n] == tails]

    def actions(self) -> Iterator[Action]:
        """Every legal single step or drop for the mover here."""
        for square in SQUARES:
            piece = self.board[square]
            if piece is not None and piece.owner == self.seat:
                for target in step_targets(square, piece.heads):
                    yield Step(square, target, self.board[target] is not None)
        if self.reserves[self.seat] == 0:
            return
        for square in SQUARES:
            if self.board[square] is None:
                anchors = self.anchors(square)
                for anchor in anchors:
                    for heads in (True, False):
                        yield Drop(square, heads, anchor, len(anchors) > 1)

    def apply(self, action: Action) -> None:
        """Play one legal action and note whether it ended the game."""
        if isinstance(action, Step):
            moving = self.board[action.src]
            assert moving is not None
            captured = self.board[action.dst]
            if captured is not None:
                self.reserves[captured.owner] += 1
                moving = moving.flipped()
                if action.dst == self.tracked:
                    self.tracked = None  # a captured named piece stops counting
            if action.src == self.tracked:
                self.count += 1
                self.tracked = action.dst
            self.board[action.dst] = moving
            self.board[action.src] = None
        else:
            self.reserves[self.seat] -= 1
            self.board[action.dst] = Piece(self.seat, action.heads)
            if action.anchor == self.tracked:
                self.count += 1  # a drop counts as a move of its anchor
        self.done += 1
        self.end = self._ending(action.dst)

    def _ending(self, arrived: int) -> str | None:
        mine, theirs = SEATS[self.seat], SEATS[self.opponent]
        if row_of(arrived) == goal_row(self.seat):
            return (
                f"{mine} reached {theirs}'s home row (row {goal_row(self.seat)})"
                f" on {cell_name(arrived)}."
            )
        # Nothing the mover does later in the turn can give the opponent a piece back, so
        # the opponent's loss at the start of their turn is certain: the turn stops here.
        if not any(p is not None and p.owner == self.opponent for p in self.board):
            return f"{theirs} has no piece left on the board, so no legal move."
        return None


# ----- checking a line ---------------------------------------------------------------------
def _check_step(sim: _Sim, item: StepItem, number: int) -> Step:
    where, to = cell_name(item.src), cell_name(item.dst)
    head = f"Item {number} (`{item.text}`):"
    piece = sim.board[item.src]
    if piece is None:
        raise IllegalMove(f"{head} there is no piece on {where}.")
    if piece.owner != sim.seat:
        raise IllegalMove(
            f"{head} {where} holds {piece.described}; you move only {SEATS[sim.seat]}'s pieces."
        )
    targets = step_targets(item.src, piece.heads)
    if item.dst not in targets:
        if item.dst in orthogonal(item.src):
            way = "up or down" if piece.heads else "sideways"
            side = "heads" if piece.heads else "tails"
            raise IllegalMove(
                f"{head} the piece on {where} is {side} up, and a {side} piece steps {way}"
                f" only (to {or_list(map(cell_name, targets))})."
            )
        raise IllegalMove(
            f"{head} a step goes to a neighbouring square; {to} is not next to {where}."
        )
    capture = sim.board[item.dst] is not None
    if item.marked and not capture:
        raise IllegalMove(f"{head} {to} is empty, so nothing is captured; write `{where}-{to}`.")
    return Step(item.src, item.dst, capture)


def _check_drop(sim: _Sim, item: DropItem, number: int) -> Drop:
    where = cell_name(item.dst)
    head = f"Item {number} (`{item.text}`):"
    if sim.reserves[sim.seat] == 0:
        raise IllegalMove(f"{head} your reserve is empty, so you have no piece to drop.")
    occupant = sim.board[item.dst]
    if occupant is not None:
        raise IllegalMove(
            f"{head} {where} holds {occupant.described}; drops go onto empty squares only."
        )
    anchors = sim.anchors(item.dst)
    if not anchors:
        raise IllegalMove(
            f"{head} none of your tails pieces is next to {where}, so nothing can anchor the drop."
        )
    if item.anchor is not None:
        if item.anchor not in anchors:
            raise IllegalMove(
                f"{head} {cell_name(item.anchor)} holds none of your tails pieces next to"
                f" {where}; the drop can be anchored on {or_list(map(cell_name, anchors))}."
            )
        anchor = item.anchor
    elif len(anchors) > 1:
        example = f"+{where}{'h' if item.heads else 't'}/{cell_name(anchors[0])}"
        raise IllegalMove(
            f"{head} the tails pieces on {and_list(map(cell_name, anchors))} could each"
            f" anchor this drop; name one, e.g. `{example}`."
        )
    else:
        anchor = anchors[0]
    return Drop(item.dst, item.heads, anchor, show_anchor=len(anchors) > 1)


def _check_guess(
    board: Sequence[Piece | None], named: int, item: GuessItem, number: int, after_moves: bool
) -> int:
    """The guess must name a square holding a piece of `named` (the seat about to move)."""
    piece = board[item.square]
    if piece is not None and piece.owner == named:
        return item.square
    where, whose = cell_name(item.square), SEATS[named]
    when = " after your moves" if after_moves else ""
    holds = "is empty" if piece is None else f"holds {piece.described}"
    example = _pieces_of(board, named)[0]
    raise IllegalMove(
        f"Item {number} (`{item.text}`): {where} {holds}{when}; name the square of one of"
        f" {whose}'s pieces, e.g. `guess {cell_name(example)}`."
    )


def _check_first_guess(state: OutguessState, items: list[Item]) -> Turn:
    mover = SEATS[state.mover]
    for number, item in enumerate(items, 1):
        if not isinstance(item, GuessItem):
            raise IllegalMove(
                f"Item {number} (`{item.text}`): {mover} moves first, so your first line is"
                f" only your guess naming one of {mover}'s pieces, e.g."
                f" `guess E{HOME_ROWS[state.mover]}`."
            )
        if number > 1:
            raise IllegalMove(f"Item {number} (`{item.text}`): send one guess only.")
    item = items[0]
    assert isinstance(item, GuessItem)
    return Turn((), _check_guess(state.board, state.mover, item, 1, after_moves=False))


def _check_turn(state: OutguessState, items: list[Item]) -> Turn:
    """Check a whole line on a working copy, so that a bad line changes nothing.

    The allotment is always due in full unless a move ends the game: the mover can never
    run out of moves mid-turn, since every piece can step (capturing if need be) and the
    piece that steps stays on the board.
    """
    sim = _Sim(state)
    allotment = plural(state.allotment, "move")
    actions: list[Action] = []
    guess: int | None = None
    spare: int | None = None
    for number, item in enumerate(items, 1):
        if sim.end is not None:
            if isinstance(item, GuessItem) and number == len(items):
                # A winning line needs no guess; one sent anyway is kept as not needed
                # (the final board says so), never dropped in silence.
                spare = item.square
                continue
            if isinstance(item, GuessItem):
                raise IllegalMove(
                    f"Item {number} (`{item.text}`): the guess comes last, after all your moves."
                )
            # Only moves come before the guess, so the winning move is item number `done`.
            raise IllegalMove(
                f"Item {number} (`{item.text}`): the game is already won by item {sim.done}"
                f" (`{items[sim.done - 1].text}`); leave out everything after it."
            )
        if isinstance(item, GuessItem):
            if number != len(items):
                raise IllegalMove(
                    f"Item {number} (`{item.text}`): the guess comes last, after all your moves."
                )
            if sim.done < state.allotment:
                raise IllegalMove(
                    f"Item {number} (`{item.text}`) comes after only {plural(sim.done, 'move')},"
                    f" but your allotment this turn is {allotment}; add"
                    f" {state.allotment - sim.done} more before the guess."
                )
            guess = _check_guess(sim.board, sim.opponent, item, number, after_moves=True)
            continue
        if sim.done == state.allotment:
            raise IllegalMove(
                f"Item {number} (`{item.text}`) would be move {sim.done + 1}, but your allotment"
                f" this turn is {allotment}; end the line with your guess."
            )
        if isinstance(item, StepItem):
            action: Action = _check_step(sim, item, number)
        else:
            action = _check_drop(sim, item, number)
        sim.apply(action)
        actions.append(action)
    if sim.end is None and guess is None:
        if sim.done < state.allotment:
            raise IllegalMove(
                f"Your line has only {plural(sim.done, 'move')}, but your allotment this turn is"
                f" {allotment}; add {state.allotment - sim.done} more, then your guess."
            )
        target = _pieces_of(sim.board, sim.opponent)[0]
        raise IllegalMove(
            f"Your line ends after item {len(items)} without a guess: add `guess <square>`"
            f" naming one of {SEATS[sim.opponent]}'s pieces, e.g. `guess {cell_name(target)}`."
        )
    return Turn(tuple(actions), guess, spare)


class Outguess(Game[OutguessState, Turn]):
    """The rule module for Outguess."""

    info = GameInfo(
        name="outguess",
        title="Outguess",
        seats=SEATS,
        rules_version=1,
        hidden=True,
        one_line_per_move=True,
        summary="Move two-sided pieces across the board while your opponent guesses which.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> OutguessState:
        return OutguessState(board=start_board())

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: OutguessState) -> frozenset[int]:
        if state.concluded or self.result(state) is not None:
            return frozenset()
        # Before the first turn the guesser acts: naming a piece is a move of its own.
        return frozenset({state.guesser if state.guess is None else state.mover})

    def parse(self, state: OutguessState, seat: int, text: str) -> Turn:
        items = read_line(text)
        if state.guess is None:
            return _check_first_guess(state, items)
        return _check_turn(state, items)

    def play(self, state: OutguessState, seat: int, move: Turn) -> OutguessState:
        if state.guess is None:
            return replace(state, guess=move.guess)
        sim = _Sim(state)
        for action in move.actions:
            sim.apply(action)
        after = replace(
            state,
            board=tuple(sim.board),
            reserves=(sim.reserves[0], sim.reserves[1]),
            last=LastTurn(state.mover, state.guess, sim.count),
            left=frozenset(a.src for a in move.actions if isinstance(a, Step)),
            reached=frozenset(action.dst for action in move.actions),
        )
        if sim.end is not None:
            return replace(after, winner=state.mover, reason=sim.end, spare_guess=move.spare)
        return replace(after, mover=state.guesser, allotment=1 + sim.count, guess=move.guess)

    def notation(self, move: Turn) -> str:
        return str(move)

    def move_text(self, state: OutguessState, seat: int, move: Turn, viewer: Viewer) -> str:
        if move.guess is None or viewer == seat:
            return str(move)
        # The guess stays secret from everyone but its author while the game runs.
        return ", ".join([*(str(action) for action in move.actions), "guess ..."])

    def conclude(self, state: OutguessState, outcome: Outcome) -> OutguessState:
        return replace(state, concluded=True)

    def result(self, state: OutguessState) -> Outcome | None:
        if state.winner is not None:
            return Outcome(frozenset({state.winner}), state.reason)
        if state.guess is not None and not _has_action(state):
            loser = SEATS[state.mover]
            return Outcome(
                frozenset({state.guesser}), f"{loser} has no legal move at the start of the turn."
            )
        return None

    def legal_moves(self, state: OutguessState, seat: int) -> Iterator[Turn]:
        if state.guess is None:
            for square in _pieces_of(state.board, state.mover):
                yield Turn((), square)
            return
        yield from _lines(_Sim(state), state.allotment, ())

    def random_move(self, state: OutguessState, seat: int, rng: random.Random) -> Turn:
        """Random actions one at a time (not uniform over whole lines), then a random guess."""
        if state.guess is None:
            return Turn((), rng.choice(_pieces_of(state.board, state.mover)))
        sim = _Sim(state)
        actions: list[Action] = []
        while sim.done < state.allotment and sim.end is None:
            action = rng.choice(list(sim.actions()))
            sim.apply(action)
            actions.append(action)
        if sim.end is not None:
            return Turn(tuple(actions), None)
        return Turn(tuple(actions), rng.choice(_pieces_of(sim.board, sim.opponent)))

    def prompt(self, state: OutguessState, seat: int) -> str | None:
        if self.result(state) is not None:
            return None
        mover, guesser = SEATS[state.mover], SEATS[state.guesser]
        if state.guess is None:
            return f"Name one of {mover}'s pieces for {mover}'s first turn, e.g. `guess E8`."
        return (
            f"Send {plural(state.allotment, 'move')}, then `guess <square>` naming one of"
            f" {guesser}'s pieces."
        )

    # ----- bots -----------------------------------------------------------------------
    def seat_view(self, state: OutguessState, seat: int) -> OutguessView:
        """The board and all that is public, and of the guesses only the seat's own, until
        the game is over (then all of them)."""
        over = state.winner is not None or state.concluded or self.result(state) is not None
        last = state.last
        return OutguessView(
            seat=seat,
            board=tuple(None if p is None else (p.owner, p.heads) for p in state.board),
            reserves=state.reserves,
            mover=state.mover,
            allotment=state.allotment,
            guessed=state.guess is not None,
            guess=state.guess if over or seat == state.guesser else None,
            last_mover=None if last is None else last.mover,
            last_count=None if last is None else last.count,
            last_guess=None if last is None or not (over or seat != last.mover)
            else last.guess,
            winner=state.winner,
            reason=state.reason,
            concluded=state.concluded,
            over=over,
            left=state.left,
            reached=state.reached,
            spare_guess=state.spare_guess,
        )

    def sample_state(self, view: OutguessView, seat: int, rng: random.Random) -> OutguessState:
        """The opponent's guesses filled in. The pending one, when the seat is the mover, is
        drawn uniformly among the seat's pieces: exactly the guesses the rules allow, and
        none of them shows in anything public before the turn is played. The last turn's,
        when the seat made that turn, only has to agree with its count, and the state keeps
        no more of that turn than the squares it left and reached: it is drawn uniformly
        among the squares that fit these, a few more than the exact ones (near-uniform;
        the true one is among them in all but about one view in 7,000). No rule reads it
        again before the game ends."""
        board = tuple(None if sq is None else Piece(*sq) for sq in view.board)
        guess = view.guess
        if view.guessed and guess is None:
            guess = rng.choice(_pieces_of(board, view.mover))
        last = None
        if view.last_mover is not None:
            assert view.last_count is not None
            named = view.last_guess
            if named is None:
                named = rng.choice(_could_be_named(view, board))
            last = LastTurn(view.last_mover, named, view.last_count)
        return OutguessState(
            board=board,
            reserves=view.reserves,
            mover=view.mover,
            allotment=view.allotment,
            guess=guess,
            last=last,
            winner=view.winner,
            reason=view.reason,
            concluded=view.concluded,
            left=view.left,
            reached=view.reached,
            spare_guess=view.spare_guess,
        )

    def own_bots(self) -> Mapping[str, Any]:
        """A short search over the seat's own moves and a mixed guess (outguess/bots.py)."""
        return BOTS

    # ----- showing --------------------------------------------------------------------
    def render(self, state: OutguessState, viewer: Viewer) -> str:
        lines = board_lines(state.board)
        lines.append("")
        lines.append("Pieces: W = White, B = Black; t = tails up (steps sideways),")
        lines.append("h = heads up (steps up or down); . = empty square.")
        lines.append(f"Reserves: White {state.reserves[0]}, Black {state.reserves[1]}.")
        lines.extend(status_lines(state, viewer))
        return "\n".join(lines) + "\n"

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: OutguessState) -> Any:
        return {
            "board": "".join(p.label if p else ".." for p in state.board),
            "reserves": list(state.reserves),
            "mover": state.mover,
            "allotment": state.allotment,
            "guess": None if state.guess is None else cell_name(state.guess),
            "last": None if state.last is None else [
                state.last.mover, cell_name(state.last.guess), state.last.count
            ],
            "winner": state.winner,
            "reason": state.reason,
            "concluded": state.concluded,
            "left": sorted(map(cell_name, state.left)),
            "reached": sorted(map(cell_name, state.reached)),
            "spare_guess": None if state.spare_guess is None else cell_name(state.spare_guess),
        }

    def decode(self, data: Any) -> OutguessState:
        labels = [data["board"][i:i + 2] for i in range(0, 2 * len(SQUARES), 2)]
        last = data["last"]
        return OutguessState(
            board=tuple(_piece_from_label(label) for label in labels),
            reserves=(data["reserves"][0], data["reserves"][1]),
            mover=data["mover"],
            allotment=data["allotment"],
            guess=None if data["guess"] is None else _square_named(data["guess"]),
            last=None if last is None else LastTurn(last[0], _square_named(last[1]), last[2]),
            winner=data["winner"],
            reason=data["reason"],
            concluded=data.get("concluded", False),
            left=frozenset(map(_square_named, data.get("left", []))),
            reached=frozenset(map(_square_named, data.get("reached", []))),
            spare_guess=None if data.get("spare_guess") is None
            else _square_named(data["spare_guess"]),
        )

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        # The grid alone, without the status lines under it in render(): the page tells the
        # position in its own words.
        before, after = help_worked_turn()
        return {
            "start board": "\n".join(board_lines(start_board())),
            "worked turn before": "\n".join(board_lines(before.board)),
            "worked turn after": "\n".join(board_lines(after.board)),
        }


def _pieces_of(board: Sequence[Piece | None], seat: int) -> list[int]:
    return [s for s in SQUARES if (p := board[s]) is not None and p.owner == seat]


def _could_be_named(view: OutguessView, board: Board) -> list[int]:
    """Squares the last turn's mover may have had named, by what the state keeps of that
    turn: a piece that moved left a square (or anchored a drop, standing beside a square
    the turn reached); one that did not move stands where it stood, or was captured on a
    square the turn reached."""
    mover = view.last_mover
    assert mover is not None
    mine = _pieces_of(board, mover)
    if view.last_count:
        anchors = [s for s in mine if board[s] == Piece(mover, False)
                   and any(n in view.reached for n in orthogonal(s))]
        found = sorted(view.left | set(anchors))
    else:
        found = sorted({s for s in mine if s not in view.left | view.reached} | view.reached)
    return found or mine or sorted(view.left | view.reached) or [0]


def _has_action(state: OutguessState) -> bool:
    return next(_Sim(state).actions(), None) is not None


def _lines(sim: _Sim, allotment: int, done: tuple[Action, ...]) -> Iterator[Turn]:
    """Every legal line from here, depth first (lazily: there can be very many)."""
    if sim.end is not None:
        yield Turn(done, None)
        return
    if sim.done == allotment:
        for square in _pieces_of(sim.board, sim.opponent):
            yield Turn(done, square)
        return
    for action in sim.actions():
        branch = sim.copy()
        branch.apply(action)
        yield from _lines(branch, allotment, (*done, action))


def _piece_from_label(label: str) -> Piece | None:
    if label == "..":
        return None
    return Piece(LETTERS.index(label[0]), label[1] == "h")


def _square_named(name: str) -> int:
    return square_at(COLUMNS.index(name[0]), int(name[1:]))


def board_lines(board: Board) -> list[str]:
    """The board grid with coordinates, row 1 at the top, home rows labelled."""
    header = "     " + "  ".join(f"{c:<2}" for c in COLUMNS)
    lines = [header.rstrip()]
    for row in range(1, SIZE + 1):
        cells = [board[square_at(col, row)] for col in range(SIZE)]
        body = "  ".join(p.label if p else ". " for p in cells)
        line = f"{row:>2}   {body}  {row}"
        owners = [seat for seat, home in enumerate(HOME_ROWS) if home == row]
        if owners:
            line += f"   {SEATS[owners[0]]}'s home row"
        lines.append(line)
    lines.append(header.rstrip())
    return lines


def shown_guess(state: OutguessState, viewer: Viewer) -> int | None:
    """The square of a named piece that `viewer` may see, as status_lines() tells it: the
    guesser's own pending guess, or the guess revealed once the game has ended."""
    if state.winner is not None:
        return None if state.last is None else state.last.guess
    if state.concluded:
        return state.guess
    return state.guess if viewer == state.guesser else None


def status_lines(state: OutguessState, viewer: Viewer) -> list[str]:
    """Allotments, the count revealed after the last turn and, for the guesser, the guess."""
    mover, guesser = SEATS[state.mover], SEATS[state.guesser]
    lines: list[str] = []
    last = state.last
    if last is not None:
        lines.append(
            f"Last turn ({SEATS[last.mover]}'s): the piece {SEATS[1 - last.mover]} named"
            f" moved {plural(last.count, 'time')}."
        )
    if state.winner is not None:
        assert last is not None
        lines.append(
            f"Revealed: for that turn {SEATS[1 - last.mover]} had named the piece on"
            f" {cell_name(last.guess)}."
        )
        if state.spare_guess is not None:
            lines.append(f"{SEATS[last.mover]}'s `guess {cell_name(state.spare_guess)}` after the"
                         " winning move was not needed:")
            lines.append("the game ended with that move, so the guess was not used.")
        return lines
    if state.concluded:
        if state.guess is not None:
            lines.append(f"Revealed: for the turn in progress {guesser} had named the piece on"
                         f" {cell_name(state.guess)}.")
        return lines
    if state.guess is None:
        lines.append(f"{guesser} first names one of {mover}'s pieces, in secret.")
    earned = "the first turn" if last is None else f"1 + {last.count} earned"
    lines.append(f"{mover} to move: {plural(state.allotment, 'move')} this turn ({earned}).")
    lines.append(f"{guesser}'s next turn: 1 move + 1 per move this turn of the piece")
    lines.append(f"{guesser} named (a drop counts as a move of its anchor).")
    if viewer == state.guesser and state.guess is not None:
        lines.append(f"Your secret guess for this turn: the piece on {cell_name(state.guess)}.")
    return lines


def help_worked_turn() -> tuple[OutguessState, OutguessState]:
    """The position of the help page's worked turn, before and after White's line."""
    state = GAME.start({}, 0)
    for seat, text in HELP_GAME:
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    before = state
    after = GAME.play(before, 0, GAME.parse(before, 0, HELP_WORKED_LINE))
    return before, after


# The opening that leads to the help page's worked turn (White to move with 3 moves).
HELP_GAME: tuple[tuple[int, str], ...] = (
    (1, "guess D8"),
    (0, "D8xE8, guess D1"),
    (1, "D1xE1, E1-E2, guess C8"),
)
HELP_WORKED_LINE = "C8-D8, +C8h/D8, E8-E7, guess E2"

GAME = Outguess()
