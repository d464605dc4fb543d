"""The clock through a real `pbm serve`: a board challenged by mail, days driven forward by
`pbm tick --now` (two at once, too) on the server's own database, nags and the forfeit in
the Maildir; and the server running the housekeeping by itself."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta

from pbm.clock import SYSTEM
from pbm.config import load
from pbm.context import Context
from pbm.db.session import make_engine, session_factory
from tests import stores
from tests.server.harness import PbmServer, by_recipient
from tests.server.players import ALICE, BOB, PLAYERS, signup_both


def pbm_tick(server: PbmServer, now: datetime) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pbm", "--config", str(server.config_file), "tick",
         "--now", now.isoformat(timespec="seconds")],
        cwd=server.folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(process: subprocess.Popen[str]) -> str:
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 0, output
    return output


def take_up(server: PbmServer, board: int = 101) -> None:
    """alice and bob each make their first Trou move on the board: alice to move next."""
    for player, move in zip(PLAYERS, ("1B2", "4C2"), strict=True):
        server.send(player.address, f"trou move {board} {player.userid} {player.password} {move}")
        server.collect(2)


def test_nags_and_forfeit_through_the_server(server: PbmServer):
    signup_both(server)
    server.send("referee@players.test", "trou challenge alice bob")
    start = datetime.now()
    assert set(by_recipient(server.collect(3))) == {ALICE, BOB, "referee@players.test"}
    take_up(server)
    utc_start = SYSTEM.now() + timedelta(minutes=1)  # safely after the moves

    assert "0 nag(s), 0 forfeit(s)" in finish(pbm_tick(server, utc_start + timedelta(days=6)))
    week = finish(pbm_tick(server, utc_start + timedelta(days=7)))
    assert "nagged alice on Trou board 101" in week
    nag = server.collect(1)[0]
    assert (nag.to, nag.subject) == (ALICE, "Nag: Trou Board 101 alice")
    assert "alice has not moved for 7 days" in nag.body
    assert "pw-alice" not in nag.body

    # Two housekeepers at the same moment, as two cron jobs or a cron job and the server:
    # one nag between them.
    both = [pbm_tick(server, utc_start + timedelta(days=14)) for _ in range(2)]
    outputs = [finish(p) for p in both]
    assert sum("nagged alice" in out for out in outputs) == 1, outputs
    assert "has not moved for 14 days" in server.collect(1)[0].body

    finish(pbm_tick(server, utc_start + timedelta(days=21)))
    final = by_recipient(server.collect(2))
    for address in (ALICE, BOB):
        assert final[address].subject == "Trou Board 101"
        assert "Game won by bob." in final[address].body
        assert "alice forfeited: no move in 21 days." in final[address].body

    alice = PLAYERS[0]
    server.send(ALICE, f"trou move 101 alice {alice.password} 2B1")
    refused = server.collect(1)[0]
    assert refused.subject == "Trou Board 101 Error" and "over" in refused.body
    assert datetime.now() - start < timedelta(minutes=2)  # no test sleeps days away


def test_the_server_runs_the_housekeeping_itself(tmp_path):
    """A board whose player has waited 8 days when the server starts: `pbm serve` nags
    within its first tick, without any `pbm tick`."""
    server = PbmServer(tmp_path, extra_config="[time]\ntick_seconds = 1\n")
    server.write_config()
    config = load(server.config_file, env={})
    engine = make_engine(config.database_url)
    from pbm.db.migrate import upgrade

    upgrade(engine)
    from pbm.commands.accounts import signup
    from pbm.commands.game_commands import challenge
    from pbm.games import registry

    eight_days_ago = SYSTEM.now() - timedelta(days=8)
    with session_factory(engine)() as session, session.begin():
        ctx = Context(session, "", admin=True, now=eight_days_ago)
        for player in PLAYERS:
            signup(ctx, player.userid, player.password, [player.address])
        challenge(ctx, registry.get("trou"), ["alice", "bob"])
    engine.dispose()
    server.start()
    try:
        nag = server.collect(1, timeout=30)[0]
        assert (nag.to, nag.subject) == (ALICE, "Nag: Trou Board 101 alice")
        assert "has not moved for 8 days" in nag.body
        server.collect(0, timeout=2.5)  # later ticks find nothing more to do
    finally:
        server.stop()


def test_vacation_by_mail_and_a_long_outage(server: PbmServer):
    signup_both(server)
    alice = PLAYERS[0]
    server.send("referee@players.test", "trou challenge alice bob")
    server.collect(3)
    start = SYSTEM.now() + timedelta(minutes=1)
    server.send(ALICE, f"vacation alice {alice.password} 10")
    away = server.collect(1)[0]
    assert "alice is on vacation until" in away.body and alice.password not in away.body
    server.send(BOB, "trou show 101")
    assert "alice is on vacation until" in server.collect(1)[0].body

    assert "0 nag(s)" in finish(pbm_tick(server, start + timedelta(days=7)))
    assert "nagged alice" in finish(pbm_tick(server, start + timedelta(days=17)))
    assert "has not moved for 7 days" in server.collect(1)[0].body
    # Nothing ran from day 17 to day 60: the forfeit (due on day 31) becomes a last call.
    finish(pbm_tick(server, start + timedelta(days=60)))
    last = server.collect(1)[0]
    assert last.to == ALICE and "could not look at the clocks" in last.body
    finish(pbm_tick(server, start + timedelta(days=61)))
    final = by_recipient(server.collect(2))
    # alice never moved on the board: it is declined, not lost.
    assert all("alice made no move on Trou board 101 in" in final[a].body for a in (ALICE, BOB))


def ratings(server: PbmServer) -> list[tuple[str, int]]:
    with stores.sql(server.database) as db:
        return sorted(db.execute("select u.userid, r.rating from ratings r join users u "
                                 "on u.id = r.user_id").fetchall())


def test_a_strangers_short_clocks_cost_no_rating(server: PbmServer):
    """`trou challenge alice bob -nagtime=1 -forfeittime=2` from an address with no account
    once cost alice a rated loss 49 hours later (nagged once), 20 boards a day. Now the
    server's 7 and 21 days apply until both have moved, and alice's time running out
    before her first move declines the board: removed, unrated, both told."""
    stranger = "stranger@elsewhere.test"
    signup_both(server)
    server.send(stranger, "trou challenge alice bob -nagtime=1 -forfeittime=2")
    assert set(by_recipient(server.collect(3))) == {ALICE, BOB, stranger}
    start = SYSTEM.now() + timedelta(minutes=1)
    for hours in (24, 49, 24 * 6.9):  # the short clocks do not run yet
        assert "0 nag(s), 0 forfeit(s), 0 declined" in finish(
            pbm_tick(server, start + timedelta(hours=hours)))
    server.collect(0)
    assert "nagged alice" in finish(pbm_tick(server, start + timedelta(days=7)))
    (nag,) = server.collect(1)
    assert nag.to == ALICE and "(in 13 days 23 hours)," in nag.body  # 21 days in all
    assert "the board is declined and removed (not rated)," in nag.body
    assert "nagged alice" in finish(pbm_tick(server, start + timedelta(days=14)))
    server.collect(1)
    out = finish(pbm_tick(server, start + timedelta(days=21, minutes=10)))
    assert "0 forfeit(s), 1 declined" in out
    assert "Trou board 101 declined: alice never moved" in out
    told = by_recipient(server.collect(2))  # both players; not the stranger
    for address in (ALICE, BOB):
        words = " ".join(told[address].body.split())
        assert told[address].subject == "Trou Board 101"
        assert ("alice made no move on Trou board 101 in 21 days, so the board is declined and "
                "has been removed. It is not rated.") in words
    assert ratings(server) == []
    with stores.sql(server.database) as db:
        assert db.execute("select status from boards where number = 101").scalar_one() \
            == "declined"
    server.send(BOB, "trou show 101")
    assert "no" in server.collect(1)[0].body.lower()

    # Once both have moved the board is theirs, and the short clocks they accepted apply.
    server.send(stranger, "trou challenge alice bob -nagtime=1 -forfeittime=2")
    server.collect(3)
    take_up(server, 102)
    moved = SYSTEM.now() + timedelta(minutes=1)
    assert "nagged alice on Trou board 102" in finish(pbm_tick(server, moved + timedelta(days=1)))
    (nag,) = server.collect(1)
    assert "alice forfeits the game on time." in nag.body
    assert "alice forfeited Trou board 102" in finish(
        pbm_tick(server, moved + timedelta(days=2)))
    final = by_recipient(server.collect(2))
    assert all("alice forfeited: no move in 2 days." in final[a].body for a in (ALICE, BOB))
    assert ratings(server) == [("alice", 1424), ("bob", 1824)]
