"""Every line of every mail, help page and listing fits in 76 columns (issue 14).

Mail clients wrap longer lines, which tears boards and tables apart. Checked: every help
page as `help`, `help TOPIC`, `GAME help` and `pbm help TOPIC` give it, and the mails of
random games of every game played through the command layer: every board mail to both
players and a spectator, `show` and each player's `showas` after every move (public and
own views, hidden moves included), and at the end the listings (`GAME games`,
`games USERID`, `list`), `history` and `standings`; during random games every kind of
refused command (illegal moves, out of turn, stale #n, wrong passwords, unknown boards,
games and commands, malformed options), votes, queues, previews, replays, submissions,
chats and end notices; and the account, talk and clock mails: signup, confirmation
requests, wrong-password notices, vacation, messages, broadcasts, farewells, nags, last
calls and forfeits.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from click.testing import CliRunner

from pbm.cli import main
from pbm.config import Config
from pbm.context import Reply
from pbm.db.models import utcnow
from pbm.games import registry
from pbm.help import page_names
from pbm.mail.housekeeping import tick
from pbm.width import WIDTH
from tests.commands.conftest import ACCOUNTS, ALICE, BOB, PW, STRANGER, Runner, flat
from tests.commands.played import BOARD, USERS, Played, play_game
from tests.commands.social import run_as

assert WIDTH == 76
GAMES = sorted(registry.BUILTIN)
TOPICS = sorted({"general", "commands", *page_names(), *GAMES})
# Random games run long (Outguess for hundreds of moves); this many moves show every kind
# of mail, and then the player to move resigns.
MOST_MOVES = 120
SEEDS = (1, 2)


def too_wide(text: str, sent: str = "") -> list[str]:
    """The lines of `text` wider than WIDTH, but for a line that is a single word quoted
    from `sent` (an address, a junk move): fit() never cuts it, as that would change it."""
    return [line for line in text.splitlines() if len(line) > WIDTH
            and not (len(line.split()) == 1 and line.strip(" .,:;'`()") in sent)]


def assert_fits(replies: list[tuple[str, Reply]]) -> None:
    wide = [f"after '{line}', '{reply.subject}':\n" + "\n".join(too_wide(reply.body, line))
            for line, reply in replies if too_wide(reply.body, line)]
    assert not wide, "\n".join(dict.fromkeys(wide))


@pytest.mark.parametrize("topic", TOPICS)
def test_every_help_page_fits(players, topic):
    replies = [("help", r) for r in players(STRANGER, "help")] if topic == "general" else []
    replies += [(f"help {topic}", r) for r in players(STRANGER, f"help {topic}")]
    if topic in GAMES:
        replies += [(f"{topic} help", r) for r in players(STRANGER, f"{topic} help")]
    assert replies and all(r.kind == "answer" for _, r in replies)
    assert_fits(replies)
    printed = CliRunner().invoke(main, ["help", topic])
    assert printed.exit_code == 0, printed.output
    assert not too_wide(printed.output), too_wide(printed.output)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("word", GAMES)
def test_every_mail_of_a_random_game_fits(players, word, seed):
    run = players

    def look(played: Played, number: int) -> None:
        played.send(STRANGER, f"{word} show {BOARD}")
        userid = USERS[number % 2]  # each player's own view, in turn
        played.send(ACCOUNTS[userid][1], f"{word} showas {userid} {PW[userid]} {BOARD}")

    played = play_game(run, word, seed, most=MOST_MOVES, looks=look)
    for line in (f"{word} show {BOARD}", f"{word} games", f"{word} games alice",
                 f"{word} games all", f"{word} history", f"{word} history bob",
                 f"{word} standings", f"{word} games seek", "games alice", "games bob all",
                 "list", f"list {word}"):
        played.send(STRANGER, line)
    played.send(ALICE, f"{word} showas alice {PW['alice']} {BOARD}")
    kinds = {reply.kind for _, reply in played.replies}
    assert {"board", "answer"} <= kinds, kinds
    assert_fits(played.replies)


# One line of 200 characters, as a player may write a comment or a chat.
LONG_LINE = " ".join(["A-comment-written-on-one-long-line"] * 6)
JUNK = " ".join(f"junk{n}-{'x' * n}" for n in range(30))  # a move of many odd words


def refusals(played: Played, number: int) -> None:
    """Send every kind of command that is refused, and the votes, queues, previews and
    chats that answer or mail the players, against the board as it stands."""
    word, run = played.word, played.send
    game = registry.get(word)
    state = played.states[-1]
    if game.result(state) is not None:
        return
    seat = min(game.to_move(state))
    mover, other = USERS[seat], USERS[1 - seat]
    legal = game.notation(game.random_move(state, seat, random.Random(number)))

    def as_(userid: str, line: str, comment: str | None = None) -> None:
        line = line.format(w=word, pw=PW[userid], board=BOARD, mover=mover, other=other)
        played.replies += [(line, r) for r in played.run(ACCOUNTS[userid][1], line, comment)]

    for line in ("{w} move {board} {mover} {pw} ZZ99", "{w} move {board} {mover} {pw} " + JUNK,
                 "{w} move {board} {mover} {pw} " + legal + "#1",
                 "{w} move {board} {mover} {pw} " + legal + "#99999",
                 "{w} move 999 {mover} {pw} " + legal, "{w} move {board} nobody {pw} ZZ99",
                 "{w} move {board} {mover} Wrong-pw-1 " + legal,
                 "{w} preview {board} {mover} {pw} " + legal + " " + JUNK,
                 "{w} preview {board} {mover} {pw} " + legal,
                 "{w} preview {board} " + legal, "{w} prev new 2 " + legal + " " + JUNK,
                 "{w} replay {board} 1", "{w} replay {board} 1 " + legal + " " + JUNK,
                 "{w} submit {board} {mover} {pw} " + JUNK,
                 "{w} submit {board} {mover} {pw} " + legal,
                 "{w} queue {board} {mover} {pw} " + legal, "{w} move {board} {mover} {pw} accept",
                 "{w} resign 999 {mover} {pw}", "{w} chat 999 {mover} {pw}",
                 "{w} limit {mover} {pw} many", "{w} seek {mover} {pw} -1",
                 "{w} notify {mover} {pw} off 999 x", "{w} subscribe {board} {mover} {pw}"):
        as_(mover, line)
    for line in ("{w} move {board} {other} {pw} " + legal,
                 "{w} queue {board} {other} {pw} " + legal,
                 "{w} queue {board} {other} {pw} " + legal + " if " + JUNK,
                 "{w} queue {board} {other} {pw} clear",
                 "{w} submit {board} {other} {pw} " + legal, "{w} confirm {board} {other} {pw}"):
        as_(other, line)
    # Votes, each answered: a takeback refused, a draw (with comments) turned down.
    as_(other, "{w} move {board} {other} {pw} undo")
    as_(other, "{w} move {board} {other} {pw} accept")
    as_(mover, "{w} move {board} {mover} {pw} reject")
    as_(mover, "{w} move {board} {mover} {pw} propose", LONG_LINE)
    as_(other, "{w} move {board} {other} {pw} reject", LONG_LINE)
    as_(mover, "{w} chat {board} {mover} {pw}", LONG_LINE + "\n" + LONG_LINE)
    for line in (f"{word} show 999", f"{word} show {BOARD}#99999", f"{word} show x y z",
                 "nosuchgame show 1", f"{word} frobnicate 1 2", "frobnicate " + JUNK,
                 f"{word} challenge -nosuch=1 alice bob", f"{word} challenge -x alice bob",
                 f"{word} challenge -{'long' * 30}={'value' * 30} alice bob",
                 f"{word} challenge alice", f"{word} challenge alice nobody",
                 f"{word} challenge alice alice", f"{word} history nobody from x",
                 f"{word} games nobody", f"{word} showas nobody x", "help nosuchtopic",
                 f"help {word} {JUNK}", f"{word} help " + JUNK, "games nobody " + JUNK):
        run(STRANGER, line)


@pytest.mark.parametrize("word", GAMES)
def test_every_refusal_and_answer_during_a_random_game_fits(players, word):
    players(STRANGER, "signup dave Dave4444")  # who is told when the board ends
    players(STRANGER, f"{word} notify dave Dave4444")
    played = play_game(players, word, 3, most=40,
                       looks=lambda played, n: refusals(played, n) if n % 13 == 1 else None)
    subjects = {reply.subject for _, reply in played.replies}
    assert f"{registry.get(word).info.title} Board {BOARD} has ended" in subjects  # dave's
    assert {f"{registry.get(word).info.title} Board {BOARD} {kind}"
            for kind in ("Submitted", "Replay")} <= subjects
    errors = [r for _, r in played.replies if r.subject.lower().endswith("error")]
    assert len(errors) > 30
    assert_fits(played.replies)


def housekeep(run: Runner, days: float) -> list[tuple[str, Reply]]:
    report, _ids = tick(run.factory, Config(time=run.time), utcnow() + timedelta(days=days))
    return [(f"tick after {days} days", reply) for reply in report.replies]


def first_moves(run: Runner, word: str, number: int, users: tuple[str, str]) -> None:
    """Both players of board `number` make their first move (its seed is its id)."""
    game = registry.get(word)
    state = game.start(game.parse_options([]), number)
    rng, moved = random.Random(number), set()
    while moved != {0, 1}:
        seat = min(game.to_move(state))
        text = game.notation(game.random_move(state, seat, rng))
        userid = users[seat]
        run(ACCOUNTS[userid][1], f"{word} move {number} {userid} {PW[userid]} {text}")
        state = game.play(state, seat, game.parse(state, seat, text))
        moved.add(seat)


@pytest.mark.parametrize("word", GAMES)
def test_nags_last_calls_and_forfeits_fit(players, word):
    got = [(f"{word} challenge", r) for r in players(STRANGER, f"{word} challenge alice bob")]
    got += [(f"{word} challenge", r) for r in players(STRANGER, f"{word} challenge bob alice")]
    first_moves(players, word, BOARD + 1, ("bob", "alice"))  # board 101 is never taken up
    got += housekeep(players, 7.1) + housekeep(players, 40)  # nags, then last calls
    got += housekeep(players, 41)  # a forfeit on 102, 101 declined
    subjects = [r.subject for _, r in got]
    assert any(s.startswith("Nag:") for s in subjects), subjects
    assert any("could not look at the clocks" in flat(r.body) for _, r in got)  # last calls
    assert any("forfeited" in r.body for _, r in got)
    assert any("is declined and has been removed" in flat(r.body) for _, r in got)
    assert any("declined and removed (not rated)" in flat(r.body) for _, r in got)  # nag
    assert_fits(got)


def test_account_talk_and_vacation_mails_fit(players):
    run = players
    got: list[tuple[str, Reply]] = []

    def send(sender: str, line: str, comment: str | None = None, **kw: tuple[str, ...]) -> None:
        got.extend((line, r) for r in run_as(run, sender, line, comment, **kw))

    home, work = "eve@home.example", "eve@work.example"
    long_address = "a-very-long-local-part-of-an-address@" + "sub." * 12 + "example.org"
    send(work, f"signup eve Pa55word {work} {long_address}")  # a confirmation request
    send(work, f"signup eve2 Pa55word {home} {long_address}")  # refused: two in one mail
    send(STRANGER, "signup x y")
    send(STRANGER, "signup alice Pa55word")
    send(STRANGER, f"signup {'e' * 60} Pa55word")
    send(STRANGER, "signup fay Pa55word not-an-address " + JUNK)
    send(STRANGER, "confirm " + "0" * 64)
    send(ALICE, f"change address alice {PW['alice']} {ALICE} {long_address}")
    send(ALICE, f"set alice {PW['alice']} html off")
    send(ALICE, f"set alice {PW['alice']} html maybe")
    send(ALICE, f"vacation alice {PW['alice']} 10")
    send(ALICE, f"vacation alice {PW['alice']} 400")
    send(ALICE, f"vacation alice {PW['alice']} off")
    send(BOB, f"vacation bob {PW['bob']} off")
    send(ALICE, f"message alice {PW['alice']} bob carol", LONG_LINE)
    send(ALICE, f"message alice {PW['alice']} bob nobody " + JUNK, LONG_LINE)
    send(ALICE, f"broadcast alice {PW['alice']}", LONG_LINE)
    send(ALICE, f"broadcast alice {PW['alice']}", LONG_LINE, operators=("alice",))
    for attempt in range(8):  # wrong passwords pile up: the owner is told
        send(STRANGER, f"trou showas carol Guess-{attempt}-{'x' * 30}")
    send(STRANGER, "trou challenge alice bob")
    send(BOB, f"signoff bob {PW['bob']}")
    send(ALICE, f"change password alice {PW['alice']} abc")
    send(ALICE, f"change password alice {PW['alice']} N3w-Password")
    for line in ("help commands", "help", "list", "games alice all", "all show alice all"):
        send(STRANGER, line)
    subjects = {r.subject for _, r in got}
    assert {"Signed off", "pbm: wrong passwords for carol"} <= subjects, subjects
    assert any(s.startswith("Broadcast from") for s in subjects), subjects
    assert any(s.startswith("Message from") for s in subjects), subjects
    assert_fits(got)
