"""Settings: TOML file -> frozen dataclasses; precedence flag > env > file > defaults."""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pbm.games import registry
from pbm.games.bot_names import bots_play

ENV_FILE = "PBM_CONFIG"
DEFAULT_FILE = "pbm.toml"


class ConfigError(Exception):
    """A setting is missing, unreadable or out of range; the message names file and key."""


@dataclass(frozen=True)
class ServerSettings:
    address: str = "pbm@localhost"  # From: of every reply, and where players write
    hostname: str = "localhost"  # used in Message-IDs and the SMTP greeting
    name: str = "pbm"  # display name in From:
    # Userids that may use `broadcast` (mail every user); TOML: operators = ["alice"].
    operators: tuple[str, ...] = ()
    # The authserv-id with which the operator's MTA writes its Authentication-Results
    # header (DKIM/SPF verdicts); "" = no such MTA, and no such header is believed.
    authserv_id: str = ""


@dataclass(frozen=True)
class SmtpdSettings:
    host: str = "127.0.0.1"
    port: int = 2525
    protocol: str = "smtp"  # "smtp" or "lmtp"
    max_message_bytes: int = 1_048_576
    # Peers that hand on other people's mail (an MTA in front of pbm): their address says
    # nothing of who sent a mail, so wrong passwords are not counted against it.
    relay_networks: tuple[str, ...] = ("127.0.0.0/8", "::1/128")


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = "sqlite:///pbm.sqlite"


@dataclass(frozen=True)
class DeliverySettings:
    # "" = write to the Maildir; else smtp://[user@]host:port?starttls (submission, 587),
    # smtps://[user@]host:465 (implicit TLS) or smtp://host:25 (plain: a trusted network).
    relay: str = ""
    # The relay's password, when it wants a login: here (or in PBM_DELIVERY_RELAY_PASSWORD),
    # in a file of its own, or in the URL; never needed in the settings file.
    relay_password: str = ""
    relay_password_file: str = ""
    relay_ca_file: str = ""  # CA certificates for a relay with a private CA ("" = system's)
    # false: TLS without checking the relay's certificate or name (logged at every start).
    relay_verify_certificates: bool = True
    maildir: str = "maildir"
    retry_seconds: int = 60  # first retry delay; doubles each attempt ...
    max_retry_seconds: int = 3600  # ... up to this
    give_up_days: int = 5  # a reply still undelivered after this long is marked failed
    timeout_seconds: int = 30  # for each step of talking to the relay
    bounces_before_stop: int = 3  # bounces (on different days) before mail to an address stops


@dataclass(frozen=True)
class LimitSettings:
    """What one mail, one sender and one password guesser may cost the server (0 = no limit
    for the rates)."""

    # Reading a mail: bounded before anything else looks at it.
    max_header_bytes: int = 65536
    max_headers: int = 300
    max_header_field_bytes: int = 16384
    max_mime_parts: int = 100
    max_mime_depth: int = 10
    parse_seconds: int = 5
    # What one mail may ask for.
    commands_per_mail: int = 50
    challenges_per_mail: int = 5
    boards_per_command: int = 20
    wrong_passwords_per_mail: int = 3
    # Rates.
    mails_per_sender_per_hour: int = 60
    challenges_per_sender_per_day: int = 30
    challenges_per_player_per_day: int = 20
    wrong_passwords_per_sender_per_hour: int = 20
    # ... and from one network address (the SMTP peer, or `pbm process --client-address`),
    # whatever From: the mails claim.
    wrong_passwords_per_source_per_hour: int = 30
    # Mails one user may send with `message` and `chat` in a day (one per recipient).
    messages_per_user_per_day: int = 50
    # Confirmation requests one sender may cause in a day (each to an address it named).
    confirmations_per_sender_per_day: int = 10
    # ... and all senders together in an hour: senders are forged at will, so this is what
    # bounds the mail the server sends to addresses that never wrote to it.
    confirmations_per_hour: int = 20
    # Addresses one account may have: every board mail of the user goes to each of them.
    addresses_per_user: int = 5
    # Spectators of one board; users told when one board ends; and users told when any
    # board of one game ends. Each is mailed at every move or ending, so each is bounded.
    watchers_per_board: int = 50
    # Tournaments: whether players may create them (else only the operator), and the most
    # players one may have (its mails name them all).
    players_create_tournaments: bool = True
    tournament_players: int = 64
    # Ladders: how many places above their own a player may challenge.
    ladder_reach: int = 3
    # Password guessing: free wrong guesses per account, then checks pause for a while that
    # doubles with every further wrong guess.
    wrong_passwords_before_pause: int = 5
    password_pause_seconds: int = 60
    max_password_pause_seconds: int = 3600


