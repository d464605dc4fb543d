"""Two `pbm serve` nodes on one PostgreSQL database behave as one server.

Real SMTP in at both nodes, one shared Maildir out (so a node that takes over a dead one's
mail can see what it had already written), and the database read afterwards: concurrent
challenges get unique board numbers, two moves racing on one board at two nodes leave one
applied and one refused with the `#n` answer, one mail sent to both nodes is handled once,
both nodes' housekeeping nags each late player once, and a node killed mid-delivery leaves
every reply delivered exactly once.
"""

from __future__ import annotations

import mailbox
import smtplib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from pbm.games.trou.game import GAME as TROU
from tests import pgcluster
from tests.server.harness import PbmServer, mail

pytestmark = pytest.mark.server

BOARDS = 6
PASSWORD = "pw-node-5k"
RACE = ("1A1", "2A1")  # two first moves of Trou, both legal: the race is about the turn


@pytest.fixture
def database() -> Iterator[str]:
    with pgcluster.running("pbm-nodes-") as url:
        yield url


@pytest.fixture
def nodes(tmp_path: Path, database: str) -> Iterator[tuple[PbmServer, PbmServer]]:
    shared = tmp_path / "maildir"
    pair = tuple(PbmServer(tmp_path / name, extra_config="[time]\ntick_seconds = 1\n",
                           database_url=database, shared_maildir=shared) for name in "ab")
    try:
        for node in pair:
            node.start()
        yield pair  # type: ignore[misc]
    finally:
        for node in pair:
            node.stop()


class Inbox:
    """Every mail in the nodes' shared Maildir, parsed."""

    def __init__(self, path: Path):
        self.path = path

    def mails(self) -> list[EmailMessage]:
        if not (self.path / "cur").exists():
            return []
        box = mailbox.Maildir(self.path, factory=None, create=False)
        return [message_from_bytes(box.get_bytes(key), policy=policy.default)  # type: ignore[misc]
                for key in box.keys()]

    def wait(self, enough: Callable[[list[EmailMessage]], bool],
             seconds: float = 30) -> list[EmailMessage]:
        deadline = time.monotonic() + seconds
        while True:
            found = self.mails()
            if enough(found):
                return found
            assert time.monotonic() < deadline, "replies missing: " + ", ".join(
                sorted(str(m["Subject"]) for m in found))
            time.sleep(0.1)


def subjects(found: list[EmailMessage], start: str) -> list[EmailMessage]:
    return [m for m in found if str(m["Subject"]).startswith(start)]


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def post(raw: bytes, sender: str, *nodes: PbmServer) -> None:
    """As an MTA with these nodes as its MX hosts: the first that takes it; a 4xx or a
    node that is down means the next, and another round later."""
    for _ in range(100):
        for node in nodes:
            try:
                node.send_raw(sender, raw)
                return
            except smtplib.SMTPResponseException as err:
                if err.smtp_code >= 500:
                    raise
            except (OSError, smtplib.SMTPException):
                pass  # down, or killed mid-conversation
        time.sleep(0.2)
    raise AssertionError(f"no node took the mail from {sender}")


def at_once(jobs: list[Callable[[], None]]) -> None:
    with ThreadPoolExecutor(len(jobs)) as pool:
        for done in [pool.submit(job) for job in jobs]:
            done.result()


def address(userid: str) -> str:
    return f"{userid}@players.test"


