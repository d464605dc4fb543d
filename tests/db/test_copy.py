"""`pbm db copy --to URL`: a real store, filled through the real mail path, copied SQLite ->
PostgreSQL -> SQLite row for row, then played on; and every refusal."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

from pbm.bench.mail import player_mail
from pbm.cli import main
from pbm.config import Config, DatabaseSettings, LimitSettings
from pbm.db.copy import CopyRefused, copy_database, tables
from pbm.db.migrate import upgrade
from pbm.db.models import Address, Board, InboundMessage, Move, OutboxMail
from pbm.db.session import make_engine, session_factory
from pbm.games.registry import BUILTIN
from pbm.mail.receive import receive
from tests import pgcluster

PLAYERS = {"alice": ("Secret11", "alice@example.org"), "bob": ("Hunter22", "bob@example.org")}
CAROL = ("Carol333", "carol@example.org")
UNLIMITED = LimitSettings(mails_per_sender_per_hour=0, challenges_per_sender_per_day=0,
                          challenges_per_player_per_day=0)


# ----- a PostgreSQL server, and a fresh database on it per test ------------------------------
@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    if pgcluster.programs() is None:
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql)")
    with pgcluster.running("pbm-copy-pg-") as url:
        yield url


def fresh_database(server: str) -> str:
    """A new empty database on the server; its URL."""
    name = f"copy_{uuid.uuid4().hex[:12]}"
    admin = make_engine(server).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def pg_url(pg_server: str) -> str:
    return fresh_database(pg_server)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


# ----- a store filled through the real mail path -----------------------------------------------
class Store:
    """Mails handled by `receive` on one database, as `pbm serve` handles them."""

    def __init__(self, url: str):
        self.url = url
        self.config = Config(database=DatabaseSettings(url=url), limits=UNLIMITED)
        self.engine = make_engine(url)
        self.factory: sessionmaker[Session] = session_factory(self.engine)

    def mail(self, sender: str, subject: str) -> list[int]:
        """Handle one mail; the outbox ids it queued."""
        _received, queued = receive(self.factory, self.config, player_mail(sender, subject),
                                    sender)
        return queued

    def newest_board(self) -> Board:
        with self.factory() as session:
            board = session.scalars(select(Board).order_by(Board.id.desc())).first()
            assert board is not None
            return board

    def play(self, board_id: int, moves: int, rng: random.Random) -> None:
        """`moves` random legal moves, each mailed by the player to move."""
        from pbm.boards.position import position

        for _ in range(moves):
            with self.factory() as session:
                board = session.get(Board, board_id)
                assert board is not None
                pos = position(board)
                seats = sorted(pos.to_move())
                if not seats:
                    return
                game, state, number = pos.game, pos.state, board.number
                userid = pos.userid(seats[0])
            move = game.notation(game.random_move(state, seats[0], rng))
            before = self.move_count(board_id)
            password, address = PLAYERS[userid]
            self.mail(address, f"{game.info.name} move {number} {userid} {password} {move}")
            assert self.move_count(board_id) == before + 1, (game.info.name, move)

    def to_move(self, board_id: int) -> str:
        """The userid of the (first) player to move."""
        from pbm.boards.position import position

        with self.factory() as session:
            board = session.get(Board, board_id)
            assert board is not None
            pos = position(board)
            return pos.userid(min(pos.to_move()))

    def move_count(self, board_id: int) -> int:
        with self.factory() as session:
            return int(session.scalar(select(Board.move_count).where(Board.id == board_id)) or 0)

    def rows(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, in key order."""
        with self.engine.connect() as conn:
            rows = {t.name: [tuple(r) for r in conn.execute(
                select(t).order_by(*t.primary_key.columns))] for t in tables()}
        self.engine.dispose()  # a copy refuses a source that is still open
        return rows


