"""Reading inbound mail: subject clean-up, where the body stops, commands, sender, auto mail."""

from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from pbm.mail.inbound import (
    MAX_COMMAND_LINES,
    InboundMail,
    body_lines,
    clean_subject,
    commands,
    html_to_text,
    message_key,
    read,
)


def mail(subject: str = "", body: str = "", sender: str = "alice@example.org") -> InboundMail:
    return InboundMail(message_id="<m1@example.org>", sender=sender, subject=subject, body=body,
                       auto=False, references="")


def raw_mail(body: str = "hello\n", subject: str = "trou show 101", headers: dict | None = None,
             charset: str = "utf-8") -> bytes:
    message = EmailMessage()
    message["From"] = "Alice <alice@example.org>"
    message["To"] = "pbm@example.org"
    message["Subject"] = subject
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body, charset=charset)
    return message.as_bytes()


def raw_8bit(body: bytes, charset: str | None, subject: bytes = b"trou show 101") -> bytes:
    """A hand-made mail with an 8-bit body in `charset` (as clients really send them)."""
    content_type = b"text/plain" + (f'; charset="{charset}"'.encode() if charset else b"")
    return (b"From: Bea <bea@example.org>\r\n"
            b"To: pbm@example.org\r\n"
            b"Subject: " + subject + b"\r\n"
            b"Message-ID: <8bit@example.org>\r\n"
            b"MIME-Version: 1.0\r\n"
            b"Content-Type: " + content_type + b"\r\n"
            b"Content-Transfer-Encoding: 8bit\r\n"
            b"\r\n" + body)


# ----- clean_subject ------------------------------------------------------------------
@pytest.mark.parametrize(
    "subject, expected",
    [
        ("trou move 101 alice secret 1B2", "trou move 101 alice secret 1B2"),
        ("Re: trou show 101", "trou show 101"),
        ("RE: trou show 101", "trou show 101"),
        ("re:trou show 101", "trou show 101"),
        ("Fwd: trou show 101", "trou show 101"),
        ("FW: trou show 101", "trou show 101"),
        ("AW: trou show 101", "trou show 101"),
        ("Re[2]: trou show 101", "trou show 101"),
        ("Re : trou show 101", "trou show 101"),
        ("[pbm] trou show 101", "trou show 101"),
        ("[SPAM] [pbm] trou show 101", "trou show 101"),
        ("Re: Fwd: [pbm] Re: AW: trou show 101", "trou show 101"),
        ("  Re:   Re:  multiple  ", "multiple"),
        ("Re: Trou Board 101 bob", "Trou Board 101 bob"),
        ("Re:", ""),
        ("", ""),
    ],
)
def test_clean_subject(subject: str, expected: str):
    assert clean_subject(subject) == expected


def test_clean_subject_keeps_words_that_only_start_like_a_prefix():
    assert clean_subject("resign me") == "resign me"
    assert clean_subject("trou resign 101 alice secret") == "trou resign 101 alice secret"
    assert clean_subject("trou show 101 [all]") == "trou show 101 [all]"


# ----- body_lines -------------------------------------------------------------------------
def test_body_lines_runs_to_the_end_and_strips_lines():
    assert body_lines("  trou show 101  \ntrou show 102\n") == ["trou show 101", "trou show 102",
                                                                 ""]


@pytest.mark.parametrize("stop", ["end", "END", "stop", "Stop", "  end  "])
def test_body_lines_stop_at_end_or_stop(stop: str):
    body = f"trou show 101\n{stop}\ntrou show 102\n"
    assert body_lines(body) == ["trou show 101"]


def test_body_lines_stop_at_the_signature():
    assert body_lines("trou show 101\n-- \nAlice\ntrou show 102\n") == ["trou show 101"]
    assert body_lines("trou show 101\n--\nAlice\n") == ["trou show 101"]


def test_a_line_with_dashes_in_it_is_not_a_signature():
    assert body_lines("a -- b\ntrou show 101") == ["a -- b", "trou show 101"]


