"""A whole game of Reversi by mail against a real `pbm serve`: help, the challenge, moves in
any case and spacing, White's mailed passes, refusals with their reasons, the end."""

from __future__ import annotations

import pytest

from pbm.games.reversi import GAME
from tests.games.test_reversi import PASSING_GAME
from tests.server.harness import PbmServer
from tests.server.players import ALICE, BOB, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server


def spelled(number: int, notation: str) -> str:
    """How a player might write the move: lower case, a space inside, or as recorded."""
    if notation == "pass":
        return "PASS" if number % 2 else "pass"
    return (notation.lower(), f"{notation[0]} {notation[1]}", notation)[number % 3]


def refused(server: PbmServer, seat: int, text: str) -> str:
    """Mail `text` as `seat`'s move; the one reply is an error to that player: its body."""
    player = PLAYERS[seat]
    server.send(player.address, f"reversi move 101 {player.userid} {player.password} {text}")
    (error,) = server.collect(1)
    assert error.to == player.address
    assert error.subject == "Reversi Board 101 Error"
    return " ".join(error.body.split())  # long lines are wrapped


def test_reversi_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, GAME)
    table.ask_help()
    for reply in table.challenge().values():
        assert "Black: alice" in reply.body and "White: bob" in reply.body
        assert "No move yet: Black moves first." in reply.body

    # alice's first move must outflank: A1 does not; her legal moves are listed.
    error = refused(server, 0, "a1")
    assert ("A disc on A1 would outflank no White disc: a move must turn over at least one,"
            " in a straight line from it to a Black disc. Your legal moves: C4, D3, E6 and"
            " F5.") in error
    for number, notation in enumerate(PASSING_GAME, start=1):
        seat = min(table.movers())
        if number == 31:  # White will have no move after this one: its mail says so
            replies = table.play(seat, spelled(number, notation))
            for reply in replies.values():
                assert "White has no legal move and must pass." in reply.body
            assert "You have no legal move: send pass." in replies[BOB].body
            # A square is refused while a pass is owed, and saying why.
            error = refused(server, 1, "h8")
            assert "You have no legal move: no empty square lets a White disc outflank a Black"\
                " disc. You must pass: send pass." in error
            continue
        if notation == "pass":
            assert seat == 1 and table.state.must_pass
        replies = table.play(seat, spelled(number, notation))
        if notation == "pass":
            for reply in replies.values():
                assert "Last move: White passed, having no legal move." in reply.body
        elif number == 2:
            # Passing with a legal move is refused, with the moves there are.
            error = refused(server, 0, "pass")
            assert ("You cannot pass while you have a legal move: only a player who has none"
                    " passes.") in error
            assert "Your legal moves:" in error

    last = table.check_over("Neither player can move, with 23 squares empty")
    for reply in last.values():
        lines = reply.body.splitlines()
        assert "Game won by alice." in lines
        assert "Black (#): 32 discs    White (O): 9 discs    Empty: 23 squares" in lines
        words = " ".join(reply.body.split())
        assert "scores 55 to 9 with the empty squares, which go to the winner" in words
    assert ALICE in last and BOB in last
    table.move_after_end_is_refused(1, "A1")
