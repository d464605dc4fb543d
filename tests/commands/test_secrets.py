"""Hidden information never leaks through the command layer (issues 4 and 6, "Secrets").

Seeded random complete games (30 of Pipeline, 30 of Outguess) are played move by move with
conftest's `run(...)`, each move chosen with the rule module's random_move on a state replayed
here. After every move (and after the challenge) the board is looked at as a player or a
looker-on can (see look_around): `show 101` by a stranger, `showas me pw 101` by each player,
one of these three also at an earlier move (101#k), and a refused move with the sender's board
(an illegal move by the player on turn, or a move out of turn, alternately). One more way per
move, in turn, covers the rest: `show alice`, `games`, `games alice`, `games alice bob`,
`list`, `showas` of the other player or by the stranger with a wrong password, a move in the
other player's name with a wrong password, a move by carol (who does not play) and a wrong
#n. Every reply is kept, with the step it came at.

Before the end, two kinds of check:

* textual: no reply delivered to the other player (by Reply.to), to the stranger or to carol
  holds a player's secret in any form the renderers write it (Pipeline: the notation, the
  course joined in any usual way, the holes, the drawing, the move-list entry; Outguess: the
  move-list entry with the guess, the "Your secret guess" line outside the guesser's view);
* differential: the game is played again in a second database with the same public moves and
  only one player's secret changed (Pipeline: another pipeline with other holes, chosen so that
  the probes read the same on it for as long as possible; Outguess: every square they named
  replaced by another of the mover's pieces that moved as often, so every count revealed stays
  the same). Every reply to the other player, the stranger and carol must be byte-identical,
  so no rendering, however indirect, can carry the secret. The same comparison is then shown
  to fail where the runs must differ: the owner's own board mails, and the other player at the
  first reading that tells the two pipelines apart or at the end.

After the end, by the rules or by alice's `resign` or `signoff` mid-game, both players' final
board mails and `show`/`showas` reveal every secret.

Test-only speed-ups that change no reply: wrong passwords are remembered like right ones (an
argon2 hash each time otherwise), the test databases skip fsync, and an Outguess move is the
best of a few random_move draws for getting a piece home (random games run for hundreds of
moves).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from html import unescape
from itertools import combinations
from typing import Any

import pytest
from sqlalchemy import event

import pbm.accounts.logins as logins_module
from pbm.config import LimitSettings
from pbm.context import Reply
from pbm.db.models import Address, User
from pbm.games.outguess import GAME as OUTGUESS
from pbm.games.outguess import SEATS as OUTGUESS_SEATS
from pbm.games.outguess.game import OutguessState, _pieces_of, _Sim
from pbm.games.outguess.notation import Turn, cell_name, goal_row, row_of
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline.draw import draw_pipe
from pbm.games.pipeline.flow import Pipe, random_pipe, readings
from pbm.games.pipeline.game import example_guess
from pbm.games.pipeline.state import Guess, Probe, State, SubmitPipe
from tests.commands.conftest import ALICE, BOB, CAROL, PW, STRANGER, Runner

# Random whole games of each: 20 each keep CI inside its 20 minutes (30 each took 130 s).
PIPELINE_GAMES = 20
OUTGUESS_GAMES = 20
BOARD = 101
USERS = ("alice", "bob")  # seat 0 and seat 1: they are challenged in this order
ADDRESS = {"alice": ALICE, "bob": BOB}
LOOKERS_ON = (STRANGER, CAROL)  # a stranger without an account, and a user who does not play
WRONG = "Not-The-Password-7"


# check_password is a pure function of its arguments; pbm remembers only right passwords, so
# each wrong one would cost an argon2 hash after every move. Remember the answers for wrong
# ones too, for the whole module: the replies are the same, only faster.
_check_password = functools.lru_cache(maxsize=None)(logins_module.check_password)


@pytest.fixture(autouse=True)
def quick_wrong_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logins_module, "check_password", _check_password)


# These tests try a wrong password after every move, to prove the refusal shows nothing;
# the guessing throttle (tests/commands/test_logins.py) would pause the accounts after five.
UNTHROTTLED = LimitSettings(password_pause_seconds=0, wrong_passwords_per_sender_per_hour=0,
                            wrong_passwords_per_mail=0)


def without_fsync(runner: Runner) -> Runner:
    """No fsync at each commit: pbm asks SQLite for FULL durability, which a test database
    does not need, and thousands of commits would wait on the disk. Nothing else changes."""

    def pragmas(dbapi_connection, _record) -> None:
        dbapi_connection.cursor().execute("PRAGMA synchronous=OFF").close()

    runner.limits = UNTHROTTLED
    if runner.engine.dialect.name != "sqlite":  # the --postgresql run: its cluster's own
        return runner
    event.listen(runner.engine, "connect", pragmas)  # runs after pbm's own listener
    runner.engine.dispose()  # pooled connections were opened without it
    return runner


@pytest.fixture
def db(players) -> Runner:
    """conftest's `players` database (alice, bob and carol signed up)."""
    return without_fsync(players)