def test_body_lines_stop_at_quoted_text():
    body = "trou show 101\n> trou move 101 bob pw 2A1\ntrou show 102\n"
    assert body_lines(body) == ["trou show 101"]
    assert body_lines("  > quoted\ntrou show 101") == []


@pytest.mark.parametrize(
    "intro",
    [
        "On Tue, 28 Nov 2023 at 10:15, pbm <pbm@example.org> wrote:",
        "on 28/11/2023 10:15, pbm wrote:",
        "Am 28.11.2023 um 10:15 schrieb pbm <pbm@example.org>:",
        "Le 28/11/2023 à 10:15, pbm a écrit :",
    ],
)
def test_body_lines_stop_at_the_quote_introduction(intro: str):
    body = f"trou show 101\n\n{intro}\n\nSummary of Trou Board 101\n"
    assert body_lines(body) == ["trou show 101", ""]


def test_body_lines_stop_at_a_quote_introduction_wrapped_over_two_lines():
    body = ("trou move 101 bob hunter2 2A1\n\n"
            "On Tue, Nov 28, 2023 at 10:15 AM pbm server <pbm@example.org>\n"
            "wrote:\n\n> Summary of Trou Board 101\n")
    assert [line for line in body_lines(body) if line] == ["trou move 101 bob hunter2 2A1"]


def test_body_lines_stop_at_an_outlook_original_message():
    body = "trou show 101\n-----Original Message-----\nFrom: pbm\n"
    assert body_lines(body) == ["trou show 101"]


def test_words_containing_end_or_stop_do_not_stop():
    assert body_lines("the end is near\nstopping\n") == ["the end is near", "stopping", ""]


# ----- commands ---------------------------------------------------------------------------
def test_subject_command_with_the_body_as_comment():
    found = commands(mail("Re: trou move 101 alice secret 1B2",
                          "Good luck!\nSee you.\n\n-- \nAlice\n"))
    assert found.lines == ["trou move 101 alice secret 1B2"]
    assert found.comment == "Good luck!\nSee you."


def test_subject_command_without_body_has_no_comment():
    found = commands(mail("trou challenge alice bob", "\n\n-- \nAlice\n"))
    assert found.lines == ["trou challenge alice bob"]
    assert found.comment is None


def test_account_commands_are_recognised_in_the_subject():
    for subject in ("signup alice secret", "help", "help trou", "list",
                    "change password alice old new", "signoff alice secret"):
        found = commands(mail(subject, "a comment\n"))
        assert found.lines == [subject], subject


def test_comment_stops_at_the_quoted_board():
    body = "Nice move.\n\nOn Tue, 28 Nov 2023, pbm wrote:\n> Summary of Trou Board 101\n"
    found = commands(mail("Re: trou move 101 alice secret 1B2", body))
    assert found.comment == "Nice move."


def test_multiple_subject_makes_every_body_line_a_command():
    body = ("signup alice secret\n\n  trou challenge alice bob  \ntrou show 101\nend\n"
            "trou show 102\n")
    for subject in ("multiple", "MULTIPLE", "Re: multiple", "[pbm] Multiple"):
        found = commands(mail(subject, body))
        assert found.lines == ["signup alice secret", "trou challenge alice bob",
                               "trou show 101"]
        assert found.comment is None


def test_non_command_subject_reads_the_body_as_commands():
    body = "trou move 101 bob hunter2 2A1\n\n> Summary of Trou Board 101\n> trou show 102\n"
    for subject in ("Re: Trou Board 101 bob", "my move", ""):
        found = commands(mail(subject, body))
        assert found.lines == ["trou move 101 bob hunter2 2A1"], subject
        assert found.comment is None


def test_non_command_subject_and_empty_body_answers_the_subject():
    """Nothing to run in the body either: the Subject is run so the reply says what is wrong."""
    found = commands(mail("Re: hello", "\n\n-- \nAlice\n"))
    assert found.lines == ["hello"]
    assert found.comment is None
    assert commands(mail("multiple", "\n-- \nAlice\n")).lines == []


