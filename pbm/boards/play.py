"""Boards in the store: start them, load their state, apply moves and resignations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import object_session

from pbm.context import CommandError, Context, shorten
from pbm.db.models import Board, Move, Seat, User
from pbm.games import registry
from pbm.games.base import Game, Outcome, UserError

FIRST_BOARD = 101


class ReplayError(RuntimeError):
    """A stored move log no longer replays under the current rules (a server fault)."""


@dataclass
class Position:
    """A board's game, its state, and the outcome if the game is over."""

    board: Board
    game: Game
    state: Any
    upto: int  # how many moves of the log the state includes
    _recent: dict[tuple[int | None, int], list[Move]] = field(default_factory=dict)

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

    def moves(self, last: int | None = None) -> list[Move]:
        """The log up to this position, or its `last` few moves (read once per position)."""
        key = (last, self.upto)
        if key not in self._recent:
            self._recent[key] = moves_of(self.board, last, self.upto)
        return self._recent[key]

    def to_move(self) -> frozenset[int]:
        if self.outcome() is not None:
            return frozenset()
        if self.upto == self.board.move_count and self.board.status != "active":
            return frozenset()
        return self.game.to_move(self.state)


def seat_of(board: Board, user: User) -> int | None:
    """The seat `user` plays on `board`, or None for a spectator."""
    return next((seat.position for seat in board.seats if seat.user_id == user.id), None)


def start_board(ctx: Context, game: Game, users: list[User], options: dict[str, Any],
                challenger: str) -> Position:
    number = (ctx.session.scalar(select(func.max(Board.id))) or FIRST_BOARD - 1) + 1
    seed = number  # reproducible: any randomness a game has follows from its number
    state = game.start(options, seed)
    board = Board(
        id=number,
        game=game.info.name,
        rules_version=game.info.rules_version,
        options=options,
        seed=seed,
        status="active",
        state=game.encode(state),
        move_count=0,
        challenger=challenger,
        created_at=ctx.now,
        updated_at=ctx.now,
    )
    board.seats = [Seat(position=i, user=user) for i, user in enumerate(users)]
    ctx.session.add(board)
    ctx.session.flush()
    return Position(board, game, state, 0)


def load_board(ctx: Context, number_text: str, game_name: str | None = None) -> Board:
    """The board with this number; a clear error if there is none (or of another game)."""
    text = number_text.lstrip("#")
    if not (text.isascii() and text.isdigit()):
        raise CommandError(f"'{shorten(number_text)}' is not a board number (boards are "
                           "numbered 101, 102, ...).")
    text = text.lstrip("0") or "0"
    # Numbers past what the database can store name no board either.
    board = ctx.session.get(Board, int(text)) if len(text) <= 9 else None
    if board is None or board.status == "declined":
        what = registry.get(game_name).info.title + " board" if game_name else "board"
        raise CommandError(f"There is no {what} {shorten(text)}.")
    if game_name and board.game != game_name:
        actual = registry.get(board.game).info.title
        raise CommandError(
            f"Board {board.id} is a {actual} board, not "
            f"{registry.get(game_name).info.title}: send '{board.game} ...' for it."
        )
    return board


def position(board: Board, upto: int | None = None) -> Position:
    """The board's state after `upto` moves (default all): snapshot, or replay of the log."""
    game = registry.get(board.game)
    if (upto is None or upto == board.move_count) and board.rules_version == game.info.rules_version:
        return Position(board, game, game.decode(board.state), board.move_count)
    upto = board.move_count if upto is None else upto
    state = game.start(board.options, board.seed)
    for move in moves_of(board, last=None, upto=upto):
        try:
            state = game.play(state, move.seat, game.parse(state, move.seat, move.notation))
        except UserError as err:
            # The log was accepted once; if it no longer replays, the fault is ours, not
            # the player's: fail loudly so the mail waits for the operator.
            raise ReplayError(f"board {board.id} move {move.number} ({move.notation!r}) "
                              f"no longer replays: {err}") from err
    if upto == board.move_count and board.winners is not None and game.result(state) is None:
        # Ended by resignation: not in the move log, so apply it as finish() did.
        state = game.conclude(state, Outcome(frozenset(board.winners), board.result_reason or ""))
    return Position(board, game, state, upto)


def moves_of(board: Board, last: int | None, upto: int) -> list[Move]:
    """Moves 1..upto of the log, or only the `last` few of them."""
    query = select(Move).where(Move.board_id == board.id, Move.number <= upto)
    if last is not None:
        query = query.where(Move.number > upto - last)
    session = object_session(board)
    assert session is not None
    return list(session.scalars(query.order_by(Move.number)))


