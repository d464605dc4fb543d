"""`GAME preview BOARD[#n] [USERID PASSWORD] MOVE ...` and `GAME preview new N MOVE ...`
(issues 10 and 25): moves tried on a copy of a board or on a new one, the result mailed to
the asker, nothing saved. Anyone may preview a public game without a password (the public
view); a player who gives their password sees their own view. Refused for games with
secrets.
"""

from __future__ import annotations

import random

import pytest

from pbm.games import registry
from pbm.games.trou.game import GAME as TROU
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
)
from tests.commands.test_votes import BOARD, USERS, opening, trou_after

SECRET_GAMES = [name for name in registry.names() if registry.get(name).info.hidden]
OPEN_GAMES = [name for name in registry.names() if not registry.get(name).info.hidden]


def preview(run, userid: str, words: str, sender: str | None = None, word: str = "trou"):
    address = sender or {"alice": ALICE, "bob": BOB, "carol": CAROL}[userid]
    return run(address, f"{word} preview {words.split()[0]} {userid} {PW[userid]} "
                        f"{' '.join(words.split()[1:])}")


def test_a_preview_mails_the_asker_the_board_after_the_moves_and_saves_nothing(players):
    start_trou(players, moves=TROU_GAME[:3])
    snapshot = players.snapshot()
    replies = preview(players, "alice", "101 2B3 4A2")  # bob's move, then alice's
    reply = one(replies)
    assert reply.to == (ALICE,) and reply.kind == "answer"
    assert reply.subject == "Trou Board 101 Preview"
    assert reply.body == "\n".join([
        "Preview of Trou Board 101 (nothing has been played or saved)",
        "",
        "From the board after move 3, these moves were tried:",
        "   4. 2B3 (bob)",
        "   5. 4A2 (alice)",
        "It would be bob's turn.",
        "",
        TROU.render(trou_after(*TROU_GAME[:5]), 0).rstrip("\n"),
    ]) + "\n"
    assert_never_echoed(replies, PW["alice"])
    assert players.snapshot() == snapshot


def test_a_preview_from_an_earlier_move_and_to_the_end(players):
    start_trou(players, moves=TROU_GAME[:4])
    snapshot = players.snapshot()
    # From move 1, with the moves separated by ';' (as a move with spaces would be written).
    body = one(preview(players, "bob", "101#1 4C2 ; 2B1;2B3;4A2;3C3;3A3;1A1")).body
    assert "From the board after move 1, these moves were tried:" in body
    assert "   8. 1A1 (bob)" in body
    assert "The game would be won by alice." in body
    assert TROU.render(trou_after(*TROU_GAME), 1).rstrip("\n") in body
    more = error(preview(players, "bob", "101#1 4C2 2B1 2B3 4A2 3C3 3A3 1A1 1C1"))
    assert "Preview move 8 ('1C1') cannot be tried: the game is over at that point." \
        in more.body
    assert "The game would be won by alice." in more.body  # the board before it
    start = one(preview(players, "alice", "101#0 1B2")).body
    assert "From the board at its start, these moves were tried:" in start
    assert players.snapshot() == snapshot


def test_an_illegal_move_is_named_with_the_reason_and_the_board_before_it(players):
    start_trou(players, moves=TROU_GAME[:3])
    snapshot = players.snapshot()
    reply = error(preview(players, "alice", "101 2B3 4A2 4B1"))
    assert reply.subject == "Trou Board 101 Error"
    first = reply.body.splitlines()[0]
    assert first.startswith("Preview move 3 ('4B1', for bob) cannot be played: ")
    assert "   5. 4A2 (alice)" in reply.body and "It would be bob's turn." in reply.body
    assert TROU.render(trou_after(*TROU_GAME[:5]), 0).rstrip("\n") in reply.body
    assert "trou preview 101 alice ******** 2B3 4A2 4B1" in reply.body
    assert PW["alice"] not in reply.body
    assert players.snapshot() == snapshot


