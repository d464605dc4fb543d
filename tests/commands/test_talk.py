"""Talking by mail: chat on a board, message to users, broadcast from an operator."""

from __future__ import annotations

import pytest

from pbm.commands.talk import MAX_RECIPIENTS, MAX_TEXT_CHARS
from pbm.config import LimitSettings
from pbm.games import registry
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
from tests.commands.social import run_as, snapshot

HELLO = "Good luck, have fun!\nSecond line."


# ----- chat -------------------------------------------------------------------------------
@pytest.mark.parametrize("word", registry.names())
def test_chat_reaches_the_other_player_and_is_not_stored(players, word):
    run = players
    run(STRANGER, f"{word} challenge alice bob")
    before = snapshot(run)
    replies = run(ALICE, f"{word} chat 101 alice {PW['alice']}", HELLO)
    title = registry.get(word).info.title
    chat = one(replies, BOB)
    assert chat.subject == f"{title} Board 101 chat from alice"
    assert chat.kind == "notice"
    assert chat.body.startswith(f"alice writes to the players of {title} Board 101")
    assert HELLO in chat.body
    assert to(replies, ALICE)[0].body == "Your chat was sent to bob.\n"
    assert len(replies) == 2
    assert snapshot(run) == before  # not on the board, not in the move log
    assert_never_echoed(replies, PW["alice"])


def chat_body(userid: str, whom: str, title: str, word: str) -> str:
    """A chat mail's whole body, its words as `flat` has them: the text and how to answer,
    no board (hidden information stays out of it, whoever reads it)."""
    return flat(f"{userid} writes to the {whom} of {title} Board 101 (a chat: it is not part "
                f"of the board): {HELLO} To answer: {word} chat 101 YOURID PASSWORD, with your "
                "text in the body.")


@pytest.mark.parametrize("word", registry.names())
def test_chat_reaches_the_spectators_and_a_spectator_may_chat(players, word):
    run = players
    run(STRANGER, f"{word} challenge alice bob")
    run(CAROL, f"{word} subscribe 101 carol {PW['carol']}")
    title = registry.get(word).info.title
    before = snapshot(run)
    replies = run(ALICE, f"{word} chat 101 alice {PW['alice']}", HELLO)
    assert sorted(r.to for r in replies) == [(ALICE,), (BOB,), (CAROL,)]
    for address in (BOB, CAROL):
        mail = one(replies, address)
        assert (mail.subject, mail.kind) == (f"{title} Board 101 chat from alice", "notice")
        assert flat(mail.body) == chat_body("alice", "players and spectators", title, word)
        assert mail.html is None
    assert one(replies, ALICE).body == "Your chat was sent to bob, carol.\n"
    # The spectator writes to both players.
    replies = run(CAROL, f"{word} chat 101 carol {PW['carol']}", HELLO)
    assert sorted(r.to for r in replies) == [(ALICE,), (BOB,), (CAROL,)]
    assert flat(one(replies, BOB).body) == chat_body("carol", "players and spectators", title,
                                                     word)
    assert one(replies, CAROL).body == "Your chat was sent to alice, bob.\n"
    assert snapshot(run) == before
    assert_never_echoed(replies, PW["carol"])


def test_chat_goes_to_each_address_once(players):
    run = players
    run(BOB, "signup dave Dave4444")  # dave reads his mail at bob's address
    run(ALICE, "signup erin Erin5555")  # ... and erin at alice's
    start_trou(run)
    run(BOB, "trou subscribe 101 dave Dave4444")
    run(ALICE, "trou subscribe 101 erin Erin5555")
    replies = run(ALICE, f"trou chat 101 alice {PW['alice']}", HELLO)
    assert [r.to for r in replies] == [(BOB,), (ALICE,)]  # bob's once, and the answer
    assert one(replies, ALICE).body == "Your chat was sent to bob.\n"


