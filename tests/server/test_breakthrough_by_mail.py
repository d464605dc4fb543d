"""A whole game of Breakthrough by mail against a real `pbm serve`, every mail checked: help,
the challenge, moves written every way the notation allows, a refused move with its reason,
a refused board size, and the last board naming the winner."""

from __future__ import annotations

import pytest

from pbm.games.breakthrough import GAME
from tests.games.test_breakthrough import GOLDEN_MOVES
from tests.server.harness import PbmServer
from tests.server.players import ALICE, BOB, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server

# How the players write some of the golden game's moves: lower case, spaces, no joiner,
# a dash for a capture, pbmserv's short form (Black's H8xG7 is "H8L": towards column A).
WRITTEN = {0: "d2 d3", 3: "e6e5", 4: "d4-e5", 6: "E5 x F6", 9: "f6f", 14: "e2r", 25: "h8l"}


def test_breakthrough_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, GAME)
    help_mail = table.ask_help()
    assert "breakthrough challenge -size=N userid1 userid2" in help_mail.body
    replies = table.challenge()
    for reply in replies.values():
        assert reply.subject == "New Breakthrough Board 101 alice"
        assert "White: alice" in reply.body and "Black: bob" in reply.body
        assert "  8  x x x x x x x x  8" in reply.body
    prompt = GAME.prompt(table.state, 0)
    assert prompt is not None and prompt in replies[ALICE].body
    assert prompt not in replies[BOB].body  # the prompt is for the seat to move

    for number, notation in enumerate(GOLDEN_MOVES):
        if number == 8:
            refuse_a_straight_capture(server)
        seat = number % 2
        replies = table.play(seat, WRITTEN.get(number, notation))
        assert table.log[-1].notation == notation
        for reply in replies.values():
            assert f"Last move: {GAME.info.seats[seat]} {notation}, to " in reply.body
        if number == 14:  # White's E2xF3: Black's third loss
            assert "Black (x): 13 pieces (3 taken), moving down to row 1" in \
                replies[BOB].body

    last = table.check_over("Black reached row 1")
    for reply in last.values():
        assert "Game won by bob." in reply.body.splitlines()
        assert "Result: Black reached row 1 with the piece on E1." in reply.body
    table.move_after_end_is_refused(0, "A4-A5")


def refuse_a_straight_capture(server: PbmServer) -> None:
    """After 4. E5xF6 G7xF6 alice writes a capture onto an empty square, then a step of two
    squares: both refused with the reason and what she may do instead."""
    alice = PLAYERS[0]
    server.send(ALICE, f"breakthrough move 101 alice {alice.password} c2xc3")
    (error,) = server.collect(1)
    assert error.to == ALICE and error.subject == "Breakthrough Board 101 Error"
    words = " ".join(error.body.split())
    assert ("There is nothing to capture on C3: it is empty. To move there, write C2-C3."
            in words)
    assert alice.password not in error.body
    server.send(ALICE, f"breakthrough move 101 alice {alice.password} H2-H4")
    (error,) = server.collect(1)
    words = " ".join(error.body.split())
    assert ("A piece moves one square forward, straight or diagonally (up the board, towards"
            " the last row): H2-H4 is not such a step. The piece on H2 may play H2-G3 or"
            " H2-H3.") in words


def test_a_smaller_board_and_a_refused_size_by_mail(server: PbmServer):
    signup_both(server)
    server.send(ALICE, "breakthrough challenge -size=5 alice bob")
    (error,) = server.collect(1)
    assert error.to == ALICE
    assert "Option -size of Breakthrough must be one of: 6, 7, 8, 9, 10, 11, 12." in \
        " ".join(error.body.split())
    server.send(ALICE, "breakthrough challenge -size=6 alice bob")
    boards = server.collect(2)
    for reply in boards:
        assert reply.subject == "New Breakthrough Board 101 alice"
        assert GAME.render(GAME.start({"size": 6}, 0), None).rstrip("\n") in reply.body
        assert "  6  x x x x x x  6" in reply.body
    server.send(ALICE, f"breakthrough move 101 alice {PLAYERS[0].password} f2-f3")
    moved = server.collect(2)
    assert all("Last move: White F2-F3, to [o] from (.)" in reply.body for reply in moved)
