"""Composed replies are clean on the wire whatever the subject, body and inbound headers."""

from __future__ import annotations

import re
import time
from email import policy
from email.parser import BytesParser

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbm.config import ServerSettings
from pbm.context import Reply
from pbm.mail.compose import compose, subject_text
from pbm.mail.inbound import InboundMail

SERVER = ServerSettings(address="pbm@games.test", hostname="games.test", name="pbm games")


def inbound(message_id: str | None = "<m1@players.test>", references: str = "") -> InboundMail:
    return InboundMail(message_id=message_id, sender="alice@players.test", subject="help",
                       body="", auto=False, references=references)


def parse(raw: bytes):
    return BytesParser(policy=policy.default).parsebytes(raw)


def content(message) -> str:
    """The body text with LF line endings (Python keeps the CRLF of the wire form)."""
    return message.get_content().replace("\r\n", "\n")


def assert_wire_clean(raw: bytes) -> None:
    assert raw.endswith(b"\r\n")
    assert b"\r" not in raw.replace(b"\r\n", b""), "a bare CR"
    assert b"\n" not in raw.replace(b"\r\n", b""), "a bare LF"
    for line in raw.split(b"\r\n"):
        assert len(line) <= 998, f"a line of {len(line)} bytes"
    header = raw.split(b"\r\n\r\n", 1)[0]
    for line in header.split(b"\r\n"):
        assert line[:1] in (b" ", b"\t") or b":" in line, f"not a header line: {line[:60]!r}"


def test_headers_a_polite_robot_sends():
    raw = compose(Reply(("bob@players.test",), "Trou Board 101 bob", "board\n", "board"),
                  "bob@players.test", SERVER, inbound())
    message = parse(raw)
    assert message["From"] == "pbm games <pbm@games.test>"
    assert message["To"] == "bob@players.test"
    assert message["Subject"] == "Trou Board 101 bob"
    assert message["Date"]
    assert re.fullmatch(r"<[^@]+@games\.test>", message["Message-ID"])
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["In-Reply-To"] == "<m1@players.test>"
    assert message["References"] == "<m1@players.test>"
    assert message["MIME-Version"] == "1.0"
    assert message.get_content_type() == "text/plain"
    assert message.get_content_charset() == "us-ascii"
    assert message["Content-Transfer-Encoding"] == "7bit"
    assert b"\r\n\r\nboard\r\n" in raw
    answer = parse(compose(Reply(("a@x.test",), "help", "hi"), "a@x.test", SERVER, None))
    assert answer["Auto-Submitted"] == "auto-replied"
    assert answer["In-Reply-To"] is None and answer["References"] is None


def test_a_five_thousand_character_comment_line_goes_quoted_printable():
    body = "Board 101\n\nComment from alice:\n" + "x" * 5000 + "\n"
    raw = compose(Reply(("b@x.test",), "Trou Board 101 bob", body, "board"), "b@x.test",
                  SERVER, inbound())
    assert_wire_clean(raw)
    message = parse(raw)
    assert message["Content-Transfer-Encoding"] == "quoted-printable"
    assert message.get_content_charset() == "utf-8"
    assert content(message) == body
    assert max(len(line) for line in raw.split(b"\r\n")) <= 78


def test_non_ascii_subject_and_body():
    raw = compose(Reply(("j@x.test",), "Grüße an Jörg " * 20, "Zoë sagt: grüß dich\n"),
                  "jörg@example.org", SERVER, None)
    assert_wire_clean(raw)
    message = parse(raw)
    assert message["Subject"] == subject_text("Grüße an Jörg " * 20)
    assert content(message) == "Zoë sagt: grüß dich\n"
    assert "To: jörg@example.org\r\n".encode() in raw  # RFC 6532: raw UTF-8


def test_a_folded_980_character_message_id_is_not_copied():
    huge = "<" + "a" * 960 + "@players.test>"
    raw = compose(Reply(("b@x.test",), "Trou Board 101 bob", "b\n", "board"), "b@x.test",
                  SERVER, inbound(message_id=huge, references=huge + " <ok@players.test>"))
    assert_wire_clean(raw)
    message = parse(raw)
    assert message["In-Reply-To"] is None
    assert message["References"] == "<ok@players.test>"