@dataclass(frozen=True)
class TimeSettings:
    """The clock of a board and the housekeeping that keeps it (all in days)."""

    nag_days: int = 7  # a player who has not moved this long is reminded, and again after as long
    forfeit_days: int = 21  # ... and after this long loses the game on time
    vacation_days_per_year: int = 42  # how long a player may be away in a calendar year
    archive_days: int = 14  # finished boards leave the lists of boards after this long
    tick_seconds: int = 60  # how often `pbm serve` runs the housekeeping
    # A tournament's boards, unless it sets its own (pbmserv's faster tournament clocks).
    tournament_nag_days: int = 1
    tournament_forfeit_days: int = 7


@dataclass(frozen=True)
class BotSettings:
    """The computer players (easybot, goodbot, bestbot): the games they play, and how."""

    games: tuple[str, ...] = ("all",)  # game names, or "all"; [] turns the bots off
    # The most a bot thinks over one move. Its strength is counted in work, not time, so
    # this only cuts a search short on a machine too slow for it.
    think_seconds: int = 3
    boards_per_player: int = 3  # active boards a player may have against each bot
    # A seeker (`GAME seek`) nobody was paired with for this long gets a bot; 0: never.
    seek_wait_hours: int = 24

    def plays(self, game: str) -> bool:
        """Whether the bots play `game` here: chosen, and a game bots can play fair."""
        chosen = "all" in self.games or game in self.games
        return chosen and bots_play(registry.get(game))


@dataclass(frozen=True)
class WebSettings:
    """The read-only web view of boards, games and players (pbm/web)."""

    # Where `pbm serve` also serves it, as HOST:PORT; "" = mail only. `pbm web` serves it
    # alone, here or at --listen (127.0.0.1:8080 when neither says).
    listen: str = ""
    # The site's address as players reach it (https://pbm.example.org/), for the links at
    # the end of board mails and in feeds; "" = no links in mail.
    base_url: str = ""
    page_size: int = 50  # boards per page of a game's lists and a player's finished games


IMAP_TLS = ("tls", "none")
# Folder names pbm puts into IMAP commands: no quotes, backslashes or line ends to escape.
FOLDER_NAME = re.compile(r"[A-Za-z0-9 ._/&+-]{1,200}")
RFC2177_IDLE_SECONDS = 29 * 60  # a server may end an IDLE left alone for 30 minutes


@dataclass(frozen=True)
class ImapSettings:
    """IMAP intake (pbm/mail/imap.py): a mailbox read instead of (or beside) SMTP intake."""

    host: str = ""  # "" = no IMAP intake
    port: int = 993
    tls: str = "tls"  # "tls": implicit TLS (993); "none": plain, for a server on this machine
    user: str = ""
    password: str = ""  # or PBM_IMAP_PASSWORD, or password_file
    password_file: str = ""
    folder: str = "INBOX"
    processed_folder: str = "pbm-processed"  # where a mail goes once stored
    failed_folder: str = "pbm-failed"  # where mail refused by the limits goes
    ca_file: str = ""
    verify_certificates: bool = True  # false: no certificate checks (logged at every start)
    idle_seconds: int = 25 * 60  # IDLE is issued again after this long (RFC 2177: < 29 min)
    poll_seconds: int = 60  # how often a server without IDLE is asked for new mail