def test_a_mistyped_subject_over_prose_answers_the_subject():
    """`mesage bob hi` with "Hi" in the body: the Subject was the command meant, so the
    reply is about the Subject, not "'Hi' is not a command"."""
    found = commands(mail("mesage bob hi", "Hi Bob,\nsee you at the club.\n"))
    assert found.lines == ["mesage bob hi"]
    # A reply to one of our board mails with only prose runs nothing: its first line is
    # looked at as a move (mail/receive.py answers a move with the command to send).
    found = commands(mail("Re: Trou Board 101 bob", "Nice move!\n"))
    assert found.lines == [] and found.bare == "Nice move!" and not found.subject_only


@pytest.mark.parametrize(
    "subject",
    [
        "Re: Trou Board 101 bob",
        "Re: Trou Board 101 bob **",
        "Re: New Trou Board 101 alice",
        "RE: trou board 101",
        "Re: Trou Board 101 Error",
        "Re: Trou error",
        "Re: List of Trou games",
    ],
)
def test_reply_to_one_of_our_mails_reads_the_body(subject: str):
    body = ("trou move 101 bob hunter2 2A1\n\nOn Tue, 28 Nov 2023, pbm wrote:\n"
            "> Summary of Trou Board 101\n")
    found = commands(mail(subject, body))
    assert found.lines == ["trou move 101 bob hunter2 2A1"]
    assert found.comment is None


# ----- confirm: only where a person writes it -------------------------------------------------
def test_confirm_in_the_subject_of_a_new_mail_is_the_command():
    found = commands(mail("confirm TOKEN", "Thanks!\n"))
    assert found.lines == ["confirm TOKEN"] and not found.answers_request


@pytest.mark.parametrize("subject", ["Re: confirm TOKEN", "RE: confirm TOKEN (pbm: a@b for x)",
                                     "AW: Re: confirm TOKEN", "Fwd: confirm TOKEN",
                                     "[EXTERNAL] confirm TOKEN", "Re: confi TOKEN",
                                     "Re: pbm: please confirm this address",
                                     "pbm: please confirm this address"])
def test_a_subject_a_reply_keeps_never_confirms(subject: str):
    found = commands(mail(subject, "I am out of office until Monday.\n"))
    assert found.answers_request
    # Prose is no command: nothing runs (and receive never answers such a reply).
    assert found.lines == [] and not found.subject_only


def test_confirm_as_the_first_line_of_a_reply_is_the_command():
    body = "confirm TOKEN\n\nOn Monday pbm wrote:\n> If that was you ...\n>   confirm TOKEN\n"
    found = commands(mail("Re: pbm: please confirm this address", body))
    assert found.lines == ["confirm TOKEN"] and found.confirms_left_out == 0
    # What a person writes below it is no command to answer with an error.
    found = commands(mail("Re: confirm TOKEN", "confirm TOKEN\nYes, that is me.\nEve\n"))
    assert found.lines == ["confirm TOKEN"]
    # In a 'multiple' mail every line is a command, as ever.
    assert commands(mail("multiple", "confirm TOKEN\nhelp\n")).lines == ["confirm TOKEN", "help"]


def test_a_game_s_confirm_is_a_move_not_an_address_confirmation():
    """`trou confirm 101 bob pw` plays a submitted move (issue 25): run wherever a command
    may stand, as the Subject of a reply (its body the comment) and below the first line."""
    found = commands(mail("Re: trou confirm 101 bob pw", "Looks right.\n"))
    assert found.lines == ["trou confirm 101 bob pw"] and found.comment == "Looks right."
    assert not found.answers_request
    found = commands(mail("multiple", "trou submit 101 bob pw 2B3\ntrou confirm 101 bob pw\n"))
    assert found.lines == ["trou submit 101 bob pw 2B3", "trou confirm 101 bob pw"]
    assert found.confirms_left_out == 0
    found = commands(mail("Re: Trou Board 101 Submitted", "trou confirm 101 bob pw\nhelp\n"))
    assert found.lines == ["trou confirm 101 bob pw", "help"]