@pytest.fixture
def second_db(tmp_path, account_rows) -> Iterator[Callable[[str], Runner]]:
    """More databases like the `players` one."""
    made: list[Runner] = []

    def make(name: str) -> Runner:
        runner = Runner(tmp_path / f"{name}.sqlite")
        with runner.session() as session:
            for userid, password_hash, addresses in account_rows:
                user = User(userid=userid, password_hash=password_hash)
                user.addresses = [Address(position=i, address=a) for i, a in enumerate(addresses)]
                session.add(user)
        made.append(runner)
        return without_fsync(runner)

    yield make
    for runner in made:
        runner.engine.dispose()


# ----- recording every reply ------------------------------------------------------------------
@dataclass
class Mailbox:
    """Runs command lines on one database and keeps every reply with the step it came at.

    Step 0 is the challenge; step i is after move i. `skip` names a player whose own looks
    are not sent (the second run of a differential check needs only the others')."""

    run: Runner
    word: str
    skip: str | None = None
    step: int = 0
    log: list[tuple[int, str, str, Reply]] = field(default_factory=list)

    def send(self, sender: str, line: str) -> list[Reply]:
        replies = self.run(sender, line)
        self.log.extend((self.step, sender, line, reply) for reply in replies)
        return replies

    def refused(self, sender: str, line: str) -> Reply:
        """Send a line that must be refused: one error, to the sender only."""
        replies = self.send(sender, line)
        assert len(replies) == 1, (line, replies)
        reply = replies[0]
        assert reply.kind == "answer" and reply.subject.lower().endswith("error"), (line, reply)
        assert reply.to == (sender,), reply
        return reply

    def to(self, address: str, steps: range | None = None) -> list[tuple[int, Reply]]:
        return [(step, reply) for step, _, _, reply in self.log
                if address in reply.to and (steps is None or step in steps)]

    def at(self, step: int) -> list[tuple[str, str, Reply]]:
        return [(sender, line, reply) for s, sender, line, reply in self.log if s == step]


def text_of(reply: Reply) -> str:
    """All a reader reads of a reply: Subject, text part, and the words of its HTML part
    (the picture's labels and captions too), each on its own."""
    words = "" if reply.html is None else \
        "\n" + unescape(re.sub(r"<[^>]+>", "\n", reply.html))
    return f"{reply.subject}\n{reply.body}{words}"


@dataclass(frozen=True)
class Look:
    """The random parts of one round of looks, drawn once and used in both runs."""

    back: int | None  # an earlier move to look at with #k
    illegal: str  # a move text the rules refuse now
    guard: int  # a wrong #n


def plan_looks(rng: random.Random, step: int, illegal: tuple[str, ...]) -> Look:
    back = rng.randrange(step) if step else None
    return Look(back, rng.choice(illegal), step + 1 + rng.randrange(1, 50))


def look_around(box: Mailbox, look: Look, movers: set[str], over: bool) -> None:
    """The ways a player or a looker-on can see board 101, or an error about it.

    After every move: the public view (show 101), each player's own view (showas me pw 101),
    one of the three also at an earlier move (#k), and a move refused with the sender's board
    (the player on turn breaking the rules, or the other playing out of turn, in turn; after
    the end: the game is over). In turn, one per move, every other way: the lookups that show
    the same renderings by other paths (show of a userid, games, games of players, list) and
    the ways in without the right to see anything private (showas or a move with the other
    player's userid and a wrong password, a stranger's showas, a move by carol who does not
    play, a wrong #n)."""
    word, step = box.word, box.step
    back = ["", "", ""]  # alice's, bob's and the public view: one of them also looks back
    if look.back is not None:
        back[step % 3] = f" {BOARD}#{look.back}"
    box.send(STRANGER, f"{word} show {BOARD}{back[2]}")
    for seat, me in enumerate(USERS):
        if me != box.skip:
            box.send(ADDRESS[me], f"{word} showas {me} {PW[me]} {BOARD}{back[seat]}")
    on_turn = sorted(u for u in USERS if u in movers)
    off_turn = sorted(u for u in USERS if u not in movers)
    breaker = ((on_turn if step % 2 == 0 else off_turn) or on_turn or off_turn)[0]
    if breaker != box.skip:
        box.refused(ADDRESS[breaker],
                    f"{word} move {BOARD} {breaker} {PW[breaker]} {look.illegal}")
    others: list[tuple[str, str, bool]] = [
        (STRANGER, f"{word} show alice", False),
        (STRANGER, f"{word} showas alice {WRONG} {BOARD}", True),
        (ALICE, f"{word} showas bob {WRONG} {BOARD}", True),
        (STRANGER, f"{word} games", False),
        (BOB, f"{word} showas alice {WRONG} {BOARD}", True),
        (CAROL, f"{word} move {BOARD} carol {PW['carol']} {look.illegal}", True),
        (STRANGER, f"list {word}", False),
        (ALICE, f"{word} move {BOARD} bob {WRONG} {look.illegal}", True),
        (CAROL, f"{word} games alice bob", False),
        (ALICE, f"{word} games alice", False),
        (BOB, f"{word} move {BOARD} alice {WRONG} {look.illegal}", True),
    ]
    if on_turn and not over:
        me = on_turn[0]
        others.append((ADDRESS[me],
                       f"{word} move {BOARD} {me} {PW[me]} {look.illegal}#{look.guard}", True))
    sender, line, refused = others[step % len(others)]
    if box.skip is None or sender != ADDRESS[box.skip]:
        (box.refused if refused else box.send)(sender, line)


