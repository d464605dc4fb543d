"""Mail benchmark: moves per second through a real `pbm serve`, against a do-nothing aiosmtpd.

The workload: two players, several Loophole boards played with random legal moves, one move
per mail, sent over one SMTP connection (or several). A move counts once both players' board
mails are in the Maildir: the clock runs from the first move sent to the last board mail
delivered. The same mails sent to an aiosmtpd server whose handler does nothing give the
ceiling the front door itself allows on this machine, measured in the same run. SQLite keeps
synchronous=FULL throughout: 250 still means committed to disk.

The servers' own CPU time over the moves (user and system, every thread, from /proc: the
machine may be shared and noisy, so wall time alone says little) is given per move too.

The durable floor (pbm/bench/floor.py), run in the same run on the same mails over the same
connections, is the least a server that keeps its word does per mail: the raw mail into
SQLite (WAL, synchronous=FULL) with a commit, two Maildir files of a board mail's size
written and fsync'd as pbm's Maildir writes them, one fsync of the folder, then 250.
"board mail's size" is the mean size of the board mails this run's `pbm serve` delivered
(the floor runs after it). `durable_floor_ratio` is pbm's moves/s over the floor's mails/s;
issue 23 aims at 0.8 or more on one connection and 1.0 or more on four (reported, not
asserted: a bench measures, it does not judge).

Per move, over the same window as the CPU time (from the setup's last delivery to just after
the last board mail's, the courier's closing commit included):
- `sql_statements_per_move`: the statements the server's writer thread executes, counted
  inside the real `pbm serve` by a SQLAlchemy `before_cursor_execute` listener that
  pbm/bench/statements.py installs before starting the server's usual `python -m pbm`;
  `..._all_threads` adds the courier's and the readers' (their idle polls too).
- `fsyncs_per_move`: fsync and fdatasync calls of the server processes, every thread,
  counted by strace (pbm/bench/fsyncs.py), and `durable_floor_fsyncs_per_move` the same of
  the floor (4 by design, a little more when SQLite checkpoints its WAL). Both servers run
  under strace, so both pay its small cost (one stop per fsync); without strace, or where
  tracing is not allowed, they are n/a and `fsyncs_counted_by` says why. On PostgreSQL the
  commits' fsyncs are the database server's and are not in pbm's count.

On PostgreSQL (`database`: a server's URL) the bench makes a scratch database there, runs
`nodes` servers on it, each on its own port with the connections spread over them, and drops
the database at the end.
"""

from __future__ import annotations

import os
import random
import re
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from pbm.bench import fsyncs, statements
from pbm.bench.progress import Progress, quiet
from pbm.games.loophole import GAME as LOOPHOLE

ADDRESS = "pbm@bench.test"
SETTLE_SECONDS = 0.5  # how long the bench lets a server finish what a phase left it
PLAYERS = [("alice", "secret-a", "alice@bench.test"), ("bob", "secret-b", "bob@bench.test")]


