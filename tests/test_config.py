"""Settings: where they are read from, in which order, and how a bad one is reported."""

from __future__ import annotations

import os
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbm.cli import main
from pbm.config import (
    SECTIONS,
    BotSettings,
    Config,
    ConfigError,
    DatabaseSettings,
    DeliverySettings,
    DkimSettings,
    ImapSettings,
    LimitSettings,
    LoggingSettings,
    ServerSettings,
    SmtpdSettings,
    TimeSettings,
    WebSettings,
    load,
    parse_relay,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No PBM_* variable of the caller's shell, and a working folder without pbm.toml."""
    for name in list(os.environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(*args, **kwargs) -> str:
    with pytest.raises(ConfigError) as caught:
        load(*args, **kwargs)
    message = str(caught.value)
    assert "\n" not in message, f"a config error is one line, got {message!r}"
    return message


# ----- where the settings come from ------------------------------------------------------
def test_defaults_without_any_file(clean_env: Path):
    config = load(env={})
    assert config.source == "defaults"
    assert config.server == ServerSettings()
    assert config.server.address == "pbm@localhost"
    assert config.smtpd.host == "127.0.0.1"
    assert config.smtpd.port == 2525
    assert config.smtpd.protocol == "smtp"
    assert config.smtpd.max_message_bytes == 1_048_576
    assert config.database.url == "sqlite:///pbm.sqlite"
    assert config.delivery.relay == ""
    # The embedded defaults put the database and the Maildir in the working folder.
    assert config.database_url == f"sqlite:///{clean_env.resolve() / 'pbm.sqlite'}"
    assert config.maildir_path == clean_env.resolve() / "maildir"


def test_pbm_toml_in_the_working_folder_is_read(clean_env: Path):
    write(clean_env / "pbm.toml", '[smtpd]\nport = 2600\n[server]\naddress = "games@example.org"\n')
    config = load(env={})
    assert config.smtpd.port == 2600
    assert config.server.address == "games@example.org"
    assert config.server.hostname == "localhost"  # untouched keys keep their defaults
    assert Path(config.source).name == "pbm.toml"


def test_pbm_config_variable_beats_the_working_folder_file(clean_env: Path, tmp_path: Path):
    write(clean_env / "pbm.toml", "[smtpd]\nport = 2600\n")
    other = write(tmp_path / "etc" / "other.toml", "[smtpd]\nport = 2700\n")
    config = load(env={"PBM_CONFIG": str(other)})
    assert config.smtpd.port == 2700
    assert config.source == str(other)


def test_pbm_config_is_taken_from_the_real_environment(monkeypatch, tmp_path: Path):
    other = write(tmp_path / "etc" / "other.toml", "[smtpd]\nport = 2700\n")
    monkeypatch.setenv("PBM_CONFIG", str(other))
    assert load().smtpd.port == 2700


def test_config_path_beats_pbm_config_and_working_folder(clean_env: Path, tmp_path: Path):
    write(clean_env / "pbm.toml", "[smtpd]\nport = 2600\n")
    other = write(tmp_path / "etc" / "other.toml", "[smtpd]\nport = 2700\n")
    flag = write(tmp_path / "flag" / "flag.toml", "[smtpd]\nport = 2800\n")
    assert load(flag, env={"PBM_CONFIG": str(other)}).smtpd.port == 2800
    assert load(str(flag), env={}).smtpd.port == 2800


def test_environment_overrides_the_file(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", '[smtpd]\nport = 2600\nprotocol = "smtp"\n')
    config = load(file, env={"PBM_SMTPD_PORT": "2601", "PBM_SMTPD_PROTOCOL": "lmtp",
                             "PBM_SERVER_ADDRESS": "env@example.org"})
    assert config.smtpd.port == 2601  # a string in the environment becomes a number
    assert config.smtpd.protocol == "lmtp"
    assert config.server.address == "env@example.org"


def test_environment_is_read_from_os_environ_by_default(monkeypatch, tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[smtpd]\nport = 2600\n")
    monkeypatch.setenv("PBM_SMTPD_PORT", "2602")
    monkeypatch.setenv("PBM_DELIVERY_RELAY", "smtp://relay.example.org:587?starttls")
    config = load(file)
    assert config.smtpd.port == 2602
    assert config.delivery.relay == "smtp://relay.example.org:587?starttls"


def test_overrides_beat_environment_and_file(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", '[smtpd]\nport = 2600\nhost = "0.0.0.0"\n')
    config = load(file, env={"PBM_SMTPD_PORT": "2601"},
                  overrides={"smtpd": {"port": 2602, "protocol": "lmtp"}})
    assert config.smtpd.port == 2602
    assert config.smtpd.protocol == "lmtp"
    assert config.smtpd.host == "0.0.0.0"  # from the file, not overridden


def test_relative_paths_are_anchored_at_the_config_files_folder(clean_env: Path, tmp_path: Path):
    folder = tmp_path / "srv" / "pbm"
    file = write(folder / "pbm.toml",
                 '[database]\nurl = "sqlite:///data/games.sqlite"\n'
                 '[delivery]\nmaildir = "out/maildir"\n')
    # Read from another working folder, through a relative path to the file.
    config = load(os.path.relpath(file, clean_env), env={})
    assert config.base_dir == folder.resolve()
    assert config.database_url == f"sqlite:///{folder.resolve() / 'data' / 'games.sqlite'}"
    assert config.maildir_path == folder.resolve() / "out" / "maildir"


def test_default_paths_follow_the_config_file_too(tmp_path: Path):
    folder = tmp_path / "srv"
    file = write(folder / "pbm.toml", "[server]\nhostname = \"games.example.org\"\n")
    config = load(file, env={})
    assert config.database_url == f"sqlite:///{folder.resolve() / 'pbm.sqlite'}"
    assert config.maildir_path == folder.resolve() / "maildir"


def test_absolute_paths_and_other_databases_are_left_alone(tmp_path: Path):
    file = write(tmp_path / "pbm.toml",
                 f'[database]\nurl = "sqlite:///{tmp_path}/abs.sqlite"\n'
                 f'[delivery]\nmaildir = "{tmp_path}/abs-maildir"\n')
    config = load(file, env={})
    assert config.database_url == f"sqlite:///{tmp_path}/abs.sqlite"
    assert config.maildir_path == (tmp_path / "abs-maildir").resolve()
    for url in ("sqlite:///:memory:", "postgresql://pbm@db.example.org/pbm"):
        assert load(env={"PBM_DATABASE_URL": url}).database_url == url


def test_relay_urls_are_understood():
    relay = parse_relay("smtp://bob:s3cret@mail.example.org:587?starttls")
    assert (relay.host, relay.port, relay.username, relay.password, relay.starttls) == (
        "mail.example.org", 587, "bob", "s3cret", True)
    plain = parse_relay("smtp://localhost")
    assert (plain.host, plain.port, plain.username, plain.starttls) == ("localhost", 25, None,
                                                                        False)


def test_settings_are_frozen():
    config = load(env={})
    with pytest.raises(AttributeError):
        config.smtpd.port = 1  # type: ignore[misc]


# ----- one clear line for every bad case ---------------------------------------------------
def test_missing_config_file_is_named(tmp_path: Path):
    missing = tmp_path / "nowhere.toml"
    assert str(missing) in error_of(missing, env={})
    assert str(missing) in error_of(env={"PBM_CONFIG": str(missing)})


def test_bad_toml(tmp_path: Path):
    file = write(tmp_path / "bad.toml", "[smtpd\nport = 1\n")
    message = error_of(file, env={})
    assert str(file) in message
    assert "TOML" in message
    assert "line 1" in message


def test_file_that_is_not_utf8(tmp_path: Path):
    file = tmp_path / "latin1.toml"
    file.write_bytes('[server]\nname = "caf\xe9"\n'.encode("latin-1"))
    message = error_of(file, env={})
    assert str(file) in message
    assert "UTF-8" in message


def test_unknown_section(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[smtp]\nport = 25\n")
    message = error_of(file, env={})
    assert str(file) in message
    assert "smtp" in message
    assert "smtpd" in message  # says which sections there are


def test_section_that_is_not_a_table(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "smtpd = 25\n")
    message = error_of(file, env={})
    assert str(file) in message and "[smtpd]" in message and "table" in message


def test_unknown_key(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[smtpd]\nprot = 25\n")
    message = error_of(file, env={})
    assert str(file) in message
    assert "smtpd.prot" in message
    assert "port" in message and "protocol" in message  # the keys that do exist


@pytest.mark.parametrize(
    "toml, key, expected",
    [
        ('[smtpd]\nport = "many"\n', "smtpd.port", "whole number"),
        ("[smtpd]\nport = 25.5\n", "smtpd.port", "whole number"),
        ("[smtpd]\nport = true\n", "smtpd.port", "whole number"),
        ("[smtpd]\nmax_message_bytes = [1]\n", "smtpd.max_message_bytes", "whole number"),
        ("[server]\naddress = 42\n", "server.address", "string"),
        ("[smtpd]\nprotocol = true\n", "smtpd.protocol", "string"),
        ("[delivery]\nrelay = { host = 'x' }\n", "delivery.relay", "string"),
    ],
)
def test_wrong_type(tmp_path: Path, toml: str, key: str, expected: str):
    file = write(tmp_path / "pbm.toml", toml)
    message = error_of(file, env={})
    assert str(file) in message
    assert key in message
    assert expected in message


@pytest.mark.parametrize("port", [65536, 99999, -1])
def test_port_out_of_range(tmp_path: Path, port: int):
    file = write(tmp_path / "pbm.toml", f"[smtpd]\nport = {port}\n")
    message = error_of(file, env={})
    assert str(file) in message
    assert "smtpd.port" in message
    assert "0-65535" in message
    assert str(port) in message


def test_port_limits_are_accepted(tmp_path: Path):
    for port in (0, 65535):
        file = write(tmp_path / "pbm.toml", f"[smtpd]\nport = {port}\n")
        assert load(file, env={}).smtpd.port == port


def test_protocol_must_be_smtp_or_lmtp(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", '[smtpd]\nprotocol = "esmtp"\n')
    message = error_of(file, env={})
    assert str(file) in message
    assert "smtpd.protocol" in message
    assert '"smtp"' in message and '"lmtp"' in message
    assert "esmtp" in message


def test_message_size_limit_too_small(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[smtpd]\nmax_message_bytes = 10\n")
    message = error_of(file, env={})
    assert str(file) in message and "smtpd.max_message_bytes" in message and "1024" in message


@pytest.mark.parametrize(
    "relay",
    [
        "mail.example.org:25",
        "http://mail.example.org",
        "smtp://",
        "smtp://mail.example.org:notaport",
        "smtp://mail.example.org:99999",
        "smtp://mail.example.org:587?tls",
    ],
)
def test_bad_relay_url(tmp_path: Path, relay: str):
    file = write(tmp_path / "pbm.toml", f'[delivery]\nrelay = "{relay}"\n')
    message = error_of(file, env={})
    assert str(file) in message
    assert "delivery.relay" in message
    assert relay in message


def test_address_without_at(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", '[server]\naddress = "pbm.example.org"\n')
    message = error_of(file, env={})
    assert str(file) in message
    assert "server.address" in message
    assert "pbm@example.org" in message  # what a good one looks like
    assert "pbm.example.org" in message


def test_database_url_that_is_not_a_url(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", '[database]\nurl = "pbm.sqlite"\n')
    message = error_of(file, env={})
    assert str(file) in message and "database.url" in message and "sqlite:///" in message


def test_bad_value_from_the_environment_names_the_variable(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[smtpd]\nport = 2600\n")
    message = error_of(file, env={"PBM_SMTPD_PORT": "lots"})
    assert "PBM_SMTPD_PORT" in message
    assert "smtpd.port" in message and "whole number" in message
    message = error_of(file, env={"PBM_SMTPD_PORT": "70000"})
    assert "PBM_SMTPD_PORT" in message and "0-65535" in message
    message = error_of(env={"PBM_SERVER_ADDRESS": "nobody"})
    assert "PBM_SERVER_ADDRESS" in message and "server.address" in message


def test_odd_digits_in_the_environment_are_a_config_error_not_a_crash():
    message = error_of(env={"PBM_SMTPD_PORT": "\u00b2"})
    assert "PBM_SMTPD_PORT" in message and "whole number" in message


def test_bad_override_names_the_command_line(tmp_path: Path):
    message = error_of(env={}, overrides={"smtpd": {"port": 123456}})
    assert "command line" in message and "smtpd.port" in message


# ----- through the command line --------------------------------------------------------------
def test_cli_bad_config_exits_2_with_one_line(tmp_path: Path):
    bad = write(tmp_path / "bad.toml", '[smtpd]\nport = "many"\n')
    result = CliRunner().invoke(main, ["--config", str(bad), "db", "current"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(bad) in lines[0] and "smtpd.port" in lines[0] and "whole number" in lines[0]
    assert "Traceback" not in result.output


def test_cli_bad_toml_exits_2(tmp_path: Path):
    bad = write(tmp_path / "bad.toml", "[server]\naddress = \n")
    result = CliRunner().invoke(main, ["--config", str(bad), "db", "current"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(bad) in result.stderr and "TOML" in result.stderr


def test_cli_missing_config_exits_2(tmp_path: Path):
    result = CliRunner().invoke(main, ["--config", str(tmp_path / "none.toml"), "db", "current"])
    assert result.exit_code == 2
    assert "none.toml" in result.stderr


def test_cli_bad_environment_value_exits_2(tmp_path: Path):
    result = CliRunner().invoke(main, ["db", "current"], env={"PBM_SMTPD_PROTOCOL": "uucp"})
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "PBM_SMTPD_PROTOCOL" in result.stderr and "smtpd.protocol" in result.stderr


def test_cli_reads_pbm_toml_of_the_working_folder(clean_env: Path):
    write(clean_env / "pbm.toml", '[database]\nurl = "sqlite:///from-file.sqlite"\n')
    result = CliRunner().invoke(main, ["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert (clean_env / "from-file.sqlite").is_file()


# ----- config.example.toml ------------------------------------------------------------------
EXAMPLE = ROOT / "config.example.toml"


def test_example_config_loads_and_matches_the_defaults():
    config = load(EXAMPLE, env={})
    assert isinstance(config, Config)
    for section, cls in SECTIONS.items():
        assert getattr(config, section) == cls(), f"[{section}] in the example is not the default"


def test_example_config_documents_every_key():
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert set(data) == set(SECTIONS)
    for section, cls in SECTIONS.items():
        documented = set(data[section])
        known = {f.name for f in fields(cls)}
        assert known <= documented, f"[{section}] lacks {sorted(known - documented)}"


def test_sections_cover_every_settings_class():
    settings = {ServerSettings, SmtpdSettings, DatabaseSettings, DeliverySettings, LimitSettings,
                TimeSettings, LoggingSettings, BotSettings, WebSettings, ImapSettings,
                DkimSettings}
    assert set(SECTIONS.values()) == settings
    assert {f.name for f in fields(Config)} >= set(SECTIONS)


@pytest.mark.parametrize(("text", "message"), [
    ("nag_days = 0", r"time.nag_days must be at least 1, not 0"),
    ("nag_days = 21", r"time.forfeit_days \(21\) must be more than time.nag_days \(21\)"),
    ("forfeit_days = 7", r"time.forfeit_days \(7\) must be more than time.nag_days \(7\)"),
    ("archive_days = -1", r"time.archive_days must not be negative"),
])
def test_bad_time_settings_are_refused(tmp_path: Path, text: str, message: str):
    file = write(tmp_path / "pbm.toml", f"[time]\n{text}\n")
    with pytest.raises(ConfigError, match=message):
        load(file, env={})


def test_negative_limits_are_refused(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[limits]\nmails_per_sender_per_hour = -1\n")
    with pytest.raises(ConfigError, match=r"limits.mails_per_sender_per_hour must not be neg"):
        load(file, env={})


def test_a_ladder_reach_of_zero_is_refused(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[limits]\nladder_reach = 0\n")
    with pytest.raises(ConfigError, match=r"limits.ladder_reach must be at least 1, not 0"):
        load(file, env={})
    assert load(write(tmp_path / "pbm.toml", "[limits]\nladder_reach = 5\n"),
                env={}).limits.ladder_reach == 5


def test_a_zero_timeout_is_refused(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[delivery]\ntimeout_seconds = 0\n")
    with pytest.raises(ConfigError, match=r"delivery.timeout_seconds must be at least 1"):
        load(file, env={})


def test_relay_networks_must_be_network_addresses(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", '[smtpd]\nrelay_networks = ["10.0.0.0/8", "mx"]\n')
    with pytest.raises(ConfigError, match=r"smtpd.relay_networks must hold network addresses"
                                          r".* not 'mx'"):
        load(file, env={})
    file = write(tmp_path / "pbm.toml", '[smtpd]\nrelay_networks = ["10.0.0.0/8", "::1"]\n'
                                        '[server]\nauthserv_id = "mx.example.org"\n')
    config = load(file, env={})
    assert config.smtpd.relay_networks == ("10.0.0.0/8", "::1")
    assert config.server.authserv_id == "mx.example.org"


def test_a_true_or_false_setting_from_the_file_or_the_environment(tmp_path: Path):
    file = write(tmp_path / "pbm.toml", "[limits]\nplayers_create_tournaments = false\n")
    assert load(file, env={}).limits.players_create_tournaments is False
    assert load(file, env={"PBM_LIMITS_PLAYERS_CREATE_TOURNAMENTS": "yes"}) \
        .limits.players_create_tournaments is True
    message = error_of(file, env={"PBM_LIMITS_PLAYERS_CREATE_TOURNAMENTS": "maybe"})
    assert "PBM_LIMITS_PLAYERS_CREATE_TOURNAMENTS" in message and "true or false" in message


@pytest.mark.parametrize(("key", "value", "says"), [
    ("listen", "8080", "HOST:PORT"),
    ("listen", "localhost:http", "HOST:PORT"),
    ("listen", "127.0.0.1:70000", "HOST:PORT"),
    ("base_url", "ftp://pbm.example.org/", "http or https"),
    ("base_url", "pbm.example.org", "http or https"),
    ("base_url", "https://pbm.example.org/?x=1", "http or https"),
    ("page_size", 0, "1-500"),
])
def test_web_settings_are_checked(tmp_path, key, value, says):
    file = tmp_path / "pbm.toml"
    file.write_text(f"[web]\n{key} = {value!r}\n".replace("'", '"'))
    with pytest.raises(ConfigError, match=says):
        load(file, env={})


def test_web_settings_read():
    config = load(None, env={"PBM_WEB_LISTEN": "[::1]:8081",
                             "PBM_WEB_BASE_URL": "https://pbm.example.org/"})
    assert config.web.listen == "[::1]:8081"
    assert config.web.base_url == "https://pbm.example.org/"


def settings_file(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "pbm.toml"
    file.write_text(text, encoding="utf-8")
    return file


@pytest.mark.parametrize(("text", "message"), [
    ('[delivery]\nrelay = "smtp://games@mail.example.org:25"',
     r"logs in as 'games' without TLS"),
    ('[delivery]\nrelay = "smtps://mail.example.org:465?starttls"', r"smtps:// needs none"),
    ('[imap]\nhost = "imap.example.org"\ntls = "none"\nuser = "a"', r"in the clear"),
    ('[imap]\nhost = "imap.example.org"\ntls = "starttls"\nuser = "a"', r"RFC 8314"),
    ('[imap]\nhost = "imap.example.org"', r"imap.user must be too"),
    ('[imap]\nhost = "h"\nuser = "a"\nfolder = "a\\"b"', r"imap.folder must be a folder name"),
    ('[imap]\nhost = "h"\nuser = "a"\nprocessed_folder = "INBOX"', r"three different"),
    ('[imap]\nhost = "h"\nuser = "a"\nidle_seconds = 1800', r"RFC 2177"),
    ('[imap]\nhost = "h"\nuser = "a"\npassword_file = "missing"', r"cannot read "
     r"imap.password_file .*missing"),
    ('[dkim]\ndomain = "example.org"', r"missing: dkim.selector, dkim.key_file"),
])
def test_mailbox_and_signing_settings_are_checked(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        load(settings_file(tmp_path, text), env={})


def test_relay_urls_and_their_passwords(tmp_path):
    (tmp_path / "relay.secret").write_text("from-a-file\n")
    config = load(settings_file(tmp_path, '[delivery]\nrelay = "smtps://games@mail.example.org"\n'
                        'relay_password_file = "relay.secret"\n'), env={})
    relay = config.relay()
    assert (relay.host, relay.port, relay.tls, relay.username, relay.password, relay.verify) \
        == ("mail.example.org", 465, "smtps", "games", "from-a-file", True)
    config = load(settings_file(tmp_path, '[delivery]\nrelay = "smtp://games@mail.example.org:587'
                        '?starttls"\n'), env={"PBM_DELIVERY_RELAY_PASSWORD": "from-env"})
    assert (config.relay().tls, config.relay().password) == ("starttls", "from-env")
    # A login to an MTA on this machine may go without TLS: nothing crosses a network.
    assert load(settings_file(tmp_path, '[delivery]\nrelay = "smtp://u:p@127.0.0.1:25"\n'),
                env={}).relay().tls == "none"
    # A password never shows in the error about a bad URL.
    with pytest.raises(ConfigError) as error:
        load(settings_file(tmp_path, '[delivery]\nrelay = "smtp://u:hunter2@h:587?tls"\n'), env={})
    assert "hunter2" not in str(error.value)