@dataclass(frozen=True)
class DkimSettings:
    """DKIM signatures on every mail pbm sends (dkimpy), where nobody else signs them."""

    domain: str = ""  # "" = no signing; else the d= domain, server.address's as a rule
    selector: str = ""  # the s= selector: the key's DNS name is SELECTOR._domainkey.DOMAIN
    key_file: str = ""  # the private key, PEM (RSA or Ed25519)


LOG_LEVELS = ("debug", "info", "warning", "error")


@dataclass(frozen=True)
class LoggingSettings:
    """What pbm logs (one line per mail handled and per delivery at info) and where."""

    level: str = "info"  # debug, info, warning or error
    file: str = ""  # "" = standard error (the journal under systemd); else this file


@dataclass(frozen=True)
class Config:
    server: ServerSettings = ServerSettings()
    smtpd: SmtpdSettings = SmtpdSettings()
    database: DatabaseSettings = DatabaseSettings()
    delivery: DeliverySettings = DeliverySettings()
    limits: LimitSettings = LimitSettings()
    time: TimeSettings = TimeSettings()
    logging: LoggingSettings = LoggingSettings()
    bots: BotSettings = BotSettings()
    web: WebSettings = WebSettings()
    imap: ImapSettings = ImapSettings()
    dkim: DkimSettings = DkimSettings()
    base_dir: Path = Path(".")  # relative paths in the settings are taken from here
    source: str = "defaults"  # where the settings came from, for messages
    # "section.key" -> the file, environment variable or flag that set it (unset: defaults).
    origins: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def database_url(self) -> str:
        """The database URL with a relative SQLite path anchored at base_dir."""
        url = self.database.url
        prefix = "sqlite:///"
        if url.startswith(prefix) and not url.startswith(prefix + "/"):
            path = url[len(prefix) :]
            if path and path != ":memory:":
                return prefix + str((self.base_dir / path).resolve())
        return url

    @property
    def maildir_path(self) -> Path:
        return (self.base_dir / self.delivery.maildir).resolve()

    @property
    def log_path(self) -> Path | None:
        return (self.base_dir / self.logging.file).resolve() if self.logging.file else None

    def path(self, name: str) -> Path:
        """A file named in the settings, relative ones taken from base_dir."""
        return (self.base_dir / name).resolve()

    def relay(self) -> Relay:
        """The relay of delivery.relay, its password from wherever it was given."""
        settings = self.delivery
        relay = parse_relay(settings.relay, self.origin("delivery.relay"))
        password = read_secret(self, "delivery.relay_password") or relay.password
        return replace(relay, password=password,
                       ca_file=str(self.path(settings.relay_ca_file))
                       if settings.relay_ca_file else "",
                       verify=settings.relay_verify_certificates)

    def imap_password(self) -> str:
        return read_secret(self, "imap.password")

    def origin(self, key: str) -> str:
        """Where the value of "section.key" came from: a file, a variable, a flag, defaults."""
        return self.origins.get(key, "defaults")


SECTIONS: dict[str, type] = {
    "server": ServerSettings,
    "smtpd": SmtpdSettings,
    "database": DatabaseSettings,
    "delivery": DeliverySettings,
    "limits": LimitSettings,
    "time": TimeSettings,
    "logging": LoggingSettings,
    "bots": BotSettings,
    "web": WebSettings,
    "imap": ImapSettings,
    "dkim": DkimSettings,
}