def fill(store: Store) -> None:
    """Accounts, every game in play and finished, a takeback, ratings, a vacation, a spectator,
    an end notice, a policy, an unconfirmed address, a refused (failed) mail."""
    rng = random.Random(16)
    for userid, (password, address) in PLAYERS.items():
        store.mail(address, f"signup {userid} {password}")
    store.mail(CAROL[1], f"signup carol {CAROL[0]} {CAROL[1]} carol@elsewhere.example")
    for name in BUILTIN:
        for finished in (False, True):
            store.mail(PLAYERS["alice"][1], f"{name} challenge alice bob")
            board = store.newest_board()
            store.play(board.id, 3 if finished else 6, rng)
            if finished:
                resigner = store.to_move(board.id)
                store.mail(PLAYERS[resigner][1], f"{name} resign {board.number} {resigner} "
                           f"{PLAYERS[resigner][0]}")
    trou = store.newest_board()  # a finished Trou board: take a move back on an active one
    store.mail(PLAYERS["alice"][1], "trou challenge alice bob")
    active = store.newest_board()
    store.play(active.id, 2, rng)
    store.mail(PLAYERS["alice"][1], f"trou move {active.number} alice {PLAYERS['alice'][0]} undo")
    store.mail(PLAYERS["bob"][1], f"trou move {active.number} bob {PLAYERS['bob'][0]} accept")
    store.mail(CAROL[1], f"trou subscribe {active.number} carol {CAROL[0]}")
    store.mail(CAROL[1], f"trou notify carol {CAROL[0]}")
    store.mail(CAROL[1], f"trou seek carol {CAROL[0]} 2")
    store.mail(CAROL[1], f"vacation carol {CAROL[0]} 5")
    store.mail(CAROL[1], f"trou move {trou.number} carol wrong-password A1")
    with store.factory() as session:
        kinds = set(session.scalars(select(Move.kind)))
        finished = session.scalar(select(func.count()).select_from(Board)
                                  .where(Board.status == "finished"))
        unconfirmed = session.scalar(select(func.count()).select_from(Address)
                                     .where(Address.confirmed.is_(False)))
    assert kinds == {"move", "takeback"} and finished == len(BUILTIN) and unconfirmed == 1
    rows = store.rows()
    for table in ("ratings", "vacations", "subscriptions", "end_notices", "challenge_policies",
                  "inbound_messages", "outbox", "rate_counters"):
        assert rows[table], f"the store has no {table} to copy"


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The filled store, made once: each test copies the file (Argon2 is slow on purpose)."""
    path = tmp_path_factory.mktemp("filled") / "pbm.sqlite"
    store = Store(f"sqlite:///{path}")
    upgrade(store.engine)
    fill(store)
    store.engine.dispose()
    return path


@pytest.fixture
def source(filled: Path, tmp_path: Path) -> Iterator[Store]:
    shutil.copy(filled, tmp_path / "pbm.sqlite")
    store = Store(f"sqlite:///{tmp_path / 'pbm.sqlite'}")
    yield store
    store.engine.dispose()


def copy_cli(source_url: str, to: str) -> Any:
    return CliRunner().invoke(main, ["db", "copy", "--to", to, "--batch", "7"],
                              env={"PBM_DATABASE_URL": source_url})


def show(url: str, game: str, number: int) -> str:
    result = CliRunner().invoke(main, ["show", game, str(number)],
                                env={"PBM_DATABASE_URL": url})
    assert result.exit_code == 0, result.output
    return result.output


# ----- the copy ----------------------------------------------------------------------------------
def test_sqlite_to_postgresql_keeps_every_row_and_play_goes_on(source: Store, pg_url: str):
    before = source.rows()
    result = copy_cli(source.url, pg_url)
    assert result.exit_code == 0, result.output
    assert "counts checked" in result.output
    target = Store(pg_url)
    assert target.rows() == before
    boards = [(b[1], b[2]) for b in before["boards"]]  # (game, number)
    for game, number in boards:
        assert show(target.url, game, number) == show(source.url, game, number)

    # Play goes on on the copy: a move, a challenge with a fresh number and fresh ids.
    active = next(b for b in before["boards"] if b[1] == "loophole" and b[6] == "active")
    moved = target.move_count(active[0])
    target.play(active[0], 1, random.Random(3))
    assert target.move_count(active[0]) == moved + 1
    queued = target.mail(PLAYERS["bob"][1], "trou challenge bob alice")
    board = target.newest_board()
    assert board.id == max(b[0] for b in before["boards"]) + 1
    assert board.number == max(b[2] for b in before["boards"] if b[1] == "trou") + 1
    assert min(queued) > max(row[0] for row in before["outbox"])
    with target.factory() as session:
        assert session.scalar(select(func.max(InboundMessage.id))) == \
            max(row[0] for row in before["inbound_messages"]) + 2
        assert session.scalar(select(func.count()).select_from(OutboxMail)) == \
            len(before["outbox"]) + 2 + len(queued)
    target.engine.dispose()


def test_postgresql_back_to_sqlite_and_sqlite_to_sqlite(source: Store, pg_url: str,
                                                        tmp_path: Path):
    before = source.rows()
    assert copy_cli(source.url, pg_url).exit_code == 0
    back = f"sqlite:///{tmp_path / 'back' / 'pbm.sqlite'}"
    result = copy_cli(pg_url, back)
    assert result.exit_code == 0, result.output
    again = f"sqlite:///{tmp_path / 'again.sqlite'}"
    assert copy_cli(back, again).exit_code == 0
    for url in (back, again):
        copied = Store(url)
        assert copied.rows() == before
        copied.mail(PLAYERS["bob"][1], "trou challenge bob alice")  # rowids go on past the ids
        assert copied.newest_board().id == max(b[0] for b in before["boards"]) + 1
        copied.engine.dispose()


def test_the_copy_reads_in_batches_and_reports_each_table(source: Store, tmp_path: Path):
    target = make_engine(f"sqlite:///{tmp_path / 'copy.sqlite'}")
    seen: list[str] = []
    counts = copy_database(make_engine(source.url), target, batch=3, every=5,
                           progress=seen.append)
    done = [line for line in seen if line.endswith(" rows")]
    assert done == [f"{name}: {rows:,} rows" for name, rows in counts.items()]
    assert seen[-2:] == ["counting every table again on both sides", "committing the target"]
    # A table of more than `every` rows says how far it is on the way, each 5 rows here
    # (read 3 at a time: the line comes with the batch that passes 5, 10, ...).
    big = max(counts, key=lambda name: counts[name])
    assert counts[big] >= 5, counts
    along = [line for line in seen if line.startswith(f"{big}: ") and "so far" in line]
    assert len(along) == counts[big] // 5, seen
    assert seen.index(along[-1]) < seen.index(f"{big}: {counts[big]:,} rows")
    assert counts == {name: len(rows) for name, rows in source.rows().items()}
    # Foreign-key order: every table comes after the tables it refers to.
    order = [t.name for t in tables()]
    for table in tables():
        for key in table.foreign_keys:
            assert order.index(key.column.table.name) < order.index(table.name)


# ----- refusals ----------------------------------------------------------------------------------
def test_a_target_holding_data_is_refused_and_left_alone(source: Store, tmp_path: Path):
    taken = f"sqlite:///{tmp_path / 'taken.sqlite'}"
    assert copy_cli(source.url, taken).exit_code == 0
    result = copy_cli(source.url, taken)
    assert result.exit_code == 1
    assert "already holds data" in result.output and "give an empty database" in result.output
    assert Store(taken).rows() == source.rows()


def test_a_target_with_foreign_tables_is_refused(source: Store, tmp_path: Path):
    other = make_engine(f"sqlite:///{tmp_path / 'other.sqlite'}")
    with other.begin() as conn:
        conn.execute(text("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"))
    other.dispose()
    result = copy_cli(source.url, f"sqlite:///{tmp_path / 'other.sqlite'}")
    assert result.exit_code == 1 and "no pbm schema revision" in result.output


def test_a_source_not_at_the_current_revision_is_refused(tmp_path: Path):
    old = make_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    upgrade(old, "0005")
    old.dispose()
    result = copy_cli(f"sqlite:///{tmp_path / 'old.sqlite'}",
                      f"sqlite:///{tmp_path / 'new.sqlite'}")
    assert result.exit_code == 1
    assert "the source is at 0005" in result.output and "pbm db upgrade" in result.output
    assert not (tmp_path / "new.sqlite").exists()


def test_a_missing_source_is_refused(tmp_path: Path):
    result = copy_cli(f"sqlite:///{tmp_path / 'none.sqlite'}",
                      f"sqlite:///{tmp_path / 'new.sqlite'}")
    assert result.exit_code == 2 and "no database at" in result.output


def test_an_unreachable_target_is_named_without_its_password(source: Store):
    port = pgcluster._free_port()  # nobody listens there
    result = copy_cli(source.url, f"postgresql+psycopg://pbm:Sup3rSecret@127.0.0.1:{port}/pbm")
    assert result.exit_code == 1
    assert f"cannot reach the target postgresql+psycopg://pbm:********@127.0.0.1:{port}/pbm" \
        in result.output
    assert "Sup3rSecret" not in result.output


def test_a_source_another_process_has_open_is_refused(source: Store, tmp_path: Path):
    """A running server holds the database open: what it stored after the copy would be lost."""
    path = source.url.removeprefix("sqlite:///")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time\n"
         f"c = sqlite3.connect({path!r}); c.execute('PRAGMA journal_mode=WAL')\n"
         "c.execute('SELECT count(*) FROM users').fetchall(); print('open', flush=True)\n"
         "sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        result = copy_cli(source.url, f"sqlite:///{tmp_path / 'copy.sqlite'}")
        assert result.exit_code == 1
        assert "another process has" in result.output and "stop the server" in result.output
    finally:
        holder.communicate("")
    assert copy_cli(source.url, f"sqlite:///{tmp_path / 'copy.sqlite'}").exit_code == 0


def test_a_postgresql_source_in_use_is_refused(source: Store, pg_url: str, tmp_path: Path):
    assert copy_cli(source.url, pg_url).exit_code == 0
    node = make_engine(pg_url)
    with node.connect():  # a node still connected
        with pytest.raises(CopyRefused, match="1 other session"):
            copy_database(make_engine(pg_url), make_engine(f"sqlite:///{tmp_path / 'c.sqlite'}"))
    node.dispose()



def test_the_cli_says_each_table_on_standard_error(source: Store, tmp_path: Path):
    result = copy_cli(source.url, f"sqlite:///{tmp_path / 'copy.sqlite'}")
    assert result.exit_code == 0, result.output
    counts = {name: len(rows) for name, rows in source.rows().items()}
    lines = result.stderr.splitlines()
    for name, rows in counts.items():
        assert f"pbm db copy: {name}: {rows:,} rows" in lines, result.stderr
    assert lines[-1] == "pbm db copy: committing the target"
    out = result.stdout.splitlines()  # the start and the end only: the steps are not there
    assert len(out) == 2 and out[0].startswith("copying ") and "counts checked" in out[1]
