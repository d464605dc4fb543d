"""The attacks of the 'safe to put on the internet' issue, by real mail to a real `pbm serve`:
pathological mail, file reads, mail cannons, password guessing, odd Message-IDs."""

from __future__ import annotations

import smtplib
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.mail.test_screen import PATHOLOGICAL
from tests.server.harness import SERVER_ADDRESS, PbmServer, mail

pytestmark = pytest.mark.server

ALICE, BOB = "alice@players.test", "bob@players.test"
ATTACKER = "mallory@evil.test"


def smtp_send(server: PbmServer, sender: str, raw: bytes) -> tuple[int, bytes]:
    """Send over SMTP; the server's answer to DATA."""
    with smtplib.SMTP("127.0.0.1", server.port, timeout=60) as smtp:
        smtp.ehlo()
        code, _ = smtp.mail(sender)
        assert code == 250
        code, _ = smtp.rcpt(SERVER_ADDRESS)
        assert code == 250
        return smtp.data(raw)


def inbound_count(server: PbmServer) -> int:
    with sqlite3.connect(server.database) as db:
        return db.execute("SELECT count(*) FROM inbound_messages").fetchone()[0]


@pytest.fixture
def players(server: PbmServer) -> PbmServer:
    server.send(ALICE, "signup alice secret-a1")
    server.send(BOB, "signup bob secret-b2")
    server.collect(2)
    server.send(ALICE, "trou challenge alice bob")
    server.collect(2)
    return server


def test_pathological_mail_is_refused_at_smtp_and_others_go_on(server: PbmServer):
    """Each once stalled the only writer for seconds or crashed it; now each is refused with
    a 5xx that says why, and plain mail sent meanwhile is answered as usual."""
    answers: dict[str, tuple[int, bytes]] = {}

    def attack() -> None:
        for name, raw in PATHOLOGICAL.items():
            answers[name] = smtp_send(server, ATTACKER, raw)

    attacker = threading.Thread(target=attack)
    attacker.start()
    for n in range(5):
        server.send(f"player{n}@players.test", "help")
    attacker.join(timeout=120)
    assert set(answers) == set(PATHOLOGICAL)
    for name, (code, text) in answers.items():
        # aiosmtpd itself refuses a line over RFC 5321's 1,000 bytes before pbm sees it.
        assert code in (552, 554) or (code, text) == (500, b"Line too long (see RFC5321 "
                                                            b"4.5.3.1.6)"), (name, code, text)
        assert code == 500 or text.startswith((b"5.3.4 ", b"5.6.0 ")), (name, text)
    replies = server.collect(5)
    assert all(r.subject == "Help: general" for r in replies)
    assert inbound_count(server) == 5  # nothing refused was stored


def test_pbm_process_bounces_pathological_mail_with_the_reason(server: PbmServer):
    for name, raw in PATHOLOGICAL.items():
        done = subprocess.run(
            [sys.executable, "-m", "pbm", "--config", str(server.config_file), "process",
             "--sender", ATTACKER], input=raw, capture_output=True, timeout=60)
        assert done.returncode == 65, (name, done.stderr)
        assert done.stderr.startswith(b"pbm: refused: "), name  # the outcome first
    assert inbound_count(server) == 0


@pytest.mark.parametrize("message_id", ["<caf\u00e9@players.test>", "<\u2603@\u00e9.test>"])
def test_a_non_ascii_message_id_is_answered_once(server: PbmServer, message_id: str):
    """Once answered 451 (and exit 75) forever, so the MTA retried it for days."""
    raw = mail(ALICE, "help", message_id="PLACEHOLDER").replace(
        b"PLACEHOLDER", message_id.encode("utf-8"))
    assert smtp_send(server, ALICE, raw)[0] == 250
    (reply,) = server.collect(1)
    assert reply.subject == "Help: general"
    assert "In-Reply-To" not in reply.message  # a broken id is not copied into our headers
    code, text = smtp_send(server, ALICE, raw)
    assert code == 250 and b"received before" in text
    server.collect(0)