@pytest.mark.parametrize("sender,line,says", [
    (ALICE, "trou preview 101 alice Wrong-pw-9 2B3", "password"),
    # Not a userid, so a move: one that cannot be read is not quoted (it may be a password).
    (STRANGER, f"trou preview 101 nobody {PW['alice']} 2B3",
     "The word after the board is neither a userid nor a move that can be read"),
    (STRANGER, f"trou preview 101 {PW['alice']} 2B3",
     "The word after the board is neither a userid nor a move that can be read"),
    (ALICE, f"trou preview 101 alice {PW['alice']}", "Too few words"),
    (ALICE, "trou preview 101 alice", "Too few words"),
    (STRANGER, "trou preview 101", "Too few words"),
    (ALICE, f"trou preview 101 alice {PW['alice']} ; ;", "No move given"),
    (ALICE, f"trou preview 101#9 alice {PW['alice']} 2B3", "there is no move #9"),
    (ALICE, f"trou preview 101#x alice {PW['alice']} 2B3", "not a board reference"),
    (ALICE, f"trou preview 102 alice {PW['alice']} 2B3", "There is no Trou board 102."),
    (ALICE, f"trou preview 101 alice {PW['alice']} " + "2B3 " * 41,
     "A preview may try at most 40 moves; this one has 41."),
    (STRANGER, "trou preview 101 " + "2B3 " * 41,
     "A preview may try at most 40 moves; this one has 41."),
    (STRANGER, "trou preview 101#99999 2B3", "there is no move #99999"),
    (STRANGER, "trou preview 101#" + "9" * 5000 + " 2B3", "not a board reference"),
    (STRANGER, "trou preview 101 2B3 9Z9", "Preview move 2 ('9Z9', for alice) cannot be"),
    (STRANGER, "trou preview new 3 1B2", "Trou is played by 2 players, so a new board is "
                                         "for 2: write trou preview new 2 MOVE ..."),
    (STRANGER, "trou preview new x 1B2", "Trou is played by 2 players"),
    (STRANGER, "trou preview new 2", "No move given"),
    (STRANGER, "trou preview new 2 " + "1B2 " * 41, "at most 40 moves"),
    (STRANGER, "trou preview new 2 1B2 1B2", "Preview move 2 ('1B2', for Black) cannot be"),
])
def test_refused_previews(players, sender, line, says):
    start_trou(players, moves=TROU_GAME[:3])
    snapshot = players.snapshot()
    replies = players(sender, line)
    reply = error(replies)
    assert reply.to == (sender,)
    assert says in flat(reply.body), reply.body
    assert_never_echoed(replies, PW["alice"], PW["carol"], "Wrong-pw-9")
    assert players.snapshot() == snapshot


@pytest.mark.parametrize("word", OPEN_GAMES)
def test_every_open_game_previews_its_first_moves(players, word):
    game = registry.get(word)
    log, states = opening(game, 5, seed=7)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log[:2]:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    snapshot = players.snapshot()
    for seat, userid in enumerate(USERS):
        tried = " ".join(text for _, text in log[2:])
        body = one(preview(players, userid, f"{BOARD} {tried}", word=word)).body
        assert game.render(states[5], seat).rstrip("\n") in body
        for number, (mover, text) in enumerate(log[2:], start=3):
            assert f"{number:>4}. {text} ({USERS[mover]})" in body
        earlier = one(preview(players, userid, f"{BOARD}#0 {log[0][1]}", word=word)).body
        assert game.render(states[1], seat).rstrip("\n") in earlier
    assert players.snapshot() == snapshot


@pytest.mark.parametrize("word", SECRET_GAMES)
def test_games_with_secrets_refuse_every_preview(players, word):
    """Even a player's own move can read the other's secret (a Pipeline probe reads the
    other's pipeline, an Outguess turn runs into the other's guess): no preview at all, and
    the refusal shows no board."""
    game = registry.get(word)
    log, states = opening(game, 6, seed=3)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    snapshot = players.snapshot()
    rng = random.Random(1)
    for seat, userid in enumerate(USERS):
        state = states[-1]
        movers = game.to_move(state)
        mover = seat if seat in movers else min(movers)
        move = game.notation(game.random_move(state, mover, rng))
        for ref in (f"{BOARD}", f"{BOARD}#2"):
            replies = preview(players, userid, f"{ref} {move}", word=word)
            reply = error(replies)
            assert flat(reply.body).startswith(
                f"Preview is not offered for {game.info.title}: the game keeps secrets from "
                "its players while it runs")
            assert "Summary" not in reply.body and "Preview of" not in reply.body
            for viewer in (None, 0, 1):
                assert game.render(state, viewer).rstrip("\n") not in reply.body
            assert_never_echoed(replies, PW[userid])
    assert players.snapshot() == snapshot