def play_move(ctx: Context, pos: Position, seat: int, text: str, comment: str | None) -> Move:
    """Apply a move for `seat` (already authenticated and on turn) and record it."""
    game, state = pos.game, pos.state
    move = game.parse(state, seat, text)
    notation = game.notation(move)
    shown = {}
    for viewer in [None, *range(game.info.players)]:
        if viewer == seat:
            continue
        seen = game.move_text(state, seat, move, viewer)
        if seen != notation:
            shown[_viewer_key(viewer)] = seen
    pos.state = game.play(state, seat, move)
    record = Move(
        board_id=pos.board.id,
        number=pos.board.move_count + 1,
        seat=seat,
        notation=notation,
        shown=shown,
        comment=comment,
        created_at=ctx.now,
    )
    ctx.session.add(record)
    pos.board.move_count += 1
    pos.upto = pos.board.move_count
    _save(ctx, pos)
    return record


def withdraw(ctx: Context, pos: Position, seat: int) -> bool:
    """Leave a running board: decline it before your first move, else resign.

    Returns True when the board was declined (and so removed)."""
    if not has_moved(pos.board, seat):
        pos.board.status = "declined"
        pos.board.finished_at = ctx.now
        return True
    resign(ctx, pos, seat)
    return False


def resign(ctx: Context, pos: Position, seat: int) -> None:
    """End the game with every other seat winning; secrets are revealed as at any end."""
    others = frozenset(range(pos.game.info.players)) - {seat}
    outcome = Outcome(others, f"{pos.userid(seat)} resigned.")
    pos.state = pos.game.conclude(pos.state, outcome)
    pos.board.state = pos.game.encode(pos.state)
    finish(ctx, pos, outcome)


def finish(ctx: Context, pos: Position, outcome: Outcome) -> None:
    board = pos.board
    board.winners = sorted(outcome.winners)
    board.result_reason = outcome.reason
    board.status = "finished"
    board.finished_at = ctx.now
    for seat in board.seats:
        seat.resign_queued = False
    board.updated_at = ctx.now


def _save(ctx: Context, pos: Position) -> None:
    board = pos.board
    board.state = pos.game.encode(pos.state)
    board.updated_at = ctx.now
    outcome = pos.game.result(pos.state)
    if outcome is not None:
        finish(ctx, pos, outcome)


def has_moved(board: Board, seat: int) -> bool:
    query = select(Move.number).where(Move.board_id == board.id, Move.seat == seat).limit(1)
    session = object_session(board)
    assert session is not None
    return session.scalar(query) is not None


def _viewer_key(viewer: int | None) -> str:
    return "none" if viewer is None else str(viewer)


def move_seen(move: Move, viewer: int | None, revealed: bool) -> str:
    """The move's text for this viewer: its notation unless hidden from them while running."""
    if revealed or viewer == move.seat:
        return move.notation
    return move.shown.get(_viewer_key(viewer), move.notation)


def boards_of(ctx: Context, user: User, game_name: str | None, which: str) -> list[Board]:
    """A user's boards: active, inactive (finished), next (their turn) or all."""
    query = select(Board).join(Seat).where(Seat.user_id == user.id, Board.status != "declined")
    if game_name:
        query = query.where(Board.game == game_name)
    if which in ("active", "next"):
        query = query.where(Board.status == "active")
    elif which == "inactive":
        query = query.where(Board.status == "finished")
    boards = list(ctx.session.scalars(query.order_by(Board.id)).unique())
    if which == "next":
        boards = [b for b in boards if _is_turn_of(b, user)]
    return boards


def _is_turn_of(board: Board, user: User) -> bool:
    pos = position(board)
    seat = pos.seat_of(user)
    return seat is not None and seat in pos.to_move()


def check_move_number(pos: Position, guard: int | None, text: str) -> None:
    """The `#n` staleness guard: refuse unless this would be move n."""
    if guard is None:
        return
    expected = pos.board.move_count + 1
    if guard != expected:
        raise CommandError(
            f"Move {text}#{guard} refused: it would be move #{expected} of board "
            f"{pos.board.id}, not #{guard}. The board has changed since you looked; "
            "nothing was played. Check the board and send the move again."
        )


def player_error(err: UserError) -> CommandError:
    return err if isinstance(err, CommandError) else CommandError(str(err))
