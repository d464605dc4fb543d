"""Every `pbm` command in a fresh process of the installed entry point, as an operator runs it.

click's CliRunner calls commands inside the test's own process, where earlier imports hide
an import circle that crashes a fresh `pbm games`. Here each command is a real subprocess of
the `pbm` script pip installed, in a folder of its own with a `pbm.toml`: every command's
`--help`, and every read-only command against a small house built by real mail through
`pbm process` (sign-ups, challenges, moves on two boards, a finished game, a bounce).

A command added to the tree must be classified below, in READ_ONLY (with the arguments to
run it with and what its first line shows) or in WRITES (only its `--help` is run), or
`test_every_command_is_classified` fails.
"""

from __future__ import annotations

import mailbox
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, cast

import click
import pytest

from pbm.cli import main
from pbm.config import BotSettings
from pbm.db.models import Base
from pbm.games import registry
from tests import stores
from tests.mail.bounce_formats import postfix
from tests.server.harness import SERVER_ADDRESS, mail

PBM = Path(sys.executable).parent / "pbm"  # the console script pip installed beside python
TIMEOUT = 60  # seconds for one command
WORKERS = 3  # subprocesses at once: most of their time is Python starting up and importing

ALICE, CAROL = "alice@players.test", "carol@players.test"
PASSWORDS = {"alice": "pw-alice-7q", "bob": "pw-bob-3z", "carol": "pw-carol-5k"}


@dataclass(frozen=True)
class Run:
    """One way to run a read-only command: its arguments, a pattern its first line of output
    matches, and one that some line matches (proof that it read the house, not merely that
    it exited 0)."""

    args: tuple[str, ...]
    first: str
    shows: str = ""


def _help_runs() -> tuple[Run, ...]:
    pages = [Run((), r"^Help For pbm$"), Run(("commands",), r"^Commands$"),
             Run(("bots",), r"^Help: bots$", r"^    bestbot  ")]
    for name in registry.names():  # a game added through an entry point too
        title = re.escape(registry.get(name).info.title)
        pages.append(Run((name,), rf"^Help For {title}$"))
    return tuple(pages)


# Commands that only read, each with the ways to run it against the house (the path of
# group and subcommand names -> its runs). Board 101 of each game, alice, bob and carol
# are what the house holds.
READ_ONLY: dict[tuple[str, ...], tuple[Run, ...]] = {
    ("games",): (Run((), r"^loophole\s+101  alice \(Black\), bob \(White\)  It is alice's",
                     r"^trou\s+101  carol \(Red\), alice \(Black\)  Game won by alice\.$"),
                 Run(("carol",), r"^trou\s+101  carol .*Game won by alice\.$")),
    ("show",): (Run(("loophole", "101", "--move", "1"),
                    r"^Summary of Loophole Board 101 after move 1$", r"^It is bob's turn\.$"),
                Run(("trou", "101", "--as", "carol"), r"^Summary of Trou Board 101$",
                    r"^carol resigned\.$")),
    ("standings",): (Run(("trou",), r"^Trou Standings$", r"^\s+1\s+alice\s+\d+\s+1\s+0\s"),),
    ("help",): _help_runs(),
    ("users", "list"): (Run((), rf"^alice\s+{ALICE}$", rf"^carol\s+{CAROL} \(bouncing: 1 bounce"),),
    ("config", "show"): (Run((), r"^# settings file: pbm\.toml$", r"^# Maildir: .*maildir$"),),
    ("db", "current"): (Run((), r"^\w+ \(newest\)$"),),
    ("ratings", "rebuild"): (Run(("trou",), r"^The stored ratings are as the rated games make"),),
    ("outbox",): (Run((), r"^outbox empty$"),),
    ("outbox", "list"): (Run(("--all",), rf"^\s+1 sent\s+tries 1  {ALICE}  Welcome to pbm"),),
    ("inbox",): (Run((), r"^no failed mail$"),),
    ("inbox", "list"): (Run(("--all",), rf"^\s+1 done\s+\S+ \S+ {ALICE}  <"),
                        Run(("--bounces",), rf"^\s+\d+ bounce .*\[bounce: {CAROL}: bounce 1 of")),
    ("inbox", "show"): (Run(("1",), r"^status: done$"),),
    ("tick",): (Run(("--dry-run",), r"^Would do: 0 nag\(s\), 0 forfeit\(s\)"),),
    ("bots",): (Run((), "^Bots play: " + ", ".join(n for n in registry.names()
                                                  if BotSettings().plays(n)) + "$",
                    r"^easybot \(easy\): 0 active boards \(not challenged yet\)$"),),
    ("bench", "loophole"): (Run(("--games", "2", "--json"), r'^\{"games": 2, '),),
    ("bench", "swiss"): (Run(("--players", "12", "--rounds", "3", "--json"),
                             r'^\{"players": 12, "rounds": 3, '),),
    ("tournament", "list"): (Run(("trou",), r"^No Trou tournaments yet\."),),
    ("ladder",): (Run(("trou",), r"^The Trou ladder: 0 players\.",
                      r"^Nobody yet\. Join: trou ladder join userid password$"),),
}