# ----- without a password, and on a new board (issue 25) -------------------------------------
def test_anyone_previews_a_public_game_without_a_password_and_sees_the_public_view(players):
    start_trou(players, moves=TROU_GAME[:3])
    snapshot = players.snapshot()
    reply = one(players(STRANGER, "trou preview 101 2B3 4A2"))
    assert (reply.to, reply.kind, reply.subject) == ((STRANGER,), "answer",
                                                     "Trou Board 101 Preview")
    assert reply.body == "\n".join([
        "Preview of Trou Board 101 (nothing has been played or saved)",
        "",
        "From the board after move 3, these moves were tried:",
        "   4. 2B3 (bob)",
        "   5. 4A2 (alice)",
        "It would be bob's turn.",
        "",
        TROU.render(trou_after(*TROU_GAME[:5]), None).rstrip("\n"),
    ]) + "\n"
    # From an earlier move, and by a player without their password: the same public view.
    earlier = one(players(BOB, "trou preview 101#1 4C2;2B1")).body
    assert "From the board after move 1, these moves were tried:" in earlier
    assert TROU.render(trou_after(*TROU_GAME[:3]), None).rstrip("\n") in earlier
    assert players.snapshot() == snapshot


def test_a_password_from_someone_not_playing_the_board_gives_the_public_view(players):
    """carol's userid and password are read as such (she has an account), and she does not
    play board 101: she sees what anyone sees, as `showas` shows her such a board."""
    start_trou(players, moves=TROU_GAME[:3])
    replies = players(CAROL, f"trou preview 101 carol {PW['carol']} 2B3")
    public = one(players(STRANGER, "trou preview 101 2B3")).body
    assert one(replies).body == public
    assert_never_echoed(replies, PW["carol"])


@pytest.mark.parametrize("verb", ["prev", "PREV", "previ", "previe", "Preview"])
def test_preview_may_be_cut_to_four_letters(players, verb):
    start_trou(players, moves=TROU_GAME[:3])
    expected = one(players(STRANGER, "trou preview 101 2B3")).body
    assert one(players(STRANGER, f"trou {verb} 101 2B3")).body == expected


def test_a_preview_on_a_new_board_names_the_seats(players):
    snapshot = players.snapshot()
    reply = one(players(STRANGER, "trou preview new 2 1B2 4C2 2B1"))
    assert (reply.to, reply.subject) == ((STRANGER,), "Trou Preview")
    assert reply.body == "\n".join([
        "Preview of a new Trou board (nothing has been played or saved)",
        "",
        "From a new board, these moves were tried:",
        "   1. 1B2 (Red)",
        "   2. 4C2 (Black)",
        "   3. 2B1 (Red)",
        "It would be Black's turn.",
        "",
        TROU.render(trou_after(*TROU_GAME[:3]), None).rstrip("\n"),
    ]) + "\n"
    whole = one(players(STRANGER, "trou preview new 2 " + " ".join(TROU_GAME))).body
    assert "The game would be won by Red." in whole
    assert players.snapshot() == snapshot  # no board was made


@pytest.mark.parametrize("word", OPEN_GAMES)
def test_every_open_game_previews_a_new_board_and_a_board_without_a_password(players, word):
    game = registry.get(word)
    log, states = opening(game, 4, seed=5)
    fresh = game.start(game.parse_options([]), 0)
    assert game.encode(fresh) == game.encode(states[0])  # no open game draws on its seed
    tried = " ".join(text for _, text in log)
    body = one(players(STRANGER, f"{word} preview new {game.info.players} {tried}")).body
    assert game.render(states[4], None).rstrip("\n") in body
    for number, (mover, text) in enumerate(log, start=1):
        assert f"{number:>4}. {text} ({game.info.seats[mover]})" in body
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log[:2]:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    snapshot = players.snapshot()
    rest = " ".join(text for _, text in log[2:])
    body = one(players(STRANGER, f"{word} preview {BOARD} {rest}")).body
    assert game.render(states[4], None).rstrip("\n") in body
    assert f"   4. {log[3][1]} ({USERS[log[3][0]]})" in body
    assert players.snapshot() == snapshot


@pytest.mark.parametrize("word", SECRET_GAMES)
def test_games_with_secrets_refuse_previews_without_a_password_and_on_new_boards(players,
                                                                                  word):
    game = registry.get(word)
    log, states = opening(game, 2, seed=3)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    snapshot = players.snapshot()
    movers = game.to_move(states[-1])
    move = game.notation(game.random_move(states[-1], min(movers), random.Random(2)))
    first = game.notation(game.random_move(states[0], 0, random.Random(2)))
    for line in (f"{word} preview {BOARD} {move}", f"{word} preview {BOARD}#1 {move}",
                 f"{word} preview new 2 {first}"):
        reply = error(players(STRANGER, line))
        assert flat(reply.body).startswith(f"Preview is not offered for {game.info.title}")
        assert "Preview of" not in reply.body
        for viewer in (None, 0, 1):
            assert game.render(states[-1], viewer).rstrip("\n") not in reply.body
    assert players.snapshot() == snapshot
