"""A whole game of Hilo (README's example game) through the real command layer."""

from __future__ import annotations

from tests.commands.conftest import ALICE, BOB, PW, STRANGER, Runner, error, one
from tests.games.example_game import GAME


def move(run: Runner, userid: str, text: str):
    address = {"alice": ALICE, "bob": BOB}[userid]
    return run(address, f"hilo move 101 {userid} {PW[userid]} {text}")


def test_a_whole_game_by_mail(players, hilo):
    run = players
    replies = run(STRANGER, "hilo challenge alice bob")
    assert one(replies, ALICE).subject == "New Hilo Board 101 alice"

    # alice (Hider) hides 6: her mail shows it, bob's and the public board do not.
    replies = move(run, "alice", "6")
    mine, bobs = one(replies, ALICE).body, one(replies, BOB).body
    assert one(replies, BOB).subject == "Hilo Board 101 bob"
    assert "  1. 6" in mine and "Hidden number: 6" in mine
    assert "  1. ..." in bobs and "Hidden number: ?" in bobs
    public = one(run(STRANGER, "hilo show 101")).body
    assert "  1. ..." in public and "Hidden number: ?" in public

    # A refusal goes to bob alone, with the rule module's own words.
    refused = error(move(run, "bob", "ten"))
    assert refused.to == (BOB,)
    assert "Send a number from 1 to 9, not 'ten'." in refused.body

    assert "3 higher" in one(move(run, "bob", "3"), BOB).body
    assert "8 lower" in one(move(run, "bob", "8"), BOB).body
    replies = move(run, "bob", "6")
    for address in (ALICE, BOB):
        body = one(replies, address).body
        assert "Game won by bob." in body and "The Seeker found 6." in body
        assert "  1. 6" in body and "Hidden number: 6" in body  # all is shown at the end
    assert run.board(101).status == "finished"
    assert [m.notation for m in run.moves(101)] == ["6", "3", "8", "6"]


def test_its_help_page_comes_from_the_contract(run, hilo):
    reply = one(run(STRANGER, "hilo help"))
    assert (reply.subject, reply.body) == ("Hilo Help", GAME.help_page())
    assert "    Guesses: 3 higher, 8 lower" in reply.body