def test_references_keep_the_last_ten_well_formed_ids_folded():
    refs = " ".join(f"<r{i}@players.test>" for i in range(30))
    hostile = refs + " <bad id@x> <no-at-sign> <a@b>\r\nBcc: victim@x.test <é@x.test>"
    raw = compose(Reply(("b@x.test",), "s", "b"), "b@x.test", SERVER,
                  inbound(references=hostile))
    assert_wire_clean(raw)
    message = parse(raw)
    assert message["Bcc"] is None
    chain = str(message["References"]).split()
    assert len(chain) == 10
    assert chain[-1] == "<m1@players.test>"
    assert chain[:-2] == [f"<r{i}@players.test>" for i in range(22, 30)]
    assert chain[-2] == "<a@b>"
    assert b"References: <r22@players.test>\r\n <r23@players.test>\r\n" in raw


def test_hostile_references_cost_no_time():
    started = time.perf_counter()
    for junk in ("<" + "@" * 16000, "<a" * 8000, "<" + "a" * 16000 + "@"):
        compose(Reply(("b@x.test",), "s", "b"), "b@x.test", SERVER,
                inbound(message_id=junk, references=junk))
    assert time.perf_counter() - started < 0.1


HOSTILE_IDS = st.one_of(
    st.text(max_size=300),
    st.builds(lambda a, b: f"<{a}@{b}>", st.text(min_size=1, max_size=600),
              st.text(min_size=1, max_size=600)),
    st.lists(st.builds(lambda a: f"<{a}@players.test>", st.text(min_size=1, max_size=40)),
             max_size=40).map(" ".join),
)
LONG_LINES = st.builds(lambda c, n: c * n, st.characters(), st.integers(0, 3000))
BODIES = st.lists(st.one_of(st.text(), LONG_LINES, st.sampled_from(["\r", "\n", "\r\n"])),
                  max_size=12).map("".join)
ADDRESSES = st.builds(lambda local, domain: f"{local}@{domain}",
                      st.text(st.characters(blacklist_categories=("Cc", "Cs", "Z")),
                              min_size=1, max_size=64),
                      st.text(st.characters(blacklist_categories=("Cc", "Cs", "Z")),
                              min_size=1, max_size=200))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subject=st.one_of(st.text(), LONG_LINES), body=BODIES, recipient=ADDRESSES,
       message_id=st.one_of(st.none(), HOSTILE_IDS), references=HOSTILE_IDS,
       kind=st.sampled_from(["answer", "board"]))
@example(subject="=?utf-8?q?looks_encoded?=", body="a\rb\r\n\nc\n.\n", recipient="jörg@example.org",
         message_id="<" + "a" * 960 + "@x>", references="<a@b>\r\n <c@d>", kind="answer")
@example(subject=" x " * 400 + "y" * 2000, body="é" * 3000 + "\0 \t\x0c\x85\u2028",
         recipient="a@b", message_id="<a@b>", references="", kind="board")
def test_any_reply_is_clean_on_the_wire_and_reads_back(subject, body, recipient, message_id,
                                                       references, kind):
    reply = Reply((recipient,), subject, body, kind)
    raw = compose(reply, recipient, SERVER, inbound(message_id, references))
    assert_wire_clean(raw)
    message = parse(raw)
    assert str(message["Subject"]) == subject_text(subject)
    # What is sent is the reply's body: fitted to 76 columns when it is made.
    sendable = reply.body.encode("utf-8", "replace").decode("utf-8")  # lone surrogates: '?'
    expected = re.sub(r"\r\n|\r", "\n", sendable)
    if not expected.endswith("\n"):
        expected += "\n"
    assert content(message) == expected
    assert not message.defects


# ----- the text/html alternative ----------------------------------------------------------
HTML = ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>'
        '<table><tr><td data-cell="A1" style="background:#e9c98b">' + "é" * 400
        + "</td></tr></table></body></html>\n")


def parts_of(raw: bytes):
    """The text and html parts of a multipart/alternative mail, checked to be just those."""
    message = parse(raw)
    assert message.get_content_type() == "multipart/alternative"
    assert not message.defects
    parts = list(message.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    return parts


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=BODIES, kind=st.sampled_from(["answer", "board"]))
@example(body="Summary of Trou Board 101\n\nalice writes:\n--=_pbm_0\n--=_pbm_0--\n",
         kind="board")
