"""Password guessing: pauses per account, caps per mail and per sender, the owner told, the
checks made ahead of the writer, and no password ever quoted back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from pbm.accounts import passwords
from pbm.accounts.passwords import token
from pbm.commands.credentials import verify_ahead
from pbm.commands.dispatch import run_lines
from pbm.config import LimitSettings
from pbm.context import Context, Reply
from pbm.db.models import RateCounter, User, utcnow
from tests.commands.conftest import (
    ALICE,
    BOB,
    PW,
    STRANGER,
    Runner,
    assert_never_echoed,
    error,
    start_trou,
)

GUESSER = "guesser@example.net"
LIMITS = LimitSettings()


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts argon2 verifications (the real ones still run): the costly step."""
    calls: list[str] = []
    real = passwords._hasher

    class Counting:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, stored_hash: str, password: str) -> bool:
            calls.append(password)
            return real.verify(stored_hash, password)

    monkeypatch.setattr(passwords, "_hasher", Counting())
    return calls


def in_one_mail(run: Runner, sender: str, lines: list[str],
                refuted: frozenset[bytes] = frozenset()) -> list[Reply]:
    """Several command lines handled as one mail (one Context), as the mail path does."""
    with run.session() as session:
        ctx = Context(session, sender, limits=run.limits, refuted=refuted)
        run_lines(ctx, lines)
        return list(ctx.replies)


def showas(run: Runner, password: str, sender: str = GUESSER) -> list[Reply]:
    return run(sender, f"trou showas alice {password}")


def alice(run: Runner) -> User:
    user = run.user("alice")
    assert user is not None
    return user


def test_wrong_passwords_pause_the_account_even_for_the_right_one(players):
    run = players
    start_trou(run)
    for attempt in range(LIMITS.wrong_passwords_before_pause):
        assert "Wrong password for 'alice'" in error(showas(run, f"guess{attempt}")).body
    assert alice(run).password_paused_until is None  # five are free
    replies = showas(run, "guess5")
    assert alice(run).wrong_passwords == 6
    paused = alice(run).password_paused_until
    assert paused is not None
    assert timedelta(seconds=55) < paused - utcnow() <= timedelta(seconds=60)
    assert any(r.kind == "notice" for r in replies)

    # The right password now: refused unread, and the refusal says until when.
    err = error(showas(run, PW["alice"], sender=ALICE))
    assert "Password checks for alice are paused until" in err.body
    assert alice(run).wrong_passwords == 6  # a refusal unread does not count


def test_the_owner_is_told_once_when_a_pause_begins(players):
    run = players
    notices = []
    for attempt in range(LIMITS.wrong_passwords_before_pause + 3):
        replies = showas(run, f"guess{attempt}")
        notices += [r for r in replies if r.kind == "notice"]
        with run.session() as session:  # let the pause pass so the guessing goes on
            session.get(User, alice(run).id).password_paused_until = utcnow() - timedelta(1)
    (notice,) = notices
    assert notice.to == (ALICE,)
    assert notice.subject == "pbm: wrong passwords for alice"
    assert "6 wrong passwords in a row" in notice.body
    assert GUESSER in notice.body
    assert "change password" in notice.body
    assert_never_echoed(notices, *(f"guess{i}" for i in range(9)))


def test_one_mail_makes_one_mail_to_an_address_that_did_not_write_whatever_its_kind(players):
    """A guesser's mail that pauses an account (its owner is warned) gets no confirmation
    request sent to a stranger as well: one unasked mail per inbound mail, of any kind."""
    run = players
    start_trou(run)
    for attempt in range(LIMITS.wrong_passwords_before_pause):  # free ones, no pause yet
        showas(run, f"guess{attempt}")
    replies = in_one_mail(run, GUESSER, [
        "trou showas alice guess-last",  # the wrong password that begins the pause
        "signup vic0 Pa55word victim0@third.example",
    ])
    unasked = [r for r in replies if r.unasked]
    assert [r.subject for r in unasked] == ["pbm: wrong passwords for alice"]
    assert not any(to.endswith("@third.example") for r in replies for to in r.to)
    refusal = " ".join(replies[-1].body.split())
    assert "One mail may cause only one mail to an address that did not write to us" in refusal
    assert "the request to victim0@third.example was not sent" in refusal
    assert run.user("vic0") is None


def test_each_wrong_password_after_a_pause_doubles_it(players):
    run = players
    pauses = []
    for attempt in range(LIMITS.wrong_passwords_before_pause + 4):
        showas(run, f"guess{attempt}")
        user = alice(run)
        if user.password_paused_until is not None:
            pauses.append(round((user.password_paused_until - utcnow()).total_seconds() / 60))
            with run.session() as session:
                session.get(User, user.id).password_paused_until = utcnow() - timedelta(1)
    assert pauses == [1, 2, 4, 8]  # minutes


