"""A whole game of Hex by mail against a real `pbm serve`: help, the challenge, a swap, moves
in lower case and with spaces, refusals with their reasons, and White's winning row."""

from __future__ import annotations

import pytest

from pbm.games.hex import GAME as HEX
from tests.server.harness import PbmServer
from tests.server.players import ALICE, BOB, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server

# Black opens C2 and bob swaps it for White's B3 (C2 mirrored). Then Black fills row 1
# from A1 while White fills row 3 round B3, from A3 to K3: White's row joins left and right.
BLACK_ROW = ["a1", "B1", "c 1", "D1", "e1", "F 1", "G1", "h1", "I1", "J1"]
WHITE_ROW = ["A3", "c3", "D 3", "e3", "F3", "g3", "H3", "i 3", "J3", "k3"]


def refused(server: PbmServer, seat: int, text: str) -> str:
    """Mail `text` as `seat`'s move; the error mail's body, sent to the sender alone."""
    player = PLAYERS[seat]
    server.send(player.address, f"hex move 101 {player.userid} {player.password} {text}")
    (error,) = server.collect(1)
    assert error.to == player.address and error.subject == "Hex Board 101 Error"
    assert player.password not in error.body
    return " ".join(error.body.split())


def test_hex_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, HEX)
    table.ask_help()
    table.challenge()

    table.play(0, "c2")
    for reply in table.mails[-1].values():
        assert "White may swap: Black's C2 would become White's B3." in reply.body
    assert "Place a stone, or swap: Black's C2 becomes your B3." \
        in table.mails[-1][BOB].body
    table.play(1, " Swap ")  # MailGame checks the move list shows "  2. swap"
    for reply in table.mails[-1].values():
        assert "Last move: White swapped: Black's C2 became White's B3, shown as [O]." \
            in reply.body

    # Refusals say why: a stone on White's B3, a second swap, a cell off the board.
    assert ("B3 already holds White's stone, and stones never move. Place yours on an empty"
            " cell, e.g.") in refused(server, 0, "b3")
    assert "Swap is only allowed as White's first move" in refused(server, 0, "swap")
    assert "There is no cell L1: the board has columns A to K and rows 1 to 11." \
        in refused(server, 0, "L1")

    for black, white in zip(BLACK_ROW, WHITE_ROW, strict=True):
        assert not table.over
        table.play(0, black)
        table.play(1, white)
    last = table.check_over("joined the left and right edges")
    for reply in last.values():
        assert "Game won by bob." in reply.body.splitlines()
        words = " ".join(reply.body.split())
        assert ("White joined the left and right edges with an unbroken chain of stones; K3"
                " completed it.") in words
    assert set(last) == {ALICE, BOB}
    assert len(table.log) == 22
    table.move_after_end_is_refused(0, "K1")
