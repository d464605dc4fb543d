"""`GAME replay BOARD N [MOVE ...]` (issue 25): the board as everyone saw it after move n,
with its moves up to there and moves tried from it; anyone may ask, nothing is saved. In
games with secrets no moves may be tried."""

from __future__ import annotations

import random

import pytest

from pbm.games import registry
from pbm.games.trou.game import GAME as TROU
from tests.commands.conftest import (
    ALICE,
    BOB,
    PW,
    STRANGER,
    TROU_GAME,
    error,
    flat,
    one,
    start_trou,
)
from tests.commands.test_preview import OPEN_GAMES, SECRET_GAMES
from tests.commands.test_votes import BOARD, USERS, opening, trou_after


def test_a_replay_shows_the_public_board_after_move_n_with_its_moves(players):
    start_trou(players, moves=TROU_GAME[:5])
    snapshot = players.snapshot()
    reply = one(players(STRANGER, "trou replay 101 3"))
    assert (reply.to, reply.kind, reply.subject) == ((STRANGER,), "answer",
                                                     "Trou Board 101 Replay")
    assert reply.body == "\n".join([
        "Replay of Trou Board 101 (nothing has been played or saved)",
        "",
        "Red: alice          Black: bob",
        "  1. 1B2              2. 4C2",
        "  3. 2B1",
        "",
        "The board after move 3, before any move tried:",
        "It is bob's turn.",
        "",
        TROU.render(trou_after(*TROU_GAME[:3]), None).rstrip("\n"),
    ]) + "\n"
    start = one(players(BOB, "trou replay 101 0")).body
    assert "The board at its start, before any move tried:" in start
    assert "(no moves yet)" in start and "It is alice's turn." in start
    assert players.snapshot() == snapshot


def test_a_replay_tries_moves_from_move_n(players):
    start_trou(players, moves=TROU_GAME[:5])
    snapshot = players.snapshot()
    body = one(players(ALICE, "trou replay 101 2 2B1 2B3")).body
    assert "From the board after move 2, these moves were tried:" in body
    assert "   3. 2B1 (alice)\n   4. 2B3 (bob)\nIt would be alice's turn." in body
    assert "  3. 2B1" not in body.split("From the board")[0]  # the list stops at move 2
    assert TROU.render(trou_after(*TROU_GAME[:4]), None).rstrip("\n") in body
    refused = error(players(ALICE, "trou replay 101 2 2B1 9Z9"))
    assert refused.subject == "Trou Board 101 Error"
    assert flat(refused.body).startswith("Replay move 2 ('9Z9', for bob) cannot be played")
    assert "   3. 2B1 (alice)" in refused.body  # the board before it
    assert players.snapshot() == snapshot


def test_a_replay_of_a_finished_game_says_who_won(players):
    start_trou(players, moves=TROU_GAME)
    body = one(players(STRANGER, f"trou replay 101 {len(TROU_GAME)}")).body
    assert "Game won by alice." in body
    assert TROU.render(trou_after(*TROU_GAME), None).rstrip("\n") in body
    over = error(players(STRANGER, f"trou replay 101 {len(TROU_GAME)} 1C1"))
    assert "Replay move 1 ('1C1') cannot be tried: the game is over at that point." \
        in flat(over.body)


@pytest.mark.parametrize("line,says", [
    ("trou replay 101 6", "Board 101 has 5 moves; there is no move #6 to replay to."),
    ("trou replay 101 99999", "Board 101 has 5 moves; there is no move #99999 to replay to."),
    ("trou replay 101 " + "9" * 5000, "is not a move number: write trou replay 101 5"),
    ("trou replay 101 -1", "'-1' is not a move number"),
    ("trou replay 101 x", "'x' is not a move number"),
    ("trou replay 101#3 3", "is not a board number"),
    ("trou replay 102 3", "There is no Trou board 102."),
    ("trou replay 101", "Too few words"),
    ("trou replay 101 3 " + "2B3 " * 41, "A replay may try at most 40 moves; this one has 41."),
])
def test_refused_replays(players, line, says):
    start_trou(players, moves=TROU_GAME[:5])
    snapshot = players.snapshot()
    reply = error(players(STRANGER, line))
    assert reply.to == (STRANGER,)
    assert says in flat(reply.body), reply.body
    assert players.snapshot() == snapshot


@pytest.mark.parametrize("word", registry.names())
def test_every_game_replays_every_move_as_the_public_saw_it(players, word):
    game = registry.get(word)
    log, states = opening(game, 5, seed=11)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    snapshot = players.snapshot()
    for number, state in enumerate(states):
        body = one(players(STRANGER, f"{word} replay {BOARD} {number}")).body
        assert game.render(state, None).rstrip("\n") in body, number
        for seat in (0, 1):
            own = game.render(state, seat).rstrip("\n")
            if own != game.render(state, None).rstrip("\n"):
                assert own not in body  # a player's secrets stay theirs
    assert players.snapshot() == snapshot


@pytest.mark.parametrize("word", OPEN_GAMES)
def test_open_games_try_moves_in_a_replay(players, word):
    game = registry.get(word)
    log, states = opening(game, 4, seed=13)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    tried = " ".join(text for _, text in log[1:])
    body = one(players(STRANGER, f"{word} replay {BOARD} 1 {tried}")).body
    assert game.render(states[4], None).rstrip("\n") in body
    assert f"   2. {log[1][1]} ({USERS[log[1][0]]})" in body


@pytest.mark.parametrize("word", SECRET_GAMES)
def test_games_with_secrets_try_no_moves_in_a_replay(players, word):
    game = registry.get(word)
    log, states = opening(game, 3, seed=13)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        players({"alice": ALICE, "bob": BOB}[USERS[seat]],
                f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}")
    snapshot = players.snapshot()
    movers = game.to_move(states[1])
    move = game.notation(game.random_move(states[1], min(movers), random.Random(4)))
    reply = error(players(ALICE, f"{word} replay {BOARD} 1 {move}"))
    assert flat(reply.body).startswith(
        f"Trying moves in a replay is not offered for {game.info.title}: the game keeps "
        "secrets from its players while it runs")
    assert f"Without moves, a replay shows the board: {word} replay {BOARD} 1" \
        in flat(reply.body)
    for state in states:
        for viewer in (None, 0, 1):
            assert game.render(state, viewer).rstrip("\n") not in reply.body
    assert players.snapshot() == snapshot
