"""Command-layer fixtures: a real database migrated by Alembic, and `run(sender, line)`.

Every test gets its own database (a SQLite file under tmp_path, or with --postgresql a
PostgreSQL database: tests/stores.py). `run` handles one command line exactly
as the mail path does (one transaction, a Context for the sender) and returns the replies.

Argon2 is slow on purpose, so the `players` fixture does not sign alice, bob and carol up
again for every test: they are signed up once per session with the real `signup` command in
a template database, and their rows (with those real hashes) are copied into each test's
database. Password checks then hit pbm's memory of verified passwords after the first one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from pbm.commands.dispatch import run_line
from pbm.config import BotSettings, LimitSettings, TimeSettings
from pbm.context import Context, Reply
from pbm.db.migrate import upgrade
from pbm.db.models import Address, Board, Move, User, utcnow
from pbm.db.session import make_engine, session_factory
from pbm.games import registry
from pbm.games.base import Game, GameInfo, InvalidMove, Outcome
from tests import stores

# userid -> (password, the address the account was signed up from)
ACCOUNTS: dict[str, tuple[str, str]] = {
    "alice": ("Secret1", "alice@example.org"),
    "bob": ("Hunter22", "bob@example.org"),
    "carol": ("Carol333", "carol@example.org"),
}
ALICE, BOB, CAROL = (ACCOUNTS[u][1] for u in ("alice", "bob", "carol"))
PW = {userid: password for userid, (password, _) in ACCOUNTS.items()}
STRANGER = "dave@example.net"  # writes to the server but has no account

# A whole Trou game, Red (seat 0) to win: the help page's finished example.
TROU_GAME = ("1B2", "4C2", "2B1", "2B3", "4A2", "3C3", "3A3", "1A1")


class Runner:
    """Runs command lines against one database file, one transaction per line."""

    def __init__(self, path: Path, limits: LimitSettings = LimitSettings(),
                 time: TimeSettings = TimeSettings(), bots: BotSettings = BotSettings(),  # noqa: B008
                 web_base_url: str = ""):
        self.web_base_url = web_base_url
        self.limits = limits
        self.time = time
        self.bots = bots
        self.url = stores.url(path, migrated=True)
        self.engine = make_engine(self.url)
        upgrade(self.engine)
        self.factory = session_factory(self.engine)

    def __call__(self, sender: str, line: str, comment: str | None = None,
                 now: datetime | None = None) -> list[Reply]:
        """The replies to `line` mailed by `sender`, handled as of `now` (default: now)."""
        with self.factory() as session, session.begin():
            ctx = Context(session, sender, comment=comment, limits=self.limits, time=self.time,
                          bots=self.bots, now=now or utcnow(),
                          web_base_url=self.web_base_url)
            run_line(ctx, line)
            return list(ctx.replies)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.factory() as session, session.begin():
            yield session

    def board(self, number: int) -> Board | None:
        with self.session() as session:
            board = session.get(Board, number)
            if board is not None:  # load what tests look at before the session closes
                for seat in board.seats:
                    seat.user  # noqa: B018
            return board

    def moves(self, number: int) -> list[Move]:
        """The move log of a board, in order."""
        with self.session() as session:
            return list(session.scalars(
                select(Move).where(Move.board_id == number).order_by(Move.number)))

    def user(self, userid: str) -> User | None:
        with self.session() as session:
            user = session.scalar(select(User).where(User.userid == userid))
            if user is not None:
                user.addresses  # noqa: B018
            return user

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every game and account table, to prove a command changed nothing.

        A wrong password is counted (users.wrong_passwords, password_paused_until, the rate
        counters): that record of the attempt is meant to change, so it is left out here
        and tested on its own."""
        queries = {
            "users": "SELECT id, userid, password_hash, created_at, active FROM users",
            **{t: f"SELECT * FROM {t}" for t in ("addresses", "boards", "seats", "moves")},
        }
        with self.engine.connect() as conn:
            return {
                t: sorted(map(tuple, conn.execute(text(query))), key=repr)
                for t, query in queries.items()
            }


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Runner]:
    runner = Runner(tmp_path / "pbm.sqlite")
    yield runner
    runner.engine.dispose()


@pytest.fixture(scope="session")
def account_rows(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str, list[str]]]:
    """alice, bob and carol signed up once with the real command: (userid, hash, addresses)."""
    runner = Runner(tmp_path_factory.mktemp("template") / "pbm.sqlite")
    try:
        for userid, (password, address) in ACCOUNTS.items():
            replies = runner(address, f"signup {userid} {password}")
            assert [r.subject for r in replies] == [f"Welcome to pbm, {userid}"], replies
        with runner.session() as session:
            return [
                (u.userid, u.password_hash, [a.address for a in u.addresses])
                for u in session.scalars(select(User).where(User.bot.is_(None))
                                         .order_by(User.id))
            ]
    finally:
        runner.engine.dispose()


@pytest.fixture
def players(run: Runner, account_rows) -> Runner:
    """`run`, with alice, bob and carol already signed up (passwords in PW)."""
    with run.session() as session:
        for userid, password_hash, addresses in account_rows:
            user = User(userid=userid, password_hash=password_hash)
            user.addresses = [Address(position=i, address=a) for i, a in enumerate(addresses)]
            session.add(user)
    return run


