"""Talk to the SMTP relay: one connection per round, answers sorted into what they mean."""

from __future__ import annotations

import logging
import re
import smtplib
import socket
import ssl
import threading
from email.utils import parseaddr

from pbm.config import Relay
from pbm.mail.signing import Signer

log = logging.getLogger(__name__)

# A 5xx at DATA that is about the message's form (RFC 3463 5.6.x media errors, 5.5.2
# "line too long", or words to that effect from relays without enhanced codes) means we
# composed a bad mail: a bug of ours, not the recipient's fault.
FORMAT_CODE = re.compile(r"^\s*5\.(6\.\d+|5\.2)\b")
FORMAT_TEXT = re.compile(r"line.{0,24}(too long|length)|bare\s*<?(lf|cr|linefeed)|\bcrlf\b",
                         re.I)

# local@domain, nothing around it: no spaces, controls, angle brackets, commas or quotes.
PLAIN_ADDRESS = re.compile(r"[^\s\x00-\x1f\x7f<>(),;:\"\\\[\]@]+"
                           r"@[^\s\x00-\x1f\x7f<>(),;:\"\\@]+")


class RelayDown(Exception):
    """The relay cannot take mail now (refused, timeout, no greeting, 421, our login or
    sender refused): nothing in this round can go, whatever the mail."""

    def __init__(self, message: str, *, during_mail: bool = False):
        super().__init__(message)
        self.during_mail = during_mail  # cut off while a mail was being handed over


class Deferred(Exception):
    """A 4xx for this one mail: try it again later."""


class Refused(Exception):
    """A 5xx for this one mail, or a recipient it cannot be sent to: permanent."""


class Malformed(Refused):
    """The relay refused the mail's form: our bug; the operator retries after a fix."""