def test_confirm_below_the_first_line_is_left_out():
    """A program sending our request back without "> " must not confirm it."""
    echo = ("I am away until Monday.\n\nSomeone writing from x@y asked ...\n\n"
            "  confirm TOKEN\n\nor reply to this mail ...\n")
    found = commands(mail("Re: pbm: please confirm this address", echo))
    assert not any(line.startswith("confirm") for line in found.lines)
    assert found.confirms_left_out == 1
    found = commands(mail("multiple", "help\nconfirm TOKEN\n"))
    assert found.lines == ["help"] and found.confirms_left_out == 1


def test_body_commands_are_capped():
    body = "\n".join(f"trou show {101 + i}" for i in range(MAX_COMMAND_LINES + 20))
    found = commands(mail("multiple", body))
    assert len(found.lines) == MAX_COMMAND_LINES
    assert found.lines[0] == "trou show 101"


# ----- read: sender --------------------------------------------------------------------------
def test_sender_is_the_from_address_lower_cased():
    parsed = read(raw_mail(headers={"Message-ID": "<a@example.org>"}).replace(
        b"alice@example.org", b"Alice@Example.ORG"))
    assert parsed.sender == "alice@example.org"
    assert parsed.subject == "trou show 101"
    assert parsed.message_id == "<a@example.org>"
    assert parsed.body == "hello\n"
    assert parsed.auto is False


def test_reply_to_wins_over_from():
    parsed = read(raw_mail(headers={"Reply-To": "Alice at home <alice@home.example.org>"}))
    assert parsed.sender == "alice@home.example.org"


def test_sender_with_an_encoded_name_containing_a_comma():
    raw = raw_mail().replace(b"From: Alice <alice@example.org>",
                             b"From: =?utf-8?q?Doe=2C_J=C3=BCrgen?= <jurgen@example.org>")
    assert read(raw).sender == "jurgen@example.org"


@pytest.mark.parametrize(("header", "sender"), [
    # An encoded word in the name is no address, whatever it decodes to.
    (b"From: =?utf-8?q?Eve=0D=0ABcc:_x@evil.example?= <eve@example.org>", "eve@example.org"),
    (b"From: Eve <eve@example.org> (or <evil@evil.example>)", "eve@example.org"),
    (b"From: J\xc3\xbcrgen <j\xc3\xbcrgen@b\xc3\xbccher.example>",
     "j\u00fcrgen@b\u00fccher.example"),
    (b"From: \"Doe, Jane\" <jane@example.org>", "jane@example.org"),
    (b"From: eve@localhost", "eve@localhost"),
    # Not a plain local@domain: never answered; the envelope sender is.
    (b"From: Eve <eve@evil.example?=>", "envelope@example.org"),
    (b"From: <\"eve x\"@example.org>", "envelope@example.org"),
    (b"From: eve@[192.0.2.1]", "envelope@example.org"),
    (b"From: eve@example..org", "envelope@example.org"),
    (b"From: a@b.example c@d.example", "envelope@example.org"),
    (b"From: " + b"(" * 5000 + b"eve@example.org", "envelope@example.org"),
    (b"Reply-To: <eve@[192.0.2.1]>\nFrom: eve@example.org", "eve@example.org"),
])
def test_only_a_plain_address_part_is_answered(header: bytes, sender: str):
    raw = raw_mail().replace(b"From: Alice <alice@example.org>", header)
    assert read(raw, envelope_from="envelope@example.org").sender == sender
    assert read(raw, envelope_from="<>").sender in (sender, "")


def test_envelope_sender_is_used_when_headers_have_no_address():
    raw = raw_mail().replace(b"From: Alice <alice@example.org>", b"From: Alice")
    parsed = read(raw, envelope_from="alice@example.org")
    assert parsed.sender == "alice@example.org"
    assert parsed.auto is False


def test_encoded_subject_is_decoded():
    raw = raw_mail(subject="trou move 101 j\u00fcrgen secret 1B2")
    assert read(raw).subject == "trou move 101 j\u00fcrgen secret 1B2"


# ----- read: mail we must never answer ------------------------------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Auto-Submitted": "auto-generated"},
        {"Precedence": "bulk"},
        {"Precedence": "list"},
        {"Precedence": "junk"},
        {"Precedence": "Bulk"},
        {"List-Id": "<games.lists.example.org>"},
        {"List-Unsubscribe": "<mailto:leave@lists.example.org>"},
    ],
)
def test_automatic_mail_is_detected(headers: dict):
    assert read(raw_mail(headers=headers)).auto is True