def test_the_pause_is_capped(players):
    run = players
    run.limits = LimitSettings(wrong_passwords_before_pause=0, password_pause_seconds=60,
                               max_password_pause_seconds=300)
    with run.session() as session:
        session.scalar(select(User).where(User.userid == "alice")).wrong_passwords = 20
    showas(run, "wrong")
    pause = alice(run).password_paused_until - utcnow()
    assert timedelta(seconds=295) < pause <= timedelta(seconds=300)


def test_a_right_password_resets_the_count(players):
    run = players
    for attempt in range(3):
        showas(run, f"guess{attempt}")
    assert alice(run).wrong_passwords == 3
    showas(run, PW["alice"], sender=ALICE)
    assert alice(run).wrong_passwords == 0


def test_one_mail_may_hold_only_a_few_wrong_passwords(players, hashes):
    run = players
    start_trou(run)
    lines = [f"trou showas {u} wrong{i}" for i in range(10) for u in ("alice", "bob")]
    replies = in_one_mail(run, GUESSER, lines)
    assert len(hashes) == LIMITS.wrong_passwords_per_mail  # the rest were never hashed
    bodies = [r.body for r in replies]
    assert sum("Wrong password" in b for b in bodies) == LIMITS.wrong_passwords_per_mail
    assert sum("already held 3 wrong passwords" in b for b in bodies) == len(lines) - 3
    assert_never_echoed(replies, *(f"wrong{i}" for i in range(10)))


def test_an_address_sending_many_wrong_passwords_is_cut_off(players):
    run = players
    limit = LIMITS.wrong_passwords_per_sender_per_hour
    userids = ("alice", "bob", "carol")
    for attempt in range(limit):
        # Spread over accounts, below any one account's pause.
        user = userids[attempt % 3]
        with run.session() as session:
            session.scalar(select(User).where(User.userid == user)).wrong_passwords = 0
        assert "Wrong password" in error(run(GUESSER, f"trou showas {user} x{attempt}")).body
    err = error(run(GUESSER, f"trou showas bob {PW['bob']}"))
    assert f"Too many wrong passwords came from {GUESSER}" in err.body
    # Others are not affected: bob from his own address is fine.
    assert not run(BOB, f"trou showas bob {PW['bob']}")[0].subject.endswith("error")
    with run.session() as session:
        counter = session.get(RateCounter, f"wrong-passwords-from:{GUESSER}")
        assert counter.count == limit


def test_checks_made_ahead_spare_the_writer_any_hash(players, hashes):
    run = players
    start_trou(run)
    lines = [f"trou showas alice {PW['alice']}", "trou showas bob nope1", "trou showas bob nope1",
             "trou showas carol nope2", "trou showas nobody x"]
    with run.session() as session:
        refuted = verify_ahead(session, lines, LIMITS, GUESSER, utcnow())
        bob = session.scalar(select(User).where(User.userid == "bob"))
        carol = session.scalar(select(User).where(User.userid == "carol"))
        assert refuted == {token("bob", "nope1", bob.password_hash),
                           token("carol", "nope2", carol.password_hash)}
    ahead = len(hashes)
    assert ahead <= 3  # alice (unless remembered), bob once for both lines, carol
    replies = in_one_mail(run, GUESSER, lines, refuted=refuted)
    assert len(hashes) == ahead  # the writer hashed nothing
    assert sum("Wrong password" in r.body for r in replies) == 3


def test_a_paused_account_is_not_hashed_ahead(players, hashes):
    run = players
    with run.session() as session:
        user = session.scalar(select(User).where(User.userid == "alice"))
        user.password_paused_until = utcnow() + timedelta(minutes=5)
    with run.session() as session:
        assert verify_ahead(session, ["trou showas alice x"], LIMITS, GUESSER, utcnow()) == set()
    assert hashes == []


@pytest.mark.parametrize("line", [
    "trou move 101 Secret1 alice 1B2",  # password first, userid second
    "trou showas Secret1 alice",
    "trou resign 101 Secret1 alice",
    "signoff Secret1 alice",
    "change password Secret1 alice NewSecret9",
])
def test_a_password_typed_in_the_userid_place_is_never_quoted(players, line):
    run = players
    start_trou(run)
    replies = run(ALICE, line)
    err = error(replies)
    assert "No player has the userid you gave" in err.body
    assert_never_echoed(replies, "Secret1")


