"""Threading headers of board mails: the root first, the recipient's anchor, bounded chains."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

from pbm.config import ServerSettings
from pbm.context import Reply
from pbm.mail.compose import compose
from pbm.mail.inbound import InboundMail
from pbm.mail.threads import anchor_id, root_id, threading

SERVER = ServerSettings(address="pbm@games.test", hostname="games.test", name="pbm games")
ROOT = "<board.trou.101.7@games.test>"


def headers(reply: Reply, recipient: str, inbound: InboundMail | None = None,
            taken: set[str] | None = None):
    return BytesParser(policy=policy.default).parsebytes(
        compose(reply, recipient, SERVER, inbound, taken))


def test_the_opening_mail_carries_the_recipients_anchor_and_names_the_root():
    opening = Reply(("a@x.test",), "New Trou Board 101 alice", "b\n", "board", "trou.101.7",
                    True)
    alice, bob = headers(opening, "a@x.test"), headers(opening, "b@x.test")
    assert root_id("trou.101.7", "games.test") == ROOT
    assert alice["Message-ID"] == anchor_id("trou.101.7", "a@x.test", "games.test")
    assert bob["Message-ID"] == anchor_id("trou.101.7", "B@X.test", "games.test")
    assert alice["Message-ID"] != bob["Message-ID"]
    assert alice["References"] == ROOT and alice["In-Reply-To"] is None


def test_a_nag_answers_the_recipients_opening_mail():
    nag = Reply(("a@x.test",), "Nag: Trou Board 101 alice", "b\n", "board", "trou.101.7")
    message = headers(nag, "a@x.test")
    anchor = anchor_id("trou.101.7", "a@x.test", "games.test")
    assert str(message["References"]).split() == [ROOT, anchor]
    assert message["In-Reply-To"] == anchor
    assert message["Message-ID"] not in (ROOT, anchor)


def test_two_users_at_one_address_get_two_message_ids():
    opening = Reply(("f@x.test",), "New Trou Board 101 ann", "b\n", "board", "trou.101.7", True)
    taken: set[str] = set()
    first, second = headers(opening, "f@x.test", taken=taken), headers(opening, "f@x.test",
                                                                       taken=taken)
    assert first["Message-ID"] != second["Message-ID"]
    assert str(second["References"]).split() == [ROOT, first["Message-ID"]]


def test_a_long_chain_keeps_root_and_anchor_and_the_newest_ids():
    chain = " ".join(f"<r{i}@players.test>" for i in range(30))
    found = threading("games.test", "a@x.test", thread="trou.101.7", parent="<m@p.test>",
                      references=f"{ROOT} {chain}")
    assert len(found.references) == 10
    assert found.references[:2] == (ROOT, anchor_id("trou.101.7", "a@x.test", "games.test"))
    assert found.references[-1] == "<m@p.test>" == found.in_reply_to
    assert found.references[2] == "<r23@players.test>"


def test_a_mail_about_no_board_threads_as_before():
    found = threading("games.test", "a@x.test", parent="<m@p.test>", references="<r@p.test>")
    assert found.references == ("<r@p.test>", "<m@p.test>")
    assert found.message_id.endswith("@games.test>")
    inbound = InboundMail(message_id=None, sender="a@x.test", subject="help", body="",
                          auto=False, references="")
    answer = headers(Reply(("a@x.test",), "help", "hi"), "a@x.test", inbound)
    assert answer["References"] is None and answer["In-Reply-To"] is None