@pytest.mark.parametrize("headers", [{"X-Autoreply": "yes"}, {"X-Autorespond": "x"},
                                     {"X-Autoreply-From": "alice@example.org"},
                                     {"X-Mail-Autoreply": "yes"}, {"X-Autogenerated": "Reply"},
                                     {"Precedence": "auto_reply"}])
def test_auto_responder_headers_are_automatic(headers: dict):
    assert read(raw_mail(headers=headers)).auto is True


@pytest.mark.parametrize("subject", [
    "Out of office: Re: confirm TOKEN", "Out of Office AutoReply: confirm TOKEN",
    "I am out of the office", "Automatic reply: pbm: please confirm this address",
    "AutoReply: Re: confirm TOKEN", "Auto-Response: hello", "[Auto-Reply] Re: confirm TOKEN",
    "Re: Automatische Antwort: confirm TOKEN", "Abwesenheitsnotiz: Re: confirm TOKEN",
    "Abwesend: confirm TOKEN", "Réponse automatique : confirm TOKEN",
    "Respuesta automática: confirm TOKEN", "Vacation: confirm TOKEN",
])
def test_vacation_subjects_are_automatic(subject: str):
    """Some out-of-office rules send no header that says they are automatic."""
    assert read(raw_mail(subject=subject)).auto is True


@pytest.mark.parametrize("subject", [
    "message bob I am out of office next week", "vacation alice secret 10",
    "vacation alice secret off", "confirm TOKEN", "Re: Trou Board 101 bob", "absent minded",
])
def test_a_person_s_subject_that_mentions_absence_is_no_vacation_notice(subject: str):
    assert read(raw_mail(subject=subject)).auto is False


def test_auto_submitted_no_is_a_person():
    assert read(raw_mail(headers={"Auto-Submitted": "no"})).auto is False
    assert read(raw_mail(headers={"Precedence": "first-class"})).auto is False


def test_null_envelope_sender_is_automatic():
    assert read(raw_mail(), envelope_from="<>").auto is True
    assert read(raw_mail(), envelope_from="alice@example.org").auto is False


@pytest.mark.parametrize("address", ["MAILER-DAEMON@mx.example.org", "postmaster@example.org"])
def test_bounces_are_automatic(address: str):
    raw = raw_mail().replace(b"alice@example.org", address.encode())
    assert read(raw).auto is True


def test_mail_without_any_sender_is_automatic():
    raw = raw_mail().replace(b"From: Alice <alice@example.org>\n", b"")
    parsed = read(raw)
    assert parsed.sender == ""
    assert parsed.auto is True


# ----- read: which part, which charset ---------------------------------------------------------
def test_text_plain_is_preferred_in_multipart_alternative():
    outer = MIMEMultipart("alternative")
    outer["From"] = "alice@example.org"
    outer["Subject"] = "multiple"
    outer.attach(MIMEText("<p>trou show 999</p>", "html"))
    outer.attach(MIMEText("trou show 101\n", "plain"))
    assert read(outer.as_bytes()).body == "trou show 101\n"
    assert commands(read(outer.as_bytes())).lines == ["trou show 101"]


def test_text_body_next_to_an_attachment():
    outer = MIMEMultipart("mixed")
    outer["From"] = "alice@example.org"
    outer["Subject"] = "multiple"
    outer.attach(MIMEText("trou show 101\n", "plain"))
    attachment = MIMEText("trou show 999\n", "plain")
    attachment.add_header("Content-Disposition", "attachment", filename="notes.txt")
    outer.attach(attachment)
    assert commands(read(outer.as_bytes())).lines == ["trou show 101"]


