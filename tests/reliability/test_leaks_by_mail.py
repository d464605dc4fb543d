"""The leak check through the real mail path: random Pipeline and Outguess games mailed to a
real `pbm serve`, every mail a reader receives held against what the rules let them know.

tests/commands/test_secrets.py proves it at the command layer; here every command is a real
mail over SMTP and every reply is read from the real Maildir, with what that layer does not
reach besides: `queue` (moves played for a player when their turn comes, and queued moves
the rules refuse by then, whose notice says why), conditional moves and `preview` (both
refused for games with secrets: the refusals are read too), `showas`, `show BOARD#n`,
`history`, `standings` and `games`, a spectator subscribed to every board (carol), a user
notified when any board ends (dave) and a looker-on without an account (the stranger who
challenges). The games follow each other on one server, so the listings hold the earlier
games too.

Two checks, as in test_secrets:

* textual: before the end, no mail to anyone but a secret's owner holds it in any form the
  renderers write it (Pipeline: the pipeline, its course, its holes, its drawing, its
  move-list entry; Outguess: a move-list entry with its guess, a `Your secret guess` line
  but the guesser's own, any `Revealed` line). Listings (history, standings) name the earlier
  games' holes in their results, so they are left to the second check.
* differential: each game is played again, on a second `pbm serve` started from a copy of
  the first one's database as it was before the game, with the same public moves and one
  player's secret changed (test_secrets' twins: another pipeline that reads the same for as
  long as possible; other squares named that move as often). Every mail to the other
  player, carol, dave and the stranger must be the same, Subject, text and HTML part; and
  the owner's own mails must differ (so the comparison can fail).

PBM_LEAK_GAMES (default 2) sets the games of each kind; `-s` prints the counts, and
PBM_RELIABILITY_REPORT names a file to append them to as a JSON line (docs/reliability.md
quotes them). A second test measures the fan-out of `subscribe` and `notify` per move.
"""

from __future__ import annotations

import json
import os
import random
import re
import smtplib
import sqlite3
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from pbm.games.outguess import GAME as OUTGUESS
from pbm.games.outguess.notation import Turn, cell_name
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline.draw import draw_pipe
from pbm.games.pipeline.flow import Pipe
from pbm.games.pipeline.game import example_guess
from pbm.games.pipeline.state import Guess, SubmitPipe
from tests.commands.test_secrets import (
    SECRET_LINE,
    find_block,
    hole_forms,
    outguess_log,
    outguess_states,
    outguess_twin,
    pipe_forms,
    pipeline_log,
    pipeline_twin,
    public,
    row,
)
from tests.server.harness import SERVER_ADDRESS, PbmServer, mail

pytestmark = [pytest.mark.server, pytest.mark.slow]

GAMES = int(os.environ.get("PBM_LEAK_GAMES", "2"))  # of each kind
# The games mail far more than a player would in an hour, and the stranger challenges them
# all: the rates that stop floods would stop the test.
LIMITS = ("[limits]\nmails_per_sender_per_hour = 0\nchallenges_per_sender_per_day = 0\n"
          "challenges_per_player_per_day = 0\n")

USERS = ("alice", "bob")  # seat 0 and seat 1
PASSWORD = {"alice": "pw-alice-leak7", "bob": "pw-bob-leak3", "carol": "pw-carol-leak5",
            "dave": "pw-dave-leak9"}
ADDRESS = {user: f"{user}@players.test" for user in PASSWORD}
ALICE, BOB, CAROL, DAVE = (ADDRESS[u] for u in ("alice", "bob", "carol", "dave"))
STRANGER = "stranger@elsewhere.test"  # no account: challenges and looks on
READERS = (ALICE, BOB, CAROL, DAVE, STRANGER)
LISTINGS = "listings"  # the kind of request whose replies the textual check leaves out