class RelayLink:
    """A connection to the relay, opened on the first mail of a round.

    `abort()` may be called from another thread: it shuts the socket down, so a courier
    stuck reading from a relay that never answers wakes up at once."""

    def __init__(self, relay: Relay, *, hostname: str, sender: str, timeout: float,
                 sign: Signer | None = None):
        self.relay = relay
        self.signer = sign  # DKIM, when [dkim] is set
        self.hostname = hostname
        self.sender = parseaddr(sender)[1]
        self.timeout = timeout
        self.smtp: smtplib.SMTP | None = None
        self.aborted = False
        self._lock = threading.Lock()
        self.tls = tls_context(relay) if relay.tls != "none" else None

    @property
    def name(self) -> str:
        return f"{self.relay.host}:{self.relay.port}"

    def send(self, recipient: str, raw: bytes) -> str:
        """Hand one mail over and return the relay's answer ("2.0.0 Ok: queued as 4Xyz");
        raises RelayDown, Deferred or Refused when it did not go."""
        smtp = self.smtp or self._open()
        recipient, raw, options = self._envelope(smtp, recipient, raw)
        if self.signer is not None:
            raw = self.signer.sign(raw)
        try:
            # Envelope sender <> would be right for auto-replies (RFC 3834) but many relays
            # refuse it; the server address is used and auto-answers to it are ignored.
            smtp.sendmail(self.sender, [recipient], raw, mail_options=options)
        except smtplib.SMTPRecipientsRefused as err:
            code, text = next(iter(err.recipients.values()))
            raise _answer(code, text, f"recipient {recipient} refused", data=False) from None
        except smtplib.SMTPSenderRefused as err:
            self.close()
            raise RelayDown(f"relay {self.name} refused our sender {self.sender}: "
                            f"{err.smtp_code} {_text(err.smtp_error)}") from None
        except smtplib.SMTPDataError as err:
            if err.smtp_code == 421:
                self.close()
            raise _answer(err.smtp_code, err.smtp_error, "refused at DATA", data=True) \
                from None
        except (smtplib.SMTPException, OSError) as err:
            self.close()
            raise RelayDown(f"relay {self.name} dropped the connection: {_describe(err)}",
                            during_mail=True) from None
        return smtp.accepted if isinstance(smtp, _AbortableSMTP) else ""

    def close(self) -> None:
        smtp, self.smtp = self.smtp, None
        if smtp is None:
            return
        try:
            if smtp.sock is not None and not self.aborted:
                smtp.quit()
        except (smtplib.SMTPException, OSError):
            pass
        finally:
            smtp.close()

    def abort(self) -> None:
        """Cut the connection from another thread (`pbm serve` is stopping)."""
        with self._lock:
            self.aborted = True
            smtp = self.smtp
        sock = smtp.sock if smtp is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _open(self) -> smtplib.SMTP:
        # Made without a host and connected below, so that abort() can reach the socket
        # while the relay keeps us waiting for its greeting.
        smtp = _AbortableSMTP(self, local_hostname=self.hostname, timeout=self.timeout)
        with self._lock:
            if self.aborted:
                raise RelayDown("delivery is stopping")
            self.smtp = smtp
        try:
            smtp.connect(self.relay.host, self.relay.port)
            smtp.ehlo_or_helo_if_needed()
            if self.relay.starttls:
                # smtplib's starttls() without a context checks no certificate at all.
                smtp.starttls(context=self.tls)
                smtp.ehlo()
            if self.relay.username:
                if self.tls is None:
                    raise RelayDown(f"relay {self.name}: no login without TLS (the password "
                                    "would cross the network in the clear)")
                smtp.login(self.relay.username, self.relay.password or "")
        except ssl.SSLCertVerificationError as err:
            self.close()
            raise RelayDown(f"relay {self.name} presented a certificate that does not check "
                            f"out: {err.verify_message}; name a CA file in "
                            "delivery.relay_ca_file for a private CA") from None
        except (smtplib.SMTPException, OSError) as err:
            self.close()
            raise RelayDown(f"relay {self.name} cannot be reached: {_describe(err)}") \
                from None
        return smtp

    def _envelope(self, smtp: smtplib.SMTP, recipient: str,
                  raw: bytes) -> tuple[str, bytes, list[str]]:
        """The recipient, message and MAIL options to use for this relay."""
        if not PLAIN_ADDRESS.fullmatch(recipient):
            # smtplib would hand a display name or a line break to parseaddr, which may
            # find another address in it: never guess where a mail goes.
            raise Refused(f"not a plain mail address: {recipient!r}")
        if recipient.isascii():
            return recipient, raw, []
        if smtp.has_extn("smtputf8"):
            return recipient, raw, ["SMTPUTF8"]  # To: may stay raw UTF-8 (RFC 6532)
        converted = ascii_address(recipient)
        if converted is None:
            raise Refused(f"the relay does not offer SMTPUTF8, needed for {recipient} "
                          "(its local part is not ASCII)")
        return converted, _readdress(raw, recipient, converted), []


class _AbortableSMTP(smtplib.SMTP):
    """smtplib.SMTP whose socket abort() can shut down from the moment it is connected,
    before connect() has read the greeting (or stored the socket)."""

    def __init__(self, link: RelayLink, **options):
        self.link = link
        super().__init__(**options)
        # The name starttls() checks the certificate for: SMTP() takes it from the host it
        # was made with, and this one is made without (it connects later).
        self._host: str = link.relay.host

    accepted = ""  # the relay's answer to the last DATA: Postfix's says "queued as <ID>"

    def data(self, msg):
        code, text = super().data(msg)
        self.accepted = _text(text) if code == 250 else ""
        return code, text

    def _get_socket(self, host, port, timeout):
        sock = super()._get_socket(host, port, timeout)
        self.sock = sock
        if self.link.aborted:  # abort() came while we were connecting
            sock.shutdown(socket.SHUT_RDWR)
        if self.link.relay.tls == "smtps" and self.link.tls is not None:
            # Implicit TLS (RFC 8314, port 465), as smtplib.SMTP_SSL does it.
            sock = self.link.tls.wrap_socket(sock, server_hostname=host)
            self.sock = sock
        return sock