def test_help_reads_no_file_by_mail(server: PbmServer, tmp_path: Path):
    secret = tmp_path / "operator-notes.txt"
    secret.write_text("TOP SECRET\n", encoding="utf-8")
    for topic in ("../../../../" + str(secret.with_suffix(""))[1:], str(secret.with_suffix("")),
                  "x" * 100_000):
        server.send(ATTACKER, "multiple", f"help {topic}\n")
        (reply,) = server.collect(1)
        assert "TOP SECRET" not in reply.body
        assert "There is no help on" in reply.body
        assert len(reply.body) < 3000


def test_one_board_named_a_thousand_times_is_one_mail(players: PbmServer):
    players.send(ATTACKER, "trou show" + " 101" * 1000)
    (reply,) = players.collect(1)
    assert reply.to == ATTACKER and reply.subject == "Trou Board 101"


def test_a_body_of_challenges_starts_a_few_boards(players: PbmServer):
    """A `multiple` body of 200 challenges once gave 400 mails to two players."""
    players.send(ATTACKER, "multiple", "\n".join(["trou challenge alice bob"] * 200))
    replies = players.collect(5 * 3 + 1)  # 5 boards x (2 players + the challenger), 1 answer
    answers = [r for r in replies if r.message["Auto-Submitted"] == "auto-replied"]
    assert len(answers) == 1 and answers[0].to == ATTACKER
    assert answers[0].body.count("One mail may start at most 5 boards") == 1  # merged


def test_password_guessing_by_mail_pauses_and_tells_the_owner(players: PbmServer):
    """9 guesses a second once went on unchecked; now the account pauses after five and
    its owner hears of it once."""
    for n in range(12):
        players.send(ATTACKER, f"trou move 101 alice guess{n} 1B2")
    replies = players.collect(12 + 1)
    notices = [r for r in replies if r.to == ALICE]
    assert len(notices) == 1 and notices[0].subject == "pbm: wrong passwords for alice"
    to_attacker = [r.body for r in replies if r.to == ATTACKER]
    assert sum("Wrong password for 'alice'" in b for b in to_attacker) == 6
    assert sum("Password checks for alice are paused" in b for b in to_attacker) == 6
    for reply in replies:
        assert not any(f"guess{n}" in reply.body for n in range(12))
    players.send(ALICE, "trou move 101 alice secret-a1 1B2")  # right, but paused
    (refused,) = players.collect(1)
    assert "paused until" in refused.body
    with sqlite3.connect(players.database) as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 0


def test_a_guessing_mail_holds_few_password_checks(players: PbmServer):
    """A mail of 100 guesses once held the only writer for 11 s."""
    lines = [f"trou showas alice guess{n}" for n in range(100)]
    players.send(ATTACKER, "multiple", "\n".join(lines))
    (answer,) = players.collect(1)
    # Identical answers are merged: each of the three kinds appears once.
    assert answer.body.count("Wrong password for 'alice'") == 1
    assert answer.body.count("already held 3 wrong passwords") == 1
    assert "50 command lines more than the 50 one mail may hold" in answer.body
    with sqlite3.connect(players.database) as db:  # three checks made, the rest refused unread
        assert db.execute("SELECT wrong_passwords FROM users WHERE userid = 'alice'"
                          ).fetchone() == (3,)


def test_a_flood_is_answered_to_the_limit_then_refused_for_now(tmp_path: Path):
    """Once every flood mail was answered; then kept unanswered (storage without end). Now
    the sender gets its hour's answers and one notice, and the door answers 451 after that:
    nothing more is stored, and a real MTA keeps the mail and retries after the hour."""
    pbm = PbmServer(tmp_path, extra_config="[limits]\nmails_per_sender_per_hour = 4\n")
    pbm.start()
    try:
        codes = [smtp_send(pbm, ATTACKER, mail(ATTACKER, "help"))[0] for _ in range(10)]
        replies = pbm.collect(5)
        process = subprocess.run(
            [sys.executable, "-m", "pbm", "--config", str(pbm.config_file), "process",
             "--sender", ATTACKER], input=mail(ATTACKER, "help"), capture_output=True,
            timeout=60)
    finally:
        pbm.stop()
    assert codes == [250] * 5 + [451] * 5
    assert [r.subject for r in replies] == ["Help: general"] * 4 + ["pbm: too many mails from you"]
    assert inbound_count(pbm) == 5
    assert process.returncode == 75
    assert b"Too many mails from your address this hour" in process.stderr