# ----- the mail path ---------------------------------------------------------------------------
@dataclass
class Letter:
    """A mail the server delivered: to whom, answering which of our mails, and its text."""

    to: str
    in_reply_to: str
    subject: str
    body: str
    html: str | None

    def text(self) -> str:
        """All a reader reads: Subject, text part, and the words of the HTML part."""
        words = "" if self.html is None else "\n" + unescape(re.sub(r"<[^>]+>", "\n", self.html))
        return f"{self.subject}\n{self.body}{words}"

    def same(self) -> tuple[str, str, str | None]:
        return self.subject, self.body, self.html


@dataclass
class Request:
    """One mail we sent: the step of the game it came at (moves played before it is
    handled), what it asks, and how many mails it must cause."""

    message_id: str
    sender: str
    lines: str
    step: int
    kind: str
    expect: int
    seconds: float = 0.0  # from sending to the 250: the server stores and handles it first
    letters: list[Letter] = field(default_factory=list)


class Post:
    """Sends mail to one `pbm serve` over one SMTP connection, in order, and reads its
    Maildir. The server answers 250 once a mail is stored, and handles mails in the order
    they came, so a look sent after a move sees the board after it; the replies are sorted
    out afterwards by their In-Reply-To."""

    def __init__(self, server: PbmServer):
        self.server = server
        self.smtp = smtplib.SMTP("127.0.0.1", server.port, timeout=60)
        self.requests: list[Request] = []
        self.by_id: dict[str, Request] = {}
        # Mails delivered before belong to earlier requests (another Post's).
        self.seen: set[str] = {name for folder in ("new", "cur")
                               if (server.maildir / folder).exists()
                               for name in os.listdir(server.maildir / folder)}

    def close(self) -> None:
        self.smtp.quit()

    def send(self, sender: str, lines: str, step: int, kind: str, expect: int) -> Request:
        message_id = make_msgid(domain="players.test")
        if "\n" in lines:
            raw = mail(sender, "multiple", lines + "\n", message_id=message_id)
        else:
            raw = mail(sender, lines, message_id=message_id)
        began = time.perf_counter()
        self.smtp.sendmail(sender, [SERVER_ADDRESS], raw)
        request = Request(message_id, sender, lines, step, kind, expect,
                          time.perf_counter() - began)
        self.requests.append(request)
        self.by_id[message_id] = request
        return request

    def collect(self, timeout: float = 60) -> None:
        """Wait until every request has all the mails it must cause; fail on any more."""
        wanted = sum(r.expect for r in self.requests)
        deadline = time.monotonic() + timeout
        got = sum(len(r.letters) for r in self.requests)
        while got < wanted and time.monotonic() < deadline:
            got += self._read_new()
            if got < wanted:
                time.sleep(0.05)
        time.sleep(0.3)  # the delivery gathers for 0.2 s: anything more would show now
        got += self._read_new()
        wrong = [(r.lines, r.expect, [(x.to, x.subject) for x in r.letters])
                 for r in self.requests if len(r.letters) != r.expect]
        assert not wrong, f"{got} mails of {wanted}; not as expected: {wrong[:5]}"

    def _read_new(self) -> int:
        count = 0
        for folder in ("new", "cur"):
            path = self.server.maildir / folder
            if not path.exists():
                continue
            for name in sorted(os.listdir(path)):
                if name in self.seen:
                    continue
                self.seen.add(name)
                with open(path / name, "rb") as handle:
                    message = BytesParser(policy=policy.default).parse(handle)
                letter = _letter(message)
                request = self.by_id.get(letter.in_reply_to)
                assert request is not None, f"a mail answering nothing of ours: {letter}"
                request.letters.append(letter)
                count += 1
        return count

    def to(self, reader: str, steps: range | None = None) -> list[tuple[Request, Letter]]:
        """The mails `reader` received, in the order of the requests that caused them."""
        return [(r, x) for r in self.requests for x in r.letters
                if x.to == reader and (steps is None or r.step in steps)]