def player_mail(sender: str, subject: str) -> bytes:
    """A command mail as a player sends it: the command in the Subject, a fresh Message-ID."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ADDRESS
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="bench.test")
    message.set_content("\n")
    return message.as_bytes(policy=message.policy.clone(linesep="\r\n"))  # as on the wire


def workload(boards: int, moves_per_board: int, seed: int,
             connections: int = 1) -> list[list[tuple[str, bytes]]]:
    """Move mails for `boards` Loophole boards (101, 102, ...), one list per connection.

    Each board's moves stay on one connection, in order; within a connection the boards
    take turns, so consecutive mails touch different boards."""
    rng = random.Random(seed)
    per_board: list[list[tuple[str, bytes]]] = []
    for index in range(boards):
        state = LOOPHOLE.start({}, 0)
        mails: list[tuple[str, bytes]] = []
        while LOOPHOLE.result(state) is None and len(mails) < moves_per_board:
            (seat,) = LOOPHOLE.to_move(state)
            move = LOOPHOLE.random_move(state, seat, rng)
            userid, password, address = PLAYERS[seat]
            text = LOOPHOLE.notation(move)
            subject = f"loophole move {101 + index} {userid} {password} {text}"
            mails.append((address, player_mail(address, subject)))
            state = LOOPHOLE.play(state, seat, move)
        per_board.append(mails)
    streams: list[list[tuple[str, bytes]]] = [[] for _ in range(connections)]
    for step in range(max(len(m) for m in per_board)):
        for index, mails in enumerate(per_board):
            if step < len(mails):
                streams[index % connections].append(mails[step])
    return streams


def _send_all(port: int, mails: list[tuple[str, bytes]]) -> float:
    """Send every mail over one connection; seconds until the last was answered 250."""
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        started = time.perf_counter()
        for sender, raw in mails:
            smtp.sendmail(sender, [ADDRESS], raw)
        return time.perf_counter() - started


def _send_parallel(ports: list[int], streams: list[list[tuple[str, bytes]]]) -> float:
    """Each stream over its own connection, all at once, the connections dealt over `ports`;
    seconds until all were answered."""
    started = time.perf_counter()
    with ThreadPoolExecutor(len(streams)) as pool:
        list(pool.map(lambda i: _send_all(ports[i % len(ports)], streams[i]),
                      range(len(streams))))
    return time.perf_counter() - started


class _NullHandler:
    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def baseline(streams: list[list[tuple[str, bytes]]]) -> float:
    """Mails per second an aiosmtpd server with a do-nothing handler takes."""
    controller = Controller(_NullHandler(), hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        return sum(map(len, streams)) / _send_parallel([controller.port], streams)
    finally:
        controller.stop()


def _write_config(folder: Path, database_url: str | None) -> Path:
    config = folder / "pbm.toml"
    database = f'[database]\nurl = "{database_url}"\n' if database_url else ""
    # Two players send every move and start every board: as a server for two very busy
    # players would be set up (the rate limits would turn most mails into cheap refusals).
    config.write_text(
        f'[server]\naddress = "{ADDRESS}"\n[smtpd]\nport = 0\n{database}'
        '[limits]\nmails_per_sender_per_hour = 0\nchallenges_per_sender_per_day = 0\n'
        'challenges_per_player_per_day = 0\n', encoding="utf-8"
    )
    # Migrated once before the nodes start, so they do not race to create the schema.
    subprocess.run([sys.executable, "-m", "pbm", "--config", str(config), "db", "upgrade"],
                   cwd=folder, check=True, stdout=subprocess.DEVNULL)
    return config


def _start_server(folder: Path, config: Path | None = None,
                  name: str = "serve") -> tuple[subprocess.Popen[bytes], int]:
    """One `pbm serve` on a free port (settings: `config`, else SQLite in `folder`), its
    output in `name`.log; its process and port."""
    if config is None:
        config = _write_config(folder, None)
    log_path = folder / f"{name}.log"
    log = open(log_path, "wb")
    process = subprocess.Popen([sys.executable, "-m", "pbm", "--config", str(config), "serve"],
                               cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"listening on [\d.]+:(\d+)", log_path.read_text())
        if found:
            return process, int(found.group(1))
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("pbm serve did not start: " + log_path.read_text())


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system, all threads) process `pid` has used so far; None
    where /proc does not tell it (not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            # The fields after the command's name, which is in parentheses and may hold spaces.
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    user, system = int(fields[11]), int(fields[12])  # utime and stime, fields 14 and 15
    return (user + system) / os.sysconf("SC_CLK_TCK")


def _cpu_sum(servers: list[_Traced]) -> float | None:
    readings = [cpu_seconds(server.pid) for server in servers]
    return None if None in readings else sum(r for r in readings if r is not None)


@contextmanager
def scratch_database(server: str | None) -> Iterator[str | None]:
    """A new database on the PostgreSQL server `server` names, dropped afterwards; None
    (SQLite in the bench's folder) without one."""
    if server is None:
        yield None
        return
    from sqlalchemy import create_engine, make_url, text

    url = make_url(server)
    if url.get_backend_name() != "postgresql":
        raise ValueError("--database takes a PostgreSQL server's URL (SQLite is the default)")
    name = f"pbm_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f"CREATE DATABASE {name}"))
        try:
            yield url.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    finally:
        admin.dispose()


def delivered(maildir: Path) -> int:
    """Mails in the Maildir (new/ and cur/)."""
    return sum(len(list((maildir / part).iterdir())) for part in ("new", "cur")
               if (maildir / part).is_dir())


def _wait_for(maildir: Path, count: int, timeout: float = 600) -> float:
    """Wait until the Maildir holds `count` mails; the moment it did."""
    deadline = time.monotonic() + timeout
    while delivered(maildir) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {delivered(maildir)} of {count} mails were delivered")
        time.sleep(0.005)
    return time.perf_counter()


@dataclass
class _Traced:
    """A server process the bench started, under strace when fsyncs are counted."""

    process: subprocess.Popen[bytes]  # strace, or the server itself
    pid: int  # the server's own process
    port: int
    trace: Path | None  # strace's log of its fsyncs
    counts: Path | None = None  # its SQL statement counts (pbm serve)
    dumps: int = 0  # how many times it wrote them

    def statements(self) -> dict[str, int]:
        """The statements it has executed so far, by thread name."""
        assert self.counts is not None
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 30
        while (dump := statements.read(self.counts, self.dumps)) is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"pbm serve (pid {self.pid}) did not write its counts")
            time.sleep(0.01)
        self.dumps = dump["dumps"]
        return {str(name): int(n) for name, n in dump["counts"].items()}

    def fsyncs(self, since: float, until: float) -> int | None:
        return None if self.trace is None else fsyncs.counted(self.trace, since, until)

    def stop(self) -> None:
        """SIGTERM to the server itself (strace passes nothing on), then wait for both."""
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        self.process.wait(timeout=60)


