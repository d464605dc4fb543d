"""A whole game of Amazons by mail against a real `pbm serve`, every mail checked against
the rules' own replay (tests/server/players.py)."""

from __future__ import annotations

import random

import pytest

from pbm.games.amazons import GAME
from tests.server.harness import PbmServer
from tests.server.players import ALICE, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server


def as_players_write(notation: str, number: int) -> str:
    """The canonical D1-D6/G3 as players may write it: lower case, spaces, a comma."""
    origin, rest = notation.split("-")
    destination, arrow = rest.split("/")
    spellings = (notation, f"{origin} {destination} {arrow}".lower(),
                 f"{origin.lower()}-{destination.lower()},{arrow.lower()}",
                 f"{origin}{destination}{arrow}")
    return spellings[number % len(spellings)]


def test_amazons_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, GAME)
    table.ask_help()
    table.challenge()

    # An illegal first move is refused with its reason; nothing is played.
    server.send(ALICE, f"amazons move 101 alice {PLAYERS[0].password} D1-D10/D9")
    (error,) = server.collect(1)
    assert error.to == ALICE and error.subject == "Amazons Board 101 Error"
    words = " ".join(error.body.split())
    assert "D10 holds Black's amazon: an amazon moves only to an empty square." in words
    assert "From D1 it can reach A1, B1, C1" in words
    assert PLAYERS[0].password not in error.body

    rng = random.Random(2)
    while not table.over:
        (seat,) = table.movers()
        notation = GAME.notation(GAME.random_move(table.state, seat, rng))
        replies = table.play(seat, as_players_write(notation, len(table.log)))
        for reply in replies.values():
            assert f"Last move: {GAME.info.seats[seat]} {notation}:" in reply.body
    assert 40 < len(table.log) <= 92
    last = table.check_over("none of its amazons can move")
    winner = min(GAME.result(table.state).winners)
    for reply in last.values():
        assert f"Game won by {PLAYERS[winner].userid}." in reply.body.splitlines()
        assert f"{GAME.info.seats[1 - winner]} to move has no legal move" in reply.body
    table.move_after_end_is_refused(1 - winner, "A1-A2/A3")