def load(
    path: str | os.PathLike | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
) -> Config:
    """Read settings: `path`, else $PBM_CONFIG, else ./pbm.toml if present, else defaults.

    Environment variables PBM_<SECTION>_<KEY> override the file; `overrides` (from command
    line flags) override both.
    """
    env = os.environ if env is None else env
    chosen = path or env.get(ENV_FILE)
    data: dict[str, Any] = {}
    base_dir = Path.cwd()
    source = "defaults"
    if chosen:
        file = Path(chosen)
        if not file.is_file():
            raise ConfigError(f"{file}: no such config file")
        data, base_dir, source = _read(file), file.resolve().parent, str(file)
    elif Path(DEFAULT_FILE).is_file():
        file = Path(DEFAULT_FILE)
        data, base_dir, source = _read(file), file.resolve().parent, str(file)

    sections = {}
    # Where each set value came from, so an error names the file, variable or flag to fix.
    origins: dict[str, str] = {}
    for section, cls in SECTIONS.items():
        raw = data.pop(section, {})
        if not isinstance(raw, dict):
            raise ConfigError(f"{source}: [{section}] must be a table")
        values = dict(raw)
        origins.update((f"{section}.{key}", source) for key in raw)
        for f in fields(cls):
            key = f"PBM_{section.upper()}_{f.name.upper()}"
            if key in env:
                values[f.name] = env[key]
                origins[f"{section}.{f.name}"] = f"environment {key}"
        flags = (overrides or {}).get(section, {})
        values.update(flags)
        origins.update((f"{section}.{key}", "command line") for key in flags)
        sections[section] = _build(cls, section, values, origins, source)
    if data:
        unknown = ", ".join(sorted(data))
        raise ConfigError(f"{source}: unknown section(s) {unknown}; known: {', '.join(SECTIONS)}")
    config = Config(**sections, base_dir=base_dir, source=source, origins=dict(origins))
    _check(config, lambda key: origins.get(key, source))
    return config


def _read(file: Path) -> dict[str, Any]:
    try:
        with file.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{file}: not valid TOML: {err}") from None
    except UnicodeDecodeError as err:
        raise ConfigError(f"{file}: not valid TOML: not UTF-8 text (byte {err.start})") from None
    except OSError as err:
        raise ConfigError(f"{file}: cannot read: {err.strerror}") from None