def play_through(box: Mailbox, log: list[tuple[int, str]], looks: list[Look],
                 until: int | None = None,
                 movers_after: Callable[[int], set[str]] = lambda i: set()) -> None:
    """Challenge, then play the log move by move with every look after each (and after the
    challenge). With `until`, stop right after move `until`, without looking."""
    replies = box.send(STRANGER, f"{box.word} challenge alice bob")
    assert {r.to for r in replies} == {(ALICE,), (BOB,), (STRANGER,)}, replies
    assert all(f"Board {BOARD}" in r.subject for r in replies)
    look_around(box, looks[0], movers_after(0), over=False)
    for number, (seat, text) in enumerate(log, start=1):
        box.step = number
        userid = USERS[seat]
        guard = f"#{number}" if number % 3 == 0 else ""  # now and then the right #n
        replies = box.send(ADDRESS[userid], f"{box.word} move {BOARD} {userid} {PW[userid]} "
                                            f"{text}{guard}")
        assert {r.kind for r in replies} == {"board"}, replies
        assert {r.to for r in replies} == {(ALICE,), (BOB,)}, replies
        if number == until:
            return
        look_around(box, looks[number], movers_after(number), over=number == len(log))


def assert_same_deliveries(first: Mailbox, second: Mailbox, address: str, steps: range,
                           kind: str | None = None) -> None:
    """Byte for byte the same replies to `address` (of this kind) in both runs: Subject,
    text part and HTML part (Reply's equality compares them all)."""
    a = [(s, r) for s, r in first.to(address, steps) if kind is None or r.kind == kind]
    b = [(s, r) for s, r in second.to(address, steps) if kind is None or r.kind == kind]
    assert [s for s, _ in a] == [s for s, _ in b], f"{address}: different numbers of mails"
    for (step, x), (_, y) in zip(a, b):
        assert x == y, (
            f"{address} can tell the two games apart at step {step}, which must not be:\n"
            f"--- first\n{x.subject}\n{x.body}\n--- second\n{y.subject}\n{y.body}"
            + ("" if x.html == y.html else f"\n--- first html\n{x.html}\n--- second html\n"
               f"{y.html}")
        )


def assert_told_apart(first: Mailbox, second: Mailbox, address: str, steps: range,
                      kind: str | None = None) -> None:
    """The differential check does fail where the two runs must differ."""
    with pytest.raises(AssertionError, match="can tell the two games apart"):
        assert_same_deliveries(first, second, address, steps, kind)


class Row:
    """A move-list entry: the move number and exactly this text (`search` as for a regex)."""

    def __init__(self, number: int, text: str):
        self.needle = f"{number}. {text}"
        self.number, self.text = number, text

    def search(self, body: str) -> bool:
        body = unwrapped(body)
        if self.needle not in body:  # the quick answer, nearly always
            return False
        pattern = rf"(?<![\d.]){self.number}\. {re.escape(self.text)}(?=\s|$)"
        return re.search(pattern, body, re.MULTILINE) is not None


CONTINUED = re.compile(r"\n {5,6}(?=\S)")


@functools.lru_cache(maxsize=64)  # one body is searched for many rows
def unwrapped(body: str) -> str:
    """A long move-list entry goes on under its text, indented past its number: join it."""
    return CONTINUED.sub(" ", body)


def row(number: int, text: str) -> Row:
    return Row(number, text)


def find_block(text: str, block: list[str]) -> bool:
    """Whether the lines of `block` stand one under another in `text`, at any column."""
    width = max(len(line) for line in block)
    wanted = [line.ljust(width) for line in block]
    lines = text.split("\n")
    for i in range(len(lines) - len(block) + 1):
        start = lines[i].find(wanted[0].rstrip())
        while start >= 0:
            if all(lines[i + j].ljust(start + width)[start:start + width] == wanted[j]
                   for j in range(len(block))):
                return True
            start = lines[i].find(wanted[0].rstrip(), start + 1)
    return False


# ===== Pipeline ===============================================================================
PIPELINE_ILLEGAL = ("Z9", "A1-A2", "guess A1,A1,B2", "W@A1,W@A1")


