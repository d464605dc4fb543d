"""Replies from real mail clients: a phone's reply to a board mail keeps the board's
Subject and threading headers, adds "Sent from my iPhone", and may hold only a move."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

from sqlalchemy import select

from pbm.db.models import Board, OutboxMail
from tests.mail.test_amplification import ALICE, BOB, Store, body_of

CAROL = "carol@example.org"


def started(tmp_path) -> tuple[Store, OutboxMail]:
    """alice and bob on Trou board 101; the board's first mail to alice."""
    store = Store(tmp_path)
    store.mail(ALICE, "signup alice secret1")
    store.mail(BOB, "signup bob secret2")
    mails = store.mail(CAROL, "trou challenge alice bob")
    (to_alice,) = [row for row in mails if row.recipient == ALICE]
    return store, to_alice


def reply_to(store: Store, sender: str, row: OutboxMail, body: str) -> list[OutboxMail]:
    """What a mail client sends when `sender` answers `row`: Re: its Subject, threaded."""
    header = BytesParser(policy=policy.default).parsebytes(row.raw)
    references = f"{header.get('References', '')} {header['Message-ID']}".strip()
    return store.mail(sender, f"Re: {header['Subject']}", body,
                      In_Reply_To=header["Message-ID"], References=references)


def moves_on(store: Store, number: int = 101) -> int:
    with store.factory() as session:
        return session.scalars(select(Board.move_count).where(Board.number == number)).one()


def test_a_phones_lines_around_a_command_are_its_comment_not_errors(tmp_path):
    store, to_alice = started(tmp_path)
    body = ("Hi Bob,\n\ntrou move 101 alice secret1 3B2\n\nThanks for the game!\n\n"
            "Sent from my iPhone\n")
    mails = reply_to(store, ALICE, to_alice, body)
    assert moves_on(store) == 1
    assert not [row for row in mails if "rror" in row.subject]  # no error mail for the prose
    (to_bob,) = [row for row in mails if row.recipient == BOB]
    assert to_bob.subject == "Trou Board 101 bob **"  # ** : it carries a comment
    text = body_of(to_bob).replace("\r\n", "\n")
    assert "alice writes:\nHi Bob,\n\nThanks for the game!\n\nSent from my iPhone" in text
    assert "trou move 101 alice" not in text.split("alice writes:")[1]  # nor the password


def test_a_line_that_looks_like_a_command_and_fails_is_answered(tmp_path):
    store, to_alice = started(tmp_path)
    mails = reply_to(store, ALICE, to_alice, "tru move 101 alice secret1 3B2\nSent from my phone\n")
    (error,) = mails
    assert error.recipient == ALICE and moves_on(store) == 0
    text = " ".join(body_of(error).split())
    assert "'tru' is not a command; did you mean trou?" in text
    assert "secret1" not in body_of(error)


def test_a_reply_holding_only_a_move_is_answered_with_the_command(tmp_path):
    store, to_alice = started(tmp_path)
    (answer,) = reply_to(store, ALICE, to_alice, "3b2\n\nSent from my iPhone\n")
    assert moves_on(store) == 0  # nothing is played without the password
    assert answer.recipient == ALICE
    assert answer.subject == "Trou Board 101: the command to send"
    text = body_of(answer).replace("\r\n", "\n")
    assert "  trou move 101 alice PASSWORD 3b2#1\n" in text
    assert "nothing was played" in text
    # Sent as told, with the password, it plays.
    store.mail(ALICE, "trou move 101 alice secret1 3b2#1")
    assert moves_on(store) == 1


def test_out_of_turn_the_move_is_offered_as_a_queue(tmp_path):
    store, _to_alice = started(tmp_path)
    mails = store.mail(ALICE, "trou move 101 alice secret1 3B2")
    (to_alice,) = [row for row in mails if row.recipient == ALICE]
    (answer,) = reply_to(store, ALICE, to_alice, "1A1\n")
    text = body_of(answer).replace("\r\n", "\n")
    assert "It is not your turn on Trou board 101" in text
    assert "  trou queue 101 alice PASSWORD 1A1\n" in text


def test_a_reply_without_a_move_or_a_command_is_never_answered(tmp_path):
    """An auto-responder that does not say it is one, or a thank-you: answering it is how
    mail loops start."""
    store, to_alice = started(tmp_path)
    for body in ("Thanks!\n", "I am away until Monday.\n", "Nice move\n\nSent from my iPhone\n"):
        assert reply_to(store, ALICE, to_alice, body) == []
        assert store.last_status() == "ignored"
    assert moves_on(store) == 0


def test_a_move_offered_only_to_a_player_of_the_board(tmp_path):
    store, to_alice = started(tmp_path)
    store.mail(CAROL, "signup carol secret3")
    # carol forwards alice's board mail back with a move: she does not play on 101.
    assert reply_to(store, CAROL, to_alice, "3B2\n") == []
    assert store.last_status() == "ignored"


def test_the_board_is_found_by_its_subject_when_threading_is_lost(tmp_path):
    """Some webmail drops References; the Subject still names the board."""
    store, _to_alice = started(tmp_path)
    (answer,) = store.mail(ALICE, "Re: New Trou Board 101 alice", "3B2\n")
    assert "  trou move 101 alice PASSWORD 3B2#1" in body_of(answer)


def test_multiple_still_runs_every_line(tmp_path):
    """Subject 'multiple' says every line is a command (pbmserv's rule): prose there is
    answered, as the sender asked for commands."""
    store, _to_alice = started(tmp_path)
    (reply,) = store.mail(ALICE, "multiple", "trou show 101\nThanks for the game!\n")
    assert "'Thanks' is not a command" in body_of(reply)