def test_the_operator_is_told_which_userid_is_unknown(players):
    with players.session() as session:
        ctx = Context(session, "", admin=True)
        run_lines(ctx, ["signoff nobody -"])
    assert "There is no user 'nobody'" in ctx.replies[0].body


def test_wrong_passwords_are_counted_even_though_the_command_is_rolled_back(players):
    """The command's savepoint is rolled back; the count of the failure is not."""
    run = players
    before = run.snapshot()
    showas(run, "wrong")
    assert run.snapshot() == before
    assert alice(run).wrong_passwords == 1


def test_stranger_without_password_commands_is_not_throttled(players):
    for _ in range(LIMITS.wrong_passwords_per_sender_per_hour + 5):
        assert not players(STRANGER, "trou games")[0].subject.endswith("error")


def test_a_hash_made_with_other_parameters_is_remade_at_the_next_right_password(players):
    """Hashes from before the parameters changed still verify, and are brought up to date."""
    from argon2 import PasswordHasher

    run = players
    old = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4).hash(PW["alice"])
    with run.session() as session:
        session.scalar(select(User).where(User.userid == "alice")).password_hash = old
    assert passwords.outdated(old)
    showas(run, PW["alice"], sender=ALICE)
    remade = alice(run).password_hash
    assert remade != old and not passwords.outdated(remade)
    assert passwords.check_password("alice", PW["alice"], remade)
    assert "Wrong password" in error(showas(run, "not-it")).body


def test_a_password_typed_one_place_late_is_never_quoted(players):
    """`trou limit alice 5 Secret1`: '5' is taken as the password and is wrong; the real
    password, one word later, must not appear in the error either."""
    start_trou(players)
    for line in (f"trou limit alice 5 {PW['alice']}", f"vacation alice 5 {PW['alice']}",
                 f"trou move 101 alice 3B2 {PW['alice']}"):
        replies = players(ALICE, line)
        error(replies)
        assert_never_echoed(replies, PW["alice"])


# ----- the guesser throttled, not the owner (issue 21) --------------------------------------
def as_mail(run: Runner, sender: str, lines: list[str], **seen: object) -> list[Reply]:
    """Lines handled as one mail whose sender the MTA vouched for, or whose source is known
    (`seen`: Context's authenticated, authentication_checked, source)."""
    with run.session() as session:
        ctx = Context(session, sender, limits=run.limits, **seen)  # type: ignore[arg-type]
        run_lines(ctx, lines)
        return list(ctx.replies)


VOUCHED = {"authenticated": True, "authentication_checked": True}


def pause_alice(run: Runner) -> list[Reply]:
    """Wrong passwords from a guesser until alice's checks pause; the replies."""
    replies: list[Reply] = []
    for attempt in range(LIMITS.wrong_passwords_before_pause + 1):
        replies += showas(run, f"guess{attempt}")
    assert alice(run).password_paused_until is not None
    return replies


def test_the_owners_vouched_mail_gets_through_a_pause_and_leaves_it_for_others(players):
    run = players
    pause_alice(run)
    paused = alice(run).password_paused_until
    replies = as_mail(run, ALICE, [f"trou showas alice {PW['alice']}"], **VOUCHED)
    assert not any("error" in r.subject.lower() for r in replies), replies[0].body
    # The guesser gains nothing: the count and the pause stay as they were.
    assert (alice(run).wrong_passwords, alice(run).password_paused_until) == (6, paused)
    err = error(showas(run, PW["alice"]))  # even the right password from anyone else
    assert "paused until" in err.body
    assert "gets through meanwhile when its mail provider authenticates it" not in err.body


def test_vouched_mail_from_another_address_is_paused_all_the_same(players):
    run = players
    pause_alice(run)
    err = error(as_mail(run, BOB, [f"trou showas alice {PW['alice']}"], **VOUCHED))
    assert "Password checks for alice are paused" in err.body
    assert "gets through meanwhile when its mail provider authenticates it (DKIM" in err.body


def test_unvouched_mail_from_the_owners_address_is_paused(players):
    """Anyone can write alice's address in From:; only the MTA's verdict tells."""
    run = players
    pause_alice(run)
    err = error(as_mail(run, ALICE, [f"trou showas alice {PW['alice']}"],
                        authentication_checked=True))
    assert "Password checks for alice are paused" in err.body