def pipeline_log(seed: int) -> tuple[list[tuple[int, Any]], list[State]]:
    """A random complete game: (seat, move) pairs and the state after each (index 0: start).

    The two pipelines get different hole sets, so that a player's own holes can never be
    mistaken for the other's in the replies."""
    rng = random.Random(seed)
    state = PIPELINE.start({}, BOARD)
    moves: list[tuple[int, Any]] = []
    states = [state]
    while PIPELINE.result(state) is None:
        seat = rng.choice(sorted(PIPELINE.to_move(state)))
        move = PIPELINE.random_move(state, seat, rng)
        other = state.pipes[1 - seat]
        while isinstance(move, SubmitPipe) and other is not None \
                and move.pipe.holes == other.holes:
            move = PIPELINE.random_move(state, seat, rng)
        state = PIPELINE.play(state, seat, PIPELINE.parse(state, seat, PIPELINE.notation(move)))
        moves.append((seat, move))
        states.append(state)
    return moves, states


def public_signature(move: Any, seat: int, owner: int, pipe: Pipe, after: State) -> Any:
    """What move `move` tells everyone about `owner`'s pipeline `pipe`."""
    if isinstance(move, Probe):
        return readings(pipe, after.board)
    if isinstance(move, Guess) and seat != owner:
        return frozenset(move.cells) == pipe.holes
    return None


def pipeline_twin(moves: list[tuple[int, Any]], states: list[State], owner: int,
                  rng: random.Random) -> tuple[Pipe, int]:
    """Another pipeline for `owner`, with other holes, that the public log cannot tell from the
    real one for as long as possible; and the first move number that tells them apart
    (len(moves) + 1 if none does)."""
    final = states[-1]
    real, theirs = final.pipes[owner], final.pipes[1 - owner]
    assert real is not None and theirs is not None
    found: dict[Pipe, None] = {}
    for holes in combinations(real.path[1:-1], 3):
        found[Pipe(real.path, frozenset(holes))] = None
    for _ in range(400):
        found[random_pipe(real.head, real.tail, rng)] = None
    survivors = [p for p in found if p.holes not in (real.holes, theirs.holes)]
    rng.shuffle(survivors)
    parted = len(moves) + 1
    for number, (seat, move) in enumerate(moves, start=1):
        after = states[number]
        want = public_signature(move, seat, owner, real, after)
        kept = [p for p in survivors if public_signature(move, seat, owner, p, after) == want]
        if not kept:
            parted = number
            break
        survivors = kept
    # Prefer a twin whose course differs too, so both the path and the holes are tested.
    survivors.sort(key=lambda p: p.path == real.path)
    return survivors[0], parted


def pipe_forms(pipe: Pipe) -> set[str]:
    """Every way a text could spell this pipeline: its notation and its course."""
    forms = {pipe.notation(), pipe.notation().replace("-", " - ")}
    for course in (pipe.path, pipe.path[::-1]):
        for sep in ("-", " - ", ",", ", ", " ", "->", " -> ", "--", "---"):
            forms.add(sep.join(course))
    return {form.lower() for form in forms}


def hole_forms(pipe: Pipe) -> set[str]:
    a, b, c = pipe.sorted_holes()
    return {f.lower() for f in (f"{a},{b},{c}", f"{a}, {b}, {c}", f"{a} {b} {c}",
                                f"{a}, {b} and {c}", f"{a}, {b}, and {c}")}


def check_pipeline_secrets(box: Mailbox, moves: list[tuple[int, Any]],
                           pipes: tuple[Pipe, Pipe], steps: range) -> int:
    """No reply of these steps (all before the end) shows a player or a looker-on the other
    player's pipeline or holes in any form, nor its notation in the move list. Returns how many
    replies were read."""
    courses = [pipe_forms(pipe) for pipe in pipes]
    drawings = [draw_pipe(pipe)[2:] for pipe in pipes]
    read = 0
    for step, sender, line, reply in box.log:
        if step not in steps:
            continue
        read += 1
        text = text_of(reply)
        lowered = text.lower()
        guessed = {frozenset(m.cells) for _, m in moves[:step] if isinstance(m, Guess)}
        for owner, pipe in enumerate(pipes):
            if ADDRESS[USERS[owner]] in reply.to:
                continue  # the owner may see their own pipeline
            where = f"{USERS[owner]}'s secret, reply to {line!r} -> {reply.to} at step {step}"
            for form in courses[owner]:
                assert form not in lowered, f"pipeline {form}: {where}\n{text}"
            holes = hole_forms(pipe)
            # Somebody guessed exactly these squares, in public, or the prompt's example
            # (which the coins alone choose) names them.
            if pipe.holes in guessed or pipe.holes == set(example_guess(pipe.head, pipe.tail)):
                holes.discard(",".join(pipe.sorted_holes()).lower())
            for form in holes:
                assert form not in lowered, f"holes {form}: {where}\n{text}"
            assert not find_block(text, drawings[owner]), f"drawing: {where}\n{text}"
            # The text part titles a pipeline it draws; the picture names every pipeline's
            # board (showing the other's readings only), which the twin games check.
            title = f"{('Head', 'Tail')[owner]}'s pipeline"
            assert f"{title}\n" not in reply.body, f"drawing title: {where}\n{text}"
            for number, (seat, move) in enumerate(moves[:step], start=1):
                if seat == owner and isinstance(move, SubmitPipe):
                    assert not row(number, PIPELINE.notation(move)).search(text), where
    return read


