"""Bounces as MTAs write them: Postfix's RFC 3464 DSN and older formats, written here."""

from __future__ import annotations

from email.utils import make_msgid


def _original(recipient: str, message_id: str) -> str:
    return (f"From: pbm games <pbm@games.test>\r\nTo: {recipient}\r\n"
            "Subject: Trou Board 101 alice\r\nDate: Mon, 1 Jul 2024 10:00:00 +0000\r\n"
            f"Message-ID: {message_id}\r\nAuto-Submitted: auto-generated\r\n")


def postfix(recipient: str, message_id: str, *, action: str = "failed",
            status: str = "5.1.1") -> bytes:
    """Postfix's bounce(8) notice: multipart/report, report-type=delivery-status."""
    return (
        "Return-Path: <>\r\n"
        "Received: by mx.games.test (Postfix) id 4WBv5S0Yz3z9rxL; Mon,  1 Jul 2024 10:00:02 "
        "+0000 (UTC)\r\n"
        "Date: Mon,  1 Jul 2024 10:00:02 +0000 (UTC)\r\n"
        "From: MAILER-DAEMON@mx.games.test (Mail Delivery System)\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\n"
        "To: pbm@games.test\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: multipart/report; report-type=delivery-status;\r\n"
        "\tboundary=\"4WBv5S0Yz3z9rxL.1719828002/mx.games.test\"\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        f"Message-Id: {make_msgid(domain='mx.games.test')}\r\n"
        "\r\n"
        "This is a MIME-encapsulated message.\r\n"
        "\r\n"
        "--4WBv5S0Yz3z9rxL.1719828002/mx.games.test\r\n"
        "Content-Description: Notification\r\n"
        "Content-Type: text/plain; charset=us-ascii\r\n"
        "\r\n"
        "This is the mail system at host mx.games.test.\r\n"
        "\r\n"
        "I'm sorry to have to inform you that your message could not\r\n"
        "be delivered to one or more recipients. It's attached below.\r\n"
        "\r\n"
        "                   The mail system\r\n"
        "\r\n"
        f"<{recipient}>: host mail.players.test[192.0.2.7] said: 550 5.1.1\r\n"
        f"    <{recipient}>: Recipient address rejected: User unknown (in reply to\r\n"
        "    RCPT TO command)\r\n"
        "\r\n"
        "--4WBv5S0Yz3z9rxL.1719828002/mx.games.test\r\n"
        "Content-Description: Delivery report\r\n"
        "Content-Type: message/delivery-status\r\n"
        "\r\n"
        "Reporting-MTA: dns; mx.games.test\r\n"
        "X-Postfix-Queue-ID: 4WBv5S0Yz3z9rxL\r\n"
        "X-Postfix-Sender: rfc822; pbm@games.test\r\n"
        "Arrival-Date: Mon,  1 Jul 2024 10:00:01 +0000 (UTC)\r\n"
        "\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\n"
        f"Original-Recipient: rfc822;{recipient}\r\n"
        f"Action: {action}\r\n"
        f"Status: {status}\r\n"
        "Remote-MTA: dns; mail.players.test\r\n"
        f"Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected:\r\n"
        "    User unknown\r\n"
        "\r\n"
        "--4WBv5S0Yz3z9rxL.1719828002/mx.games.test\r\n"
        "Content-Description: Undelivered Message Headers\r\n"
        "Content-Type: text/rfc822-headers\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        "\r\n"
        + _original(recipient, message_id) +
        "\r\n"
        "--4WBv5S0Yz3z9rxL.1719828002/mx.games.test--\r\n"
    ).encode()


