"""The spellings pbmserv's players type, near misses named, and "Too few words" that says
which word is missing: for every game, through the command layer."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from pbm.db.models import Subscription
from pbm.games import registry
from tests.commands.conftest import ACCOUNTS, ALICE, PW, STRANGER, Runner, error, flat, one

GAMES = registry.names()


def started(run: Runner, word: str) -> tuple[str, str]:
    """Board 101 of `word` between alice and bob: the userid to move first and a legal
    move of theirs, as text (from the board's own state)."""
    one(run(STRANGER, f"{word} challenge alice bob"), ALICE)
    game, board = registry.get(word), run.board(101)
    assert board is not None
    state = game.decode(board.state)
    seat = min(game.to_move(state))
    return ("alice", "bob")[seat], game.notation(game.random_move(state, seat, random.Random(7)))


def sender(userid: str) -> str:
    return ACCOUNTS[userid][1]


@pytest.mark.parametrize("word", GAMES)
@pytest.mark.parametrize("verb", ["board", "mvoe"])
def test_board_and_mvoe_are_move(players: Runner, word: str, verb: str):
    userid, move = started(players, word)
    replies = players(sender(userid), f"{word} {verb} 101 {userid} {PW[userid]} {move}")
    assert not any(r.subject.lower().endswith("error") for r in replies), replies
    board = players.board(101)
    assert board is not None and board.move_count == 1


@pytest.mark.parametrize("verb", ["qmove", "qboard", "moveq", "boardq"])
def test_the_queue_spellings_queue(players: Runner, verb: str):
    started(players, "trou")
    players(ALICE, f"trou move 101 alice {PW['alice']} 1B2")
    replies = players(ALICE, f"trou {verb} 101 alice {PW['alice']} 2B1")
    assert "queued" in flat(one(replies).body).lower()
    board = players.board(101)
    assert board is not None and board.seats[0].queued == {"move": "2B1"}


@pytest.mark.parametrize("word", GAMES)
def test_sub_and_unsub_watch_and_stop(players: Runner, word: str):
    started(players, word)
    carol = ACCOUNTS["carol"][1]
    one(players(carol, f"{word} sub 101 carol {PW['carol']}"))
    assert subscriptions(players) == 1
    one(players(carol, f"{word} unsub 101 carol {PW['carol']}"))
    assert subscriptions(players) == 0


def subscriptions(run: Runner) -> int:
    with run.session() as session:
        return session.scalar(select(func.count()).select_from(Subscription)) or 0


@pytest.mark.parametrize(("line", "says"), [
    ("trou qmov 101 alice Secret1 1B2", "'qmov' is not a Trou command; did you mean queue?"),
    ("trou shwo 101", "'shwo' is not a Trou command; did you mean show?"),
    ("tru move 101 alice Secret1 1B2", "'tru' is not a command; did you mean trou?"),
    ("loopole show 101", "'loopole' is not a command; did you mean loophole?"),
    ("sigup eve Secret9", "'sigup' is not a command; did you mean signup?"),
    ("xyzzy 101", "'xyzzy' is not a command. Commands start with a game name"),
])
def test_a_near_miss_is_named(players: Runner, line: str, says: str):
    started(players, "trou")
    before = players.snapshot()
    refused = error(players(ALICE, line))
    assert says in flat(refused.body)
    assert "Secret1" not in refused.body
    assert players.snapshot() == before


@pytest.mark.parametrize("word", GAMES)
def test_too_few_words_names_the_missing_word_and_hides_only_the_password(players: Runner,
                                                                          word: str):
    userid, move = started(players, word)
    before = players.snapshot()
    password = PW[userid]
    cases = {  # the line sent: what is missing, and the line as quoted back
        f"{word} move {userid} {password} {move}":
            ("the board number is missing", f"{word} move {userid} ******** {move}"),
        f"{word} move 101 {password} {move}":
            ("the userid is missing", f"{word} move 101 ******** {move}"),
        f"{word} move 101 {userid} {move}":
            ("the password is missing", f"{word} move 101 {userid} {move}"),
        f"{word} move 101 {userid} {password}":
            ("the move is missing", f"{word} move 101 {userid} ********"),
    }
    if " " in move:
        # A move of several words (Outguess's "guess F8") fills the places of the words
        # left out: only a missing move leaves the command short.
        cases = {line: case for line, case in cases.items() if "move is" in case[0]}
    for line, (says, quoted) in cases.items():
        refused = error(players(sender(userid), line))
        assert f"Too few words: {says}." in flat(refused.body), line
        assert refused.body.endswith(f"Your command was:\n  {quoted}\n"), refused.body
        assert password not in refused.body
    assert players.snapshot() == before