def _launch(folder: Path, name: str, command: list[str], ready: str, trace: bool,
            env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], re.Match[str],
                                                        Path | None]:
    """`command` in `folder` (under strace with `trace`), its output in `name`.log, once it
    printed a line matching `ready`: the process, that match and strace's log."""
    log_path, trace_log = folder / f"{name}.log", folder / f"{name}.strace"
    if trace:
        command = [*fsyncs.prefix(trace_log), *command]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                   env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(ready, log_path.read_text())
        if found:
            return process, found, trace_log if trace else None
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    process.wait(timeout=60)
    raise RuntimeError(f"{name} did not start: " + log_path.read_text())


def _start_counted(folder: Path, config: Path, name: str, trace: bool) -> _Traced:
    """A real `pbm serve` that counts its SQL statements (pbm/bench/statements.py)."""
    counts = folder / f"{name}.statements.json"
    env = {**os.environ, statements.ENV: str(counts)}
    command = [sys.executable, "-c", statements.LAUNCH, "--config", str(config), "serve"]
    try:
        process, found, trace_log = _launch(folder, name, command,
                                            r"listening on [\d.]+:(\d+)", trace, env)
    except RuntimeError:
        stale = statements.read(counts)  # under strace its child may outlive strace
        if stale is not None:
            with suppress(ProcessLookupError):
                os.kill(stale["pid"], signal.SIGKILL)
        raise
    dump = statements.read(counts)  # written before the server started listening
    assert dump is not None
    return _Traced(process, int(dump["pid"]), int(found.group(1)), trace_log, counts)


def _board_mail_bytes(maildir: Path, before: set[str]) -> int:
    """The mean size of the mails in new/ not among `before`, as pbm wrote them (LF)."""
    sizes = [entry.stat().st_size for entry in os.scandir(maildir / "new")
             if entry.name not in before]
    return round(sum(sizes) / len(sizes))


@dataclass
class Floor:
    """What the durable floor did with the bench's mails."""

    mails_per_second: float
    cpu_ms_per_mail: float | None  # None: /proc does not tell
    fsyncs_per_mail: float | None  # None: not counted (no strace)


def durable_floor(streams: list[list[tuple[str, bytes]]], folder: Path,
                  board_mail_bytes: int, trace: bool) -> Floor:
    """The same mails through the durable floor (pbm/bench/floor.py) over as many
    connections, each stream on its own."""
    folder.mkdir()
    count = sum(map(len, streams))
    process, found, trace_log = _launch(
        folder, "floor", [sys.executable, "-m", "pbm.bench.floor", str(folder),
                          str(board_mail_bytes)],
        r"listening on [\d.]+:(\d+) \(pid (\d+)\)", trace)
    floor = _Traced(process, int(found.group(2)), int(found.group(1)), trace_log)
    try:
        cpu_before, since = cpu_seconds(floor.pid), time.time()
        seconds = _send_parallel([floor.port], streams)  # each 250 after its fsyncs
        cpu_after, until = cpu_seconds(floor.pid), time.time()
    finally:
        floor.stop()
    calls = floor.fsyncs(since, until)
    return Floor(count / seconds,
                 None if cpu_before is None or cpu_after is None
                 else 1000 * (cpu_after - cpu_before) / count,
                 None if calls is None else calls / count)


