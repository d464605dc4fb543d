"""A whole Battleship game by mail against a real `pbm serve`, every mail checked.

Both fleets are placed at once (bob first, in lower case with the ships named), then alice
(Blue) sinks bob's whole fleet while bob shoots at open water; refusals come back with
their reasons and without the other fleet; the last board mails name the winner and show
both fleets.
"""

from __future__ import annotations

import pytest

from pbm.games.battleship.game import GAME
from tests.server.harness import PbmServer
from tests.server.players import ALICE, BOB, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server

BLUE_FLEET = "A1-A5 C3-F3 H1-H3 J5-J7 E9-F9"
RED_FLEET = "B2-F2 J1-J4 D5-D7 F7-H7 H9-I9"
RED_WRITTEN = "destroyer h9-i9, carrier b2 - f2, battleship j1-j4, cruiser d5-d7, sub f7-h7"
RED_CELLS = ["B2", "C2", "D2", "E2", "F2", "J1", "J2", "J3", "J4", "D5", "D6", "D7", "F7",
             "G7", "H7", "H9", "I9"]
WATER = [f"{col}10" for col in "ABCDEFGHIJ"] + [f"{col}8" for col in "ABCDEF"]


def error_to(server: PbmServer, address: str) -> str:
    (reply,) = server.collect(1)
    assert reply.to == address and reply.subject == "Battleship Board 101 Error"
    return " ".join(reply.body.split())


def test_battleship_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, GAME)
    table.ask_help()
    table.ask_help("battleships")  # the alias
    for reply in table.challenge().values():
        assert reply.subject == "New Battleship Board 101 alice bob"  # both place at once
        assert "It is alice's and bob's turn." in reply.body

    # A fleet with two ships on one cell is refused, saying where.
    server.send(BOB, f"battleship move 101 bob {PLAYERS[1].password} "
                     "a1-a5 a5-d5 h1-h3 j5-j7 e9-f9")
    assert ("Your Carrier A1-A5 and Battleship A5-D5 overlap at A5: ships may touch but "
            "never share a cell.") in error_to(server, BOB)

    table.play(1, RED_WRITTEN)
    for reply in table.mails[-1].values():
        assert reply.subject == "Battleship Board 101 alice"
    assert f"Your fleet: {RED_FLEET}" in table.mails[-1][BOB].body
    assert RED_FLEET not in table.mails[-1][ALICE].body
    assert "Red's fleet: placed." in table.mails[-1][ALICE].body
    assert "  1. ..." in table.mails[-1][ALICE].body
    table.play(0, BLUE_FLEET.lower())

    for number, cell in enumerate(RED_CELLS):
        text = cell if number % 3 else f" {cell[0].lower()} {cell[1:]} "
        table.play(0, text)
        for reply in table.mails[-1].values():  # neither fleet is in the other's mail
            other = RED_FLEET if reply.to == ALICE else BLUE_FLEET
            assert other not in reply.body or table.over
        if cell == "I9":
            assert "You sank Red's Destroyer!" in table.mails[-1][ALICE].body
            assert "Blue sank your Destroyer." in table.mails[-1][BOB].body
        if table.over:
            break
        table.play(1, WATER[number].lower())
        if number == 2:
            # A cell shot before is refused with when it was shot and what it was told.
            server.send(ALICE, f"battleship move 101 alice {PLAYERS[0].password} b2")
            refused = error_to(server, ALICE)
            assert "You shot at B2 on move 3: a hit." in refused
            assert RED_FLEET not in refused  # her own board comes with it, not bob's fleet

    last = table.check_over("Blue sank all five of Red's ships")
    for reply in last.values():
        assert "Game won by alice." in reply.body.splitlines()
        assert BLUE_FLEET in reply.body and RED_FLEET in reply.body
        assert "secret until the game ends" not in reply.body
    table.move_after_end_is_refused(1, "E5")
