"""Board mails stay small (issue 23, "Lean mail"): every board mail of every game, as the
outbox stores it (compose()'s bytes: headers, text part and HTML part), fits its budget.

Random full games of every registered game are played through the real command layer
(conftest's `run`), each move chosen with the rule module's random_move on the board's own
position, with carol subscribed so the spectators' view is mailed too. Every board mail each
move causes is composed as sent and measured; the largest of each game is reported.

The budget is 16 KB for every game (a Loophole board mail was 75 KB, most of it the same
inline style on each of its 343 cells; the pictures now name shared rules by class). The
final mail lists every move and ends with the clock block, as pbmserv's did (issue 25): it
may be larger by what those add to its two parts, and by nothing else, so a game's length
is all it grows with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from html import escape

import pytest

from pbm.boards.position import position
from pbm.context import Reply
from pbm.db.models import Board
from pbm.games import registry
from pbm.mail.compose import compose
from pbm.views.boardmail import RECENT_ROWS, move_list
from pbm.views.clock_block import clock_block
from tests.commands.conftest import ALICE, BOB, CAROL, PW, STRANGER, Runner
from tests.commands.test_secrets import without_fsync
from tests.games.pictures import assert_document_safe
from tests.mail.test_compose import SERVER, parse

LIMIT = 16 * 1024  # bytes of a whole board mail as sent
GAMES = 3  # random full games per game (Loophole's run to a few hundred moves)
USERS = ("alice", "bob")  # seat 0 and seat 1: they are challenged in this order
ADDRESS = {"alice": ALICE, "bob": BOB}


@dataclass
class Largest:
    """The largest board mail seen so far: its size as sent less what a final mail's
    whole move list adds (`allowed`), its HTML part's, and when."""

    size: int = 0
    html: int = 0
    where: str = ""
    mails: int = 0
    raw: bytes = b""  # the largest mail itself
    allowed: int = 0  # bytes of the largest mail not counted against the budget

    def see(self, reply: Reply, step: str, allowed: int = 0) -> None:
        assert reply.html is not None, f"no HTML part at {step}"
        assert_document_safe(reply.html)
        for address in reply.to:
            raw = compose(reply, address, SERVER)
            self.mails += 1
            # Both parts as they are: ASCII in short lines needs no quoted-printable.
            assert raw.count(b"\r\nContent-Transfer-Encoding: 7bit\r\n") == 2, step
            if len(raw) - allowed > self.size:
                part = list(parse(raw).iter_parts())[1]
                self.size, self.html = len(raw) - allowed, len(part.get_payload())
                self.where = f"{step} to {address}"
                self.raw, self.allowed = raw, allowed

    def __str__(self) -> str:
        less = f" less {self.allowed:,} for the whole move list and the clock" \
            if self.allowed else ""
        return f"{self.size:,} bytes{less} (HTML part {self.html:,}) at {self.where}"


def play(run: Runner, name: str, seed: int, largest: Largest) -> None:
    """One random game of `name` on a fresh board to its end, every board mail measured."""
    rng = random.Random(seed)
    replies = run(STRANGER, f"{name} challenge alice bob")
    found = [r for r in replies if ALICE in r.to]
    assert found, replies
    number = int(found[0].subject.split("Board ")[1].split()[0])
    board_mails(replies, largest, f"{name} {number} challenge")
    run(CAROL, f"{name} subscribe {number} carol {PW['carol']}")
    for move_number in range(1, 2000):
        with run.session() as session:
            board = session.get(Board, number)
            assert board is not None
            pos = position(board)
            if pos.outcome() is not None:
                return
            seat = rng.choice(sorted(pos.to_move()))
            text = pos.game.notation(pos.game.random_move(pos.state, seat, rng))
        userid = USERS[seat]
        replies = run(ADDRESS[userid], f"{name} move {number} {userid} {PW[userid]} {text}")
        assert not any(r.subject.endswith("Error") for r in replies), replies
        board_mails(replies, largest, f"{name} {number} move {move_number}",
                    whole_list(run, number))
    raise AssertionError(f"{name} {number} did not end")


def whole_list(run: Runner, number: int) -> int:
    """The bytes a final mail's whole move list and its clock block add to it, as sent
    (CRLF), to its text part and its HTML part, over the last RECENT_ROWS rows other mails
    show; 0 for a board still in play. Every seat sees the same once the game is over."""
    with run.session() as session:
        board = session.get(Board, number)
        assert board is not None
        pos = position(board)
        if pos.outcome() is None:
            return 0
        block = "\n\n" + "\n".join(clock_block(pos, None))
        full, recent = move_list(pos, None, None) + block, move_list(pos, None, RECENT_ROWS)
    sent = [len(text.replace("\n", "\r\n")) for text in (full, recent)]
    escaped = [len(escape(text).replace("\n", "\r\n")) for text in (full, recent)]
    return max(0, sent[0] - sent[1]) + max(0, escaped[0] - escaped[1])


def board_mails(replies: list[Reply], largest: Largest, step: str, allowed: int = 0) -> None:
    mails = [r for r in replies if r.kind == "board"]
    assert mails, f"no board mail at {step}"
    for reply in mails:
        largest.see(reply, step, allowed)


@pytest.mark.parametrize("name", registry.names())
def test_every_board_mail_fits_its_budget(players: Runner, name: str, tmp_path):
    run = without_fsync(players)
    largest = Largest()
    for seed in range(GAMES):
        play(run, name, seed, largest)
    budget = LIMIT
    print(f"\n{name}: {largest.mails} board mails, the largest {largest}")
    (tmp_path / f"{name}-largest.eml").write_bytes(largest.raw)
    assert largest.size < budget, f"{name}: the largest board mail {largest}"

