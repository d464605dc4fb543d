"""Two people play Trou by mail against a real `pbm serve`, and everything that can go wrong."""

from __future__ import annotations

import pytest

from pbm.games.trou.game import GAME as TROU
from tests import stores
from tests.server.harness import PbmServer, by_recipient

ALICE = "alice@players.test"
BOB = "bob@players.test"

pytestmark = pytest.mark.server


def signup_both(server: PbmServer) -> None:
    server.send(ALICE, "signup alice secret")
    server.send(BOB, "signup bob hunter2")
    welcome = by_recipient(server.collect(2))
    assert welcome[ALICE].subject == "Welcome to pbm, alice"
    assert welcome[BOB].subject == "Welcome to pbm, bob"
    for reply in welcome.values():
        assert "secret" not in reply.body and "hunter2" not in reply.body


def challenge(server: PbmServer) -> dict:
    server.send(ALICE, "trou challenge alice bob", "Good luck!")
    boards = by_recipient(server.collect(2))
    for reply in boards.values():
        assert reply.subject == "New Trou Board 101 alice **"
        lines = reply.body.splitlines()
        assert lines[0] == "A new Trou board (101) has been started"
        assert "Please start the game alice." in lines
        assert "alice writes:" in lines and "Good luck!" in lines
    return boards


def a_game() -> list[tuple[int, str]]:
    """A whole legal game: each seat plays its first legal move in a fixed order."""
    state = TROU.start({}, 0)
    log = []
    while TROU.result(state) is None:
        (seat,) = TROU.to_move(state)
        move = sorted(TROU.legal_moves(state, seat), key=TROU.notation)[0]
        log.append((seat, TROU.notation(move)))
        state = TROU.play(state, seat, move)
    return log


PLAYERS = [("alice", "secret", ALICE), ("bob", "hunter2", BOB)]


def play(server: PbmServer, moves: list[tuple[int, str]], first_number: int) -> list[dict]:
    mails = []
    for offset, (seat, text) in enumerate(moves):
        userid, password, address = PLAYERS[seat]
        number = first_number + offset
        server.send(address, f"trou move 101 {userid} {password} {text}#{number}")
        replies = by_recipient(server.collect(2))
        for reply in replies.values():
            body = reply.body
            assert body.splitlines()[0] == "Summary of Trou Board 101"
            assert f"{number:>3}. {text}" in body, body
            assert "Red: alice" in body and "Black: bob" in body
            assert "     A   B   C" in body
            assert password not in body
        mails.append(replies)
    return mails


def test_a_whole_game_by_mail(server: PbmServer):
    signup_both(server)
    challenge(server)
    moves = a_game()
    mails = play(server, moves, 1)
    for replies in mails[:-1]:
        turn = [r for r in replies.values()][0]
        assert turn.subject in ("Trou Board 101 alice", "Trou Board 101 bob")
        assert "It is " in turn.body
    last = mails[-1]
    final = TROU.result(_replayed(moves))
    assert final is not None
    for reply in last.values():
        assert reply.subject == "Trou Board 101"
        if final.is_draw:
            assert "Game was a tie." in reply.body.splitlines()
        else:
            winner = ["alice", "bob"][min(final.winners)]
            assert f"Game won by {winner}." in reply.body.splitlines()
        assert final.reason in reply.body
    # A move after the end is refused and says so.
    server.send(ALICE, "trou move 101 alice secret 1A1")
    (error,) = server.collect(1)
    assert error.subject == "Trou Board 101 Error"
    assert "over" in error.body


def _replayed(moves):
    state = TROU.start({}, 0)
    for seat, text in moves:
        state = TROU.play(state, seat, TROU.parse(state, seat, text))
    return state


def test_restart_mid_game_and_finish(server: PbmServer):
    signup_both(server)
    challenge(server)
    moves = a_game()
    play(server, moves[:3], 1)
    server.restart()
    log = server.log.read_text()
    assert "pbm serve: stopped" in log and "Traceback" not in log  # a clean stop
    mails = play(server, moves[3:], 4)
    assert mails[-1][ALICE].subject == "Trou Board 101"


def test_the_same_message_twice_moves_once(server: PbmServer):
    signup_both(server)
    challenge(server)
    (seat, text), *_ = a_game()
    message_id = server.send(ALICE, f"trou move 101 alice secret {text}")
    server.collect(2)
    server.send(ALICE, f"trou move 101 alice secret {text}", message_id=message_id)
    server.collect(0)
    with stores.sql(server.database) as db:
        assert db.execute("select count(*) from moves").fetchone()[0] == 1
        # The second copy is not stored again.
        assert db.execute("select count(*) from inbound_messages").fetchone()[0] == 4


def _board_unchanged(server: PbmServer, moves: int) -> None:
    with stores.sql(server.database) as db:
        assert db.execute("select move_count from boards where id = 101").fetchone()[0] == moves