def test_a_spectator_who_left_neither_chats_nor_is_chatted_to(players):
    run = players
    start_trou(run)
    run(CAROL, f"trou subscribe 101 carol {PW['carol']}")
    run(CAROL, f"trou unsubscribe 101 carol {PW['carol']}")
    assert to(run(ALICE, f"trou chat 101 alice {PW['alice']}", HELLO), CAROL) == []
    assert "carol neither plays on nor watches board 101" in \
        error(run(CAROL, f"trou chat 101 carol {PW['carol']}", HELLO)).body


def test_a_signed_off_spectator_is_not_chatted_to(players):
    run = players
    start_trou(run)
    run(CAROL, f"trou subscribe 101 carol {PW['carol']}")
    run(CAROL, f"signoff carol {PW['carol']}")
    replies = run(ALICE, f"trou chat 101 alice {PW['alice']}", HELLO)
    assert sorted(r.to for r in replies) == [(ALICE,), (BOB,)]
    assert one(replies, BOB).body.startswith("alice writes to the players of Trou Board 101")


def test_chats_to_spectators_count_against_the_days_mails(players):
    run = players
    run.limits = LimitSettings(messages_per_user_per_day=1)
    start_trou(run)
    run(CAROL, f"trou subscribe 101 carol {PW['carol']}")
    before = snapshot(run)
    refused = error(run(ALICE, f"trou chat 101 alice {PW['alice']}", HELLO))
    assert "alice has sent 1 messages and chats in the last day" in refused.body
    assert snapshot(run) == before


def test_chat_answers_back_and_forth_and_the_board_shows_no_trace(players):
    run = players
    start_trou(run, moves=("1B2",))
    run(BOB, f"trou chat 101 bob {PW['bob']}", "Nice opening.")
    shown = one(run(STRANGER, "trou show 101")).body
    assert "Nice opening." not in shown and "chat" not in shown


@pytest.mark.parametrize("line, comment, message", [
    ("trou chat 101 alice {alice}", None, "A chat needs a text"),
    ("trou chat 101 alice {alice}", "   \n  ", "A chat needs a text"),
    ("trou chat 101 carol {carol}", HELLO, "carol neither plays on nor watches board 101"),
    ("trou chat 101 nobody {carol}", HELLO, "No player has the userid you gave"),
    ("trou chat 101 alice Wrong-pass-9", HELLO, "password"),
    ("trou chat 102 alice {alice}", HELLO, "There is no Trou board 102"),
    ("trou chat 101 alice", HELLO, "Too few words"),
])
def test_bad_chats_send_nothing_and_change_nothing(players, line, comment, message):
    run = players
    start_trou(run)
    before = snapshot(run)
    sender = CAROL if "carol" in line else ALICE
    replies = run(sender, line.format(**PW), comment)
    reply = error(replies)
    assert reply.to == (sender,)
    assert message in reply.body
    assert snapshot(run) == before
    assert_never_echoed(replies, PW["alice"], PW["carol"], "Wrong-pass-9")


def test_a_long_text_is_cut_with_a_note(players):
    run = players
    start_trou(run)
    long = "x" * (MAX_TEXT_CHARS * 3)
    chat = one(run(ALICE, f"trou chat 101 alice {PW['alice']}", long), BOB)
    assert f"it had {len(long)} characters, {MAX_TEXT_CHARS} are passed on" in chat.body
    assert len(chat.body) < MAX_TEXT_CHARS + 1000


# ----- message ----------------------------------------------------------------------------
def test_message_goes_to_each_user_named_once(players):
    run = players
    replies = run(ALICE, f"message alice {PW['alice']} bob CAROL bob", HELLO)
    assert {r.to for r in replies} == {(ALICE,), (BOB,), (CAROL,)}
    for address in (BOB, CAROL):
        mail = one(replies, address)
        assert (mail.subject, mail.kind) == ("Message from alice", "notice")
        assert mail.body.startswith("alice writes to bob, carol:\n\n" + HELLO)
        assert "To answer: message YOURID PASSWORD alice" in mail.body
    assert one(replies, ALICE).body == "Your message was sent to bob, carol.\n"
    assert_never_echoed(replies, PW["alice"])