def _rounded(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def run(boards: int = 10, moves_per_board: int = 100, seed: int = 1,
        connections: int = 1, database: str | None = None, nodes: int = 1,
        progress: Progress = quiet) -> dict[str, Any]:
    if nodes > 1 and database is None:
        raise ValueError("several nodes share a PostgreSQL database: give --database")
    streams = workload(boards, moves_per_board, seed, connections)
    count = sum(map(len, streams))
    untraced = fsyncs.unavailable()
    trace = untraced is None
    with tempfile.TemporaryDirectory(prefix="pbm-bench-") as tmp, \
            scratch_database(database) as url:
        folder = Path(tmp)
        maildir = folder / "maildir"
        config = _write_config(folder, url)
        servers: list[_Traced] = []
        try:
            progress(f"mail: starting {nodes} pbm serve node(s) on "
                     f"{'PostgreSQL' if url else 'SQLite'}"
                     f"{' under strace' if trace else ''}")
            for n in range(nodes):
                servers.append(_start_counted(folder, config, f"serve{n}", trace))
            ports = [server.port for server in servers]
            setup = [(a, player_mail(a, f"signup {u} {p}")) for u, p, a in PLAYERS]
            challenger = PLAYERS[0][2]
            setup += [(challenger, player_mail(challenger, "loophole challenge alice bob"))
                      for _ in range(boards)]
            progress(f"mail: setup: {len(PLAYERS)} sign-ups and {boards} challenge(s)")
            _send_all(ports[0], setup)
            before = 2 + 2 * boards  # two welcomes, and each new board to both players
            _wait_for(maildir, before)
            time.sleep(SETTLE_SECONDS)  # the courier's commit after the setup's mails
            setup_mails = set(os.listdir(maildir / "new"))
            counts_before = [server.statements() for server in servers]
            cpu_before, since = _cpu_sum(servers), time.time()
            progress(f"mail: sending {count} moves over {connections} connection(s)")
            started = time.perf_counter()
            accepted = started + _send_parallel(ports, streams)
            progress(f"mail: every move answered 250 after {accepted - started:.1f} s; "
                     f"waiting for their {2 * count} board mails")
            finished = _wait_for(maildir, before + 2 * count)
            progress(f"mail: delivered after {finished - started:.1f} s")
            # The courier's closing commit, and any mail delivered twice, come by now.
            time.sleep(SETTLE_SECONDS)
            cpu_after, until = _cpu_sum(servers), time.time()
            counts_after = [server.statements() for server in servers]
            extra = delivered(maildir) - (before + 2 * count)
            board_mail_bytes = _board_mail_bytes(maildir, setup_mails)
        finally:
            for server in servers:
                server.stop()
        calls = [server.fsyncs(since, until) for server in servers]
        progress("mail: the minimal durable server, the same moves")
        floor = durable_floor(streams, folder / "floor", board_mail_bytes, trace)
    progress("mail: the do-nothing aiosmtpd, the same moves")
    ceiling = baseline(streams)
    served = count / (finished - started)
    writer = sum(after.get(statements.WRITER, 0) - ahead.get(statements.WRITER, 0)
                 for ahead, after in zip(counts_before, counts_after))
    everyone = sum(sum(after.values()) - sum(ahead.values())
                   for ahead, after in zip(counts_before, counts_after))
    return {
        "database": "postgresql" if database else "sqlite",
        "nodes": nodes,
        "moves": count,
        "boards": boards,
        "connections": connections,
        "mails_delivered_twice": extra,
        "pbm_serve_moves_per_second": round(served, 1),
        "null_aiosmtpd_mails_per_second": round(ceiling, 1),
        "ratio_to_null_aiosmtpd": round(served / ceiling, 3),
        "durable_floor_mails_per_second": round(floor.mails_per_second, 1),
        "durable_floor_ratio": round(served / floor.mails_per_second, 3),
        "ms_per_move": round(1000 / served, 2),
        # CPU of the pbm serve processes, not of the bench's own senders or the machine.
        "server_cpu_ms_per_move": None if cpu_before is None or cpu_after is None
        else round(1000 * (cpu_after - cpu_before) / count, 2),
        "durable_floor_cpu_ms_per_move": _rounded(floor.cpu_ms_per_mail),
        "sql_statements_per_move": round(writer / count, 2),
        "sql_statements_per_move_all_threads": round(everyone / count, 2),
        "fsyncs_per_move": None if None in calls
        else round(sum(c for c in calls if c is not None) / count, 2),
        "durable_floor_fsyncs_per_move": _rounded(floor.fsyncs_per_mail),
        "fsyncs_counted_by": "strace" if trace else f"n/a: {untraced}",
        "board_mail_bytes": board_mail_bytes,
        "seconds_to_last_250": round(accepted - started, 2),
        "seconds_to_last_delivery": round(finished - started, 2),
    }