def test_errors_answer_and_change_nothing(server: PbmServer):
    signup_both(server)
    challenge(server)

    def error(address: str, subject: str) -> str:
        server.send(address, subject)
        (reply,) = server.collect(1)
        assert reply.to == address
        return reply

    reply = error(ALICE, "trou move 101 alice wrong 1B2")
    assert reply.subject == "Trou Board 101 Error"
    assert "Wrong password for 'alice'" in reply.body
    # The password was wrong: nothing after its place is quoted (it may be the next word).
    assert "trou move 101 alice ******** ********" in reply.body
    assert "wrong" not in reply.body.replace("Wrong", "")

    # A word in the userid place that names nobody may be a misplaced password: not quoted.
    reply = error(ALICE, "trou move 101 carol secret 1B2")
    assert "No player has the userid you gave" in reply.body
    assert "carol" not in reply.body and "secret" not in reply.body
    assert "trou move 101 ******** ******** ********" in reply.body

    reply = error(ALICE, "trou move 999 alice secret 1B2")
    assert "There is no Trou board 999." in reply.body

    reply = error(BOB, "trou move 101 bob hunter2 1B2")
    assert "It is not your turn on board 101; it is alice's turn." in reply.body
    assert "hunter2" not in reply.body

    reply = error(ALICE, "trou move 101 alice secret 9Z9")
    assert reply.subject == "Trou Board 101 Error"
    assert "3B2" in reply.body  # says how to write a move
    assert "     A   B   C" in reply.body  # and shows the board

    reply = error(ALICE, "trou move 101 alice secret 1B2#5")
    assert "refused: it would be move #1 of board 101, not #5" in reply.body

    reply = error(ALICE, "trou jump 101 alice secret 1B2")
    assert reply.subject == "Trou error"
    assert "'jump' is not a Trou command" in reply.body
    assert "secret" not in reply.body

    reply = error(ALICE, "frobnicate now")
    assert reply.subject == "pbm error"
    assert "'frobnicate' is not a command" in reply.body
    assert "help commands" in reply.body

    _board_unchanged(server, 0)

    # An illegal move after a legal one: the first stands, the second changes nothing.
    server.send(ALICE, "trou move 101 alice secret 1B2")
    server.collect(2)
    reply = error(BOB, "trou move 101 bob hunter2 1B1")
    assert "B1" in reply.body and "Error" in reply.subject
    _board_unchanged(server, 1)


def test_oversized_mail_is_refused_with_552(server: PbmServer):
    import smtplib

    big = b"Subject: signup huge secret\r\nFrom: " + ALICE.encode() + b"\r\n\r\n" + (
        b"x" * 76 + b"\r\n"
    ) * (2 * 1024 * 1024 // 78)
    # A client that announces the size is refused at MAIL FROM ...
    with pytest.raises(smtplib.SMTPSenderRefused) as refused:
        server.send_raw(ALICE, big)
    assert refused.value.smtp_code == 552
    # ... and one that does not is refused after DATA.
    with smtplib.SMTP("127.0.0.1", server.port, timeout=30) as smtp:
        smtp.ehlo()
        assert smtp.mail(ALICE)[0] == 250
        assert smtp.rcpt("pbm@games.test")[0] == 250
        code, message = smtp.data(big)
    assert code == 552, message
    server.collect(0)
    with stores.sql(server.database) as db:
        assert db.execute("select count(*) from users").fetchone()[0] == 0
        assert db.execute("select count(*) from inbound_messages").fetchone()[0] == 0


def test_non_utf8_and_html_only_mail(server: PbmServer):
    latin = (
        "From: Zoë <zoe@players.test>\r\n"
        "To: pbm@games.test\r\n"
        "Subject: signup zoe geheim\r\n"
        "Message-ID: <latin1@players.test>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n"
        "Grüße aus Köln\r\n"
    ).encode("latin-1")
    server.send_raw("zoe@players.test", latin)
    (welcome,) = server.collect(1)
    assert welcome.to == "zoe@players.test"
    assert welcome.subject == "Welcome to pbm, zoe"

    html = (
        b"From: hal@players.test\r\n"
        b"To: pbm@games.test\r\n"
        b"Subject: hello there\r\n"
        b"Message-ID: <html-only@players.test>\r\n"
        b"MIME-Version: 1.0\r\n"
        b"Content-Type: text/html; charset=utf-8\r\n\r\n"
        b"<html><body><p>signup hal opensesame</p><p>end</p>"
        b"<blockquote>trou challenge hal zoe</blockquote></body></html>\r\n"
    )
    server.send_raw("hal@players.test", html)
    (welcome,) = server.collect(1)
    assert welcome.subject == "Welcome to pbm, hal"
    with stores.sql(server.database) as db:
        users = [row[0] for row in db.execute("select userid from users order by userid")]
    assert users == ["hal", "zoe"]


def test_automatic_mail_is_never_answered(server: PbmServer):
    server.send(ALICE, "signup alice secret", headers={"Auto-Submitted": "auto-replied"})
    server.send(BOB, "signup bob hunter2", headers={"Precedence": "bulk"})
    server.send("mailer-daemon@players.test", "signup carol secret3")
    server.send("pbm@games.test", "signup dave secret4")  # our own address: a mail loop
    server.collect(0)
    with stores.sql(server.database) as db:
        statuses = [row[0] for row in db.execute("select status from inbound_messages")]
        assert db.execute("select count(*) from users").fetchone()[0] == 0
    assert statuses == ["ignored"] * 4


def test_replies_carry_threading_and_robot_headers(server: PbmServer):
    message_id = server.send(ALICE, "help")
    (reply,) = server.collect(1)
    headers = reply.message
    assert headers["In-Reply-To"] == message_id
    assert message_id in headers["References"]
    assert headers["Auto-Submitted"] == "auto-replied"
    assert headers["Message-ID"].endswith("@games.test>")
    assert headers["Date"]
    assert "pbm@games.test" in headers["From"]