def pipeline_movers(states: list[State]) -> Callable[[int], set[str]]:
    return lambda step: {USERS[s] for s in PIPELINE.to_move(states[step])}


def viewer_of(sender: str, line: str) -> tuple[bool, int | None]:
    """Whether `line` asks for a board view, and whose: (True, None) for show."""
    words = line.split()
    if len(words) < 3:
        return False, None
    if words[1] == "show" and words[2].startswith(str(BOARD)):
        return True, None
    if words[1] == "showas" and words[2] in USERS and words[3] == PW[words[2]] \
            and sender == ADDRESS[words[2]]:
        return True, USERS.index(words[2])
    return False, None


def current_views(box: Mailbox, steps: range,
                  word: str) -> Iterator[tuple[int, int | None, Reply]]:
    """(step, viewer, reply) for every `show`/`showas` reply of the board as it is now."""
    title = f"Summary of {word} Board {BOARD}\n"
    for step, sender, line, reply in box.log:
        asked, viewer = viewer_of(sender, line)
        if step in steps and asked and reply.body.startswith(title):
            yield step, viewer, reply


def check_pipeline_move_list(box: Mailbox, moves: list[tuple[int, Any]], steps: range) -> int:
    """In the full move list of `show` a pipeline is `...`; in its author's showas it is
    written out, in the other player's it is `...`. Returns how many entries were checked."""
    checked = 0
    for step, viewer, reply in current_views(box, steps, "Pipeline"):
        for number, (seat, move) in enumerate(moves[:step], start=1):
            if isinstance(move, SubmitPipe):
                shown = PIPELINE.notation(move) if viewer == seat else "..."
                assert row(number, shown).search(reply.body), (viewer, number, shown, reply.body)
                checked += 1
    return checked


def check_pipeline_revealed(box: Mailbox, moves: list[tuple[int, Any]], pipes: tuple,
                            step: int) -> None:
    """At the end every pipeline sent and its holes are in both players' final board mails and
    in every view (`show`, each player's `showas`), and the move list writes them out."""
    finals = [r for _, _, r in box.at(step) if r.kind == "board"]
    views = [(viewer, r) for _, viewer, r in current_views(box, range(step, step + 1), "Pipeline")]
    assert {r.to for r in finals} == {(ALICE,), (BOB,)}, finals
    assert None in [v for v, _ in views] and 1 in [v for v, _ in views], views
    for reply in [*finals, *(r for _, r in views)]:
        for pipe in pipes:
            if pipe is None:
                continue
            assert pipe.notation() in reply.body, reply.body
            a, b, c = pipe.sorted_holes()
            assert f"with its holes on {a}, {b} and {c}." in reply.body, reply.body
            assert find_block(reply.body, draw_pipe(pipe)[2:]), reply.body
    for _, reply in views:
        for number, (seat, move) in enumerate(moves, start=1):
            if isinstance(move, SubmitPipe):
                assert row(number, PIPELINE.notation(move)).search(reply.body), reply.body


@pytest.mark.parametrize("seed", range(PIPELINE_GAMES))
def test_pipeline_secrets_never_leak(db, second_db, seed):
    moves, states = pipeline_log(seed)
    log = [(seat, PIPELINE.notation(move)) for seat, move in moves]
    end = len(moves)
    rng = random.Random(f"looks {seed}")
    looks = [plan_looks(rng, step, PIPELINE_ILLEGAL) for step in range(end + 1)]
    movers = pipeline_movers(states)

    # The game as it was drawn.
    real = Mailbox(db, "pipeline")
    play_through(real, log, looks, movers_after=movers)
    assert db.board(BOARD).status == "finished"
    before_end = range(0, end)
    assert check_pipeline_secrets(real, moves, states[-1].pipes, before_end) > 0
    assert check_pipeline_move_list(real, moves, range(4, end)) > 0 or end <= 4
    check_pipeline_revealed(real, moves, states[-1].pipes, end)

    # The same public game with one player's pipeline (and holes) swapped for a twin.
    owner = seed % 2
    other = 1 - owner
    twin_pipe, parted = pipeline_twin(moves, states, owner, rng)
    real_pipe = states[-1].pipes[owner]
    assert twin_pipe.holes != real_pipe.holes
    twin_moves = [(seat, SubmitPipe(twin_pipe) if isinstance(m, SubmitPipe) and seat == owner
                   else m) for seat, m in moves]
    twin_log = [(seat, PIPELINE.notation(m)) for seat, m in twin_moves]
    twin = Mailbox(second_db("twin"), "pipeline", skip=USERS[owner])
    last = min(parted, end)
    play_through(twin, twin_log, looks, until=last, movers_after=movers)
    same = range(0, last)
    for address in (ADDRESS[USERS[other]], *LOOKERS_ON):
        assert_same_deliveries(real, twin, address, same)
    # The check can fail: the owner's own mails differ once the pipeline is in, and the other
    # player sees the difference at the first probe that reads the two apart (or at the end).
    sent = next(n for n, (s, m) in enumerate(moves, 1) if s == owner and isinstance(m, SubmitPipe))
    assert_told_apart(real, twin, ADDRESS[USERS[owner]], range(sent, last + 1), "board")
    assert_told_apart(real, twin, ADDRESS[USERS[other]], range(last, last + 1), "board")
    twin_pipes = tuple(twin_pipe if s == owner else states[-1].pipes[s] for s in (0, 1))
    check_pipeline_secrets(twin, twin_moves, twin_pipes, same)


