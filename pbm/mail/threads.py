"""Threading headers: every mail about one board hangs from one root Message-ID.

A board's root is `<board.KEY@HOSTNAME>` (KEY is context.board_thread's
GAME.NUMBER.ID), derived, never stored. No mail carries
it as its own Message-ID (a Message-ID names one message, and every recipient gets a copy
of their own); every board mail names it first in References, so mutt and Thunderbird, which
thread by References before Subject, put all of them under it, missing though it is.

The board's first mail to each recipient (the "New ... Board" mail) carries that
recipient's anchor `<board.KEY.DIGEST@HOSTNAME>` as its Message-ID (the digest
names the recipient, so each copy has an id of its own), and every later board mail to them
names it second: their own opening mail is then a message their mailbox holds, and a client
that threads only by messages it has still finds the parent. Subjects keep pbmserv's
wording (the player to move changes from mail to mail); clients do not thread by them once
References say where a mail belongs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email.utils import make_msgid

# Threading headers are copied from a stranger's mail: only well-formed msg-ids of a sane
# size pass (printable ASCII without spaces or angle brackets inside), and only the last
# few References, so a hostile mail cannot make our header huge or malformed. (No "@" left
# of the "@": the pattern then cannot backtrack quadratically over "<@@@@...".)
MSG_ID = re.compile(r"<[!-;=?A-~]+@[!-;=?-~]+>")
MAX_MSG_ID = 250
MAX_REFERENCES = 10


@dataclass(frozen=True)
class Threading:
    """The threading headers of one outgoing mail."""

    message_id: str
    in_reply_to: str | None
    references: tuple[str, ...]


def root_id(thread: str, hostname: str) -> str:
    return f"<board.{thread}@{hostname}>"


# A root or an anchor: <board.GAME.NUMBER.ID@HOSTNAME>, <board.GAME.NUMBER.ID.DIGEST@HOSTNAME>.
# NUMBER is the board's number without a tournament's prefix (a101's key is trou.101.ID):
# the keys of boards from before prefixes stay as they were, and the ID names the board.
BOARD_ID = re.compile(
    r"<board\.([a-z0-9-]{1,32})\.(\d{1,9})\.(\d{1,12})(?:\.[0-9a-f]{16})?@([^>]+)>")


@dataclass(frozen=True)
class ThreadBoard:
    """The board a thread is about, as its key names it."""

    game: str
    number: int  # without its prefix: the id decides
    board_id: int


def board_named(ids: str, hostname: str) -> ThreadBoard | None:
    """The board whose thread one of `ids` (References, In-Reply-To: msg-ids of a mail that
    answers one of ours) belongs to; None when none is ours."""
    for found in BOARD_ID.finditer(ids):
        if found.group(4).lower() == hostname.lower():
            return ThreadBoard(found.group(1), int(found.group(2)), int(found.group(3)))
    return None


def anchor_id(thread: str, recipient: str, hostname: str) -> str:
    """The Message-ID of the board's first mail to `recipient`."""
    digest = hashlib.sha256(recipient.lower().encode("utf-8")).hexdigest()[:16]
    return f"<board.{thread}.{digest}@{hostname}>"


def threading(hostname: str, recipient: str, *, thread: str | None = None,
              opens: bool = False, parent: str | None = None, references: str = "",
              taken: set[str] | None = None) -> Threading:
    """The headers of a mail to `recipient`: about board `thread` (its first mail when
    `opens`), answering the mail with Message-ID `parent` and References `references`.

    `taken` holds the Message-IDs already given in this batch: two users sharing an address
    on one board get one opening mail each, and only the first may carry the anchor."""
    parent = valid_msg_id((parent or "").strip())
    chain = [ref for ref in MSG_ID.findall(references) if valid_msg_id(ref)]
    if parent:
        chain.append(parent)
    message_id = make_msgid("pbm", domain=hostname)
    head: list[str] = []
    in_reply_to = parent
    if thread is not None:
        root, anchor = root_id(thread, hostname), anchor_id(thread, recipient, hostname)
        if valid_msg_id(root) and valid_msg_id(anchor):
            if opens and anchor not in (taken or ()):
                message_id, head = anchor, [root]
            else:
                head = [root, anchor]
                in_reply_to = in_reply_to or anchor  # a nag or forfeit answers no mail
    if taken is not None:
        taken.add(message_id)
    # Each id once, at its last place; the root and the anchor stay first whatever is cut.
    newest_first = list(dict.fromkeys(ref for ref in reversed(chain) if ref not in head))
    kept = newest_first[:MAX_REFERENCES - len(head)]
    return Threading(message_id, in_reply_to, (*head, *reversed(kept)))


def valid_msg_id(text: str) -> str | None:
    """`text` if it is one well-formed msg-id we may copy into a header, else None."""
    if len(text) <= MAX_MSG_ID and MSG_ID.fullmatch(text):
        return text
    return None