@pytest.mark.parametrize("names, message", [
    ("bob nobody", "There is no user 'nobody'. Nothing was sent."),
    ("bob {alice}", "There is no user '********'"),  # the password typed again
    (" ".join(f"user{i}" for i in range(MAX_RECIPIENTS + 1)),
     f"at most {MAX_RECIPIENTS} users; this one named {MAX_RECIPIENTS + 1}"),
])
def test_bad_recipients_send_nothing(players, names, message):
    run = players
    before = snapshot(run)
    replies = run(ALICE, f"message alice {PW['alice']} {names.format(**PW)}", HELLO)
    assert message in error(replies).body
    assert snapshot(run) == before
    assert_never_echoed(replies, PW["alice"])


def test_message_without_a_text_or_with_a_wrong_password(players):
    run = players
    assert "A message needs a text" in error(run(ALICE, f"message alice {PW['alice']} bob")).body
    replies = run(ALICE, "message alice Wrong-pass-9 bob", HELLO)
    assert "password" in error(replies).body
    assert_never_echoed(replies, "Wrong-pass-9")


def test_a_signed_off_user_gets_no_messages(players):
    run = players
    run(CAROL, f"signoff carol {PW['carol']}")
    assert "There is no user 'carol'" in error(
        run(ALICE, f"message alice {PW['alice']} carol", HELLO)).body


def test_messages_and_chats_a_day_are_bounded_per_user(players):
    run = players
    run.limits = LimitSettings(messages_per_user_per_day=3)
    start_trou(run)
    assert len(run(ALICE, f"message alice {PW['alice']} bob carol", HELLO)) == 3  # 2 counted
    # Two more would make four: the whole message is refused and counts nothing.
    refused = error(run(ALICE, f"message alice {PW['alice']} bob carol", HELLO))
    assert "alice has sent 3 messages and chats in the last day" in refused.body
    assert "nothing was sent" in refused.body
    assert len(run(ALICE, f"trou chat 101 alice {PW['alice']}", HELLO)) == 2  # the third
    assert "in the last day" in error(run(ALICE, f"message alice {PW['alice']} carol",
                                          HELLO)).body
    # Another user has an allowance of their own.
    assert len(run(BOB, f"message bob {PW['bob']} alice", HELLO)) == 2


# ----- broadcast --------------------------------------------------------------------------
def test_only_operators_may_broadcast(players):
    run = players
    before = snapshot(run)
    replies = run_as(run, ALICE, f"broadcast alice {PW['alice']}", HELLO, operators=("bob",))
    assert "Only the server's operators may broadcast, and alice is not one" in \
        error(replies).body
    assert snapshot(run) == before
    assert_never_echoed(replies, PW["alice"])


def test_an_operator_broadcasts_to_every_active_user(players):
    run = players
    run(STRANGER, "signup dave Dave4444")
    run(STRANGER, "signup erin Erin5555 erin@example.com erin@example.net")
    run("erin@example.com", "signoff erin Erin5555")
    replies = run_as(run, ALICE, f"broadcast alice {PW['alice']}", HELLO, operators=("alice",))
    notices = [r for r in replies if r.kind == "notice"]
    assert sorted(r.to for r in notices) == [(BOB,), (CAROL,), (STRANGER,)]
    assert {r.subject for r in notices} == {"Broadcast from alice"}
    assert all(HELLO in r.body for r in notices)
    assert one(replies, ALICE).body == "Your broadcast was sent to 3 users.\n"
    assert_never_echoed(replies, PW["alice"])


def test_a_broadcast_needs_a_text(players):
    replies = run_as(players, ALICE, f"broadcast alice {PW['alice']}", operators=("alice",))
    assert "A broadcast needs a text" in error(replies).body


def test_help_lists_the_talking_commands(players):
    page = one(players(STRANGER, "help commands")).body
    for syntax in ("message userid password userid1 [userid2 ...]", "broadcast userid password",
                   "game chat board userid password"):
        assert syntax in page
    assert "Operators only" in page