# ===== Outguess ===============================================================================
OUTGUESS_ILLEGAL = ("A1-A1, guess A1", "Z9-Z10", "guess", "+A1q")
# Random Outguess games wander for hundreds of moves; each move here is the one of a few
# random_move draws that brings a piece of the mover nearest to the goal row, which keeps a
# game to about twenty-five moves with captures, drops and earned extra moves in the usual share.
DRAWS = 12


def distance_to_goal(state: OutguessState, seat: int) -> int:
    return min((abs(row_of(s) - goal_row(seat)) for s in _pieces_of(state.board, seat)),
               default=0)


def outguess_log(seed: int) -> tuple[list[tuple[int, Turn]], list[OutguessState]]:
    rng = random.Random(seed)
    state = OUTGUESS.start({}, BOARD)
    moves: list[tuple[int, Turn]] = []
    states = [state]
    while OUTGUESS.result(state) is None:
        (seat,) = OUTGUESS.to_move(state)
        draws = [OUTGUESS.random_move(state, seat, rng) for _ in range(DRAWS)]
        move = min(draws, key=lambda m: distance_to_goal(OUTGUESS.play(state, seat, m), seat))
        state = OUTGUESS.play(state, seat, OUTGUESS.parse(state, seat, str(move)))
        moves.append((seat, move))
        states.append(state)
    return moves, states


def outguess_twin(moves: list[tuple[int, Turn]], states: list[OutguessState], owner: int,
                  rng: random.Random) -> tuple[list[tuple[int, Turn]], int]:
    """The same game with every square `owner` named changed where another of the mover's
    pieces moves just as often in the turn (so every count revealed stays the same); and how
    many were changed."""
    twin = list(moves)
    changed = 0
    for number, (seat, move) in enumerate(moves, start=1):
        if seat != owner or move.guess is None:
            continue
        named = states[number]  # the guess stands for the mover's coming turn
        assert named.guess == move.guess and named.mover == 1 - owner
        if number < len(moves):
            turn = moves[number][1]

            def count(square: int) -> int:
                sim = _Sim(replace(named, guess=square))
                for action in turn.actions:
                    sim.apply(action)
                return sim.count

            target = count(move.guess)
        else:  # the mover had no legal move: the guess was never used
            def count(square: int) -> int:
                return 0

            target = 0
        others = [s for s in _pieces_of(named.board, 1 - owner)
                  if s != move.guess and count(s) == target]
        if others:
            twin[number - 1] = (seat, Turn(move.actions, rng.choice(others)))
            changed += 1
    return twin, changed


def outguess_states(moves: list[tuple[int, Turn]]) -> list[OutguessState]:
    state = OUTGUESS.start({}, BOARD)
    states = [state]
    for seat, move in moves:
        assert seat in OUTGUESS.to_move(state)
        state = OUTGUESS.play(state, seat, OUTGUESS.parse(state, seat, str(move)))
        states.append(state)
    return states


def public(state: OutguessState) -> tuple:
    """Everything about a position that is not a secret guess."""
    last = None if state.last is None else (state.last.mover, state.last.count)
    return (state.board, state.reserves, state.mover, state.allotment, state.guess is None,
            last, state.winner, state.reason, OUTGUESS.result(state))


SECRET_LINE = re.compile(r"Your secret guess for this turn: the piece on ([A-H]\d)\.")
VIEW_AT = re.compile(rf"Summary of Outguess Board {BOARD}( after move (\d+))?\n")


