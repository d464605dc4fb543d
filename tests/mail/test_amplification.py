"""One inbound mail, a bounded number of outbound ones; floods and ping-pong stopped.

Each test stores mails through the real receive path into a real SQLite file and counts
what lands in the outbox.
"""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid

import pytest
from sqlalchemy import select

from pbm.config import LimitSettings, load
from pbm.context import Reply
from pbm.db.migrate import upgrade
from pbm.db.models import InboundMessage, OutboxMail
from pbm.db.session import make_engine, session_factory
from pbm.mail.receive import check_ahead, prepare, receive
from pbm.mail.replies import MAX_ANSWER_CHARS, consolidate, merge
from pbm.mail.screen import Refusal
from tests import stores

ALICE, BOB = "alice@example.org", "bob@example.org"
SERVER = "pbm@games.test"


class Store:
    def __init__(self, folder, **limits):
        env = {"PBM_DATABASE_URL": stores.url(folder / "pbm.sqlite", migrated=True),
               "PBM_SERVER_ADDRESS": SERVER, "PBM_SERVER_HOSTNAME": "games.test"}
        env.update({f"PBM_LIMITS_{k.upper()}": str(v) for k, v in limits.items()})
        self.config = load(None, env=env)
        self.engine = make_engine(self.config.database_url)
        upgrade(self.engine)
        self.factory = session_factory(self.engine)

    def mail(self, sender: str, subject: str, body: str = "", **headers: str) -> list[OutboxMail]:
        """Receive one mail; the outbox rows it caused."""
        message = EmailMessage()
        message["From"] = sender
        message["To"] = SERVER
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain="players.test")
        for name, value in headers.items():
            message[name.replace("_", "-")] = value
        message.set_content(body or "\n")
        _result, queued = receive(self.factory, self.config, message.as_bytes(), sender)
        with self.factory() as session:
            return list(session.scalars(select(OutboxMail).where(OutboxMail.id.in_(queued))
                                        .order_by(OutboxMail.id)))

    def last_status(self) -> str:
        with self.factory() as session:
            return session.scalars(select(InboundMessage.status)
                                   .order_by(InboundMessage.id.desc())).first()


def body_of(row: OutboxMail) -> str:
    message = BytesParser(policy=policy.default).parsebytes(row.raw)
    return message.get_body(preferencelist=("plain",)).get_content()


@pytest.fixture
def store(tmp_path) -> Store:
    store = Store(tmp_path)
    store.mail(ALICE, "signup alice secret1")
    store.mail(BOB, "signup bob secret2")
    store.mail(ALICE, "trou challenge alice bob")
    return store


def test_one_board_named_a_thousand_times_is_one_reply(store):
    """A Subject of `trou show 101 101 101 ...` once gave 20,000 replies."""
    (reply,) = store.mail(ALICE, "trou show" + " 101" * 1000)
    assert reply.recipient == ALICE
    assert reply.subject == "Trou Board 101"
    assert body_of(reply).count("Summary of Trou Board 101") == 1


def test_many_commands_in_one_mail_get_one_answer(store):
    lines = ["trou show 101"] * 20 + ["help", "list", "trou games", "trou show 999"] * 5
    (reply,) = store.mail(ALICE, "multiple", "\n".join(lines))
    body = body_of(reply)
    assert reply.subject == "Replies to your commands"
    assert body.count("Summary of Trou Board 101") == 1  # the same answer once
    assert body.count("=== Help: general ===") == 1
    assert "=== Trou error ===" in body and "There is no Trou board 999" in body
    assert body.count("\n=== ") == 5  # show, help, list, games, the error


def test_commands_past_the_limit_are_left_out_and_said_so(tmp_path):
    store = Store(tmp_path, commands_per_mail=5)
    (reply,) = store.mail(ALICE, "multiple", "\n".join(["list"] * 3 + ["help"] * 9))
    body = body_of(reply)
    assert "held 7 command lines more than the 5 one mail may hold" in body


def test_an_answer_is_bounded_in_size():
    answers = [Reply((ALICE,), f"Board {n}", f"board {n}\n" + "x" * 30_000) for n in range(50)]
    merged = merge(answers)
    assert merged is not None
    assert len(merged.body) < MAX_ANSWER_CHARS + 2_000
    kept = MAX_ANSWER_CHARS // 30_000
    assert merged.body.count("\n=== Board ") == kept
    assert f"{50 - kept} more replies left out" in merged.body
    assert f"Left out: Board {kept}, Board {kept + 1}," in " ".join(merged.body.split())


