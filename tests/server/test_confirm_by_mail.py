"""Confirming an address by mail through a real `pbm serve`: the address named gets one
request and nothing else, until a person sends its token back as a command; and the
requests are no cannon aimed at strangers."""

from __future__ import annotations

import re
import time

import pytest

from tests import stores
from tests.server.harness import PbmServer, Received, by_recipient
from tests.server.players import ALICE, PLAYERS, signup_both

pytestmark = pytest.mark.server

CAROL = "carol@players.test"  # where carol writes from
CAROL_HOME = "carol@home.test"  # the address she names as well
DAVE, DAVE_HOME = "dave@players.test", "dave@home.test"
ALICE_PASSWORD = PLAYERS[0].password
REQUEST_SUBJECT = "pbm: please confirm this address"
TOKEN = re.compile(r"\bconfirm ([A-Za-z0-9_-]{20,})")


def token_of(request: Received) -> str:
    found = TOKEN.search(request.body)
    assert found, request.body
    return found.group(1)


def test_an_address_is_confirmed_by_replying_to_its_request(server: PbmServer):
    signup_both(server)
    server.send(CAROL, f"signup carol pw-carol-5k {CAROL} {CAROL_HOME}")
    mails = by_recipient(server.collect(2))
    assert mails[CAROL].subject == "Welcome to pbm, carol"
    assert f"Board mails for carol go to: {CAROL}\n" in mails[CAROL].body
    request = mails[CAROL_HOME]
    token = token_of(request)
    assert request.subject == REQUEST_SUBJECT  # no word of the asker's
    assert CAROL in request.body and f"  confirm {token}\n" in request.body
    assert token not in mails[CAROL].body and token not in mails[CAROL].subject

    # A board mail goes to carol's confirmed address only.
    server.send(ALICE, "trou challenge alice carol")
    assert set(by_recipient(server.collect(2))) == {ALICE, CAROL}

    # A reply to the request, quoting it, with the command as its first line confirms.
    quoted = "\n".join(f"> {line}" for line in request.body.splitlines())
    server.send(CAROL_HOME, f"Re: {request.subject}",
                f"confirm {token}\n\nYes, that is me.\n\nOn Monday pbm wrote:\n{quoted}\n",
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
    assert mails[DAVE_HOME].subject == REQUEST_SUBJECT
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


# ----- a cannon aimed at strangers --------------------------------------------------------------
THIRD = "third.example"
CANNON = "\n".join(f"signup vic{n} pw{n:05d} victim{n}@{THIRD}" for n in range(50))


def handled(server: PbmServer, count: int) -> None:
    """Wait until `count` inbound mails are handled and nothing waits in the outbox."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with stores.sql(server.database) as db:
            done = db.execute("select count(*) from inbound_messages").fetchone()[0]
            waiting = db.execute("select count(*) from outbox where status = 'pending'"
                                 ).fetchone()[0]
        if done >= count and waiting == 0:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} mails not handled in time")


def to_strangers(mails: list[Received]) -> list[Received]:
    return [m for m in mails if m.to.endswith("@" + THIRD)]


def test_fifty_signups_in_one_mail_reach_one_stranger(server: PbmServer):
    """Was: 10 requests to 10 addresses nobody asked for, the attacker's userids in their
    Subjects."""
    attacker = "attacker@forged.example"
    server.send(attacker, "multiple", CANNON)
    handled(server, 1)
    mails = server.collect(2)
    (request,) = to_strangers(mails)
    assert request.to == f"victim0@{THIRD}" and request.subject == REQUEST_SUBJECT
    (answer,) = [m for m in mails if m.to == attacker]
    text = " ".join(answer.body.split())
    assert "A confirmation request has been mailed to victim0@third.example" in text
    assert "One mail may cause only one mail to an address that did not write to us" in text
    assert "the request to victim1@third.example was not sent" in text
    with stores.sql(server.database) as db:
        assert db.execute("select userid from users").fetchall() == [("vic0",)]

    # Three forged senders (was 30): one each.
    for k in (1, 2):
        server.send(f"attacker{k}@forged.example", "multiple", CANNON)
    handled(server, 3)
    later = to_strangers(server.collect(2 * 2))
    assert sorted(m.to for m in later) == [f"victim1@{THIRD}", f"victim2@{THIRD}"]
    assert all(m.subject == REQUEST_SUBJECT for m in later)


def test_the_server_caps_confirmation_requests_an_hour(tmp_path):
    """Senders are forged at will: the hour's cap is the server's, whoever asks."""
    server = PbmServer(tmp_path, extra_config="[limits]\nconfirmations_per_hour = 3\n")
    server.start()
    try:
        for k in range(6):
            server.send(f"attacker{k}@forged.example", "multiple", CANNON)
        handled(server, 6)
        mails = server.collect(6 + 3)
        assert len(to_strangers(mails)) == 3  # was 50: 10 each, up to the 50 addresses
        capped = [m for m in mails if "The server has mailed 3 confirmation requests in the "
                  "last hour" in " ".join(m.body.split())]
        assert len(capped) == 3 and all(m.to.endswith("@forged.example") for m in capped)
    finally:
        server.stop()


# ----- a machine answering the request ----------------------------------------------------------
def machine_answers(token: str, request: Received) -> list[tuple[str, str, str, dict[str, str]]]:
    """(what, Subject, text, headers) of the answers an auto-responder gives a request."""
    ident = str(request.message["Message-ID"])
    reply = {"In-Reply-To": ident, "References": ident}
    away = "I am out of office until Monday.\n"
    return [
        ("a vacation reply keeping the Subject", f"Re: confirm {token}", away, reply),
        ("... not saying what it answers", f"Re: confirm {token}", away, {}),
        ("... to the request's own Subject", f"Re: {request.subject}", away, reply),
        ("... with Auto-Submitted", f"Re: confirm {token}", away,
         {**reply, "Auto-Submitted": "auto-replied"}),
        ("... with X-Autoreply", f"Re: confirm {token}", away, {**reply, "X-Autoreply": "yes"}),
        ("... with Precedence: bulk", f"Re: confirm {token}", away,
         {**reply, "Precedence": "bulk"}),
        ("an out-of-office Subject over the token", f"Out of office: confirm {token}",
         f"confirm {token}\n{away}", reply),
        ("Abwesenheit, the request echoed unquoted", "Abwesenheitsnotiz: Re: Bestätigung",
         "Ich bin nicht im Büro.\n\n" + request.body, reply),
        ("Automatic reply, the token first", f"Automatic reply: confirm {token}",
         f"confirm {token}\n", {}),
        ("a program echoing the request back", f"Re: {request.subject}", request.body, reply),
    ]


def test_a_machine_answering_the_request_never_confirms_it(server: PbmServer):
    server.send(CAROL, f"signup carol pw-carol-5k {CAROL_HOME}")
    request = by_recipient(server.collect(2))[CAROL_HOME]
    token = token_of(request)
    answers = machine_answers(token, request)
    for number, (what, subject, text, headers) in enumerate(answers, start=2):
        server.send(CAROL_HOME, subject, text, headers=headers)
        handled(server, number)
        with stores.sql(server.database) as db:
            confirmed = db.execute("select confirmed from addresses where address = :a",
                                   {"a": CAROL_HOME}).fetchone()[0]
            answered = db.execute("select count(*) from outbox o join inbound_messages i "
                                  "on o.inbound_id = i.id where i.id = (select max(id) from "
                                  "inbound_messages)").fetchone()[0]
        assert not confirmed, f"{what}: confirmed the address"
        assert answered == 0, f"{what}: was answered"  # never answer a machine
    server.collect(0)

    # A person's `confirm TOKEN` in the Subject of a new mail still confirms.
    server.send(CAROL_HOME, f"confirm {token}")
    (answer,) = server.collect(1)
    assert (answer.to, answer.subject) == (CAROL_HOME, "Address confirmed")