def check_outguess_secrets(box: Mailbox, moves: list[tuple[int, Turn]],
                           states: list[OutguessState], steps: range) -> int:
    """Before the end, no reply shows anyone a square named by the other player (or any
    named square to a looker-on): a guess is `guess ...` in the move list to all but its
    author, and only the player who named the piece for the turn in progress reads it on the
    board. Returns how many replies were read."""
    read = 0
    for step, sender, line, reply in box.log:
        if step not in steps:
            continue
        read += 1
        text = text_of(reply)
        (address,) = reply.to
        seat = next((s for s, u in enumerate(USERS) if ADDRESS[u] == address), None)
        where = f"reply to {line!r} -> {address} at step {step}"
        assert "Revealed" not in text, f"{where}\n{text}"
        for number, (author, move) in enumerate(moves[:step], start=1):
            if author != seat and move.guess is not None:
                assert not row(number, str(move)).search(text), \
                    f"move {number} ({str(move)!r}) leaks: {where}\n{text}"
        # Which position the reply shows: the one now, or an earlier one (#k).
        found = VIEW_AT.search(text)
        shown = states[int(found.group(2)) if found and found.group(2) else step]
        secret = SECRET_LINE.findall(text)
        mine = seat is not None and seat == shown.guesser and shown.guess is not None
        if secret or (mine and found and (reply.kind == "board" or viewer_of(sender, line)[1]
                                          == seat)):
            # Only in the guesser's own view, and then their own guess (in the text part,
            # and again in the HTML part's text and its picture's caption).
            assert mine and set(secret) == {cell_name(shown.guess)}, f"{where}\n{text}"
    return read


def check_outguess_move_list(box: Mailbox, moves: list[tuple[int, Turn]], steps: range) -> int:
    """In the full move list a guess is `guess ...` to all but its author."""
    checked = 0
    for step, viewer, reply in current_views(box, steps, "Outguess"):
        for number, (seat, move) in enumerate(moves[:step], start=1):
            if move.guess is not None:
                hidden = ", ".join([*(str(a) for a in move.actions), "guess ..."])
                shown = str(move) if viewer == seat else hidden
                assert row(number, shown).search(reply.body), (viewer, number, shown, reply.body)
                checked += 1
    return checked


def check_outguess_revealed(box: Mailbox, moves: list[tuple[int, Turn]],
                            final: OutguessState, step: int) -> None:
    """At the end every guess is revealed: in every view's full move list, in the final
    mails' recent moves, and the last guess on the board."""
    finals = [r for _, _, r in box.at(step) if r.kind == "board"]
    views = [r for _, _, r in current_views(box, range(step, step + 1), "Outguess")]
    assert {r.to for r in finals} == {(ALICE,), (BOB,)} and len(views) >= 2, (finals, views)
    revealed = []
    if final.winner is not None:
        named = OUTGUESS_SEATS[1 - final.last.mover]
        revealed.append(f"Revealed: for that turn {named} had named the piece on "
                        f"{cell_name(final.last.guess)}.")
    elif final.concluded and final.guess is not None:
        revealed.append(f"Revealed: for the turn in progress {OUTGUESS_SEATS[final.guesser]} "
                        f"had named the piece on {cell_name(final.guess)}.")
    guessed = [(n, m) for n, (_, m) in enumerate(moves, start=1) if m.guess is not None]
    for reply in [*finals, *views]:
        for line in revealed:
            assert line in reply.body, reply.body
        for number, move in guessed[-3:]:
            assert row(number, str(move)).search(reply.body), (number, move, reply.body)
        assert "guess ..." not in reply.body, reply.body
    for reply in views:
        for number, move in guessed:
            assert row(number, str(move)).search(reply.body), (number, move, reply.body)


def outguess_movers(states: list[OutguessState]) -> Callable[[int], set[str]]:
    return lambda step: {USERS[s] for s in OUTGUESS.to_move(states[step])}


@pytest.mark.parametrize("seed", range(OUTGUESS_GAMES))
def test_outguess_guesses_never_leak(db, second_db, seed):
    moves, states = outguess_log(seed)
    log = [(seat, str(move)) for seat, move in moves]
    end = len(moves)
    rng = random.Random(f"looks {seed}")
    looks = [plan_looks(rng, step, OUTGUESS_ILLEGAL) for step in range(end + 1)]
    movers = outguess_movers(states)

    real = Mailbox(db, "outguess")
    play_through(real, log, looks, movers_after=movers)
    assert db.board(BOARD).status == "finished"
    assert check_outguess_secrets(real, moves, states, range(0, end)) > 0
    assert check_outguess_move_list(real, moves, range(1, end)) > 0
    check_outguess_revealed(real, moves, states[-1], end)

    # The same game with the squares one player named changed, every count kept.
    owner = seed % 2
    other = 1 - owner
    twin_moves, changed = outguess_twin(moves, states, owner, rng)
    assert changed > 0
    twin_states = outguess_states(twin_moves)
    assert [public(s) for s in twin_states] == [public(s) for s in states]
    twin = Mailbox(second_db("twin"), "outguess", skip=USERS[owner])
    play_through(twin, [(seat, str(move)) for seat, move in twin_moves], looks,
                 movers_after=movers)
    before_end = range(0, end)
    for address in (ADDRESS[USERS[other]], *LOOKERS_ON):
        assert_same_deliveries(real, twin, address, before_end)
    check_outguess_secrets(twin, twin_moves, twin_states, before_end)
    # The check can fail: the owner's own mails show the squares they named, and at the end
    # everyone sees them.
    assert_told_apart(real, twin, ADDRESS[USERS[owner]], before_end, "board")
    for address in (ADDRESS[USERS[other]], STRANGER):  # both look after the end
        assert_told_apart(real, twin, address, range(end, end + 1))


