"""Confirming an address by mail through a real `pbm serve`: the address named gets one
request and nothing else, until a plain reply to that request confirms it."""

from __future__ import annotations

import pytest

from tests.server.harness import PbmServer, by_recipient
from tests.server.players import ALICE, PLAYERS, signup_both

pytestmark = pytest.mark.server

CAROL = "carol@players.test"  # where carol writes from
CAROL_HOME = "carol@home.test"  # the address she names as well
DAVE, DAVE_HOME = "dave@players.test", "dave@home.test"
ALICE_PASSWORD = PLAYERS[0].password


def test_an_address_is_confirmed_by_replying_to_its_request(server: PbmServer):
    signup_both(server)
    server.send(CAROL, f"signup carol pw-carol-5k {CAROL} {CAROL_HOME}")
    mails = by_recipient(server.collect(2))
    assert mails[CAROL].subject == "Welcome to pbm, carol"
    assert f"Board mails for carol go to: {CAROL}\n" in mails[CAROL].body
    request = mails[CAROL_HOME]
    token = request.subject.split()[1]
    assert request.subject == f"confirm {token} (pbm: {CAROL_HOME} for carol)"
    assert CAROL in request.body and f"confirm {token}" in request.body
    assert token not in mails[CAROL].body and token not in mails[CAROL].subject

    # A board mail goes to carol's confirmed address only.
    server.send(ALICE, "trou challenge alice carol")
    assert set(by_recipient(server.collect(2))) == {ALICE, CAROL}

    # A plain reply to the request, quoting it, confirms the address.
    quoted = "\n".join(f"> {line}" for line in request.body.splitlines())
    server.send(CAROL_HOME, f"Re: {request.subject}",
                f"Yes, that is me.\n\nOn Monday pbm wrote:\n{quoted}\n",
                headers={"In-Reply-To": str(request.message["Message-ID"]),
                         "References": str(request.message["Message-ID"])})
    (answer,) = server.collect(1)
    assert (answer.to, answer.subject) == (CAROL_HOME, "Address confirmed")
    assert f"now go to: {CAROL}, {CAROL_HOME}" in " ".join(answer.body.split())
    assert token not in answer.body

    # From now on board mails go there too.
    server.send(ALICE, f"trou move 101 alice {ALICE_PASSWORD} 1B2")
    moved = by_recipient(server.collect(3))
    assert set(moved) == {ALICE, CAROL, CAROL_HOME}
    assert moved[CAROL_HOME].subject == moved[CAROL].subject


def test_a_user_with_no_confirmed_address_cannot_be_challenged(server: PbmServer):
    signup_both(server)
    server.send(DAVE, f"signup dave pw-dave-8m {DAVE_HOME}")
    mails = by_recipient(server.collect(2))
    assert mails[DAVE_HOME].subject.startswith("confirm ")
    assert "go nowhere until an address is confirmed" in mails[DAVE].body

    server.send(ALICE, "trou challenge alice dave")
    (refused,) = server.collect(1)  # to alice: nothing goes to dave's addresses
    assert refused.to == ALICE
    assert "dave has not confirmed any mail address yet, so dave could not get the board" \
        in " ".join(refused.body.split())

    # Asking again the same day sends no second request there.
    server.send(DAVE, f"change address dave pw-dave-8m {DAVE_HOME}")
    (answer,) = server.collect(1)
    assert answer.to == DAVE and "still waiting for an answer" in answer.body