def test_html_only_mail_is_read_as_text():
    message = EmailMessage()
    message["From"] = "bob@example.org"
    message["Subject"] = "Re: Trou Board 101 bob"
    message.set_content(
        "<html><head><style>p {color: red}</style></head><body>"
        "<div>trou move 101 bob&nbsp;hunter2 2A1</div><br>"
        "<div class=gmail_quote>On Tue, pbm wrote:<blockquote>Summary of Trou Board 101"
        "<br>trou show 102</blockquote></div></body></html>",
        subtype="html",
    )
    parsed = read(message.as_bytes())
    assert "<div>" not in parsed.body and "color" not in parsed.body
    assert commands(parsed).lines == ["trou move 101 bob hunter2 2A1"]


def test_html_to_text_marks_blockquotes_as_quoted():
    text = html_to_text("<p>one</p><blockquote>two</blockquote><p>three &amp; four</p>")
    lines = [line for line in text.split("\n") if line]
    assert lines == ["one", "> two", "three & four"]


def test_iso_8859_1_body():
    parsed = read(raw_8bit("Bien jou\xe9, \xe0 toi.\n".encode("latin-1"), "iso-8859-1"))
    assert parsed.body == "Bien jou\xe9, \xe0 toi.\n"


def test_windows_1252_body():
    body = "\u201cNice\u201d \u2013 \u20ac5 bet\n"
    parsed = read(raw_8bit(body.encode("cp1252"), "windows-1252"))
    assert parsed.body == body


def test_quoted_printable_latin1_body():
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["Subject"] = "multiple"
    message.set_content("trou show 101\nd\xe9j\xe0 vu\n", charset="iso-8859-1",
                        cte="quoted-printable")
    raw = message.as_bytes()
    assert b"=E9" in raw
    assert read(raw).body == "trou show 101\nd\xe9j\xe0 vu\n"


def test_unknown_charset_does_not_crash():
    parsed = read(raw_8bit(b"trou show 101\nmerci \xe9\xe9\n", "x-no-such-charset"))
    assert parsed.body.startswith("trou show 101\n")
    assert "merci" in parsed.body


def test_wrong_charset_label_does_not_crash():
    parsed = read(raw_8bit(b"trou show 101\n\xff\xfe bytes\n", "utf-8"))
    assert parsed.body.startswith("trou show 101\n")


def test_8bit_body_without_charset_does_not_crash():
    parsed = read(raw_8bit(b"trou show 101\ncaf\xe9\n", None))
    assert parsed.body.startswith("trou show 101\n")


def test_8bit_subject_does_not_crash():
    parsed = read(raw_8bit(b"hi\n", "utf-8", subject=b"trou show 101 caf\xe9"))
    assert parsed.subject.startswith("trou show 101")
    parsed.subject.encode("utf-8")  # can be stored and quoted back


def test_crlf_line_ends_are_normalised():
    raw = raw_8bit(b"trou show 101\r\ntrou show 102\r\nend\r\n", "us-ascii", subject=b"multiple")
    parsed = read(raw)
    assert "\r" not in parsed.body
    assert commands(parsed).lines == ["trou show 101", "trou show 102"]


def test_mail_without_a_body():
    raw = (b"From: alice@example.org\r\nSubject: help\r\n\r\n")
    parsed = read(raw)
    assert parsed.body == ""
    assert commands(parsed).lines == ["help"]


# ----- message_key -------------------------------------------------------------------------
def test_message_key_is_the_message_id():
    raw = raw_mail(headers={"Message-ID": "<abc.123@example.org>"})
    assert message_key(raw) == "<abc.123@example.org>"
    assert read(raw).message_id == "<abc.123@example.org>"


def test_message_key_of_a_mail_without_message_id_is_a_digest():
    raw = raw_mail()
    assert b"Message-ID" not in raw
    key = message_key(raw)
    assert key == "sha256:" + hashlib.sha256(raw).hexdigest()
    assert message_key(raw) == key  # the same mail again has the same key
    assert message_key(raw_mail("other body\n")) != key
    assert read(raw).message_id is None


def test_same_message_id_same_key_whatever_the_body():
    one = raw_mail("first\n", headers={"Message-ID": "<same@example.org>"})
    two = raw_mail("second\n", headers={"Message-ID": "<same@example.org>"})
    assert message_key(one) == message_key(two)