def _letter(message: EmailMessage) -> Letter:
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert plain is not None
    return Letter(str(message["To"]), str(message["In-Reply-To"] or ""),
                  str(message["Subject"]), plain.get_content(),
                  None if html is None else html.get_content())


def sign_up(server: PbmServer) -> None:
    post = Post(server)
    for user, password in PASSWORD.items():
        post.send(ADDRESS[user], f"signup {user} {password}", 0, "signup", 1)
    post.collect()
    post.close()


def twin_server(real: PbmServer, folder: Path) -> PbmServer:
    """A second server whose database is a copy of `real`'s as it is now (its Maildir of
    its own): the same accounts, boards, numbers, ratings and history."""
    folder.mkdir(parents=True)
    twin = PbmServer(folder, extra_config=LIMITS)
    source = sqlite3.connect(real.database)
    target = sqlite3.connect(twin.database)
    with target:
        source.backup(target)
    source.close()
    target.close()
    twin.start()
    return twin


# ----- one game by mail ------------------------------------------------------------------------
@dataclass
class Plan:
    """What a game's mails are, drawn once from its seed and sent alike in both runs."""

    word: str
    number: int  # the board
    log: list[tuple[int, str]]  # (seat, move text) of this run
    movers: list[frozenset[int]]  # seats to move after each move (index 0: the start)
    rng_seed: str
    stop: int  # play moves up to here (the twin stops where it parts)
    ends_at: int | None  # the move that ends the game in this run (None: none before stop)
    queue_at: dict[int, str] = field(default_factory=dict)  # step -> "auto" or "drop"
    illegal: tuple[str, ...] = ()


def plan_queues(plan: Plan, limit: int) -> None:
    """Steps where the player not to move queues something for their coming turn: their
    next move itself (played for them when it comes), or a move the rules refuse (dropped,
    and they are told why). Only where turns alternate and the next two moves come before
    `limit`."""
    rng = random.Random(f"queues {plan.rng_seed}")
    movers, log = plan.movers, plan.log
    step = 1
    while step + 2 < limit:
        one, two = movers[step], movers[step + 1]
        if len(one) == 1 and len(two) == 1 and one != two and rng.random() < 0.3:
            plan.queue_at[step] = rng.choice(("auto", "drop"))
            assert log[step + 1][0] in two
            step += 3
        else:
            step += 1


def looks(post: Post, plan: Plan, step: int, rng: random.Random, over: bool) -> None:
    """The ways players, the spectator and the looker-on look at the board after `step`
    moves: each player's own view and an earlier public one, in one mail with one more
    command in turn (a conditional queue and a preview, both refused for games with
    secrets; the player's own view at an earlier move; their boards); the stranger's public
    views; and one mail of listings (history, standings) from one of them in turn."""
    w, n = plan.word, plan.number
    for seat, user in enumerate(USERS):
        pw = PASSWORD[user]
        extra = [f"{w} queue {n} {user} {pw} {plan.illegal[0]} if {plan.illegal[1]}",
                 f"{w} preview {n} {user} {pw} {plan.illegal[1]}",
                 f"{w} showas {user} {pw} {n}#{rng.randint(0, step)}",
                 f"games {user}",
                 f"{w} games {user}"][(step + seat) % 5]
        lines = [f"{w} showas {user} {pw} {n}", f"{w} show {n}#{rng.randint(0, step)}", extra]
        post.send(ADDRESS[user], "\n".join(lines), step, "looks", 1)
    post.send(STRANGER, f"{w} show {n}\n{w} show {n}#{rng.randint(0, step)}", step, "looks", 1)
    if over:
        post.send(CAROL, f"{w} show {n}", step, "looks", 1)
    sender = (ALICE, BOB, CAROL, STRANGER)[step % 4]
    post.send(sender, f"{w} history\n{w} history alice\n{w} standings", step, LISTINGS, 1)


