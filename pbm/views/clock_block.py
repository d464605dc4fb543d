"""pbmserv's clock block: the lines after 60 stars at the end of a board mail when the game
is over, when its time limits are not the server's, or on a total-time board.

Scripts players wrote for pbmserv read these lines, so they keep its layout: the dotted
labels, `Mon dd HH:MM` times and `d days, HH:MM:SS` per player."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbm.boards import clocks
from pbm.boards.position import Position
from pbm.db.models import BoardStatus

STARS = "*" * 60


def _when(moment: datetime) -> str:
    return f"{moment:%b %d %H:%M}"


def _span(span: timedelta) -> str:
    seconds = max(0, int(span.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{days} days, {hours:02}:{minutes:02}:{seconds:02}"


def shows_clock(pos: Position) -> bool:
    """Whether the board's mail ends with the block (only of the board as it is now: a
    look back at an earlier move has no clock)."""
    board = pos.board
    if pos.upto != board.move_count or board.created_at is None:
        return False
    return (board.status != BoardStatus.ACTIVE or pos.outcome() is not None
            or board.nag_days is not None or board.total_days is not None)


def clock_block(pos: Position, now: datetime | None) -> list[str]:
    """The block's lines (none where the board shows no clock), as of `now`."""
    if not shows_clock(pos):
        return []
    board = pos.board
    ended = board.finished_at if board.status != BoardStatus.ACTIVE else None
    now = ended or now or board.updated_at
    lines = [STARS, f"Game started.... {_when(board.created_at)}"]
    if board.move_count:
        lines.append(f"Last move made.. {_when(board.updated_at)}")
    lines.append(f"Game ended...... {_when(ended)}" if ended is not None
                 else f"It is now....... {_when(now)}")
    if board.nag_days is not None:
        lines.append(f"Nag time........ {board.nag_days} days")
    if board.forfeit_days is not None:
        lines.append(f"Forfeit time.... {board.forfeit_days} days")
    header = "Time used by players:"
    if board.total_days is not None:
        header += f" (each may use {board.total_days} days in all)"
    lines.append(header)
    seats = pos.game.info.seats
    labels = [f"{seat.user.userid} ({seats[seat.position]}):" for seat in board.seats]
    width = max(len(label) for label in [*labels, "Total:"]) + 3
    spans = [clocks.used(seat, now) for seat in board.seats]
    lines += [label.ljust(width) + _span(span) for label, span in zip(labels, spans)]
    lines.append("Total:".ljust(width) + _span(sum(spans, timedelta())))
    return lines
