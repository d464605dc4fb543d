"""Password guessing by mail through a real `pbm serve`: the guesser is throttled, not the
account's owner. Two forged mails of three wrong passwords each once made pbm refuse alice's
right password for a minute (repeated: an hour), whoever sent it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import stores
from tests.server.harness import PbmServer, Received, by_recipient, mail
from tests.server.players import ALICE, BOB, PLAYERS, signup_both

pytestmark = pytest.mark.server

AUTHSERV = "mx.games.test"  # the authserv-id of the operator's MTA
FORGERS = ("mallory@evil.test", "trent@elsewhere.test")
ALICE_PW, BOB_PW = PLAYERS[0].password, PLAYERS[1].password
MOVE = f"trou move 101 alice {ALICE_PW} 1B2"
DKIM = {"Authentication-Results": f"{AUTHSERV}; dkim=pass header.d=players.test header.s=s1"}
SPF = {"Authentication-Results": f"{AUTHSERV}; spf=pass smtp.mailfrom=alice@players.test"}


def serve(folder: Path, authserv_id: str = "", relay_networks: list[str] | None = None,
          limits: str = "") -> PbmServer:
    """A started `pbm serve` with these settings added to the harness's."""
    pbm = PbmServer(folder, extra_config="[limits]\n" + limits)
    pbm.write_config()
    text = pbm.config_file.read_text(encoding="utf-8")
    if authserv_id:
        text = text.replace("[server]\n", f'[server]\nauthserv_id = "{authserv_id}"\n', 1)
    if relay_networks is not None:
        networks = json.dumps(relay_networks)
        text = text.replace("[smtpd]\n", f"[smtpd]\nrelay_networks = {networks}\n", 1)
    pbm.config_file.write_text(text, encoding="utf-8")
    pbm.start()
    return pbm


@pytest.fixture
def behind_mta(tmp_path: Path) -> Iterator[PbmServer]:
    """pbm behind an MTA that checks DKIM and SPF and says so in its own header."""
    pbm = serve(tmp_path, authserv_id=AUTHSERV)
    try:
        yield pbm
    finally:
        pbm.stop()


def board_started(server: PbmServer) -> None:
    signup_both(server)
    server.send(ALICE, "trou challenge alice bob")
    assert set(by_recipient(server.collect(2))) == {ALICE, BOB}


def forged_guesses(server: PbmServer, run: int = 0) -> list[Received]:
    """Two mails from forged addresses, three wrong passwords for alice each; their replies
    (one answer to each forger, and a notice to alice when it is due)."""
    for n, forger in enumerate(FORGERS):
        server.send(forger, "multiple",
                    "\n".join(f"trou move 101 alice guess{run}{n}{i} 1B2" for i in range(3)))
    return server.collect(2 if run else 3)


def paused_until(server: PbmServer) -> object:
    """When alice's pause ends (None: not paused), read from the server's database."""
    with stores.sql(server.database) as db:
        return db.execute("SELECT password_paused_until FROM users WHERE userid = 'alice'"
                          ).fetchone()[0]


def nothing_more(server: PbmServer) -> None:
    """No stray mail is on its way: a help asked for now is the only mail that comes."""
    server.send(BOB, "help")
    (reply,) = server.collect(1)
    assert reply.to == BOB


@pytest.mark.parametrize("verdict", [DKIM, SPF], ids=["dkim", "spf"])
def test_forged_guesses_do_not_lock_out_the_owners_authenticated_mail(
        behind_mta: PbmServer, verdict: dict[str, str]):
    server = behind_mta
    board_started(server)
    replies = forged_guesses(server)
    assert sorted(r.to for r in replies) == sorted([*FORGERS, ALICE])
    (notice,) = [r for r in replies if r.to == ALICE]
    assert notice.subject == "pbm: wrong passwords for alice"
    body = " ".join(notice.body.split())
    assert "6 wrong passwords in a row" in body and FORGERS[1] in body
    assert "Mail from your own address still gets through the pause" in body
    assert "This is the only such notice today" in body
    assert paused_until(server) is not None

    # Authentication-Results that are not our MTA's, or not about alice's domain, prove
    # nothing: refused unread, as before.
    for header in ("mx.evil.test; dkim=pass header.d=players.test",
                   f"{AUTHSERV}.evil.test; dkim=pass header.d=players.test",
                   f"{AUTHSERV}; dkim=pass header.d=evil.test",
                   f"{AUTHSERV}; dkim=fail header.d=players.test"):
        server.send(ALICE, MOVE, headers={"Authentication-Results": header})
        (refused,) = server.collect(1)
        assert refused.to == ALICE and "Password checks for alice are paused" in refused.body

    # alice's own mail, which the MTA found signed by her domain (or SPF-clean): played.
    server.send(ALICE, MOVE, headers=verdict)
    moved = by_recipient(server.collect(2))
    assert set(moved) == {ALICE, BOB}
    assert moved[BOB].subject == "Trou Board 101 bob"
    # The pause still holds for the guessers, and the owner heard of it once.
    assert paused_until(server) is not None
    server.send(FORGERS[0], f"trou move 101 alice {ALICE_PW} 3B2")
    (refused,) = server.collect(1)
    assert refused.to == FORGERS[0] and "paused until" in refused.body
    nothing_more(server)


