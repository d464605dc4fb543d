"""A person plays a bot by mail against a real `pbm serve`: the bot worker finds its turn,
thinks in its own process and moves; the player gets each board as after a person's move."""

from __future__ import annotations

import re

import pytest

from pbm.games.trou.game import GAME as TROU
from tests.server.harness import PbmServer

ALICE = "alice@players.test"

pytestmark = pytest.mark.server

MOVE_LINE = re.compile(r"^\s*(\d+)\. (\S+)(?:\s+(\d+)\. (\S+))?\s*$")


def moves_in(body: str) -> list[str]:
    """The move list of a Trou board mail, in order."""
    found: dict[int, str] = {}
    for line in body.splitlines():
        match = MOVE_LINE.match(line)
        if match:
            found[int(match[1])] = match[2]
            if match[3]:
                found[int(match[3])] = match[4]
    return [found[n] for n in sorted(found)]


def replay(moves: list[str]):
    state = TROU.start({}, 0)
    for text in moves:
        (seat,) = TROU.to_move(state)
        state = TROU.play(state, seat, TROU.parse(state, seat, text))
    return state


def test_a_whole_game_against_a_bot_by_mail(server: PbmServer):
    server.send(ALICE, "signup alice secret")
    assert server.collect(1)[0].subject == "Welcome to pbm, alice"
    # The bot takes the first seat, so it moves as soon as the board is there.
    server.send(ALICE, "trou challenge easybot alice")
    new, first = server.collect(2)
    assert new.subject == "New Trou Board 101 easybot"
    assert new.to == ALICE
    moves = moves_in(first.body)
    assert len(moves) == 1 and first.subject == "Trou Board 101 alice"
    while TROU.result(replay(moves)) is None:
        state = replay(moves)
        assert TROU.to_move(state) == frozenset({1}), moves  # the bot never keeps her waiting
        move = TROU.notation(sorted(TROU.legal_moves(state, 1), key=TROU.notation)[0])
        server.send(ALICE, f"trou move 101 alice secret {move}#{len(moves) + 1}")
        over = TROU.result(replay([*moves, move])) is not None
        # Her board, then (unless her move ended the game) the bot's answer as its own.
        mails = sorted(server.collect(1 if over else 2), key=lambda m: len(moves_in(m.body)))
        assert moves_in(mails[0].body) == [*moves, move]
        if not over:
            assert moves_in(mails[1].body)[:-1] == [*moves, move]
        moves, last = moves_in(mails[-1].body), mails[-1]
    assert "Game won by" in last.body or "tie" in last.body
    server.send(ALICE, "trou standings")
    standings = server.collect(1)[0].body
    assert "easybot*" in standings and "alice" in standings
