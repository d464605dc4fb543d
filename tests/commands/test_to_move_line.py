"""Every board mail to the player who moves next ends with the command to send, filled in;
the first mail of a board tells the other player how they will move and how to decline."""

from __future__ import annotations

import pytest

from pbm.games import registry
from tests.commands.conftest import (
    ACCOUNTS,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    one,
    start_trou,
)

GAMES = registry.names()


@pytest.mark.parametrize("word", GAMES)
def test_the_mover_is_told_the_command_and_it_plays(players: Runner, word: str):
    game = registry.get(word)
    replies = players(STRANGER, f"{word} challenge alice bob")
    one(players(CAROL, f"{word} subscribe 101 carol {PW['carol']}"))
    board = players.board(101)
    assert board is not None
    state = game.decode(board.state)
    seat = min(game.to_move(state))  # where both start (Battleship's fleets), seat 0
    mover, other = ("alice", "bob")[seat], ("alice", "bob")[1 - seat]
    last = {userid: one(replies, ACCOUNTS[userid][1]).body.rstrip().splitlines()
            for userid in ("alice", "bob")}
    to_move = last[mover][-1]
    prefix = f"To move: {word} move 101 {mover} PASSWORD "
    # The #n guard is given where one seat alone is to move (views/to_move.py).
    guard = "#1" if len(game.to_move(state)) == 1 else ""
    assert to_move.startswith(prefix) and to_move.endswith(guard)
    if 1 - seat not in game.to_move(state):
        assert last[other][-2:] == [
            f"When your turn comes: {word} move 101 {other} PASSWORD MOVE",
            f"To decline: {word} resign 101 {other} PASSWORD"]
    example = to_move[len(prefix):len(to_move) - len(guard)]
    if game.info.hidden:
        # What a seat may play can follow from what it may not see: no example there.
        assert example == "MOVE"
        return
    # The example is a legal move: sent as it stands, with the password, it plays.
    replies = players(ACCOUNTS[mover][1], to_move.removeprefix("To move: ").replace(
        "PASSWORD", PW[mover]))
    assert players.board(101).move_count == 1
    # The next mover's mail ends with their command; the others' and the spectator's not.
    next_line = one(replies, ACCOUNTS[other][1]).body.rstrip().splitlines()[-1]
    assert next_line.startswith(f"To move: {word} move 101 {other} PASSWORD ")
    assert next_line.endswith("#2")
    for address in (ACCOUNTS[mover][1], CAROL):
        assert "PASSWORD" not in one(replies, address).body


def test_a_finished_board_tells_nobody_to_move(players: Runner):
    start_trou(players, moves=TROU_GAME[:-1])
    replies = players(ACCOUNTS["alice"][1], f"trou move 101 alice {PW['alice']} {TROU_GAME[-1]}")
    assert replies and all("PASSWORD" not in reply.body for reply in replies)
