"""Move texts a rule module once mishandled, mailed to a real `pbm serve`.

A superscript digit (`A²`) passed str.isdigit() and crashed Pipeline's parse_cell: the mail
went to the failed inbox and the player got the operator's apology. And Outguess dropped a
`guess` written after a winning move in silence, where its rulings say nothing is dropped
silently: the winning line is played and the final mail says the guess was not needed.
"""

from __future__ import annotations

import random

import pytest

from pbm.games.outguess import GAME as OUTGUESS
from pbm.games.outguess.notation import cell_name
from tests import stores
from tests.server.harness import PbmServer, by_recipient
from tests.server.players import ALICE, BOB, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server

ALICE_PW, BOB_PW = PLAYERS[0].password, PLAYERS[1].password


def inbox_statuses(server: PbmServer) -> list[str]:
    with stores.sql(server.database) as db:
        return [row[0] for row in db.execute("select status from inbound_messages order by id")]


def move_count(server: PbmServer) -> int:
    with stores.sql(server.database) as db:
        return db.execute("select move_count from boards where number = 101").scalar_one()


def refused(server: PbmServer, sender: str, command: str) -> str:
    """Mail a move that must be refused; its one reply, to the sender, in one paragraph."""
    before = move_count(server)
    server.send(sender, command)
    (reply,) = server.collect(1)
    assert reply.to == sender and reply.subject == "Pipeline Board 101 Error", reply
    assert "operator" not in reply.body, reply.body  # not the apology for a bug
    assert move_count(server) == before  # nothing was played
    assert inbox_statuses(server)[-1] == "done"  # answered, not failed
    return " ".join(reply.body.split())


def test_superscript_digits_are_not_squares_by_mail(server: PbmServer):
    signup_both(server)
    server.send(ALICE, "pipeline challenge alice bob")
    server.collect(2)
    said = refused(server, ALICE, f"pipeline move 101 alice {ALICE_PW} A²")
    assert "'A²' is not a square." in said and "A1 to D4" in said
    assert ALICE_PW not in said
    for seat, text in ((0, "A1"), (1, "D4"), (0, "A1-B1-B2*-A2-A3*-A4-B4*-C4-D4"),
                       (1, "A1-B1-C1*-D1-D2*-C2-C3*-D3-D4")):
        player = PLAYERS[seat]
        server.send(player.address, f"pipeline move 101 {player.userid} {player.password} {text}")
        server.collect(2)
    # In probes and guesses too: each answered with the square it could not read.
    said = refused(server, ALICE, f"pipeline move 101 alice {ALICE_PW} B@C³,W@A1")
    assert "'C³' is not a square" in said
    said = refused(server, ALICE, f"pipeline move 101 alice {ALICE_PW} guess A2,B²,C4")
    assert "'B²' is not a square" in said
    assert "failed" not in inbox_statuses(server)
    # The board still plays: the right probe goes through.
    server.send(ALICE, f"pipeline move 101 alice {ALICE_PW} B@C3,W@A1")
    assert set(by_recipient(server.collect(2))) == {ALICE, BOB}
    assert move_count(server) == 5


def winning_outguess_game() -> list[tuple[int, str]]:
    """The shortest of some seeded random games that one player wins by entering the
    other's home row, its last line a winning move without a guess."""
    best: list[tuple[int, str]] | None = None
    for seed in range(60):
        rng = random.Random(seed)
        state = OUTGUESS.start({}, 0)
        log: list[tuple[int, str]] = []
        while OUTGUESS.result(state) is None and len(log) < 80:
            (seat,) = OUTGUESS.to_move(state)
            move = OUTGUESS.random_move(state, seat, rng)
            log.append((seat, OUTGUESS.notation(move)))
            state = OUTGUESS.play(state, seat, move)
        if state.winner is not None and "home row" in state.reason and (
                best is None or len(log) < len(best)):
            best = log
    assert best is not None, "no random Outguess game won on the home row"
    return best


def test_outguess_guess_after_the_winning_move_is_said_to_be_unneeded(server: PbmServer):
    signup_both(server)
    table = MailGame(server, OUTGUESS)
    table.challenge()
    moves = winning_outguess_game()
    for seat, text in moves[:-1]:
        table.play(seat, text)
    seat, winning = moves[-1]
    # A guess as a player would add out of habit: one of the opponent's pieces.
    guess = next(square for square, piece in enumerate(table.state.board)
                 if piece is not None and piece.owner == 1 - seat)
    line = f"{winning}, guess {cell_name(guess).lower()}"
    final = table.play(seat, line)  # the line is played, and its notation keeps the guess
    table.check_over("home row")
    mover = OUTGUESS.info.seats[seat]
    for reply in final.values():
        words = " ".join(reply.body.split())
        assert f"Game won by {PLAYERS[seat].userid}." in reply.body.splitlines()
        assert (f"{mover}'s `guess {cell_name(guess)}` after the winning move was not needed:"
                " the game ended with that move, so the guess was not used.") in words
        assert f"{len(moves):>3}. {winning}, guess {cell_name(guess)}" in reply.body
    assert "failed" not in inbox_statuses(server)
