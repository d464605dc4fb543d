"""A refused command changes nothing, on the mail path as in the command tests: the mail's
other commands, its answers, its status and a wrong password's count stand. The writer runs
a mail without savepoints first and, when a command fails, rolls it back and runs it again
with them; these tests hold it to the result a savepoint per command gives."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from pbm.boards.position import position
from pbm.config import load
from pbm.db.migrate import upgrade
from pbm.db.models import Board, InboundMessage, Move, OutboxMail, RateCounter, User
from pbm.db.session import make_engine, session_factory
from pbm.mail.receive import Received, prepare, receive, receive_batch
from tests import stores

ALICE, BOB = "alice@example.org", "bob@example.org"
PASSWORDS = {"alice": "secret1", "bob": "secret2"}


def mail(sender: str, subject: str, body: str = "\n") -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "pbm@games.test"
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="players.test")
    message.set_content(body)
    return message.as_bytes()


class Store:
    def __init__(self, folder: Path):
        self.config = load(None, env={
            "PBM_DATABASE_URL": stores.url(folder / "pbm.sqlite", migrated=True),
            "PBM_SERVER_ADDRESS": "pbm@games.test", "PBM_SERVER_HOSTNAME": "games.test"})
        engine = make_engine(self.config.database_url)
        upgrade(engine)
        self.factory = session_factory(engine)

    def send(self, sender: str, subject: str, body: str = "\n") -> list[str]:
        """Receive one mail; the bodies of the mails it queued."""
        _result, queued = receive(self.factory, self.config, mail(sender, subject, body),
                                  sender)
        return self.queued(queued)

    def queued(self, ids: list[int]) -> list[str]:
        with self.factory() as session:
            rows = session.scalars(select(OutboxMail.raw).where(OutboxMail.id.in_(ids)))
            return [raw.decode() for raw in rows]

    def counters(self) -> dict[str, int]:
        with self.factory() as session:
            return {row.key: row.count for row in session.scalars(select(RateCounter))}

    def boards(self) -> int:
        with self.factory() as session:
            return session.scalar(select(func.count()).select_from(Board)) or 0

    def moves_made(self) -> int:
        with self.factory() as session:
            return session.scalar(select(Board.move_count).where(Board.number == 101)) or 0

    def legal_move(self, seat: int) -> str:
        """A legal move for `seat` on board 101 as it stands."""
        with self.factory() as session:
            pos = position(session.scalars(select(Board).where(Board.number == 101)).one())
            return pos.game.notation(next(iter(pos.game.legal_moves(pos.state, seat))))

    def statuses(self) -> list[str]:
        with self.factory() as session:
            return list(session.scalars(select(InboundMessage.status)
                                        .order_by(InboundMessage.id)))


def plus_mails(counters: dict[str, int], *senders: str) -> dict[str, int]:
    """`counters` after a mail from each of `senders`: each counts once against its
    sender's hourly rate, however often the writer ran it."""
    after = dict(counters)
    for sender in senders:
        after[f"mails-from:{sender}"] = after.get(f"mails-from:{sender}", 0) + 1
    return after


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path)
    store.send(ALICE, "signup alice secret1")
    store.send(BOB, "signup bob secret2")
    store.send(ALICE, "trou challenge alice bob")
    store.send(BOB, "trou reject bob secret2")  # bob takes no more Trou challenges
    return store


def test_a_refused_command_changes_nothing_it_wrote_before_it_was_refused(store):
    """A challenge counts itself against the day's limits (two upserts) before it asks the
    challenged player's policy, which refuses it: the counts are undone with it."""
    counters, boards = store.counters(), store.boards()
    (answer,) = store.send(ALICE, "trou challenge alice bob")
    assert "bob does not accept Trou challenges" in answer
    assert store.counters() == plus_mails(counters, ALICE) and store.boards() == boards
    assert store.statuses()[-1] == "done"


def test_a_wrong_password_is_counted_though_its_command_changes_nothing(store):
    counters = store.counters()
    (answer,) = store.send(ALICE, f"trou move 101 alice wrong {store.legal_move(0)}")
    assert "Wrong password for 'alice'" in answer and "wrong" not in answer.split("was:")[1]
    assert store.moves_made() == 0
    key = f"wrong-passwords-from:{ALICE}"
    assert store.counters() == {**plus_mails(counters, ALICE), key: 1}
    with store.factory() as session:
        assert session.scalar(select(User.wrong_passwords).where(User.userid == "alice")) == 1
    assert store.statuses()[-1] == "done"


def test_of_two_commands_the_refused_one_alone_is_undone(store):
    counters = store.counters()
    move = store.legal_move(0)
    bodies = store.send(ALICE, "multiple",
                        f"trou move 101 alice secret1 {move}\ntrou challenge alice bob\n")
    assert store.moves_made() == 1 and store.boards() == 1
    # The refused challenge's counts went with it.
    assert store.counters() == plus_mails(counters, ALICE)
    answers = [body for body in bodies if "does not accept Trou challenges" in body]
    assert len(answers) == 1 and len(bodies) == 3  # the board to each player, one answer
    assert store.statuses()[-1] == "done"


def test_in_a_batch_each_mail_stands_alone(store):
    """Group commit: a mail whose command fails, a duplicate and good mails in one
    transaction; each gets what it would alone."""
    move = mail(ALICE, f"trou move 101 alice secret1 {store.legal_move(0)}")
    refused = mail(ALICE, "trou challenge alice bob")
    listing = mail(BOB, "trou games")
    counters, boards = store.counters(), store.boards()
    batch = [(raw, sender, prepare(raw, sender, store.config.limits))
             for raw, sender in [(move, ALICE), (move, ALICE), (refused, ALICE),
                                 (listing, BOB)]]
    results = receive_batch(store.factory, store.config, batch)
    assert [result and result[0] for result in results] == [
        Received.STORED, Received.DUPLICATE, Received.STORED, Received.STORED]
    assert [len(result[1]) for result in results if result] == [2, 0, 1, 1]
    assert store.moves_made() == 1 and store.boards() == boards
    assert store.counters() == plus_mails(counters, ALICE, ALICE, BOB)  # not the duplicate
    (answer,) = store.queued(results[2][1] if results[2] else [])
    assert "bob does not accept Trou challenges" in answer
    assert store.statuses()[-3:] == ["done", "done", "done"]



def test_a_fault_of_ours_applies_nothing_of_the_mail_and_keeps_it_for_the_operator(store):
    """A move log that no longer replays (a server fault, not the player's) in the second
    command: the first command's move is undone too, the mail waits as failed, and its
    sender hears so."""
    store.send(ALICE, f"trou move 101 alice secret1 {store.legal_move(0)}")
    reply = store.legal_move(1)
    with store.factory() as session, session.begin():
        session.execute(update(Move).where(Move.number == 1).values(notation="9Z9"))
    counters = store.counters()
    (answer,) = store.send(BOB, "multiple", f"trou move 101 bob secret2 {reply}\n"
                                            "trou show 101#1\n")
    assert "handling it hit an error on our side" in answer
    assert store.moves_made() == 1 and store.counters() == plus_mails(counters, BOB)
    assert store.statuses()[-1] == "failed"