def test_the_text_part_is_the_plain_mail_byte_for_byte(body, kind):
    """Whatever the body (a player's comment may look like a boundary), the text part of the
    multipart mail has the plain mail's bytes, charset and encoding, and the html part reads
    back whole."""
    plain = compose(Reply(("b@x.test",), "Trou Board 101 bob", body, kind), "b@x.test", SERVER)
    raw = compose(Reply(("b@x.test",), "Trou Board 101 bob", body, kind, html=HTML),
                  "b@x.test", SERVER)
    assert_wire_clean(raw)
    text, html = parts_of(raw)
    alone = parse(plain)
    assert text.get_content_charset() == alone.get_content_charset()
    assert text["Content-Transfer-Encoding"] == alone["Content-Transfer-Encoding"]
    assert text.get_payload(decode=True) == alone.get_payload(decode=True)
    assert content(text) == content(alone)
    assert html.get_content_charset() == "utf-8"
    # Its one line of 400 e-acutes, as character references, is too long to go as it is.
    assert html["Content-Transfer-Encoding"] == "quoted-printable"
    assert content(html) == HTML.replace("\u00e9", "&#233;")
    # The headers above the body are the plain mail's but for the Content-Type.
    names = [line.split(b":")[0] for line in raw.split(b"\r\n\r\n")[0].split(b"\r\n")
             if line[:1] not in (b" ", b"\t")]
    plain_names = [line.split(b":")[0] for line in plain.split(b"\r\n\r\n")[0].split(b"\r\n")
                   if line[:1] not in (b" ", b"\t")]
    assert names == [n for n in plain_names if n != b"Content-Transfer-Encoding"]


def test_a_document_in_short_lines_goes_as_it_is_in_ascii():
    """A board document (lines far under 998 bytes) is sent 7bit, not quoted-printable: what
    is not ASCII becomes a character reference, which a browser shows as the character."""
    document = ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>\n'
                "<p>J\u00fcrgen writes: \u21d5 \U0001f600</p>\n" * 40 + "</body></html>\n")
    raw = compose(Reply(("b@x.test",), "s", "board\n", "board", html=document), "b@x.test",
                  SERVER)
    assert_wire_clean(raw)
    _text, html = parts_of(raw)
    assert html["Content-Transfer-Encoding"] == "7bit"
    assert content(html) == document.replace("\u00fc", "&#252;").replace(
        "\u21d5", "&#8661;").replace("\U0001f600", "&#128512;")
    assert raw.isascii() and b"=3D" not in raw


def test_a_comment_holding_the_boundary_cannot_end_the_part():
    """The boundary is one neither part holds: a player who copies the last mail's boundary
    into a comment gets it quoted, not obeyed."""
    first = compose(Reply(("b@x.test",), "s", "board\n", "board", html=HTML), "b@x.test",
                    SERVER)
    boundary = parse(first).get_boundary()
    assert boundary and boundary.startswith("=_")
    sneaky = (f"board\n\nalice writes:\n--{boundary}\nContent-Type: text/html\n\n"
              f"<b>fake</b>\n--{boundary}--\n")
    raw = compose(Reply(("b@x.test",), "s", sneaky, "board", html=HTML), "b@x.test", SERVER)
    text, html = parts_of(raw)
    assert parse(raw).get_boundary() != boundary
    assert content(text) == sneaky and content(html) == HTML.replace("\u00e9", "&#233;")
    # The same comment shown in a document that goes 7bit (short lines) cannot end it either.
    document = f"<!DOCTYPE html>\n<html><body><pre>{sneaky}</pre></body></html>\n"
    raw = compose(Reply(("b@x.test",), "s", sneaky, "board", html=document), "b@x.test",
                  SERVER)
    text, html = parts_of(raw)
    assert html["Content-Transfer-Encoding"] == "7bit"
    assert parse(raw).get_boundary() != boundary
    assert content(text) == sneaky and content(html) == document


def test_html_lines_stay_short():
    """A document with a 5,000-byte line goes quoted-printable, in lines of at most 78."""
    board = "Summary of Trou Board 101\n\n" + "  1. 1B2            2. 4C2\n" * 60
    html = "<p>" + "x" * 5000 + "</p>\n" + "<td data-cell='A1'>é</td>" * 500
    raw = compose(Reply(("b@x.test",), "s", board, "board", html=html), "b@x.test", SERVER)
    assert max(len(line) for line in raw.split(b"\r\n")) <= 78
