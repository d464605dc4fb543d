"""The history of one game: its finished boards, newest first, a page at a time."""

from __future__ import annotations

import textwrap

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session, defer

from pbm.db.models import Board, BoardStatus, Seat, User
from pbm.width import WIDTH, fit

PAGE = 50  # lines per history mail


def finished_boards(game: str, user: User | None) -> Select[Board]:
    """The game's finished boards (of `user`, if given); declined boards never finished."""
    query = select(Board).where(Board.game == game, Board.status == BoardStatus.FINISHED)
    if user is not None:
        query = query.where(Board.id.in_(select(Seat.board_id).where(Seat.user_id == user.id)))
    return query


def history_page(session: Session, game: str, user: User | None,
                 start: int = 1) -> tuple[int, list[Board]]:
    """How many finished boards there are, and PAGE of them from the `start`th newest."""
    query = finished_boards(game, user)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    page = session.scalars(
        query.options(defer(Board.state))  # a listing never needs the position
        .order_by(Board.finished_at.desc(), Board.id.desc())
        .offset(start - 1).limit(PAGE))
    return total, list(page)


def history_cells(board: Board) -> list[str]:
    """When it finished, board, winner (or TIE), players, moves, and why it ended.

    Only what the final board mail shows everyone: the reason is the public one."""
    names = [seat.user.userid for seat in board.seats]
    winners = board.winners or []
    result = " and ".join(names[seat] for seat in winners) if winners else "TIE"
    # The time of day as pbmserv's history shows it, and the year too (pbmserv's
    # `Mon dd HH:MM` leaves it out): a history runs over years.
    finished = f"{board.finished_at:%Y-%m-%d %H:%M}" if board.finished_at else "?"
    moves = f"{board.move_count} move{'' if board.move_count == 1 else 's'}"
    return [finished, str(board.label), result, " vs ".join(names), moves,
            board.result_reason or ""]


def history_lines(boards: list[Board]) -> list[str]:
    """One line per board, in columns as wide as this page needs (the reason last, unpadded:
    its length varies most)."""
    rows = [history_cells(board) for board in boards]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    right = {1, 4}  # numbers line up on the right
    lines = ["  ".join([*(cell.rjust(w) if i in right else cell.ljust(w)
                          for i, (cell, w) in enumerate(zip(row, widths))), row[-1]]).rstrip()
             for row in rows]
    # A long reason goes on under its line, indented past the time it finished, so the
    # columns stay readable.
    indent = " " * (widths[0] + 2)
    return [wrapped for line in lines for wrapped in
            textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False)]


def history_text(title: str, command: str, user: User | None, start: int, total: int,
                 boards: list[Board]) -> str:
    """The history mail; `command` is how to ask for it ('trou history alice'), for the note
    on how to see the next page."""
    whose = f" of {user.userid}" if user is not None else ""
    if total == 0:
        return f"No {title} games{whose} have finished yet.\n"
    if not boards:
        return fit(f"There are {total} finished {title} games{whose}; "
                   f"'{command}' lists the newest.") + "\n"
    lines = [f"Finished {title} games{whose}, newest first:", ""]
    lines += history_lines(boards)
    last = start + len(boards) - 1
    if start == 1:
        shown = f"{len(boards)} of {total}"
    else:
        shown = f"game {start}" if start == last else f"games {start} to {last}"
        shown += f" of {total}"
    if last < total:
        lines += ["", fit(f"({shown} shown; write '{command} from {last + 1}' for the next.)")]
    elif start > 1:
        lines += ["", f"({shown} shown.)"]
    return "\n".join(lines) + "\n"