# ===== resignation ============================================================================
RESIGNATIONS = 5  # games of each kind, resigned at a random point


@pytest.mark.parametrize("word", ["pipeline", "outguess"])
@pytest.mark.parametrize("seed", range(RESIGNATIONS))
@pytest.mark.parametrize("leave", ["resign", "signoff"])
def test_leaving_mid_game_reveals_every_secret_to_both(db, word, seed, leave):
    """alice leaves mid-game: `resign` (at once on her turn, else queued until it comes) or
    `signoff` (which resigns at once). The final board mail to both players and every view
    reveal what was secret."""
    game = PIPELINE if word == "pipeline" else OUTGUESS
    moves, states = (pipeline_log if word == "pipeline" else outguess_log)(1000 + seed)
    rng = random.Random(seed)
    # alice must have moved (else leaving declines the board) and the game go on after the
    # move that follows.
    first = 1 if word == "pipeline" else 2
    stop = rng.randrange(first, len(moves) - 1)
    box = Mailbox(db, word)
    box.send(STRANGER, f"{word} challenge alice bob")
    for number, (seat, move) in enumerate(moves[:stop], start=1):
        box.step = number
        userid = USERS[seat]
        box.send(ADDRESS[userid], f"{word} move {BOARD} {userid} {PW[userid]} "
                                  f"{game.notation(move)}")
    before = states[stop]
    played = moves[:stop]
    box.step = end = stop + 1
    if leave == "signoff":
        final = [r for r in box.send(ALICE, f"signoff alice {PW['alice']}") if r.kind == "board"]
    elif 0 in game.to_move(before):
        final = box.send(ALICE, f"{word} resign {BOARD} alice {PW['alice']}")
    else:
        queued = box.send(ALICE, f"{word} resign {BOARD} alice {PW['alice']}")
        assert [r.to for r in queued] == [(ALICE,)] and "queued" in queued[0].body
        seat, move = moves[stop]
        assert seat == 1
        final = box.send(BOB, f"{word} move {BOARD} bob {PW['bob']} {game.notation(move)}")
        played = moves[: stop + 1]
        before = states[stop + 1]
        assert 0 in game.to_move(before)
    board = db.board(BOARD)
    assert board.status == "finished" and board.winners == [1]
    assert {r.to for r in final} == {(ALICE,), (BOB,)} and all(r.kind == "board" for r in final)
    assert all("Game won by bob." in r.body and "alice resigned." in r.body for r in final)
    box.send(STRANGER, f"{word} show {BOARD}")
    box.send(BOB, f"{word} showas bob {PW['bob']} {BOARD}")
    if leave == "resign":
        box.send(ALICE, f"{word} showas alice {PW['alice']} {BOARD}")
    if word == "pipeline":
        check_pipeline_revealed(box, played, before.pipes, end)
    else:
        check_outguess_revealed(box, played, replace(before, concluded=True), end)


# ===== Hilo: the drawn board ===================================================================
@pytest.mark.parametrize("secrets, guesses", [((6, 7), ("3", "8", "1")),
                                              ((2, 1), ("5", "9", "2"))])
def test_a_drawn_board_never_shows_the_hidden_number(db, second_db, hilo, secrets, guesses):
    """Hilo draws its board (the builtin games' pictures come with their own modules): two
    games differing only in the hidden number, whose guesses are answered alike, give bob,
    carol (who watches) and a stranger byte-identical mails, HTML parts included, until the
    end; alice's own mails and everyone's final ones differ."""
    boxes = []
    for name, secret in zip(("real", "twin"), secrets):
        box = Mailbox(db if name == "real" else second_db(name), "hilo")
        box.send(STRANGER, "hilo challenge alice bob")
        box.send(CAROL, f"hilo subscribe {BOARD} carol {PW['carol']}")
        for step, (userid, text) in enumerate([("alice", str(secret)),
                                               *(("bob", g) for g in guesses)], start=1):
            box.step = step
            box.send(ADDRESS[userid], f"hilo move {BOARD} {userid} {PW[userid]} {text}")
            box.send(STRANGER, f"hilo show {BOARD}")
            box.send(STRANGER, f"hilo show {BOARD}#1")
            for me in USERS:
                box.send(ADDRESS[me], f"hilo showas {me} {PW[me]} {BOARD}")
        boxes.append(box)
    real, twin = boxes
    end = len(guesses) + 1
    assert len(real.log) > 30 and all(r.html is not None for _, _, _, r in real.log)
    for address in (BOB, CAROL, STRANGER):
        assert_same_deliveries(real, twin, address, range(0, end))
        assert_told_apart(real, twin, address, range(end, end + 1))
    assert_told_apart(real, twin, ALICE, range(1, 2))