def test_the_owners_vouched_mail_is_checked_ahead_during_a_pause(players, hashes):
    run = players
    pause_alice(run)
    hashes.clear()
    lines = ["trou showas alice nope"]
    with run.session() as session:
        assert verify_ahead(session, lines, LIMITS, GUESSER, utcnow(), True) == set()
        assert verify_ahead(session, lines, LIMITS, ALICE, utcnow(), False) == set()
        assert hashes == []  # neither the guesser nor an unvouched From: alice
        refuted = verify_ahead(session, lines, LIMITS, ALICE, utcnow(), True)
    assert len(refuted) == 1 and hashes == ["nope"]
    replies = as_mail(run, ALICE, lines, refuted=refuted, **VOUCHED)
    assert "Wrong password for 'alice'" in error(replies).body
    assert hashes == ["nope"]  # the writer hashed nothing


def test_a_forged_sender_does_not_use_up_the_real_senders_allowance(players):
    run = players
    run.limits = LimitSettings(wrong_passwords_per_sender_per_hour=3,
                               wrong_passwords_before_pause=100)
    for attempt in range(3):  # wrong passwords in mails with alice's address forged
        showas(run, f"guess{attempt}", sender=ALICE)
    assert "Too many wrong passwords came from alice@" in error(
        showas(run, PW["alice"], sender=ALICE)).body
    replies = as_mail(run, ALICE, [f"trou showas alice {PW['alice']}"], **VOUCHED)
    assert not any("error" in r.subject.lower() for r in replies)


def test_wrong_passwords_are_counted_per_source_whatever_the_sender(players, hashes):
    run = players
    run.limits = LimitSettings(wrong_passwords_per_source_per_hour=4,
                               wrong_passwords_before_pause=100)
    source = {"source": "203.0.113.7"}
    for attempt in range(4):  # a new From: for every guess
        as_mail(run, f"g{attempt}@evil.test", [f"trou showas bob x{attempt}"], **source)
    hashes.clear()
    err = error(as_mail(run, "g9@evil.test", ["trou showas carol x9"], **source))
    assert "Too many wrong passwords came from the network address 203.0.113.7" in err.body
    assert hashes == []  # refused unread
    with run.session() as session:
        assert verify_ahead(session, ["trou showas carol x9"], run.limits, "g9@evil.test",
                            utcnow(), source="203.0.113.7") == set()
    assert hashes == []
    # Elsewhere, and mail the MTA vouched for (a big provider's users share its addresses),
    # are not affected.
    assert "Wrong password" in error(as_mail(run, "g9@evil.test", ["trou showas carol x9"],
                                             source="198.51.100.1")).body
    replies = as_mail(run, ALICE, [f"trou showas alice {PW['alice']}"], **source, **VOUCHED)
    assert not any("error" in r.subject.lower() for r in replies)


def test_the_owner_is_told_at_most_once_a_day(players):
    run = players
    notices = [r for r in pause_alice(run) if r.kind == "notice"]
    with run.session() as session:  # the pause passes and alice's right password resets it
        session.get(User, alice(run).id).password_paused_until = utcnow() - timedelta(1)
    showas(run, PW["alice"], sender=ALICE)
    assert alice(run).wrong_passwords == 0
    notices += [r for r in pause_alice(run) if r.kind == "notice"]
    assert len(notices) == 1
    assert "This is the only such notice today" in notices[0].body
    # A day later the next pause is told again.
    with run.session() as session:
        session.get(User, alice(run).id).password_paused_until = utcnow() - timedelta(1)
        session.get(RateCounter, "wrong-passwords-told:alice").window_start -= timedelta(1)
    assert [r.kind for r in showas(run, "again")].count("notice") == 1


def test_a_mail_pausing_two_accounts_mails_one_owner(players):
    """One inbound mail makes at most one mail to an address other than its sender's."""
    run = players
    with run.session() as session:
        for userid in ("alice", "bob"):
            session.scalar(select(User).where(User.userid == userid)).wrong_passwords = 5
    replies = in_one_mail(run, GUESSER, ["trou showas alice x1", "trou showas bob x2"])
    assert [r.to for r in replies if r.kind == "notice"] == [(ALICE,)]
    assert alice(run).password_paused_until is not None
    assert run.user("bob").password_paused_until is not None
    # bob hears of it with the next wrong password once his pause has passed.
    with run.session() as session:
        session.scalar(select(User).where(User.userid == "bob")).password_paused_until = None
    assert [r.to for r in run(GUESSER, "trou showas bob x3") if r.kind == "notice"] == [(BOB,)]


def test_the_owners_own_mistakes_are_not_told_to_the_owner(players):
    run = players
    replies: list[Reply] = []
    for attempt in range(LIMITS.wrong_passwords_before_pause + 1):
        replies += showas(run, f"typo{attempt}", sender=ALICE)
    assert alice(run).password_paused_until is not None
    assert not [r for r in replies if r.kind == "notice"]  # each answer went to alice