def test_two_nodes_on_one_database_behave_as_one_server(nodes, database, tmp_path):
    a, b = nodes
    inbox = Inbox(tmp_path / "maildir")
    engine = create_engine(database)
    players = [f"p{index}" for index in range(2 * BOARDS)]

    # Sign-ups, every other one at each node.
    at_once([lambda user=user, node=node: post(
        mail(address(user), f"signup {user} {PASSWORD}"), address(user), node)
        for user, node in zip(players, [a, b] * BOARDS)])
    inbox.wait(lambda found: len(subjects(found, "Welcome to pbm")) == len(players))

    # Concurrent challenges at both nodes: every board gets a number of its own.
    pairs = [(players[2 * i], players[2 * i + 1]) for i in range(BOARDS)]
    at_once([lambda pair=pair, node=node: post(
        mail(address(pair[0]), f"trou challenge {pair[0]} {pair[1]}"), address(pair[0]), node)
        for pair, node in zip(pairs, [a, b] * BOARDS)])
    inbox.wait(lambda found: len(subjects(found, "New Trou Board")) == 2 * BOARDS)
    boards = _boards(engine)
    assert len(boards) == BOARDS and sorted(boards.values()) == sorted(pairs)

    # The race: each board's first player sends two different first moves, `#1` each, to
    # the two nodes at once. One is played; the other is refused as on one node.
    jobs = []
    for number, (first, _) in boards.items():
        for text_, node in zip(RACE, (a, b) if number % 2 else (b, a)):
            raw = mail(address(first), f"trou move {number} {first} {PASSWORD} {text_}#1")
            jobs.append(lambda raw=raw, first=first, node=node: post(raw, address(first), node))
    at_once(jobs)
    # Each board: the new board to both players, and the refusal to the first.
    found = inbox.wait(lambda found: len(subjects(found, "Trou Board")) == 3 * BOARDS)
    played = {number: _moves(engine, number) for number in boards}
    for number, (first, second) in boards.items():
        assert len(played[number]) == 1 and played[number][0] in RACE
        lost = next(text_ for text_ in RACE if text_ != played[number][0])
        errors = subjects(found, f"Trou Board {number} Error")
        assert len(errors) == 1 and errors[0]["To"] == address(first)
        # The answer one node gives a move after the other: the turn has passed (the turn
        # is looked at before `#n`), said of the board as the winner left it.
        refusal = body(errors[0])
        assert refusal.startswith(f"It is not your turn on board {number}; it is {second}'s "
                                  "turn.")
        assert f"trou move {number} {first} ******** {lost}#1" in refusal

    # One mail (one Message-ID) reaches both nodes at once: handled once, 250 at both.
    jobs = []
    replies = {}
    for number, (first, second) in boards.items():
        state = TROU.start(TROU.parse_options([]), 0)
        state = TROU.play(state, 0, TROU.parse(state, 0, played[number][0]))
        assert TROU.to_move(state) == {1}
        reply = TROU.notation(next(iter(TROU.legal_moves(state, 1))))
        replies[number] = reply
        raw = mail(address(second), f"trou move {number} {second} {PASSWORD} {reply}#2",
                   message_id=make_msgid(domain="players.test"))
        jobs += [lambda raw=raw, second=second, node=node: post(raw, address(second), node)
                 for node in (a, b)]
    at_once(jobs)
    inbox.wait(lambda found: all(len(_moves(engine, number)) == 2 for number in boards))
    time.sleep(1.5)  # a second handling would show by now
    for number in boards:
        assert _moves(engine, number) == [played[number][0], replies[number]]
    assert len([m for m in inbox.mails() if "Error" in str(m["Subject"])]) == BOARDS

    # Housekeeping on both nodes (a tick every second each): every late player is nagged
    # once, never by both nodes.
    now = datetime.utcnow()  # the database keeps naive UTC
    with engine.begin() as conn:
        conn.execute(text("UPDATE seats SET waiting_since = :since, next_check_at = :due "
                          "WHERE waiting_since IS NOT NULL"),
                     {"since": now - timedelta(days=8), "due": now - timedelta(minutes=1)})
    inbox.wait(lambda found: len(subjects(found, "Nag:")) == BOARDS)
    time.sleep(3)  # three more ticks at each node
    nags = subjects(inbox.mails(), "Nag:")
    assert sorted(str(m["Subject"]) for m in nags) == sorted(
        f"Nag: Trou Board {number} {first}" for number, (first, _) in boards.items())

    # Node a dies (SIGKILL) while it holds claimed replies; b takes them back and delivers.
    assert a.process is not None
    pid = a.process.pid
    burst = [mail(address(user), "help") for user in players for _ in range(3)]
    with ThreadPoolExecutor(8) as pool:
        sending = [pool.submit(post, raw, message_from_bytes(raw)["From"], a, b)
                   for raw in burst]
        caught = _kill_while_claiming(engine, a, pid)
        for future in sending:
            future.result()
    _wait_all_sent(engine)
    delivered = Counter(str(m["Message-ID"]) for m in inbox.mails())
    queued = _outbox_message_ids(engine)
    assert max(delivered.values()) == 1, [k for k, n in delivered.items() if n > 1]
    assert set(delivered) == set(queued) and len(queued) == len(set(queued))
    assert len(subjects(inbox.mails(), "Nag:")) == BOARDS
    if caught:  # b saw a's claims go stale with its process, and took them back
        assert "took back" in b.log.read_text()
    engine.dispose()