def test_board_mails_are_never_merged_into_the_answer():
    board = Reply((BOB,), "Trou Board 101 bob", "board", "board")
    replies = [Reply((ALICE,), "A", "a"), board, Reply((ALICE,), "B", "b"), board]
    out = consolidate(replies)
    assert [r.subject for r in out] == ["Replies to your commands", "Trou Board 101 bob"]


def test_a_move_mail_sends_board_mails_and_at_most_one_answer(store):
    rows = store.mail(ALICE, "multiple", "trou move 101 alice secret1 1B2\ntrou show 101\nhelp")
    recipients = [row.recipient for row in rows]
    assert sorted(recipients) == sorted([ALICE, BOB, ALICE])  # two board mails, one answer
    answers = [row for row in rows if b"Auto-Submitted: auto-replied" in row.raw]
    assert len(answers) == 1 and answers[0].recipient == ALICE


def test_a_flood_from_one_sender_gets_one_notice_then_is_refused_for_now(tmp_path):
    store = Store(tmp_path, mails_per_sender_per_hour=5)
    for _ in range(5):
        assert len(store.mail("flood@example.net", "help")) == 1
    (notice,) = store.mail("flood@example.net", "help")
    assert notice.subject == "pbm: too many mails from you"
    assert "More than 5 mails came from your address within an hour" in body_of(notice)
    assert store.last_status() == "throttled"
    # From now on the door refuses its mail for now: the sending MTA keeps it and retries.
    raw = b"From: flood@example.net\r\nSubject: help\r\nMessage-ID: <f@x>\r\n\r\n"
    with store.factory() as reader:
        with pytest.raises(Refusal) as refused:
            check_ahead(prepare(raw, "", store.config.limits), reader, store.config.limits)
    assert refused.value.code == 451
    assert refused.value.smtp_reply().startswith("451 4.7.1 Too many mails from your address")
    # A mail that slipped past the door in the same moment: stored, not answered.
    for _ in range(3):
        assert store.mail("flood@example.net", "help") == []
        assert store.last_status() == "throttled"
    assert len(store.mail("calm@example.net", "help")) == 1  # others are answered
    with store.factory() as reader:
        calm = b"From: calm@example.net\r\nSubject: help\r\n\r\n"
        check_ahead(prepare(calm, "", store.config.limits), reader, store.config.limits)


def test_throttled_mail_changes_nothing(tmp_path):
    store = Store(tmp_path, mails_per_sender_per_hour=1)
    store.mail(ALICE, "signup alice secret1")
    store.mail(ALICE, "signup alicia secret1")
    with store.factory() as session:
        from pbm.db.models import User

        assert [u.userid for u in session.scalars(select(User))] == ["alice"]


def test_a_reply_to_our_mail_without_a_command_is_not_answered(store):
    """An auto-responder that does not say it is one: answering it starts ping-pong."""
    ours = "<12345.pbm@games.test>"
    assert store.mail(ALICE, "Re: Trou Board 101 alice", "Thanks, I am away until Monday.",
                      In_Reply_To=ours) == []
    assert store.last_status() == "ignored"
    # The same words not in reply to us: the sender learns there was no command.
    (reply,) = store.mail(ALICE, "I am away", "Thanks, I am away until Monday.")
    assert "no command was found" in body_of(reply) or "is not a command" in body_of(reply)
    # A reply to us that does hold a command is carried out.
    rows = store.mail(ALICE, "Re: Trou Board 101 alice", "trou show 101", In_Reply_To=ours)
    assert len(rows) == 1 and rows[0].subject == "Trou Board 101"


def test_the_no_command_answer_holds_no_command_an_echo_would_run(store):
    (reply,) = store.mail(ALICE, "", "")
    body = body_of(reply)
    from pbm.commands.grammar import is_command

    assert not any(is_command(line.strip()) for line in body.splitlines())


@pytest.mark.parametrize("limit", [0])
def test_a_sender_limit_of_zero_means_no_limit(tmp_path, limit):
    store = Store(tmp_path, mails_per_sender_per_hour=limit)
    for _ in range(LimitSettings().mails_per_sender_per_hour + 5):
        assert len(store.mail("busy@example.net", "help")) == 1


def test_a_subject_that_is_no_command_is_answered_as_such(tmp_path):
    """`mesage bob hi` over a body of prose: the answer is about the Subject (its first
    word only: the others may hold a password), not "'Hi' is not a command"."""
    store = Store(tmp_path)
    (reply,) = store.mail("carol@example.org", "mesage bob Secret1", "Hi Bob,\nsee you.\n")
    body = reply.raw.decode()
    assert reply.subject == "pbm error"
    assert "The Subject of your mail was not understood: mesage ... (2 more words" in body
    # A near miss is named: pbmserv's players mistype the command words too.
    assert "'mesage' is not a command; did you mean message? No line of the body is one" \
        in " ".join(body.split())
    assert "Secret1" not in body and "'Hi" not in body


