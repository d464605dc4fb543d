"""Accounts: signup, change password, change address, signoff."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbm.accounts.confirmations import REQUEST_SUBJECT
from pbm.config import LimitSettings
from pbm.db.models import utcnow
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
    to,
)


# ----- signup -----------------------------------------------------------------------------
def test_signup_opens_an_account_mailed_at_the_sender(run):
    replies = run("eve@example.org", "signup Eve Pa55word")
    reply = one(replies, "eve@example.org")
    assert reply.subject == "Welcome to pbm, eve"
    assert "Board mails for eve go to: eve@example.org" in reply.body
    assert_never_echoed(replies, "Pa55word")

    user = run.user("eve")
    assert user is not None and user.active
    assert [a.address for a in user.addresses] == ["eve@example.org"]
    assert "Pa55word" not in user.password_hash  # a salted hash, not the password
    assert user.password_hash.startswith("$argon2")

    # Userids are case-insensitive: EVE is taken too, whoever asks.
    replies = run("other@example.org", "signup EVE Other999")
    err = error(replies)
    assert err.subject == "pbm error"
    assert "The userid 'eve' is taken" in err.body
    assert "signup EVE ********" in err.body
    assert_never_echoed(replies, "Other999")
    assert [a.address for a in run.user("eve").addresses] == ["eve@example.org"]


def test_signup_with_explicit_addresses(run):
    # One mail causes at most one mail to an address other than its sender's: a signup
    # naming two such addresses is refused, and changes nothing.
    replies = run("eve@example.org",
                  "signup eve Pa55word Eve@Home.org <eve@work.org>, eve@home.org")
    err = error(replies)
    body = " ".join(err.body.split())
    assert "One mail may cause only one mail to an address that did not write to us" in body
    assert "the request to eve@work.org was not sent" in body
    assert len(replies) == 1 and run.user("eve") is None
    assert_never_echoed(replies, "Pa55word")

    replies = run("eve@example.org", "signup eve Pa55word Eve@Home.org, eve@home.org")
    reply = one(replies, "eve@example.org")  # the welcome goes to whoever wrote
    # An address other than the sender's gets its confirmation request, only.
    assert "go nowhere until an address is confirmed" in reply.body
    assert one(replies, "eve@home.org").subject == REQUEST_SUBJECT
    assert "A confirmation request has been mailed to eve@home.org." in reply.body
    assert len(replies) == 2
    assert_never_echoed(replies, "Pa55word")
    assert [a.address for a in run.user("eve").addresses] == ["eve@home.org"]

    replies = run("fay@example.org", "signup fay Pa55word fay@example.org not-an-address")
    err = error(replies)
    assert "'not-an-address' is not a mail address" in err.body
    assert "signup fay ******** fay@example.org not-an-address" in err.body
    assert_never_echoed(replies, "Pa55word")
    assert run.user("fay") is None


@pytest.mark.parametrize(
    ("userid", "why"),
    [
        ("1alice", "cannot be a userid"),  # must start with a letter
        ("al!ce", "cannot be a userid"),
        ("a" * 17, "cannot be a userid"),  # at most 16 characters
        ("trou", "is a command word"),  # a game name
        ("TROU", "is a command word"),
        ("help", "is a command word"),
        ("all", "is a command word"),  # would read as a selector in `show`
        ("signup", "is a command word"),
    ],
)
def test_signup_refuses_bad_userids(run, userid, why):
    before = run.snapshot()
    replies = run("eve@example.org", f"signup {userid} Pa55word")
    err = error(replies)
    assert err.subject == "pbm error"
    assert why in err.body
    assert f"signup {userid} ********" in err.body
    assert_never_echoed(replies, "Pa55word")
    assert run.snapshot() == before


def test_signup_accepts_userids_at_the_limits_and_refuses_short_passwords(run):
    for userid in ("x", "a234567890_.-xyz"):
        assert one(run("eve@example.org", f"signup {userid} Pa55word")).subject == \
            f"Welcome to pbm, {userid}"
    err = error(run("eve@example.org", "signup short abc"))
    assert "at least 4 characters" in err.body
    assert "signup short ********" in err.body
    assert run.user("short") is None


def test_signup_with_too_few_words(run):
    err = error(run("eve@example.org", "signup eve"))
    assert "Too few words: the password is missing." in err.body
    assert "signup userid password" in err.body
    assert run.user("eve") is None


# ----- change password --------------------------------------------------------------------
def test_change_password_old_stops_new_works_case_sensitive(players):
    run = players
    replies = run(ALICE, "change password alice Secret1 N3wPassword")
    reply = one(replies)
    assert reply.subject == "Password changed"
    assert_never_echoed(replies, "Secret1", "N3wPassword")

    err = error(run(ALICE, "trou showas alice Secret1"))
    assert "Wrong password for 'alice'" in err.body
    # Passwords are case-sensitive.
    replies = run(ALICE, "trou showas alice n3wpassword")
    assert "Wrong password for 'alice'" in error(replies).body
    assert_never_echoed(replies, "n3wpassword")
    # The new one works, and userids stay case-insensitive.
    assert one(run(ALICE, "trou showas ALICE N3wPassword")).subject == "Trou showas"

    # A wrong old password changes nothing.
    replies = run(ALICE, "change password alice Secret1 Another1")
    err = error(replies)
    assert "Wrong password" in err.body
    assert "change password alice ******** ********" in err.body
    assert_never_echoed(replies, "Secret1", "Another1")
    assert one(run(ALICE, "trou showas alice N3wPassword")).subject == "Trou showas"
    # A too short new password is refused and the password stays.
    err = error(run(ALICE, "change password alice N3wPassword abc"))
    assert "at least 4 characters" in err.body
    assert one(run(ALICE, "trou showas alice N3wPassword")).subject == "Trou showas"


# ----- change address ---------------------------------------------------------------------
def test_change_address_sends_board_mail_to_the_new_address(players):
    run = players
    new, other = "alice@new.example", "alice2@new.example"
    replies = run(new, "change address alice Secret1 Alice@New.example <alice2@new.example>")
    reply = one(replies, new)  # written from the new address: confirmed at once
    assert reply.subject == "Address changed"
    assert f"Board mails for alice go to: {new}\n" in reply.body
    request = one(replies, other)  # the other is asked to confirm
    assert_never_echoed(replies, "Secret1")
    assert [a.address for a in run.user("alice").addresses] == [new, other]
    token = request.body.split("  confirm ", 1)[1].split()[0]
    assert one(run(other, f"confirm {token}")).subject == "Address confirmed"

    replies = run(BOB, "trou challenge alice bob")
    assert to(replies, ALICE) == []
    mail = one(replies, new)
    assert mail.to == (new, other)
    assert mail.subject == "New Trou Board 101 alice"

    # With no address given, the sender's address becomes the only one.
    run("alice@third.example", "change address alice Secret1")
    assert [a.address for a in run.user("alice").addresses] == ["alice@third.example"]
    replies = run(ALICE, "trou move 101 alice Secret1 3B2")
    assert {r.to for r in replies} == {("alice@third.example",), (BOB,)}

    # A bad address or password changes nothing.
    before = run.snapshot()
    err = error(run(ALICE, "change address alice Secret1 nowhere"))
    assert "'nowhere' is not a mail address" in err.body
    assert "change address alice ******** nowhere" in err.body
    assert run.snapshot() == before


# ----- signoff ----------------------------------------------------------------------------
def test_signoff_resigns_active_games_and_keeps_history(players):
    run = players
    running = start_trou(run, "alice", "bob", ("1B2", "4C2"))  # 101, alice to move
    waiting = start_trou(run, "carol", "bob", ("1B2", "4C2", "2B1"))  # 102, bob to move
    finished = start_trou(run, "bob", "alice", ("1B2", "4C2", "2B1"))  # 103
    run(ALICE, f"trou resign {finished} alice Secret1")  # on her turn: bob wins 103
    assert run.board(finished).winners == [0]

    replies = run(BOB, "signoff bob Hunter22")
    assert_never_echoed(replies, "Hunter22")
    farewell = one([r for r in replies if r.kind == "answer"])
    assert farewell.subject == "Signed off"
    assert farewell.to == (BOB,)
    assert "Left boards (resigned, or declined before a first move): trou 101, trou 102." \
        in farewell.body

    for number, winner, winner_address in ((running, "alice", ALICE), (waiting, "carol", CAROL)):
        mails = [r for r in replies if r.kind == "board" and f"Board {number}" in r.subject]
        assert {r.to for r in mails} == {(winner_address,), (BOB,)}
        for mail in mails:
            assert mail.subject == f"Trou Board {number}"
            assert f"Game won by {winner}." in mail.body
            assert "bob resigned." in mail.body
        board = run.board(number)
        assert board.status == "finished"
        assert board.winners == [0 if winner != "bob" else 1]
    assert run.board(finished).winners == [0]  # the finished game is left alone

    user = run.user("bob")
    assert user is not None and not user.active  # kept, so old boards still name him

    # bob can no longer play or be challenged ...
    err = error(run(BOB, "trou challenge alice bob"))
    assert "There is no user 'bob'" in err.body
    err = error(run(BOB, f"trou resign {running} bob Hunter22"))
    assert "There is no user 'bob'" in err.body
    # ... but the history stays readable.
    for number in (running, waiting, finished):
        reply = one(run(STRANGER, f"trou show {number}"))
        assert reply.subject == f"Trou Board {number}"
        assert "bob" in reply.body
    assert "Game won by alice." in one(run(STRANGER, f"trou show {running}")).body
    assert "Game won by bob." in one(run(STRANGER, f"trou show {finished}")).body


def test_signoff_before_a_first_move_declines_like_resign(players):
    run = players
    fresh = start_trou(run, "alice", "bob", ())  # 101: bob has not moved
    replies = run(BOB, "signoff bob Hunter22")
    notices = [r for r in replies if r.kind == "board"]
    assert {r.to for r in notices} == {(ALICE,), (BOB,)}
    assert all(f"bob declined Trou board {fresh}" in r.body for r in notices)
    assert "Game won" not in "".join(r.body for r in replies)
    err = error(run(STRANGER, f"trou show {fresh}"))
    assert f"There is no Trou board {fresh}." in err.body
    # The history of a signed-off player can still be listed by name.
    listing = one(run(STRANGER, "trou games bob all"))
    assert listing.subject == "List of Trou games"


def test_signoff_from_another_address_tells_the_address_on_file(players):
    run = players
    replies = run("someone@else.example", "signoff carol Carol333")
    assert {r.to for r in replies} == {("someone@else.example",), (CAROL,)}
    assert all(r.subject == "Signed off" for r in replies)
    assert not run.user("carol").active


def test_signoff_with_a_wrong_password_changes_nothing(players):
    run = players
    start_trou(run, "alice", "bob", ("1B2", "4C2"))
    before = run.snapshot()
    replies = run(BOB, "signoff bob hunter22")
    err = error(replies)
    assert "Wrong password for 'bob'" in err.body
    assert "signoff bob ********" in err.body
    assert_never_echoed(replies, "hunter22")
    assert run.snapshot() == before
    assert PW["bob"] == "Hunter22"


@pytest.mark.parametrize(("line", "takes"), [
    ("signoff alice Secret1 extra", "takes 2 words"),
    ("change password alice Secret1 N3wSecret extra", "takes 3 words"),
    ("trou resign 101 alice Secret1 now", "takes 3 words"),
    ("help trou rules", "takes 1 word"),
    ("trou help me", "takes no words"),
])
def test_extra_words_are_refused_not_guessed_at(players, line, takes):
    run = players
    start_trou(run)
    before = run.snapshot()
    err = error(run(ALICE, line))
    assert "Too many words" in err.body and takes in err.body
    assert "Write: " in err.body
    assert "Secret1" not in err.body
    assert run.snapshot() == before


# ----- add (addresses) --------------------------------------------------------------------
def test_add_keeps_the_addresses_and_confirms_the_senders_at_once(players):
    run = players
    new = "alice@new.example"
    replies = run(new, f"add alice {PW['alice']}")  # no address: the one written from
    reply = one(replies)
    assert reply.subject == "Address added"
    assert f"Board mails for alice go to: {ALICE}, {new}\n" in reply.body
    assert_never_echoed(replies, PW["alice"])
    assert [a.address for a in run.user("alice").addresses] == [ALICE, new]
    mail = one(run(STRANGER, "trou challenge alice bob"), ALICE)
    assert mail.to == (ALICE, new)
    # Naming an address it has already changes nothing.
    run(ALICE, f"add alice {PW['alice']} {ALICE.upper()}")
    assert [a.address for a in run.user("alice").addresses] == [ALICE, new]


def test_add_mails_another_address_a_confirmation_request_first(players):
    run = players
    other = "alice@elsewhere.example"
    replies = run(ALICE, f"add alice {PW['alice']} <{other}>")
    assert one(replies, other).subject == REQUEST_SUBJECT
    reply = one(replies, ALICE)
    assert f"Board mails for alice go to: {ALICE}\n" in reply.body
    assert f"A confirmation request has been mailed to {other}." in reply.body
    assert one(run(STRANGER, "trou challenge alice bob"), ALICE).to == (ALICE,)
    token = one(replies, other).body.split("  confirm ", 1)[1].split()[0]
    run(other, f"confirm {token}")
    assert one(run(STRANGER, "trou challenge alice bob"), ALICE).to == (ALICE, other)


def test_add_leaves_a_waiting_request_alone(players):
    """Two days on, the old request may be sent again: `add` naming other addresses does
    not, so its one mail to a stranger goes to the address it names."""
    run = players
    later = utcnow() + timedelta(days=2)
    first, second = "alice@one.example", "alice@two.example"
    run(ALICE, f"add alice {PW['alice']} {first}")
    replies = run(ALICE, f"add alice {PW['alice']} {second}", now=later)
    assert [r.subject for r in replies if r.to == (second,)] == [REQUEST_SUBJECT]
    assert to(replies, first) == []
    assert [a.address for a in run.user("alice").addresses] == [ALICE, first, second]


def test_addresses_of_an_account_are_bounded(players):
    run = players
    run.limits = LimitSettings(addresses_per_user=2)
    before = run.snapshot()
    for sender, line in (("alice@b.example", "add alice {alice} alice@b.example alice@c.example"),
                         (ALICE, "change address alice {alice} {a} alice@b.example x@c.example"),
                         ("eve@a.example", "signup eve Pa55word eve@a.example e@b.example "
                                           "e@c.example")):
        replies = run(sender, line.format(a=ALICE, **PW))
        err = error(replies)
        assert "An account may have at most 2 addresses" in flat(err.body)
        assert "would have 3. Nothing was changed." in flat(err.body)
        assert_never_echoed(replies, PW["alice"], "Pa55word")
    assert run.snapshot() == before
    one(run("alice@b.example", f"add alice {PW['alice']}"))  # the second is allowed
    assert len(run.user("alice").addresses) == 2


@pytest.mark.parametrize(("line", "message"), [
    ("add alice Wrong-pass-9 alice@b.example", "Wrong password for 'alice'"),
    ("add nobody Wrong-pass-9 alice@b.example", "No player has the userid you gave"),
    ("add alice {alice} nowhere", "'nowhere' is not a mail address"),
    ("add alice", "Too few words"),
])
def test_bad_adds_change_nothing(players, line, message):
    run = players
    before = run.snapshot()
    replies = run("alice@b.example", line.format(**PW))
    assert message in error(replies).body
    assert run.snapshot() == before
    assert_never_echoed(replies, PW["alice"], "Wrong-pass-9")


# ----- delete (pbmserv's signoff) ---------------------------------------------------------
def test_delete_is_signoff(players):
    run = players
    start_trou(run, "alice", "bob", ("1B2", "4C2"))
    replies = run(BOB, f"DELETE bob {PW['bob']}")
    farewell = one([r for r in replies if r.kind == "answer"])
    assert farewell.subject == "Signed off"
    assert "Left boards (resigned, or declined before a first move): trou 101." \
        in farewell.body
    assert "Game won by alice." in one([r for r in replies if r.kind == "board"], ALICE).body
    assert not run.user("bob").active
    assert_never_echoed(replies, PW["bob"])
    page = " ".join(one(run(STRANGER, "help commands")).body.split())
    assert "delete userid password The same as signoff" in page


def test_delete_with_a_wrong_password_changes_nothing(players):
    run = players
    start_trou(run)
    before = run.snapshot()
    replies = run(BOB, "delete bob hunter22")
    assert "Wrong password for 'bob'" in error(replies).body
    assert "delete bob ********" in error(replies).body
    assert run.snapshot() == before


@pytest.mark.parametrize("userid", ["add", "delete"])
def test_the_new_command_words_are_no_userids(run, userid):
    assert "is a command word" in error(run("eve@example.org", f"signup {userid} Pa55word")).body
