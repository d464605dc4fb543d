"""Turn replies into RFC 5322 messages with the headers a polite robot sends."""

from __future__ import annotations

from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.utils import formataddr, formatdate, make_msgid

from pbm.commands.context import Reply
from pbm.config import ServerSettings
from pbm.mail.inbound import InboundMail

# Quoted-printable keeps a board readable in the raw mail where base64 would not; plain
# ASCII bodies (most boards) go as 7bit. The compat32 Message is used because building
# headers through email.headerregistry costs milliseconds per mail on a busy server.
UTF8 = Charset("utf-8")
UTF8.body_encoding = QP


def compose(reply: Reply, recipient: str, server: ServerSettings,
            inbound: InboundMail | None = None) -> Message:
    message = Message()
    message["From"] = formataddr((server.name, server.address))
    message["To"] = recipient
    message["Subject"] = _header(reply.subject)
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid("pbm", domain=server.hostname)
    # RFC 3834: answers to a person are auto-replied; board updates are auto-generated.
    message["Auto-Submitted"] = "auto-replied" if reply.kind == "answer" else "auto-generated"
    if inbound is not None and inbound.message_id:
        message["In-Reply-To"] = inbound.message_id
        message["References"] = f"{inbound.references} {inbound.message_id}".strip()
    message["MIME-Version"] = "1.0"
    body = reply.body
    if body.isascii():
        message.set_payload(body, "us-ascii")
    else:
        message.set_payload(body, UTF8)
    return message


def _header(text: str) -> str | Header:
    return text if text.isascii() else Header(text, "utf-8")