# ----- mail to strangers: confirmation requests ---------------------------------------------
THIRD = "third.example"


def cannon(count: int = 50) -> str:
    """A `multiple` body of signups, each naming an address nobody there asked about."""
    return "\n".join(f"signup vic{n} pw{n:05d} victim{n}@{THIRD}" for n in range(count))


def strangers(rows: list[OutboxMail]) -> list[OutboxMail]:
    return [row for row in rows if row.recipient.endswith("@" + THIRD)]


def test_one_mail_causes_at_most_one_mail_to_a_stranger(tmp_path):
    store = Store(tmp_path)
    rows = store.mail("attacker@forged.example", "multiple", cannon())
    (request,) = strangers(rows)  # was 10 (the per-sender limit of a day)
    assert request.recipient == f"victim0@{THIRD}"
    assert request.subject == "pbm: please confirm this address"
    (answer,) = [row for row in rows if row.recipient == "attacker@forged.example"]
    assert "One mail may cause only one mail to an address that did not write" in \
        " ".join(body_of(answer).split())
    with store.factory() as session:
        from pbm.db.models import User

        assert [u.userid for u in session.scalars(select(User))] == ["vic0"]


def test_the_server_caps_confirmation_requests_an_hour_whoever_asks(tmp_path):
    store = Store(tmp_path, confirmations_per_hour=2)
    sent = []
    for k in range(4):  # a forged sender each: the per-sender limit never bites
        rows = store.mail(f"attacker{k}@forged.example", f"signup vic{k} pw{k:05d} "
                          f"victim{k}@{THIRD}")
        sent += strangers(rows)
        if k >= 2:
            (answer,) = rows
            assert "The server has mailed 2 confirmation requests in the last hour" in \
                " ".join(body_of(answer).split())
    assert [row.recipient for row in sent] == [f"victim0@{THIRD}", f"victim1@{THIRD}"]


def test_a_confirm_line_below_the_first_is_not_run_and_a_person_is_told(store):
    (answer,) = store.mail(ALICE, "multiple", "help\nconfirm SOMETOKENSOMETOKEN12\n")
    text = " ".join(body_of(answer).split())
    assert "A 'confirm' line of your mail was not carried out" in text
    assert "=== Help: general ===" in body_of(answer)
    # A reply keeping a request's Subject, with no command of its own: never answered.
    assert store.mail(ALICE, "Re: confirm SOMETOKENSOMETOKEN12", "I am away.\n") == []
    assert store.last_status() == "ignored"
    assert store.mail(ALICE, "Re: pbm: please confirm this address", "I am away.\n") == []
    assert store.last_status() == "ignored"


def stored_raw(store: Store) -> bytes:
    with store.factory() as session:
        return session.scalars(select(InboundMessage.raw)
                               .order_by(InboundMessage.id.desc())).first()


@pytest.mark.parametrize("headers", [{"Precedence": "bulk"}, {"Auto_Submitted": "auto-replied"},
                                     {"List_Id": "<news.example.net>"}])
def test_mail_never_answered_counts_against_its_sender_and_is_refused_for_now(tmp_path,
                                                                              headers):
    """It once skipped the limit: one connection stored 100 such mails of 0.9 MB."""
    store = Store(tmp_path, mails_per_sender_per_hour=3)
    for _ in range(3):
        assert store.mail("news@example.net", "news", "text\n", **headers) == []
        assert store.last_status() == "ignored"
    assert store.mail("news@example.net", "news", "text\n", **headers) == []  # no notice
    assert store.last_status() == "throttled"
    raw = b"From: news@example.net\r\nPrecedence: bulk\r\nSubject: news\r\n\r\n"
    with store.factory() as reader, pytest.raises(Refusal) as refused:
        check_ahead(prepare(raw, "<>", store.config.limits), reader, store.config.limits)
    assert refused.value.code == 451


def test_of_mail_never_answered_only_the_start_is_kept(tmp_path):
    store = Store(tmp_path)
    body = "".join(f"line {n} of a newsletter\n" for n in range(40_000))
    store.mail("news@example.net", "news", body, Precedence="bulk")
    kept = stored_raw(store)
    assert len(kept) < 34_000 and kept.startswith(b"From: news@example.net")
    assert kept.endswith(b" more bytes not kept]\r\n")
    # Mail that is answered is kept whole (the operator may need to handle it again).
    store.mail(ALICE, "multiple", "help\n" + body)
    assert len(stored_raw(store)) > 900_000
