"""A board's position: its game state after some moves of its log, and what each viewer
may see of its moves."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import object_session

from pbm.db.models import Board, BoardStatus, Move, User
from pbm.games import registry
from pbm.games.base import AnyGame, Outcome, UserError


class ReplayError(RuntimeError):
    """A stored move log no longer replays under the current rules (a server fault)."""


@dataclass
class Position:
    """A board's game, its state, and the outcome if the game is over."""

    board: Board
    game: AnyGame
    state: Any
    upto: int  # how many moves of the log the state includes
    _recent: dict[tuple[int | None, int], list[LoggedMove]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.game.info.title

    def userid(self, seat: int) -> str:
        return self.board.seats[seat].user.userid

    def seat_of(self, user: User) -> int | None:
        return seat_of(self.board, user)

    def outcome(self) -> Outcome | None:
        """The outcome: the board's recorded one (resignations) or the rules' verdict."""
        if self.upto == self.board.move_count and self.board.winners is not None:
            return Outcome(frozenset(self.board.winners), self.board.result_reason or "")
        return self.game.result(self.state)

    def moves(self, last: int | None = None) -> list[LoggedMove]:
        """The log up to this position, or its `last` few moves (read once per position):
        from the board's own list of its recent moves where that holds them."""
        key = (last, self.upto)
        if key not in self._recent:
            kept = recent_moves(self.board, last, self.upto)
            self._recent[key] = kept if kept is not None else \
                moves_of(self.board, last, self.upto)
        return self._recent[key]

    def to_move(self) -> frozenset[int]:
        if self.outcome() is not None:
            return frozenset()
        if self.upto == self.board.move_count and self.board.status != BoardStatus.ACTIVE:
            return frozenset()
        return self.game.to_move(self.state)


def seat_of(board: Board, user: User) -> int | None:
    """The seat `user` plays on `board`, or None for a spectator."""
    return next((seat.position for seat in board.seats if seat.user_id == user.id), None)


def position(board: Board, upto: int | None = None) -> Position:
    """The board's state after `upto` moves (default all): snapshot, or replay of the log."""
    game = registry.get(board.game)
    current = game.info.rules_version
    if (upto is None or upto == board.move_count) and board.rules_version == current:
        return Position(board, game, game.decode(board.state), board.move_count)
    upto = board.move_count if upto is None else upto
    # A takeback in the log returns to the state before the last move still standing.
    states = [game.start(board.options, board.seed)]
    for move in moves_of(board, last=None, upto=upto):
        if move.kind == TAKEBACK:
            if len(states) > 1:
                states.pop()
            continue
        state = states[-1]
        try:
            states.append(game.play(state, move.seat, game.parse(state, move.seat,
                                                                 move.notation)))
        except UserError as err:
            # The log was accepted once; if it no longer replays, the fault is ours, not
            # the player's: fail loudly so the mail waits for the operator.
            raise ReplayError(f"{board.game} board {board.label} move {move.number} "
                              f"({move.notation!r}) no longer replays: {err}") from err
    state = states[-1]
    if upto == board.move_count and board.winners is not None and game.result(state) is None:
        # Ended by resignation: not in the move log, so apply it as finish() did.
        state = game.conclude(state, Outcome(frozenset(board.winners), board.result_reason or ""))
    return Position(board, game, state, upto)


MOVE, TAKEBACK = "move", "takeback"


class LoggedMove(NamedTuple):
    """One entry of the move log as read back: what the move list and a replay need."""

    number: int
    seat: int
    notation: str
    shown: dict[str, str]
    kind: str = MOVE  # or TAKEBACK: the last move still standing was undone
    auto: bool = False  # played from the seat's queue


def moves_of(board: Board, last: int | None, upto: int) -> list[LoggedMove]:
    """Moves 1..upto of the log, or only the `last` few of them.

    Read as plain rows, not ORM objects: every board mail reads some, and making objects of
    them cost more than the rest of the move."""
    query = (select(Move.number, Move.seat, Move.notation, Move.shown, Move.kind, Move.auto)
             .where(Move.board_id == board.id, Move.number <= upto))
    if last is not None:
        query = query.where(Move.number > upto - last)
    session = object_session(board)
    assert session is not None
    # Moves are written on the connection as they are played (play_move), so a read there
    # sees them and the ORM has nothing to flush first.
    rows = session.connection().execute(query.order_by(Move.number))
    return [LoggedMove(*row) for row in rows]


# How many of its last moves a board keeps with it (Board.recent_moves): a board mail lists
# 11 rows (views/boardmail.py), 22 moves in a game of two. Where a list needs more, or an
# older position is shown, the log is read.
KEPT_MOVES = 24


def recent_moves(board: Board, last: int | None, upto: int) -> list[LoggedMove] | None:
    """The `last` moves up to `upto` (None: all) from the board's own list, or None where it
    does not hold them all."""
    kept = board.recent_moves
    if kept is None or upto != board.move_count:
        return None
    if last is None or last > len(kept):
        if len(kept) < board.move_count:
            return None
        last = len(kept)
    return [LoggedMove(*move) for move in kept[len(kept) - last:]]


def keep_move(board: Board, move: LoggedMove) -> None:
    """Add `move`, just written to the log and counted in board.move_count, to the board's
    own list of its recent moves. A board from before they were kept reads the log once."""
    if board.recent_moves is None:
        board.recent_moves = [list(entry) for entry in
                              moves_of(board, KEPT_MOVES, board.move_count)]
    else:
        board.recent_moves = [*board.recent_moves, list(move)][-KEPT_MOVES:]


def viewer_key(viewer: int | None) -> str:
    return "none" if viewer is None else str(viewer)


def move_seen(move: LoggedMove, viewer: int | None, revealed: bool) -> str:
    """The move's text for this viewer: its notation unless hidden from them while running."""
    if move.kind == TAKEBACK:  # "undo 8": only a number, the same for everyone
        return f"(move {move.notation.split()[-1]} taken back)"
    if revealed or viewer == move.seat:
        text = move.notation
    else:
        text = move.shown.get(viewer_key(viewer), move.notation)
    return text + " (Auto)" if move.auto else text