def play_by_mail(post: Post, plan: Plan) -> None:
    """The stranger challenges alice and bob, carol subscribes, then every move of the
    plan's log is mailed with the looks after each (and after the challenge)."""
    w, n, log = plan.word, plan.number, plan.log
    rng = random.Random(f"looks {plan.rng_seed}")
    post.send(STRANGER, f"{w} challenge alice bob", 0, "challenge", 3)
    post.send(CAROL, f"{w} subscribe {n} carol {PASSWORD['carol']}", 0, "subscribe", 1)
    step = 0
    looks(post, plan, 0, rng, over=False)
    while step < plan.stop:
        queued = plan.queue_at.get(step)
        if queued is not None:  # the next-but-one mover queues for their coming turn
            seat, text = log[step + 1]
            user = USERS[seat]
            what = text if queued == "auto" else plan.illegal[2]
            post.send(ADDRESS[user], f"{w} queue {n} {user} {PASSWORD[user]} {what}",
                      step, "queue", 1)
        seat, text = log[step]
        user = USERS[seat]
        guard = f"#{step + 1}" if step % 3 == 2 else ""
        played = 2 if queued == "auto" else 1
        after = step + played
        ends = after == plan.ends_at
        notices = (1 if queued == "drop" else 0) + (1 if ends else 0)  # dropped; dave's
        post.send(ADDRESS[user], f"{w} move {n} {user} {PASSWORD[user]} {text}{guard}",
                  after, "move", 3 + notices)
        step = after
        if step < plan.stop or ends:
            looks(post, plan, step, rng, over=ends)


# ----- what the rules hide ---------------------------------------------------------------------
def pipeline_leaks(post: Post, moves: list[tuple[int, Any]], pipes: tuple[Pipe, Pipe],
                   end: int) -> tuple[int, list[str]]:
    """(mails read, leaks found): no mail before the end shows anyone but its owner a
    pipeline or its holes in any form, nor its move-list entry."""
    courses = [pipe_forms(pipe) for pipe in pipes]
    drawings = [draw_pipe(pipe)[2:] for pipe in pipes]
    read, leaks = 0, []
    for request in post.requests:
        if request.step >= end or request.kind == LISTINGS:
            continue
        guessed = {frozenset(m.cells) for _, m in moves[:request.step] if isinstance(m, Guess)}
        for letter in request.letters:
            read += 1
            text = letter.text()
            lowered = text.lower()
            for owner, pipe in enumerate(pipes):
                if letter.to == ADDRESS[USERS[owner]]:
                    continue
                where = f"{USERS[owner]}'s pipeline to {letter.to} ({request.lines!r})"
                leaks += [f"{form}: {where}" for form in courses[owner] if form in lowered]
                holes = hole_forms(pipe)
                if pipe.holes in guessed or pipe.holes == set(example_guess(pipe.head,
                                                                            pipe.tail)):
                    holes.discard(",".join(pipe.sorted_holes()).lower())
                leaks += [f"holes {form}: {where}" for form in holes if form in lowered]
                if find_block(text, drawings[owner]):
                    leaks.append(f"drawing: {where}")
                for number, (seat, move) in enumerate(moves[:request.step], start=1):
                    if seat == owner and isinstance(move, SubmitPipe) and \
                            row(number, PIPELINE.notation(move)).search(text):
                        leaks.append(f"move {number}: {where}")
    return read, leaks


def outguess_leaks(post: Post, moves: list[tuple[int, Turn]], end: int) -> tuple[int, list[str]]:
    """(mails read, leaks found): before the end a guess is `guess ...` in every move list
    but its author's, nothing is `Revealed`, and a `Your secret guess` line goes only to the
    player who named that piece."""
    read, leaks = 0, []
    for request in post.requests:
        if request.step >= end or request.kind == LISTINGS:
            continue
        for letter in request.letters:
            read += 1
            text = letter.text()
            seat = next((s for s, u in enumerate(USERS) if ADDRESS[u] == letter.to), None)
            where = f"to {letter.to} ({request.lines!r})"
            if "Revealed" in text:
                leaks.append(f"Revealed: {where}")
            named = set()
            for number, (author, move) in enumerate(moves[:request.step], start=1):
                if move.guess is None:
                    continue
                if author == seat:
                    named.add(cell_name(move.guess))
                elif row(number, str(move)).search(text):
                    leaks.append(f"move {number} {move}: {where}")
            stray = set(SECRET_LINE.findall(text)) - named
            if stray:
                leaks.append(f"secret guess {sorted(stray)}: {where}")
    return read, leaks


