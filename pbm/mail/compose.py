"""Turn replies into RFC 5322 messages with the headers a polite robot sends."""

from __future__ import annotations

from datetime import datetime, timezone
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from pbm.commands.context import Reply
from pbm.config import ServerSettings
from pbm.mail.inbound import InboundMail


def compose(reply: Reply, recipient: str, server: ServerSettings,
            inbound: InboundMail | None = None) -> EmailMessage:
    message = EmailMessage(policy=policy.SMTP)
    local, _, domain = server.address.partition("@")
    message["From"] = Address(server.name, local, domain)
    message["To"] = recipient
    message["Subject"] = reply.subject
    message["Date"] = format_datetime(datetime.now(timezone.utc))
    message["Message-ID"] = make_msgid("pbm", domain=server.hostname)
    # RFC 3834: answers to a person are auto-replied; board updates are auto-generated.
    message["Auto-Submitted"] = "auto-replied" if reply.kind == "answer" else "auto-generated"
    if inbound is not None and inbound.message_id:
        message["In-Reply-To"] = inbound.message_id
        references = f"{inbound.references} {inbound.message_id}".strip()
        message["References"] = references
    message.set_content(reply.body, charset="utf-8")
    return message