def test_without_such_an_mta_a_pause_holds_for_the_owner_too(tmp_path: Path):
    """No authserv_id: nothing can tell alice's mail from a forgery of it, so the pause holds
    for her as well (any Authentication-Results header is a stranger's words). It passes
    after the pause, and a second run of guesses the same day sends no second notice."""
    server = serve(tmp_path, limits="password_pause_seconds = 3\n")
    try:
        board_started(server)
        replies = forged_guesses(server)
        (notice,) = [r for r in replies if r.to == ALICE]
        body = " ".join(notice.body.split())
        assert "even with the right one and from your own address" in body
        assert "This is the only such notice today" in body
        server.send(ALICE, MOVE, headers=DKIM)
        (refused,) = server.collect(1)
        assert refused.to == ALICE and "Password checks for alice are paused until" in refused.body
        assert "gets through meanwhile" not in refused.body

        time.sleep(3.5)  # the pause is over: her right password is taken, and resets the count
        server.send(ALICE, MOVE)
        assert set(by_recipient(server.collect(2))) == {ALICE, BOB}
        assert paused_until(server) is None

        replies = forged_guesses(server, run=1)  # paused again, but told once a day only
        assert sorted(r.to for r in replies) == sorted(FORGERS)
        assert paused_until(server) is not None
        nothing_more(server)
    finally:
        server.stop()


def test_a_guesser_is_throttled_per_sender_and_per_source(tmp_path: Path):
    """Wrong passwords count against the address in From: and, apart from it, against the
    network address they come from (here 127.0.0.1: no relay in front). Mail the MTA vouched
    for counts by its sender only, so neither forgeries of alice's address nor a guesser on
    her network lock her out."""
    server = serve(tmp_path, authserv_id=AUTHSERV, relay_networks=[],
                   limits="wrong_passwords_per_sender_per_hour = 3\n"
                          "wrong_passwords_per_source_per_hour = 6\n"
                          "wrong_passwords_before_pause = 100\n")
    try:
        board_started(server)
        guesses = "\n".join(f"trou move 101 alice guess{i} 1B2" for i in range(3))
        server.send(FORGERS[0], "multiple", guesses)
        assert "Wrong password for 'alice'" in server.collect(1)[0].body
        server.send(FORGERS[0], "trou move 101 alice guess3 1B2")  # the same sender again
        (refused,) = server.collect(1)
        assert f"Too many wrong passwords came from {FORGERS[0]}" in refused.body

        server.send(ALICE, "multiple", guesses)  # alice's address forged, no verdict
        (answer,) = server.collect(1)  # it goes where From: says
        assert answer.to == ALICE and "Wrong password for 'alice'" in answer.body
        server.send(FORGERS[1], "trou move 101 alice guess4 1B2")  # a fresh From:, same source
        (refused,) = server.collect(1)
        assert "Too many wrong passwords came from the network address 127.0.0.1" \
            in " ".join(refused.body.split())
        with stores.sql(server.database) as db:  # the refused ones were not checked
            assert db.execute("SELECT wrong_passwords FROM users WHERE userid = 'alice'"
                              ).fetchone() == (6,)

        # alice's own, vouched-for mail from the same network: played.
        server.send(ALICE, MOVE, headers=DKIM)
        assert set(by_recipient(server.collect(2))) == {ALICE, BOB}
        # Mail nothing vouches for shares its source's fate: bob must wait or be vouched for.
        server.send(BOB, f"trou move 101 bob {BOB_PW} 4C2")
        (refused,) = server.collect(1)
        assert "network address 127.0.0.1" in " ".join(refused.body.split())
    finally:
        server.stop()


def test_pbm_process_counts_wrong_passwords_per_client_address(behind_mta: PbmServer):
    """Postfix's pipe passes ${client_address}: a guesser sending through one client is
    throttled there, whatever the From: of its mails."""
    server = behind_mta
    board_started(server)
    config = server.config_file.read_text(encoding="utf-8")
    server.config_file.write_text(
        config + "wrong_passwords_per_source_per_hour = 3\n", encoding="utf-8")  # [limits]

    def process(sender: str, subject: str, body: str = "") -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pbm", "--config", str(server.config_file), "process",
             "--sender", sender, "--client-address", "203.0.113.7"],
            input=mail(sender, subject, body), capture_output=True, timeout=60, check=True)

    process(FORGERS[0], "multiple", "\n".join(f"trou move 101 alice g{i} 1B2" for i in range(3)))
    assert "Wrong password for 'alice'" in server.collect(1)[0].body
    process(FORGERS[1], f"trou move 101 alice {ALICE_PW} 1B2")
    (refused,) = server.collect(1)
    assert refused.to == FORGERS[1]
    assert "network address 203.0.113.7" in " ".join(refused.body.split())