def differences(real: Post, twin: Post, reader: str, steps: range) -> tuple[int, list[str]]:
    """(mails compared, differences): `reader`'s mails of these steps in the two runs."""
    a, b = real.to(reader, steps), twin.to(reader, steps)
    found = []
    # The owner's own moves are written differently in the two runs: not their lines.
    if [(r.sender, r.kind, r.step) for r, _ in a] != [(r.sender, r.kind, r.step) for r, _ in b]:
        found.append(f"{reader}: other mails in the two runs")
    for (request, x), (_, y) in zip(a, b):
        if x.same() != y.same():
            found.append(f"{reader} tells the games apart at step {request.step} "
                         f"({request.lines!r}):\n{x.subject}\n{x.body}\n---\n{y.subject}\n"
                         f"{y.body}")
    return len(a), found


# ----- the test --------------------------------------------------------------------------------
@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    mails_sent: int = 0
    mails_received: int = 0
    read: int = 0  # mails the textual check read
    compared: int = 0  # mails the differential check compared
    leaks: list[str] = field(default_factory=list)
    by_kind: Counter[str] = field(default_factory=Counter)  # mails received, by request
    queued: Counter[str] = field(default_factory=Counter)  # queues played and dropped

    def add(self, post: Post) -> None:
        self.mails_sent += len(post.requests)
        self.mails_received += sum(len(r.letters) for r in post.requests)
        for r in post.requests:
            self.by_kind[r.kind] += len(r.letters)


def pipeline_game(real: PbmServer, tmp: Path, seed: int, number: int, tally: Tally) -> None:
    moves, states = pipeline_log(seed)
    log = [(seat, PIPELINE.notation(move)) for seat, move in moves]
    end = len(log)
    owner = seed % 2
    twin_pipe, parted = pipeline_twin(moves, states, owner, random.Random(seed))
    last = min(parted, end)
    twin_moves = [(seat, SubmitPipe(twin_pipe) if isinstance(m, SubmitPipe) and seat == owner
                   else m) for seat, m in moves]
    twin_log = [(seat, PIPELINE.notation(m)) for seat, m in twin_moves]
    movers = [PIPELINE.to_move(state) for state in states]
    illegal = ("A1-A2", "Z9", "guess A1,A1,B2")
    plan = Plan("pipeline", number, log, movers, f"pipeline {seed}", end, end, illegal=illegal)
    plan_queues(plan, last)
    tally.queued.update(plan.queue_at.values())
    # The twin plays up to the move that tells the pipelines apart: that one may end the
    # real game and not the twin (a guess of the real holes), so its own replay says.
    twin_state, twin_end = PIPELINE.start({}, 0), None
    for number_played, (seat, move) in enumerate(twin_moves[:last], start=1):
        twin_state = PIPELINE.play(twin_state, seat, move)
        if PIPELINE.result(twin_state) is not None:
            twin_end = number_played
            break
    twin_plan = Plan("pipeline", number, twin_log, movers, plan.rng_seed, last, twin_end,
                     dict(plan.queue_at), illegal)
    twin = twin_server(real, tmp / f"twin-pipeline-{seed}")
    try:
        posts = []
        for server, this in ((real, plan), (twin, twin_plan)):
            post = Post(server)
            play_by_mail(post, this)
            post.collect()
            post.close()
            posts.append(post)
    finally:
        twin.stop()
    first, second = posts
    pipes = states[-1].pipes
    read, leaks = pipeline_leaks(first, moves, pipes, end)
    twin_pipes = tuple(twin_pipe if s == owner else pipes[s] for s in (0, 1))
    twin_read, twin_leaks = pipeline_leaks(second, twin_moves, twin_pipes, last)
    tally.read += read + twin_read
    tally.leaks += leaks + twin_leaks
    for reader in (ADDRESS[USERS[1 - owner]], CAROL, DAVE, STRANGER):
        compared, found = differences(first, second, reader, range(0, last))
        tally.compared += compared
        tally.leaks += found
    # The comparison can fail: the owner's own view shows the pipeline they sent.
    sent = next(n for n, (s, m) in enumerate(moves, 1) if s == owner and isinstance(m, SubmitPipe))
    assert differences(first, second, ADDRESS[USERS[owner]], range(sent, last + 1))[1]
    # At the end every pipeline is revealed, to the players and to carol.
    for reader in (ALICE, BOB, CAROL):
        final = [x for r, x in first.to(reader, range(end, end + 1)) if r.kind == "move"]
        assert final and all(pipe.notation() in x.body for pipe in pipes for x in final)
    tally.games += 1
    tally.moves += end
    tally.add(first)
    tally.add(second)