def _boards(engine: Engine) -> dict[int, tuple[str, str]]:
    """Trou boards by number: (seat 0's userid, seat 1's)."""
    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT boards.number, seats.position, users.userid FROM boards "
            "JOIN seats ON seats.board_id = boards.id JOIN users ON users.id = seats.user_id "
            "WHERE boards.game = 'trou' ORDER BY boards.number, seats.position")).all()
    table: dict[int, list[str]] = {}
    for number, _, userid in rows:
        table.setdefault(number, []).append(userid)
    return {number: (users[0], users[1]) for number, users in table.items()}


def _moves(engine: Engine, number: int) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(text(
            "SELECT moves.notation FROM moves JOIN boards ON boards.id = moves.board_id "
            "WHERE boards.game = 'trou' AND boards.number = :number ORDER BY moves.number"),
            {"number": number}).scalars())


def _kill_while_claiming(engine: Engine, node: PbmServer, pid: int) -> bool:
    """Kill `node` the moment its courier holds claimed mail (or after 10 s without)."""
    deadline = time.monotonic() + 10
    mine = f"%:{pid}"
    while time.monotonic() < deadline:
        with engine.connect() as conn:
            held = conn.execute(text("SELECT count(*) FROM outbox WHERE status = 'sending' "
                                     "AND claimed_by LIKE :mine"), {"mine": mine}).scalar()
        if held:
            node.kill()
            return True
    node.kill()
    return False


def _wait_all_sent(engine: Engine, seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while True:
        with engine.connect() as conn:
            left = conn.execute(text("SELECT count(*) FROM outbox WHERE status != 'sent'"))\
                .scalar()
        if not left:
            return
        assert time.monotonic() < deadline, f"{left} replies never delivered"
        time.sleep(0.2)


def _outbox_message_ids(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        raws = conn.execute(text("SELECT raw FROM outbox")).scalars()
        return [str(message_from_bytes(bytes(raw), policy=policy.default)["Message-ID"])
                for raw in raws]


def test_two_nodes_never_move_twice_for_a_bot(nodes, database, tmp_path):
    """Both nodes' bot workers find every board where the bot is to move (each looks after
    its own commits and every few seconds): each turn is played once, whichever node's
    move reaches the database first; the other's is refused by its `#n` guard."""
    a, b = nodes
    inbox = Inbox(tmp_path / "maildir")
    engine = create_engine(database)
    players = [f"q{index}" for index in range(BOARDS)]
    at_once([lambda user=user, node=node: post(
        mail(address(user), f"signup {user} {PASSWORD}"), address(user), node)
        for user, node in zip(players, [a, b] * BOARDS)])
    inbox.wait(lambda found: len(subjects(found, "Welcome to pbm")) == len(players))
    # The bot takes the first seat of every board, so both nodes have turns to take at once.
    at_once([lambda user=user, node=node: post(
        mail(address(user), f"trou challenge easybot {user}"), address(user), node)
        for user, node in zip(players, [a, b] * BOARDS)])
    inbox.wait(lambda found: len(subjects(found, "Trou Board")) == BOARDS, seconds=60)
    time.sleep(6)  # past both workers' next look: a second move would be in by now
    boards = _boards(engine)
    assert sorted(second for _, second in boards.values()) == sorted(players)
    for number in boards:
        assert len(_moves(engine, number)) == 1, number
    assert len(subjects(inbox.mails(), "Trou Board")) == BOARDS  # one board mail each
    engine.dispose()
