"""Confirmed addresses: an address named by someone else gets its confirmation request and
nothing else until the token comes back."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from pbm.accounts.addresses import addresses_of
from pbm.accounts.confirmations import REQUEST_SUBJECT
from pbm.config import LimitSettings
from pbm.context import Reply
from pbm.db.models import Address, utcnow
from tests.commands.conftest import (
    ALICE,
    BOB,
    PW,
    STRANGER,
    Runner,
    assert_never_echoed,
    error,
    one,
    start_trou,
    to,
)
from tests.commands.social import run_as

HOME = "eve@home.example"  # the address eve names
WORK = "eve@work.example"  # the address eve writes from


def rows_of(run: Runner, userid: str) -> list[tuple[str, bool, str | None]]:
    """(address, confirmed, token) of a user's addresses, in order."""
    user = run.user(userid)
    assert user is not None
    return [(a.address, a.confirmed, a.confirm_token) for a in user.addresses]


COMMAND_LINE = re.compile(r"^  confirm (\S+)$", re.M)


def token_in(request: Reply) -> str:
    """The token of a confirmation request, read from the line its text says to send."""
    assert request.subject == REQUEST_SUBJECT, request.subject
    found = COMMAND_LINE.search(request.body)
    assert found, request.body
    return found.group(1)


def sign_up_eve(run: Runner) -> tuple[Reply, Reply]:
    """eve signs up from WORK naming only HOME: (the request to HOME, the welcome to WORK)."""
    replies = run(WORK, f"signup eve Pa55word {HOME}")
    assert_never_echoed(replies, "Pa55word")
    return one(replies, HOME), one(replies, WORK)


# ----- the request ------------------------------------------------------------------------
def test_signup_naming_another_address_mails_it_one_request_and_nothing_else(players):
    run = players
    request, welcome = sign_up_eve(run)
    token = token_in(request)
    assert request.to == (HOME,) and request.kind == "notice"
    # The Subject is the same for every request: no word of the asker's (the userid) in it.
    assert request.subject == "pbm: please confirm this address"
    assert WORK in request.body and "'eve'" in request.body  # who asked, for whom
    text = " ".join(request.body.split())
    # It says exactly what to send, that nothing else confirms, and that ignoring it is safe.
    assert f"send a mail with the Subject: confirm {token} or reply to this mail and write " \
        "that line, confirm and the token, as the first line of your text." in text
    assert "a reply that only keeps the Subject does not" in text
    assert "If it was not you, ignore this mail; that is safe" in text
    assert not request.body.startswith("  confirm")  # never the first line (echoes)
    # The welcome goes to whoever wrote, says where mails go (nowhere yet) and holds no token.
    assert welcome.subject == "Welcome to pbm, eve"
    assert "Board mails for eve go nowhere until an address is confirmed" in welcome.body
    assert f"A confirmation request has been mailed to {HOME}" in welcome.body
    assert_never_echoed([welcome], token)
    assert rows_of(run, "eve") == [(HOME, False, token)]
    assert addresses_of(run.user("eve")) == ()


def test_a_challenge_naming_a_user_with_no_confirmed_address_is_refused(players):
    run = players
    sign_up_eve(run)
    before = run.snapshot()
    replies = run(ALICE, "trou challenge alice eve")
    err = error(replies)
    assert "eve has not confirmed any mail address yet, so eve could not get the board" \
        in err.body
    assert to(replies, HOME) == []
    assert run.snapshot() == before


def test_the_token_confirms_and_then_board_mails_go_there(players):
    run = players
    request, _ = sign_up_eve(run)
    token = token_in(request)
    replies = run(HOME, f"confirm {token}")
    answer = one(replies, HOME)
    assert answer.subject == "Address confirmed"
    assert f"{HOME} is confirmed for eve" in answer.body
    assert_never_echoed(replies, token)
    assert rows_of(run, "eve") == [(HOME, True, None)]

    replies = run(ALICE, "trou challenge alice eve")
    assert one(replies, HOME).subject.startswith("New Trou Board 101")

    # Once used, the token is gone; quoting it again changes nothing and echoes nothing.
    before = run.snapshot()
    replies = run(HOME, f"confirm {token}")
    assert "unknown or too old" in error(replies).body
    assert_never_echoed(replies, token)
    assert run.snapshot() == before


def test_a_token_may_come_from_any_address_but_is_never_echoed(players):
    """The token is the secret, not the sender: a forwarded request works too."""
    run = players
    request, _ = sign_up_eve(run)
    token = token_in(request)
    before = run.snapshot()
    for wrong in (token[:-1], token.lower() if token.lower() != token else token + "x",
                  "x" * 500):
        replies = run(STRANGER, f"confirm {wrong}")
        err = error(replies)
        assert "unknown or too old" in err.body
        assert "confirm ********" in err.body
        assert_never_echoed(replies, wrong[:40], token)
    assert "Too few words" in error(run(STRANGER, "confirm")).body
    assert run.snapshot() == before

    replies = run(STRANGER, f"confirm {token}")
    assert one(replies, STRANGER).subject == "Address confirmed"
    assert_never_echoed(replies, token)
    assert rows_of(run, "eve") == [(HOME, True, None)]


def test_a_token_expires_after_seven_days(players):
    run = players
    request, _ = sign_up_eve(run)
    before = run.snapshot()
    token = token_in(request)
    replies = run(HOME, f"confirm {token}", now=utcnow() + timedelta(days=7, minutes=1))
    assert "unknown or too old" in error(replies).body
    assert run.snapshot() == before
    assert one(run(HOME, f"confirm {token}", now=utcnow() + timedelta(days=6))).subject == \
        "Address confirmed"


