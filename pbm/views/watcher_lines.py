"""A board mail's `Subscribers:` and `Notifiers:` lines, as pbmserv's: who watches the
board, and who asked to be told when it (or any board of its game) ends."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from sqlalchemy.orm import object_session

from pbm.boards import watchers
from pbm.db.models import Board
from pbm.width import WIDTH


def watcher_lines(subscribers: Sequence[str], notifiers: Sequence[str]) -> list[str]:
    """Each line only when it names someone, userids sorted; a long list goes on under
    its first name, so a mail client never has to rewrap it."""
    lines: list[str] = []
    for label, userids in (("Subscribers:", subscribers), ("Notifiers:", notifiers)):
        if userids:
            lines += textwrap.wrap(f"{label} {' '.join(sorted(userids))}", WIDTH,
                                   subsequent_indent=" " * (len(label) + 1),
                                   break_long_words=False, break_on_hyphens=False)
    return lines


def board_watcher_lines(board: Board) -> list[str]:
    """The lines for a mail that was not handed them (`show`, a nag, an error's board):
    asked of the board's session, as position.moves_of reads the log. A mail that goes
    to many (send_board) asks once and passes them on instead."""
    session = object_session(board)
    if session is None or board.id is None:  # a board never stored has no watchers
        return []
    return watcher_lines(watchers.board_spectators(session, board).userids,
                         watchers.notifier_userids(session, board))