def tls_context(relay: Relay) -> ssl.SSLContext:
    """TLS that checks the relay's certificate against the system's CAs (or relay.ca_file)
    and that it names the relay's host; unchecked only when the operator turned it off."""
    context = ssl.create_default_context(cafile=relay.ca_file or None)
    if not relay.verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def warn_unchecked(relay: Relay) -> None:
    """Said at every start: nothing checks who is at the other end of the TLS."""
    if relay.tls != "none" and not relay.verify:
        log.warning("delivery.relay_verify_certificates is off: TLS to %s:%s does not check "
                    "the relay's certificate or name, so anyone on the path can read the "
                    "password and the mail", relay.host, relay.port)


def ascii_address(address: str) -> str | None:
    """`address` with its domain in IDNA (xn--) form, or None when that does not make it
    ASCII (the local part is not, or the domain is not a valid name)."""
    local, at, domain = address.rpartition("@")
    if not at or not local.isascii():
        return None
    try:
        return f"{local}@{domain.encode('idna').decode('ascii')}"
    except UnicodeError:
        return None


def _readdress(raw: bytes, old: str, new: str) -> bytes:
    """The message with its To: header naming `new` instead of `old` (compose writes the
    recipient alone on that line)."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    line = b"\r\nTo: " + old.encode("utf-8") + b"\r\n"
    if line not in head + b"\r\n":
        return raw
    head = (head + b"\r\n").replace(line, b"\r\nTo: " + new.encode("ascii") + b"\r\n", 1)
    return head[:-2] + sep + body


def _answer(code: int, text: bytes | str, what: str, *, data: bool) -> Exception:
    summary = f"{code} {_text(text)}"
    if code == 421:
        return RelayDown(f"the relay is closing the connection: {summary}", during_mail=True)
    if 400 <= code < 500:
        return Deferred(f"{what} for now: {summary}")
    message = _text(text)
    if data and (FORMAT_CODE.match(message) or FORMAT_TEXT.search(message)):
        return Malformed(f"the relay refused the mail's form ({summary}): a bug in pbm's "
                         "composing, not the recipient's fault; `pbm outbox retry` resends "
                         "it after the fix")
    return Refused(f"{what}: {summary}")


def _text(text: bytes | str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return " ".join(text.split())[:300]


def _describe(err: BaseException) -> str:
    if isinstance(err, smtplib.SMTPResponseException):
        return f"{err.smtp_code} {_text(err.smtp_error)}"
    return f"{type(err).__name__}: {err}"


class Breaker:
    """Keeps a courier off a relay it could not reach: after a connection-level failure no
    round tries it for `first` seconds, doubling with each failed probe up to `cap`; the
    first round after the wait probes it once, and a success closes the breaker."""

    def __init__(self, first: float, cap: float):
        self.first = max(first, 1.0)
        self.cap = max(cap, self.first)
        self.delay = 0.0
        self.until = 0.0  # time.monotonic() before which the relay is not tried
        self.since = 0.0  # when it opened
        self.error: str | None = None

    @property
    def open(self) -> bool:
        return self.error is not None

    def allows(self, now: float) -> bool:
        return self.error is None or now >= self.until

    def trip(self, now: float, error: str) -> float:
        """Open it (again); returns the seconds until the next probe."""
        if self.error is None:
            self.delay, self.since = self.first, now
        else:
            self.delay = min(self.delay * 2, self.cap)
        self.error, self.until = error, now + self.delay
        return self.delay

    def close(self, now: float) -> float | None:
        """Closed after a success; returns for how long it had been open, if it was."""
        if self.error is None:
            return None
        self.error, self.delay, self.until = None, 0.0, 0.0
        return now - self.since