# Commands that change the house (or start servers, or take minutes): only `--help` runs.
WRITES: set[tuple[str, ...]] = {
    ("serve",), ("process",), ("run",), ("challenge",),
    ("users", "add"), ("users", "passwd"), ("users", "remove"), ("users", "resume"),
    ("db", "upgrade"), ("db", "backup"), ("db", "copy"),
    ("outbox", "retry"), ("outbox", "flush"), ("outbox", "prune"),
    ("inbox", "retry"), ("inbox", "prune"),
    ("bench", "mail"), ("bench", "process"), ("bench", "scale"), ("bench", "memory"),
    ("bench", "bots"), ("bench", "web"), ("web",), ("imap",), ("dkim", "record"),
    ("tournament", "create"), ("tournament", "join"), ("tournament", "leave"),
    ("tournament", "start"), ("tournament", "cancel"), ("tournament", "show"),
}


def command_tree(group: click.Group = main,
                 prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command and group under `group`, as (path of names, command), depth first."""
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        yield path, command
        if isinstance(command, click.Group):
            yield from command_tree(command, path)


TREE = dict(command_tree())


def needs_a_subcommand(command: click.Command) -> bool:
    """A group that does nothing of its own (`pbm db` alone prints its usage)."""
    return isinstance(command, click.Group) and not command.invoke_without_command


# ----- running the installed entry point -------------------------------------------------
def pbm(folder: Path, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """`pbm ARGS` as its own process in `folder`, reading that folder's pbm.toml."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBM_")}
    done = subprocess.run([str(PBM), *args], cwd=folder, env=env, input=input,
                          capture_output=True, timeout=TIMEOUT)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def write_config(folder: Path, database_url: str | None = None) -> None:
    """pbm.toml in `folder`: the Maildir and (without a URL) the SQLite file beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    database = f'[database]\nurl = "{database_url}"\n' if database_url else ""
    (folder / "pbm.toml").write_text(
        f'[server]\naddress = "{SERVER_ADDRESS}"\nhostname = "games.test"\n'
        '[delivery]\nmaildir = "maildir"\n' + database, encoding="utf-8")


# ----- the house, built by real mail -----------------------------------------------------
class House:
    """A folder with pbm.toml, its database and Maildir, filled by mails to `pbm process`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.database = folder / "pbm.sqlite"
        write_config(folder, stores.url(self.database, lasting=True))

    def send(self, sender: str, subject: str) -> None:
        self.feed(sender, mail(sender, subject))

    def feed(self, sender: str, raw: bytes) -> None:
        done = pbm(self.folder, "process", "--sender", sender, input=raw)
        assert done.returncode == 0, f"pbm process: {done.stderr}"

    def command(self, game: str, verb: str, userid: str, text: str = "") -> None:
        self.send(f"{userid}@players.test",
                  f"{game} {verb} 101 {userid} {PASSWORDS[userid]} {text}".rstrip())

    def first_mail_to(self, address: str) -> EmailMessage:
        box = mailbox.Maildir(self.folder / "maildir", create=False)
        for key in sorted(box.keys(), key=lambda key: int(key.split(".")[1].split("-")[0])):
            message = BytesParser(policy=policy.default).parsebytes(box.get_bytes(key))
            if message["To"] == address:
                return cast(EmailMessage, message)
        raise AssertionError(f"no mail to {address}")

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, and the Maildir's file names."""
        with stores.sql(self.database) as db:
            rows = {table.name: sorted((tuple(row) for row in db.execute(
                f"select * from {table.name}")), key=repr) for table in Base.metadata.sorted_tables}
        rows["maildir"] = [(path.name,) for path in sorted((self.folder / "maildir").rglob("*"))]
        return rows


def play_out(house: House, game: str, players: tuple[str, str], plies: int) -> None:
    """Mail `plies` legal moves on board 101 of `game`, each chosen by the rule module."""
    rules = registry.get(game)
    state = rules.start(rules.parse_options([]), 101)
    for _ in range(plies):
        (seat,) = rules.to_move(state)
        move = next(iter(rules.legal_moves(state, seat)))
        house.command(game, "move", players[seat], rules.notation(move))
        state = rules.play(state, seat, move)


def build_house(folder: Path) -> House:
    """Three players; Loophole 101 under way (alice to move), Trou 101 won by alice after
    carol resigned (so rated); one bounce of a mail to carol."""
    house = House(folder)
    for userid, password in PASSWORDS.items():
        house.send(f"{userid}@players.test", f"signup {userid} {password}")
    house.send(ALICE, "loophole challenge alice bob")
    play_out(house, "loophole", ("alice", "bob"), 2)
    house.send(CAROL, "trou challenge carol alice")
    play_out(house, "trou", ("carol", "alice"), 2)
    house.command("trou", "resign", "carol")
    welcome = house.first_mail_to(CAROL)
    house.feed("", postfix(CAROL, str(welcome["Message-ID"])))
    return house


@pytest.fixture(scope="module")
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(WORKERS) as pool:
        yield pool


@pytest.fixture(scope="module")
def house(pool: ThreadPoolExecutor, tmp_path_factory: pytest.TempPathFactory) -> Future[House]:
    """The house, built mail by mail in the background while the --help runs go on."""
    return pool.submit(build_house, tmp_path_factory.mktemp("house"))


Ran = dict[tuple[str, ...], "Future[subprocess.CompletedProcess[str]]"]


@pytest.fixture(scope="module")
def helps(pool: ThreadPoolExecutor, house: Future[House],
          tmp_path_factory: pytest.TempPathFactory) -> Ran:
    # `house` only so that its building starts now, beside these runs.
    folder = tmp_path_factory.mktemp("help")
    write_config(folder)
    return {path: pool.submit(pbm, folder, *path, "--help") for path in [(), *TREE]}


@pytest.fixture(scope="module")
def read_only(pool: ThreadPoolExecutor, house: Future[House]) -> Ran:
    built = house.result()
    before = built.snapshot()
    ran = {(*path, *run.args): pool.submit(pbm, built.folder, *path, *run.args)
           for path, run in READ_ONLY_RUNS}
    wait(ran.values())
    assert built.snapshot() == before, "a READ_ONLY command changed the house"
    return ran


# ----- the tests ----------------------------------------------------------------------------
def test_every_command_is_classified():
    """A new command must say whether it only reads (and how to run it here) or writes."""
    unclassified = sorted(" ".join(path) for path, command in TREE.items()
                          if path not in READ_ONLY and path not in WRITES
                          and not needs_a_subcommand(command))
    assert not unclassified, (
        f"pbm {', pbm '.join(unclassified)}: add it to READ_ONLY in {__file__} with the "
        "arguments to run it against the house and what its first line shows, or to WRITES "
        "(only its --help is run)")
    assert not set(READ_ONLY) & WRITES
    gone = sorted(" ".join(path) for path in set(READ_ONLY) | WRITES if path not in TREE)
    assert not gone, f"no such command any more: pbm {', pbm '.join(gone)}"


@pytest.mark.parametrize("path", [(), *TREE], ids=lambda path: " ".join(path) or "pbm")
def test_help_in_a_fresh_process(helps: Ran, path: tuple[str, ...]):
    done = helps[path].result()
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(" ".join(("Usage: pbm", *path)) + " "), first


READ_ONLY_RUNS = [(path, run) for path, runs in READ_ONLY.items() for run in runs]


@pytest.mark.parametrize(("path", "run"), READ_ONLY_RUNS,
                         ids=[" ".join((*path, *run.args)) for path, run in READ_ONLY_RUNS])
def test_read_only_command_in_a_fresh_process(read_only: Ran, path: tuple[str, ...], run: Run):
    done = read_only[(*path, *run.args)].result()
    if path[0] == "bench":  # a bench says its steps on standard error, and nothing else there
        assert done.returncode == 0, done.stderr
        assert all(line.startswith(f"{path[1]}: ") for line in done.stderr.splitlines()), \
            done.stderr
    else:
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
    lines = done.stdout.splitlines()
    assert lines, "no output"
    assert re.search(run.first, lines[0]), done.stdout
    assert re.search(run.shows, done.stdout, re.MULTILINE), done.stdout


def test_games_in_a_folder_where_pbm_never_ran(tmp_path: Path):
    """Before any database: the path it looked for, no traceback, no database made. Once
    `pbm db upgrade` made an empty one (`pbm serve` never ran): no boards, and the list of
    games on offer names every game."""
    write_config(tmp_path)
    done = pbm(tmp_path, "games")
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == (f"pbm: no database at {tmp_path / 'pbm.sqlite'}: `pbm db upgrade` "
                           "creates it (check database_url and the folder pbm runs in)\n")
    assert not (tmp_path / "pbm.sqlite").exists()
    assert pbm(tmp_path, "db", "upgrade").returncode == 0
    done = pbm(tmp_path, "games")
    assert (done.returncode, done.stdout) == (0, "no boards\n"), done.stderr
    offer = pbm(tmp_path, "run", "--from", ALICE, "list")
    assert offer.returncode == 0, offer.stderr
    listed = re.findall(r"^  (\S+) ", offer.stdout, re.MULTILINE)
    assert listed == registry.names(), offer.stdout