def test_the_sender_s_own_address_is_confirmed_at_once(players):
    run = players
    replies = run(WORK, f"signup eve Pa55word {WORK} {HOME}")
    request = one(replies, HOME)
    welcome = one(replies, WORK)
    assert f"Board mails for eve go to: {WORK}" in welcome.body
    assert rows_of(run, "eve") == [(WORK, True, None), (HOME, False, token_in(request))]
    # Board mails go to the confirmed address only.
    replies = run(ALICE, "trou challenge alice eve")
    assert one(replies, WORK).subject.startswith("New Trou Board 101")
    assert to(replies, HOME) == []

    # Naming the pending address again from that address confirms it: its owner wrote.
    replies = run(HOME, f"change address eve Pa55word {WORK} {HOME}")
    assert f"Board mails for eve go to: {WORK}, {HOME}" in one(replies, HOME).body
    assert rows_of(run, "eve") == [(WORK, True, None), (HOME, True, None)]


def test_the_operator_vouches_for_the_addresses_it_types(run):
    replies = run_as(run, "", f"signup eve Pa55word {HOME} {WORK}", admin=True)
    assert [r.subject for r in replies] == ["Welcome to pbm, eve"]
    assert rows_of(run, "eve") == [(HOME, True, None), (WORK, True, None)]


# ----- change address ---------------------------------------------------------------------
def test_change_address_keeps_what_is_known_and_asks_once_a_day(players):
    run = players
    number = start_trou(run, "alice", "bob")
    replies = run(ALICE, f"change address alice {PW['alice']} {ALICE} alice@new.example")
    assert_never_echoed(replies, PW["alice"])
    request = one(replies, "alice@new.example")
    token = token_in(request)
    answer = one(replies, ALICE)
    assert answer.subject == "Address changed"
    assert f"Board mails for alice go to: {ALICE}\n" in answer.body
    assert rows_of(run, "alice") == [(ALICE, True, None), ("alice@new.example", False, token)]

    # Board mails go to the confirmed address only, until the new one is confirmed.
    replies = run(ALICE, f"trou move {number} alice {PW['alice']} 1B2")
    assert to(replies, "alice@new.example") == [] and to(replies, ALICE)

    # Asking again within a day sends nothing more; the token stays what it was.
    replies = run(ALICE, f"change address alice {PW['alice']} alice@new.example {ALICE}")
    assert to(replies, "alice@new.example") == []
    assert "still waiting for an answer" in one(replies, ALICE).body
    assert rows_of(run, "alice") == [("alice@new.example", False, token), (ALICE, True, None)]
    # A day later it is sent again, with the same token (the first mail still works).
    later = utcnow() + timedelta(days=1, minutes=1)
    replies = run(ALICE, f"change address alice {PW['alice']} alice@new.example {ALICE}",
                  now=later)
    assert token_in(one(replies, "alice@new.example")) == token
    assert one(run("alice@new.example", f"confirm {token}", now=later)).subject == \
        "Address confirmed"
    assert addresses_of(run.user("alice")) == ("alice@new.example", ALICE)


def test_an_address_gets_one_request_a_day_whoever_asks(players):
    run = players
    sign_up_eve(run)
    before = run.snapshot()
    replies = run(BOB, f"change address bob {PW['bob']} {BOB} {HOME}")
    err = error(replies)
    assert f"A confirmation request went to {HOME} less than a day ago" in err.body
    assert to(replies, HOME) == []
    assert_never_echoed(replies, PW["bob"])
    assert run.snapshot() == before


def test_confirmation_requests_are_rate_limited_per_sender(tmp_path):
    run = Runner(tmp_path / "pbm.sqlite", limits=LimitSettings(confirmations_per_sender_per_day=2))
    try:
        for n in (1, 2):
            replies = run(STRANGER, f"signup u{n} Pa55word u{n}@example.org")
            assert one(replies, f"u{n}@example.org").subject == REQUEST_SUBJECT
        before = run.snapshot()
        replies = run(STRANGER, "signup u3 Pa55word u3@example.org")
        err = error(replies)
        assert f"{STRANGER} has asked for 2 confirmation mails in the last day" in err.body
        assert run.user("u3") is None and run.snapshot() == before
        # Writing from the address itself needs no request, so it is not limited.
        assert one(run("u3@example.org", "signup u3 Pa55word")).subject == "Welcome to pbm, u3"
    finally:
        run.engine.dispose()


# ----- nothing else goes to an unconfirmed address ----------------------------------------
def test_an_unconfirmed_address_is_nobody_s_as_a_sender_nor_a_spectator(players):
    run = players
    sign_up_eve(run)
    # Mail from HOME is not eve's: the board's challenger is the address, not eve.
    run(HOME, "trou challenge alice bob")
    board = run.board(101)
    assert board is not None and board.challenger == HOME
    # eve watches the board: her board mails go nowhere while no address of hers is confirmed.
    assert one(run(WORK, "trou subscribe 101 eve Pa55word")).kind == "answer"
    replies = run(ALICE, f"trou move 101 alice {PW['alice']} 1B2")
    assert to(replies, HOME) == []
    with run.session() as session:
        assert session.scalar(select(Address.confirmed).where(Address.address == HOME)) is False


def test_the_owner_s_notices_go_to_confirmed_addresses_only(players):
    run = players
    replies = run(ALICE, f"change address alice {PW['alice']} {ALICE} alice@new.example")
    assert one(replies, "alice@new.example").subject == REQUEST_SUBJECT
    notices: list[Reply] = []
    for attempt in range(run.limits.wrong_passwords_before_pause + 1):
        notices += [r for r in run(STRANGER, f"trou showas alice guess{attempt}")
                    if r.kind == "notice"]
    assert [(r.subject, r.to) for r in notices] == [("pbm: wrong passwords for alice", (ALICE,))]
