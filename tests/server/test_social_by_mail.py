"""Talking and watching by mail through a real `pbm serve`: a spectator gets the public board
after a move, a chat reaches the opponent and the spectator, and an operator named in the
config broadcasts."""

from __future__ import annotations

import pytest

from tests.server.harness import PbmServer, by_recipient
from tests.server.players import ALICE, BOB, PLAYERS, signup_both

pytestmark = pytest.mark.server

CAROL = "carol@players.test"
CAROL_PASSWORD = "pw-carol-5k"
ALICE_PASSWORD, BOB_PASSWORD = PLAYERS[0].password, PLAYERS[1].password
PASSWORDS = (ALICE_PASSWORD, BOB_PASSWORD, CAROL_PASSWORD)


@pytest.fixture
def server(tmp_path):
    """`pbm serve` with alice as its operator (server.operators in the config file)."""
    pbm = PbmServer(tmp_path)
    pbm.write_config()
    text = pbm.config_file.read_text(encoding="utf-8")
    pbm.config_file.write_text(text.replace('hostname = "games.test"\n',
                                            'hostname = "games.test"\noperators = ["alice"]\n'),
                               encoding="utf-8")
    pbm.start()
    try:
        yield pbm
    finally:
        pbm.stop()


def no_password_in(*mails) -> None:
    for mail in mails:
        for password in PASSWORDS:
            assert password not in mail.body and password not in mail.subject


def test_spectator_chat_and_broadcast_by_mail(server: PbmServer):
    signup_both(server)
    server.send(CAROL, f"signup carol {CAROL_PASSWORD}")
    assert server.collect(1)[0].subject == "Welcome to pbm, carol"
    server.send(BOB, "trou challenge alice bob")
    assert set(by_recipient(server.collect(2))) == {ALICE, BOB}

    # carol watches board 101: the answer shows it now, and each move brings it again.
    server.send(CAROL, f"trou subscribe 101 carol {CAROL_PASSWORD}")
    (answer,) = server.collect(1)
    assert (answer.to, answer.subject) == (CAROL, "Trou Board 101 subscribed")
    server.send(ALICE, f"trou move 101 alice {ALICE_PASSWORD} 1B2", "Your move, bob.")
    moved = by_recipient(server.collect(3))
    spectator = moved[CAROL]
    assert spectator.subject == moved[BOB].subject == "Trou Board 101 bob **"
    assert spectator.body.startswith("Summary of Trou Board 101\n\nIt is bob's turn.\n")
    assert "alice writes:\nYour move, bob." in spectator.body
    assert " 1. 1B2" in spectator.body
    assert spectator.message["Auto-Submitted"] == "auto-generated"

    # A chat goes to bob and to carol, who watches, and nothing of it is on the board.
    server.send(ALICE, f"trou chat 101 alice {ALICE_PASSWORD}", "Nice weather for Trou.")
    chat = by_recipient(server.collect(3))
    for reader in (BOB, CAROL):
        assert chat[reader].subject == "Trou Board 101 chat from alice"
        assert "Nice weather for Trou." in chat[reader].body
        assert "Summary of" not in chat[reader].body
    assert chat[ALICE].body == "Your chat was sent to bob, carol.\n"
    server.send(CAROL, "trou show 101")
    (shown,) = server.collect(1)
    assert "Nice weather" not in shown.body

    # The operator writes to everyone else.
    server.send(ALICE, f"broadcast alice {ALICE_PASSWORD}", "The server moves on Sunday.")
    told = by_recipient(server.collect(3))
    assert {told[a].subject for a in (BOB, CAROL)} == {"Broadcast from alice"}
    assert all("The server moves on Sunday." in told[a].body for a in (BOB, CAROL))
    assert told[ALICE].body == "Your broadcast was sent to 2 users.\n"
    # bob is not an operator: refused, and only bob hears of it.
    server.send(BOB, f"broadcast bob {BOB_PASSWORD}", "Me too.")
    (refused,) = server.collect(1)
    assert refused.to == BOB and "Only the server's operators may broadcast" in refused.body
    no_password_in(answer, *moved.values(), *chat.values(), shown, *told.values(), refused)
