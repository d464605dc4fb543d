"""Fuzzing the mail path with hypothesis: raw mails of every shape, and command lines built from
the words players (and attackers) write.

CI runs PBM_FUZZ_EXAMPLES (default 5,000) cases of each, derandomized so a run is repeatable;
set PBM_FUZZ_EXAMPLES higher and PBM_FUZZ_RANDOM=1 to explore further on demand.
"""

from __future__ import annotations

import os
import re
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, select

from pbm.commands.dispatch import run_line
from pbm.commands.grammar import CommandError, parse
from pbm.config import load
from pbm.context import Context
from pbm.db.migrate import upgrade
from pbm.db.models import InboundMessage, OutboxMail, User
from pbm.db.session import make_engine, session_factory
from pbm.mail.inbound import ADDRESS
from pbm.mail.receive import Received, prepare, receive
from pbm.mail.replies import consolidate
from pbm.mail.screen import Refusal

EXAMPLES = int(os.environ.get("PBM_FUZZ_EXAMPLES", "5000"))
FUZZ = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("PBM_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
# The '!' keeps a password from ever being signed up as a userid by a fuzzed line.
ACCOUNTS = {"alice": ("Secret1!pw", "alice@example.org"),
            "bob": ("Hunter22!pw", "bob@example.org"),
            "carol": ("Carol333!pw", "carol@example.org")}
PASSWORDS = [password for password, _ in ACCOUNTS.values()]
KNOWN_ADDRESSES = {address for _, address in ACCOUNTS.values()}


class Server:
    """A migrated SQLite file with three players and a few boards (fsync off: a test file)."""

    def __init__(self, folder: Path):
        self.config = load(None, env={"PBM_DATABASE_URL": f"sqlite:///{folder / 'pbm.sqlite'}",
                                      "PBM_LIMITS_MAILS_PER_SENDER_PER_HOUR": "0"})
        self.engine = make_engine(self.config.database_url)
        event.listen(self.engine, "connect",
                     lambda dbapi, _rec: dbapi.execute("PRAGMA synchronous=OFF"))
        upgrade(self.engine)
        self.factory = session_factory(self.engine)
        for userid, (password, address) in ACCOUNTS.items():
            self.line(address, f"signup {userid} {password}")
        for game in ("trou", "loophole", "pipeline", "outguess", "synapse-ice"):
            self.line("alice@example.org", f"{game} challenge alice bob")

    def line(self, sender: str, line: str) -> Context:
        with self.factory() as session, session.begin():
            ctx = Context(session, sender, limits=self.config.limits)
            run_line(ctx, line)
        return ctx


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Server:
    return Server(tmp_path_factory.mktemp("fuzz"))


# ----- raw mails ---------------------------------------------------------------------------------
printable = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
header_names = st.sampled_from(["From", "Reply-To", "Subject", "Message-ID", "In-Reply-To",
                                "References", "Content-Type", "Content-Transfer-Encoding",
                                "MIME-Version", "Auto-Submitted", "Precedence", "To",
                                "X-Anything", "Content-Disposition", "List-Id"])
header_values = st.one_of(
    printable,
    st.sampled_from(["alice@example.org", "Bob <bob@example.org>", "<>",
                     "=?utf-8?q?J=C3=BCrg?= <j@x.org>",
                     "=?utf-8?B?!!!?=", "multipart/mixed; boundary=b", "multipart/alternative; "
                     "boundary=\"q\"", "text/plain; charset=x-unknown", "text/html",
                     "message/rfc822", "base64", "quoted-printable", "<a@b> <c@d>", "auto-replied",
                     "bulk", "trou show 101", "multiple", "help", "\u00e9\u00e8@\u00e9.org"]),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)
body_lines = st.one_of(
    st.sampled_from(["trou show 101", "help", "list", "loophole games alice", "end", "-- ",
                     "> quoted", "On Monday, pbm wrote:", "--b", "--b--", "--q", "",
                     "trou move 101 alice Secret1!pw 1B2", "signup x password"]),
    printable,
)


@st.composite
def raw_mails(draw) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=600))
    lines = []
    for name, value in draw(st.lists(st.tuples(header_names, header_values), max_size=12)):
        folded = value.replace(" ", "\r\n ", draw(st.integers(0, 2)))
        lines.append(f"{name}: {folded}".encode("utf-8", "surrogateescape"))
    separator = draw(st.sampled_from([b"\r\n", b"\n"]))
    body = "\n".join(draw(st.lists(body_lines, max_size=15))).encode("utf-8")
    return separator.join(lines) + separator + separator + body


def lines_of(raw: bytes) -> list[bytes]:
    return [line.removesuffix(b"\r") for line in raw.split(b"\n")]