def outguess_game(real: PbmServer, tmp: Path, seed: int, number: int, tally: Tally) -> None:
    moves, states = outguess_log(seed)
    log = [(seat, str(move)) for seat, move in moves]
    end = len(log)
    owner = seed % 2
    twin_moves, changed = outguess_twin(moves, states, owner, random.Random(seed))
    assert changed > 0
    twin_states = outguess_states(twin_moves)
    assert [public(s) for s in twin_states] == [public(s) for s in states]
    twin_log = [(seat, str(move)) for seat, move in twin_moves]
    movers = [OUTGUESS.to_move(state) for state in states]
    illegal = ("A1-A1, guess A1", "+A1q", "Z9-Z10")
    plan = Plan("outguess", number, log, movers, f"outguess {seed}", end, end, illegal=illegal)
    plan_queues(plan, end)
    tally.queued.update(plan.queue_at.values())
    twin_plan = Plan("outguess", number, twin_log, movers, plan.rng_seed, end, end,
                     dict(plan.queue_at), illegal)
    twin = twin_server(real, tmp / f"twin-outguess-{seed}")
    try:
        posts = []
        for server, this in ((real, plan), (twin, twin_plan)):
            post = Post(server)
            play_by_mail(post, this)
            post.collect()
            post.close()
            posts.append(post)
    finally:
        twin.stop()
    first, second = posts
    read, leaks = outguess_leaks(first, moves, end)
    twin_read, twin_leaks = outguess_leaks(second, twin_moves, end)
    tally.read += read + twin_read
    tally.leaks += leaks + twin_leaks
    for reader in (ADDRESS[USERS[1 - owner]], CAROL, DAVE, STRANGER):
        compared, found = differences(first, second, reader, range(0, end))
        tally.compared += compared
        tally.leaks += found
    assert differences(first, second, ADDRESS[USERS[owner]], range(0, end))[1]
    # At the end the last guess is revealed to everyone: the two runs differ for all.
    assert differences(first, second, STRANGER, range(end, end + 1))[1]
    tally.games += 1
    tally.moves += end
    tally.add(first)
    tally.add(second)