def _build(cls: type, section: str, values: dict[str, Any], origins: Mapping[str, str],
           source: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    out = {}
    for key, value in values.items():
        where = origins.get(f"{section}.{key}", source)
        field = known.get(key)
        if field is None:
            raise ConfigError(
                f"{where}: unknown key {section}.{key}; known keys: {', '.join(known)}"
            )
        want = type(getattr(cls(), key))
        out[key] = _coerce(value, want, f"{where}: {section}.{key}")
    return replace(cls(), **out)


def _coerce(value: Any, want: type, where: str) -> Any:
    if want is tuple:
        return _words(value, where)
    if want is bool:  # a TOML true/false, or from the environment a word for one
        if isinstance(value, bool):
            return value
        word = value.strip().lower() if isinstance(value, str) else None
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise ConfigError(f"{where} must be true or false, not {value!r}")
    if want is int:
        if isinstance(value, bool):
            raise ConfigError(f"{where} must be a whole number, not {value!r}")
        if isinstance(value, int):
            return value
        # isdigit() alone also accepts digits int() refuses, such as "²".
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            return int(value)
        raise ConfigError(f"{where} must be a whole number, not {value!r}")
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string, not {value!r}")
    return value


def _words(value: Any, where: str) -> tuple[str, ...]:
    """A list of strings: a TOML array, or from the environment words split at commas or
    spaces (PBM_SERVER_OPERATORS="alice,bob")."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of strings like [\"alice\", \"bob\"], "
                          f"not {value!r}")
    return tuple(v.strip().lower() for v in value if v.strip())


def _check(config: Config, origin: Callable[[str], str]) -> None:
    """Range and format checks; `origin(key)` names where the key's value was set."""
    if config.smtpd.protocol not in ("smtp", "lmtp"):
        raise ConfigError(
            f"{origin('smtpd.protocol')}: smtpd.protocol must be \"smtp\" or \"lmtp\", "
            f"not {config.smtpd.protocol!r}"
        )
    if not 0 <= config.smtpd.port <= 65535:
        raise ConfigError(
            f"{origin('smtpd.port')}: smtpd.port must be 0-65535, not {config.smtpd.port}"
        )
    if config.smtpd.max_message_bytes < 1024:
        raise ConfigError(
            f"{origin('smtpd.max_message_bytes')}: smtpd.max_message_bytes must be at least "
            f"1024, not {config.smtpd.max_message_bytes}"
        )
    if "@" not in config.server.address:
        raise ConfigError(
            f"{origin('server.address')}: server.address must be a mail address like "
            f"pbm@example.org, not {config.server.address!r}"
        )
    for section in ("delivery", "limits"):
        for f in fields(SECTIONS[section]):
            value = getattr(getattr(config, section), f.name)
            if isinstance(value, int) and value < 0:
                key = f"{section}.{f.name}"
                raise ConfigError(f"{origin(key)}: {key} must not be negative, not {value}")
    if config.delivery.timeout_seconds < 1 or config.limits.parse_seconds < 1:
        key = "delivery.timeout_seconds" if config.delivery.timeout_seconds < 1 \
            else "limits.parse_seconds"
        raise ConfigError(f"{origin(key)}: {key} must be at least 1 second")
    if config.limits.ladder_reach < 1:
        key = "limits.ladder_reach"
        raise ConfigError(f"{origin(key)}: {key} must be at least 1, not "
                          f"{config.limits.ladder_reach}")
    if config.delivery.bounces_before_stop < 1:
        key = "delivery.bounces_before_stop"
        raise ConfigError(f"{origin(key)}: {key} must be at least 1, not "
                          f"{config.delivery.bounces_before_stop}")
    _check_time(config.time, origin)
    _check_bots(config.bots, origin)
    _check_web(config.web, origin)
    if config.logging.level.lower() not in LOG_LEVELS:
        raise ConfigError(f"{origin('logging.level')}: logging.level must be one of "
                          f"{', '.join(LOG_LEVELS)}, not {config.logging.level!r}")
    for network in config.smtpd.relay_networks:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError:
            raise ConfigError(f"{origin('smtpd.relay_networks')}: smtpd.relay_networks must "
                              "hold network addresses like \"127.0.0.0/8\" or \"::1\", not "
                              f"{network!r}") from None
    if config.delivery.relay:
        relay = parse_relay(config.delivery.relay, origin("delivery.relay"))
        if config.delivery.relay_password_file and config.delivery.relay_password:
            raise ConfigError(f"{origin('delivery.relay_password_file')}: give the relay's "
                              "password once: delivery.relay_password_file or "
                              "delivery.relay_password, not both")
        login = relay.username is not None
        if login and relay.tls == "none" and not _loopback(relay.host):
            raise ConfigError(f"{origin('delivery.relay')}: delivery.relay logs in as "
                              f"{relay.username!r} without TLS, which would send the password "
                              "in the clear: use smtps://...:465 or smtp://...:587?starttls")
        read_secret(config, "delivery.relay_password")  # a file that is missing says so now
    _check_imap(config.imap, origin)
    if config.imap.host:
        read_secret(config, "imap.password")
    _check_dkim(config.dkim, origin)
    if "://" not in config.database.url:
        raise ConfigError(
            f"{origin('database.url')}: database.url must be a URL like sqlite:///pbm.sqlite, "
            f"not {config.database.url!r}"
        )


def _loopback(host: str) -> bool:
    """Whether `host` names this machine (plain text to it crosses no network)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_imap(imap: ImapSettings, origin: Callable[[str], str]) -> None:
    if not imap.host:
        return
    if imap.tls not in IMAP_TLS:
        raise ConfigError(f"{origin('imap.tls')}: imap.tls must be \"tls\" (implicit TLS, "
                          "port 993: every provider offers it, RFC 8314) or \"none\" (a "
                          f"server on this machine), not {imap.tls!r}")
    if imap.tls == "none" and not _loopback(imap.host):
        raise ConfigError(f"{origin('imap.tls')}: imap.tls = \"none\" sends the password in "
                          f"the clear to {imap.host}: only a server on this machine "
                          "(127.0.0.1, localhost) is read without TLS")
    if not 1 <= imap.port <= 65535:
        raise ConfigError(f"{origin('imap.port')}: imap.port must be 1-65535, not {imap.port}")
    if not imap.user:
        raise ConfigError(f"{origin('imap.host')}: imap.host is set, so imap.user must be too")
    if imap.password and imap.password_file:
        raise ConfigError(f"{origin('imap.password_file')}: give the IMAP password once: "
                          "imap.password_file or imap.password, not both")
    for key in ("folder", "processed_folder", "failed_folder"):
        name = getattr(imap, key)
        if not FOLDER_NAME.fullmatch(name) or name != name.strip():
            raise ConfigError(f"{origin('imap.' + key)}: imap.{key} must be a folder name of "
                              f"letters, digits, spaces and ._/&+-, not {name!r}")
    if len({imap.folder, imap.processed_folder, imap.failed_folder}) != 3:
        raise ConfigError(f"{origin('imap.folder')}: imap.folder, imap.processed_folder and "
                          "imap.failed_folder must be three different folders")
    if not 60 <= imap.idle_seconds < RFC2177_IDLE_SECONDS:
        raise ConfigError(f"{origin('imap.idle_seconds')}: imap.idle_seconds must be 60 to "
                          f"{RFC2177_IDLE_SECONDS - 1} (RFC 2177: IDLE is issued again before "
                          f"29 minutes), not {imap.idle_seconds}")
    if imap.poll_seconds < 1:
        raise ConfigError(f"{origin('imap.poll_seconds')}: imap.poll_seconds must be at least 1")


def _check_dkim(dkim: DkimSettings, origin: Callable[[str], str]) -> None:
    given = [key for key in ("domain", "selector", "key_file") if getattr(dkim, key)]
    if given and len(given) != 3:
        missing = [key for key in ("domain", "selector", "key_file") if key not in given]
        raise ConfigError(f"{origin('dkim.' + given[0])}: DKIM signing needs dkim.domain, "
                          f"dkim.selector and dkim.key_file; missing: "
                          f"{', '.join('dkim.' + key for key in missing)}")
    if given and not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,62})"
                                  r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*", dkim.selector):
        raise ConfigError(f"{origin('dkim.selector')}: dkim.selector must be a DNS label like "
                          f"\"pbm2026\", not {dkim.selector!r}")


def read_secret(config: Config, key: str) -> str:
    """A password given as "section.name" or in the file of "section.name_file": a file
    keeps it out of the settings file and the environment (a systemd credential, a Docker
    secret). Its one line, without the line end."""
    section, name = key.split(".")
    settings = getattr(config, section)
    file = getattr(settings, name + "_file")
    if not file:
        return getattr(settings, name)
    path = config.path(file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise ConfigError(f"{config.origin(key + '_file')}: cannot read {key}_file {path}: "
                          f"{reason}") from None
    return text.rstrip("\r\n")


def _check_bots(bots: BotSettings, origin: Callable[[str], str]) -> None:
    known = registry.names()
    for name in bots.games:
        if name != "all" and registry.canonical(name) != name:
            raise ConfigError(f"{origin('bots.games')}: bots.games holds game names ("
                              f"{', '.join(known)}) or \"all\", not {name!r}")
    for key in ("think_seconds", "boards_per_player"):
        if getattr(bots, key) < 1:
            raise ConfigError(f"{origin('bots.' + key)}: bots.{key} must be at least 1, "
                              f"not {getattr(bots, key)}")
    if bots.seek_wait_hours < 0:
        raise ConfigError(f"{origin('bots.seek_wait_hours')}: bots.seek_wait_hours must be 0 "
                          f"(never) or more, not {bots.seek_wait_hours}")


def listen_address(text: str, where: str) -> tuple[str, int]:
    """HOST:PORT (an IPv6 host in brackets: [::1]:8080) as a host and a port."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isascii() or not port.isdigit() \
            or not 0 <= int(port) <= 65535:
        raise ConfigError(f"{where} must be HOST:PORT like 127.0.0.1:8080, not {text!r}")
    return host, int(port)


def _check_web(web: WebSettings, origin: Callable[[str], str]) -> None:
    if web.listen:
        listen_address(web.listen, f"{origin('web.listen')}: web.listen")
    if web.base_url:
        parts = urlsplit(web.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query \
                or parts.fragment or any(c.isspace() for c in web.base_url):
            raise ConfigError(f"{origin('web.base_url')}: web.base_url must be an http or "
                              f"https address like https://pbm.example.org/, not "
                              f"{web.base_url!r}")
    if not 1 <= web.page_size <= 500:
        raise ConfigError(f"{origin('web.page_size')}: web.page_size must be 1-500, not "
                          f"{web.page_size}")


def _check_time(time: TimeSettings, origin: Callable[[str], str]) -> None:
    for key in ("nag_days", "forfeit_days", "tick_seconds"):
        if getattr(time, key) < 1:
            raise ConfigError(f"{origin('time.' + key)}: time.{key} must be at least 1, "
                              f"not {getattr(time, key)}")
    if time.forfeit_days <= time.nag_days:
        raise ConfigError(f"{origin('time.forfeit_days')}: time.forfeit_days ({time.forfeit_days})"
                          f" must be more than time.nag_days ({time.nag_days})")
    for key in ("vacation_days_per_year", "archive_days"):
        if getattr(time, key) < 0:
            raise ConfigError(f"{origin('time.' + key)}: time.{key} must not be negative, "
                              f"not {getattr(time, key)}")


@dataclass(frozen=True)
class Relay:
    """Where outgoing mail goes when it does not go to the Maildir."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: str = "none"  # "smtps" (implicit, 465), "starttls" (587) or "none"
    ca_file: str = ""  # "" = the system's CA certificates
    verify: bool = True  # check the certificate and that it names `host`

    @property
    def starttls(self) -> bool:
        return self.tls == "starttls"


def masked(url: str) -> str:
    """A URL (a relay's, a database's) with its password replaced by stars."""
    try:
        password = urlsplit(url).password
    except ValueError:
        return url
    return url.replace(f":{password}@", ":********@") if password else url


def parse_relay(url: str, where: str = "delivery.relay") -> Relay:
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ConfigError(
            f"{where}: delivery.relay must look like smtp://[user@]host:587?starttls, "
            f"smtps://[user@]host:465 or smtp://host:25, not {masked(url)!r}"
        )
    try:
        port = parts.port or (465 if parts.scheme == "smtps" else 25)
    except ValueError:
        raise ConfigError(f"{where}: delivery.relay has a bad port in {masked(url)!r}") \
            from None
    flags = {flag for flag in parts.query.split("&") if flag}
    if flags - {"starttls"} or (flags and parts.scheme == "smtps"):
        raise ConfigError(f"{where}: delivery.relay only knows the flag ?starttls (and "
                          f"smtps:// needs none), not {masked(url)!r}")
    tls = "smtps" if parts.scheme == "smtps" else "starttls" if flags else "none"
    # A login that is a mail address may be written as is or with %40 for its @.
    username = unquote(parts.username) if parts.username is not None else None
    password = unquote(parts.password) if parts.password is not None else None
    return Relay(parts.hostname, port, username, password, tls)