def exim(recipient: str, message_id: str) -> bytes:
    """Exim's plain-text failure notice with X-Failed-Recipients."""
    return (
        "Return-path: <>\r\n"
        f"X-Failed-Recipients: {recipient}\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "From: Mail Delivery System <Mailer-Daemon@relay.players.test>\r\n"
        "To: pbm@games.test\r\n"
        "Subject: Mail delivery failed: returning message to sender\r\n"
        f"Message-Id: {make_msgid(domain='relay.players.test')}\r\n"
        "Date: Mon, 01 Jul 2024 10:00:03 +0000\r\n"
        "\r\n"
        "This message was created automatically by mail delivery software.\r\n"
        "\r\n"
        "A message that you sent could not be delivered to one or more of its\r\n"
        "recipients. This is a permanent error. The following address(es) failed:\r\n"
        "\r\n"
        f"  {recipient}\r\n"
        "    mailbox is full: retry timeout exceeded\r\n"
        "\r\n"
        "------ This is a copy of the message, including all the headers. ------\r\n"
        "\r\n"
        + _original(recipient, message_id) +
        "\r\nboard\r\n"
    ).encode()


def qmail(recipient: str, message_id: str) -> bytes:
    """qmail's plain-text bounce (QSBMF)."""
    return (
        "Return-Path: <>\r\n"
        "Date: 1 Jul 2024 10:00:04 -0000\r\n"
        f"X-Sent-As: {make_msgid()}\r\n"  # each notice differs (no Message-ID)
        "From: MAILER-DAEMON@qmail.players.test\r\n"
        "To: pbm@games.test\r\n"
        "Subject: failure notice\r\n"
        "\r\n"
        "Hi. This is the qmail-send program at qmail.players.test.\r\n"
        "I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
        "This is a permanent error; I've given up. Sorry it didn't work out.\r\n"
        "\r\n"
        f"<{recipient}>:\r\n"
        "Sorry, no mailbox here by that name. (#5.1.1)\r\n"
        "\r\n"
        "--- Below this line is a copy of the message.\r\n"
        "\r\n"
        + _original(recipient, message_id) +
        "\r\nboard\r\n"
    ).encode()


def microsoft(recipient: str, message_id: str) -> bytes:
    """Exchange Online's NDR: a DSN with an HTML part first (as Outlook.com sends it)."""
    return (
        "From: postmaster@outlook.test\r\n"
        "To: pbm@games.test\r\n"
        "Date: Mon, 1 Jul 2024 10:00:05 +0000\r\n"
        "Content-Type: multipart/report; report-type=delivery-status;\r\n"
        "\tboundary=\"f8e2a3c1-ndr\"\r\n"
        "MIME-Version: 1.0\r\n"
        f"Message-ID: {make_msgid(domain='outlook.test')}\r\n"
        "Subject: Undeliverable: Trou Board 101 alice\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "\r\n"
        "--f8e2a3c1-ndr\r\n"
        "Content-Type: multipart/alternative; boundary=\"alt-ndr\"\r\n"
        "\r\n"
        "--alt-ndr\r\n"
        "Content-Type: text/plain; charset=\"us-ascii\"\r\n"
        "\r\n"
        "Your message to " + recipient + " couldn't be delivered.\r\n"
        "The email address wasn't found at the destination domain.\r\n"
        "--alt-ndr\r\n"
        "Content-Type: text/html; charset=\"us-ascii\"\r\n"
        "\r\n"
        "<html><body><b>Your message couldn't be delivered.</b></body></html>\r\n"
        "--alt-ndr--\r\n"
        "\r\n"
        "--f8e2a3c1-ndr\r\n"
        "Content-Type: message/delivery-status\r\n"
        "\r\n"
        "Reporting-MTA: dns;AM0PR01MB1234.eurprd01.prod.outlook.test\r\n"
        "Received-From-MTA: dns;mx.games.test\r\n"
        "Arrival-Date: Mon, 1 Jul 2024 10:00:04 +0000\r\n"
        "\r\n"
        f"Final-Recipient: rfc822;{recipient}\r\n"
        "Action: failed\r\n"
        "Status: 5.1.10\r\n"
        "Diagnostic-Code: smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not "
        "found by SMTP address lookup\r\n"
        "\r\n"
        "--f8e2a3c1-ndr\r\n"
        "Content-Type: message/rfc822\r\n"
        "\r\n"
        + _original(recipient, message_id) +
        "\r\nboard\r\n"
        "\r\n"
        "--f8e2a3c1-ndr--\r\n"
    ).encode()


FORMATS = {"postfix": postfix, "exim": exim, "qmail": qmail, "microsoft": microsoft}