def forget(server: Server, key: str) -> None:
    """Hypothesis runs an example again when it fails: let it be new again each time."""
    with server.factory() as session, session.begin():
        for record in session.scalars(select(InboundMessage)
                                      .where(InboundMessage.message_key == key)):
            session.delete(record)


@FUZZ
@given(raw=raw_mails(), envelope=st.sampled_from(["", "<>", "x@example.net", "alice@example.org"]))
def test_any_mail_is_refused_or_stored_once_and_answered_within_bounds(server, raw, envelope):
    try:
        prepared = prepare(raw, envelope, server.config.limits)
    except Refusal as refusal:
        assert refusal.code in (552, 554) and "\n" not in refusal.smtp_reply()
        return
    mail = prepared.mail
    assert mail.sender == "" or ADDRESS.fullmatch(mail.sender)
    assert mail.message_key.isascii() and len(mail.message_key) <= 512
    assert mail.message_id is None or (mail.message_id.isascii() and len(mail.message_id) <= 250)
    forget(server, mail.message_key)
    first, queued = receive(server.factory, server.config, raw, envelope, prepared)
    again, none = receive(server.factory, server.config, raw, envelope, prepared)
    assert again is Received.DUPLICATE and none == []
    with server.factory() as session:
        if first is Received.STORED:
            record = session.scalars(select(InboundMessage)
                                     .where(InboundMessage.message_key == mail.message_key)).one()
            assert record.status in ("done", "ignored"), record.error
        rows = list(session.scalars(select(OutboxMail).where(OutboxMail.id.in_(queued))))
    answers = [row for row in rows if row.recipient == mail.sender
               and row.recipient not in KNOWN_ADDRESSES]
    assert len(answers) <= 1
    for row in rows:
        assert row.recipient == mail.sender or row.recipient in KNOWN_ADDRESSES
        for line in lines_of(row.raw):
            assert len(line) <= 998
        parsed = BytesParser(policy=policy.default).parsebytes(row.raw)
        assert parsed["To"] is not None


# ----- command lines ------------------------------------------------------------------------------
words = st.one_of(
    st.sampled_from(["trou", "TROU", "loophole", "pipeline", "outguess", "synapse-ice", "synapse",
                     "move", "mvoe", "show", "showas", "games", "resign", "challenge", "chall",
                     "help", "signup", "signoff", "change", "password", "address", "list",
                     "multiple", "all", "active", "inactive", "next"]),
    st.sampled_from(["101", "102", "103", "104", "105", "999", "101#1", "101#0", "#101", "0101",
                     "10000000000", "-1", "101#99999999999"]),
    st.sampled_from(["alice", "bob", "carol", "nobody", "ALICE", "x" * 40]),
    st.sampled_from(PASSWORDS + ["wrongpw", "-"]),
    st.sampled_from(["1B2", "2A1", "K10", "A1", "pass", "propose", "-size=19", "-x", "x@y.org",
                     "A8xB8,", "guess", "E1"]),
    printable.filter(lambda w: w.strip() and not any(p in w for p in PASSWORDS)).map(
        lambda w: w.split()[0] if w.split() else "w"),
)


def echo_allowed(line: str) -> set[str]:
    """Passwords the line holds outside every password and userid place: quoting those back
    is quoting what the sender wrote as ordinary words."""
    try:
        invocation = parse(line)
    except CommandError:  # not a command: its answer may quote the command words it tried
        tried = line.split()[:2]
        return {p for p in PASSWORDS if any(p in word for word in tried)}
    hidden = set(invocation.command.secret_args)
    if invocation.command.login:
        hidden.add(invocation.command.login[0])
    shown = [*invocation.words] + [a for i, a in enumerate(invocation.args) if i not in hidden]
    return {p for p in PASSWORDS if any(p in word for word in shown)}


@FUZZ
@given(line=st.lists(words, min_size=1, max_size=8).map(" ".join),
       sender=st.sampled_from(sorted(KNOWN_ADDRESSES) + ["stranger@example.net"]))
def test_any_command_line_is_answered_without_leaking_a_password(server, line, sender):
    ctx = server.line(sender, line)
    replies = consolidate(ctx.replies)
    assert sum(r.kind == "answer" for r in replies) <= 1
    allowed = echo_allowed(line)
    for reply in replies:
        assert set(reply.to) <= KNOWN_ADDRESSES | {sender}, reply
        for password in set(PASSWORDS) - allowed:
            assert password not in reply.subject and password not in reply.body, (line, reply)
        assert len(reply.body) < 300_000
    with server.factory() as session:  # accounts keep a usable address
        for user in session.scalars(select(User)):
            assert all(re.fullmatch(r"[^\s<>]+@[^\s<>]+", a.address) for a in user.addresses)
