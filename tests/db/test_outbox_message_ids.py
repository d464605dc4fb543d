"""Migration 0007 gives mail sent before it its Message-ID, from its own headers only."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from pbm.db.migrate import upgrade
from pbm.db.session import make_engine
from tests import stores


def test_mail_sent_before_the_upgrade_gets_its_message_id(tmp_path: Path):
    engine = make_engine(stores.url(tmp_path / "pbm.sqlite"))
    upgrade(engine, "0006")
    mails = {
        "alice@players.test": b"From: pbm <pbm@games.test>\r\nTo: alice@players.test\r\n"
                              b"Subject: help\r\nMessage-ID: <1.2.3.pbm@games.test>\r\n"
                              b"MIME-Version: 1.0\r\n\r\nMessage-ID: <forged@games.test>\r\n",
        # An id only in the text (a player's comment) is no Message-ID of the mail.
        "bob@players.test": b"From: pbm <pbm@games.test>\r\nTo: bob@players.test\r\n"
                            b"Subject: Trou Board 101 bob\r\n\r\n"
                            b"Message-ID: <forged@games.test>\r\n",
    }
    with engine.begin() as conn:
        for recipient, raw in mails.items():
            conn.execute(text(
                "INSERT INTO outbox (recipient, subject, raw, status, attempts, "
                "next_attempt_at, created_at, maybe_sent) VALUES (:r, 's', :raw, 'sent', 1, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, :no)"), {"r": recipient, "raw": raw,
                                                                "no": False})
    upgrade(engine)
    with engine.connect() as conn:
        found = dict(conn.execute(text("SELECT recipient, message_id FROM outbox")).all())
    assert found == {"alice@players.test": "<1.2.3.pbm@games.test>", "bob@players.test": None}