def test_no_mail_tells_anyone_what_the_rules_hide(tmp_path):
    started = time.monotonic()
    real = PbmServer(tmp_path / "real", extra_config=LIMITS)
    real.start()
    tally = Tally()
    try:
        sign_up(real)
        post = Post(real)  # dave is told whenever a board of either game ends
        for word in ("pipeline", "outguess"):
            post.send(DAVE, f"{word} notify dave {PASSWORD['dave']}", 0, "notify", 1)
        post.collect()
        post.close()
        for index in range(GAMES):
            pipeline_game(real, tmp_path, index, 101 + index, tally)
            outguess_game(real, tmp_path, index, 101 + index, tally)
    finally:
        real.stop()
    seconds = time.monotonic() - started
    report = {"games": tally.games, "moves": tally.moves, "mails_sent": tally.mails_sent,
              "mails_received": tally.mails_received, "read": tally.read,
              "compared": tally.compared, "leaks": len(tally.leaks),
              "by_kind": dict(tally.by_kind), "queued": dict(tally.queued),
              "seconds": round(seconds, 1)}
    print("leak check by mail:", json.dumps(report))
    if os.environ.get("PBM_RELIABILITY_REPORT"):
        with open(os.environ["PBM_RELIABILITY_REPORT"], "a", encoding="utf-8") as out:
            out.write(json.dumps({"test": "leaks_by_mail", **report}) + "\n")
    assert not tally.leaks, "\n\n".join(tally.leaks[:5])
    assert tally.games == 2 * GAMES
    assert tally.read > 0 and tally.compared > 0


# ----- fan-out ---------------------------------------------------------------------------------
TROU_GAME = ("1B2", "4C2", "2B1", "2B3", "4A2", "3C3", "3A3", "1A1")  # Red wins (the help's)
WATCHERS = (0, 1, 4, 16)


def test_fan_out_of_subscribe_and_notify_per_move(tmp_path):
    """A Trou board watched by k subscribers, with k more users to be told when it ends:
    every move mails the two players and each subscriber once (one mail per recipient, k + 2
    in all, whatever k), and the end adds one notice per notified user; nothing else."""
    server = PbmServer(tmp_path / "fan-out", extra_config=LIMITS)
    server.start()
    rows = []
    try:
        most = max(WATCHERS)
        post = Post(server)
        for user in ("alice", "bob"):
            post.send(ADDRESS[user], f"signup {user} {PASSWORD[user]}", 0, "signup", 1)
        for i in range(2 * most):
            post.send(f"watcher{i}@players.test", f"signup watcher{i} pw-watch-{i}", 0,
                      "signup", 1)
        post.collect()
        post.close()
        for board, k in enumerate(WATCHERS, start=101):
            post = Post(server)
            post.send(STRANGER, "trou challenge alice bob", 0, "challenge", 3)
            for i in range(k):
                post.send(f"watcher{i}@players.test",
                          f"trou subscribe {board} watcher{i} pw-watch-{i}", 0, "subscribe", 1)
                j = most + i
                post.send(f"watcher{j}@players.test", f"trou notify watcher{j} pw-watch-{j} "
                          f"{board}", 0, "notify", 1)
            moves = []
            for number, text in enumerate(TROU_GAME, start=1):
                user = USERS[(number - 1) % 2]
                last = number == len(TROU_GAME)
                moves.append(post.send(ADDRESS[user], f"trou move {board} {user} "
                                       f"{PASSWORD[user]} {text}", number, "move",
                                       2 + k + (k if last else 0)))
            post.collect()
            post.close()
            per_move = [len(r.letters) for r in moves[:-1]]
            final = moves[-1].letters
            notices = [x for x in final if "has ended" in x.subject]
            assert set(per_move) == {2 + k} and len(notices) == k
            for request in moves:  # one mail per recipient, never two to one address
                assert len({x.to for x in request.letters}) == len(request.letters)
            rows.append({"subscribers": k, "notified": k, "mails_per_move": per_move[0],
                         "mails_at_the_end": len(final), "end_notices": len(notices),
                         "ms_per_move": round(1000 * statistics.median(
                             r.seconds for r in moves), 1)})
    finally:
        server.stop()
    print("fan-out:", json.dumps(rows))
    if os.environ.get("PBM_RELIABILITY_REPORT"):
        with open(os.environ["PBM_RELIABILITY_REPORT"], "a", encoding="utf-8") as out:
            out.write(json.dumps({"test": "fan_out", "rows": rows}) + "\n")
