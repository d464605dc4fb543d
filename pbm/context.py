"""What a command runs with (the session, who sent it) and what it produces (replies)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from pbm.config import BotSettings, LimitSettings, TimeSettings
from pbm.db.models import Board, utcnow
from pbm.games.base import UserError
from pbm.width import fit


@dataclass(frozen=True)
class Reply:
    """A message for some addresses. `kind` "answer" goes to the sender (help, errors,
    listings); "board" is a board update for a player or spectator. Its body is fitted to
    76 columns (pbm/width.py): every mail leaves within them, whoever wrote its lines."""

    to: tuple[str, ...]
    subject: str
    body: str
    kind: str = "answer"  # "answer" | "board" | "notice" (to an account's owner)
    # The board it is about (board_thread below): its mails thread together (mail/threads.py).
    thread: str | None = None
    opens: bool = False  # the board's first mail: it carries the recipient's thread anchor
    # The same mail as an HTML document with the board drawn (views/boardhtml.py); it goes
    # as a text/html alternative after `body`, which stays as it is for programs.
    html: str | None = None
    # To an address that never asked for mail (a confirmation request, a warning to an
    # account's owner): one inbound mail causes at most one such (Context.mailed_unasked).
    unasked: bool = False

    def __post_init__(self) -> None:
        # Here, where every mail passes, rather than at each of the places that write one:
        # an error may quote a move or an address of any length, a chat a player's lines.
        object.__setattr__(self, "body", fit(self.body))


class Fact:
    """Something that happened that people must be told of (pbm/boards/facts.py): recorded
    where it happens, turned into mail by the views when the command hands them over."""


@dataclass
class Context:
    """One inbound message's worth of command handling."""

    session: Session
    sender: str  # the address replies go to ("" from the admin CLI)
    comment: str | None = None  # the mail body when it is a comment on a move/challenge
    admin: bool = False  # the operator's CLI: no passwords asked
    now: datetime = field(default_factory=utcnow)
    limits: LimitSettings = LimitSettings()
    time: TimeSettings = TimeSettings()
    bots: BotSettings = BotSettings()
    operators: tuple[str, ...] = ()  # userids that may broadcast (server.operators)
    # The web view's address (web.base_url): board mails end with their board's link there;
    # "" for none.
    web_base_url: str = ""
    replies: list[Reply] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)  # not yet told (views/news.py tells them)
    failures: int = 0  # commands that were refused
    # Password checks already made outside the writer: tokens of wrong userid+password pairs
    # (right ones are in the passwords module's memory), so the writer never hashes for them.
    refuted: frozenset[bytes] = frozenset()
    wrong_passwords: int = 0  # in this mail so far
    password_accepted: bool = False  # the command being run has had a right password
    # Users whose password was wrong in the command being run: recorded after its savepoint
    # is rolled back, so the failure itself is never rolled back with it.
    unrecorded_failures: list[int] = field(default_factory=list)
    challenges: int = 0  # boards started by this mail
    # The operator's MTA vouched for `sender` (mail/authenticity.py): the From: is not forged.
    authenticated: bool = False
    authentication_checked: bool = False  # that MTA is named (server.authserv_id)
    source: str = ""  # the network address the mail came from ("" when not known)
    # Each command in a savepoint of its own, so that a refused one changes nothing while
    # the mail's others stand. False where the caller rolls back the whole mail when a
    # command fails, and runs it again with them (mail/receive.py): then a refused command
    # raises its UserError on, and a mail that succeeds (nearly all) costs no savepoint.
    savepoints: bool = True

    def mailed_unasked(self) -> bool:
        """Whether this mail already causes a mail to an address that never asked for one.
        One at most: a sender is forged at will, and fifty lines must not make fifty."""
        return any(reply.unasked for reply in self.replies)

    def answer(self, subject: str, body: str, html: str | None = None) -> None:
        """A reply to whoever sent the command (`html`: the same as an HTML document)."""
        to = (self.sender,) if self.sender else ()  # the operator's CLI prints them instead
        self.replies.append(Reply(to, subject, body, "answer", html=html))


class CommandError(UserError):
    """A command could not be carried out; `subject` and `board_text` shape the error mail."""

    def __init__(self, message: str, subject: str | None = None, board_text: str = ""):
        super().__init__(message)
        self.subject = subject
        self.board_text = board_text


def board_thread(board: Board) -> str:
    """The key of a board's mail thread, what a Reply's `thread` holds."""
    return f"{board.game}.{board.number}.{board.id}"


def shorten(word: str, limit: int = 40) -> str:
    """A word as it may be quoted back: a long one is cut (a mail may hold a 100 KB word)."""
    return word if len(word) <= limit else f"{word[:limit]}...({len(word)} characters)"