# ----- looking at replies -----------------------------------------------------------------
def to(replies: list[Reply], address: str) -> list[Reply]:
    """The replies that go to `address`."""
    return [r for r in replies if address in r.to]


def one(replies: list[Reply], address: str | None = None) -> Reply:
    """The only reply (to `address`, if given)."""
    chosen = replies if address is None else to(replies, address)
    assert len(chosen) == 1, chosen
    return chosen[0]


def flat(text: str) -> str:
    """`text` with every run of whitespace one space: a mail's words, however its lines are
    wrapped to fit 76 columns."""
    return " ".join(text.split())


def error(replies: list[Reply]) -> Reply:
    """The one reply of a refused command."""
    assert len(replies) == 1, replies
    assert replies[0].kind == "answer"
    assert replies[0].subject.lower().endswith("error"), replies[0].subject
    return replies[0]


def assert_never_echoed(replies: list[Reply], *secrets: str) -> None:
    for reply in replies:
        for secret in secrets:
            assert secret not in reply.subject, (secret, reply)
            assert secret not in reply.body, (secret, reply)


def start_trou(run: Runner, first: str = "alice", second: str = "bob",
               moves: tuple[str, ...] = ()) -> int:
    """Challenge (from a stranger) and play `moves` alternately; returns the board number."""
    replies = run(STRANGER, f"trou challenge {first} {second}")
    number = int(one(replies, ACCOUNTS[first][1]).subject.split()[3])
    for i, move in enumerate(moves):
        userid = (first, second)[i % 2]
        replies = run(ACCOUNTS[userid][1], f"trou move {number} {userid} {PW[userid]} {move}")
        assert not any(r.subject.endswith("Error") for r in replies), replies
    return number


def start_tournament_board(run: Runner, first: str = "alice", second: str = "bob",
                           prefix: str = "a") -> tuple[int, list[Reply]]:
    """A tournament's board (named a101, a102, ...) started as the tournament service starts
    one, with its opening mails: (the board's id, those mails)."""
    from pbm.boards import play
    from pbm.views.boardmail import send_board

    with run.session() as session:
        ctx = Context(session, "", admin=True, limits=run.limits, time=run.time,
                      bots=run.bots)
        users = [session.scalars(select(User).where(User.userid == userid)).one()
                 for userid in (first, second)]
        pos = play.start_board(ctx, registry.get("trou"), users, {}, "", prefix=prefix)
        send_board(ctx, pos, new=True)
        return pos.board.id, list(ctx.replies)


# ----- a second game, registered only for the tests that ask for it -----------------------
@dataclass(frozen=True)
class TallyState:
    said: tuple[int, ...] = ()


class Tally(Game[TallyState, int]):
    """Players take turns saying a number; after LENGTH numbers the first seat wins."""

    LENGTH = 24
    info = GameInfo(name="tally", title="Tally", seats=("North", "South"), rules_version=1)

    def start(self, options, seed):
        return TallyState()

    def to_move(self, state):
        return frozenset() if len(state.said) >= self.LENGTH else frozenset({len(state.said) % 2})

    def parse(self, state, seat, text):
        if not text.strip().isdigit():
            raise InvalidMove(f"'{text}' is not a number.")
        return int(text)

    def play(self, state, seat, move):
        return TallyState((*state.said, move))

    def notation(self, move):
        return str(move)

    def result(self, state):
        return Outcome(frozenset({0}), "North said the last word.") \
            if len(state.said) >= self.LENGTH else None

    def render(self, state, viewer):
        return f"Numbers said: {len(state.said)}\n"

    def legal_moves(self, state, seat):
        return iter([1])

    def encode(self, state):
        return list(state.said)

    def decode(self, data):
        return TallyState(tuple(data))

    def help_template(self):
        return "Help For Tally\n"


GAME = Tally()  # registry.BUILTIN points at this module for "tally"


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the Tally test game under the command word 'tally'."""
    monkeypatch.setitem(registry.BUILTIN, "tally", __name__)
    registry.get.cache_clear()
    yield "tally"
    monkeypatch.undo()
    registry.get.cache_clear()


@pytest.fixture
def hilo(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register Hilo (tests/games/example_game.py, which has a secret and draws its board)
    under 'hilo', as a line in registry.BUILTIN would (like `tally`)."""
    monkeypatch.setitem(registry.BUILTIN, "hilo", "tests.games.example_game")
    monkeypatch.setitem(registry.PICTURES, "hilo", "tests.games.example_game")
    registry.get.cache_clear()
    registry.picture.cache_clear()
    yield "hilo"
    monkeypatch.undo()
    registry.get.cache_clear()
    registry.picture.cache_clear()


@pytest.fixture
def other_game(request: pytest.FixtureRequest) -> str:
    """A registered game word other than trou: loophole once it is on offer, else Tally."""
    if "loophole" in registry.names():
        return "loophole"
    return request.getfixturevalue("tally")
