"""`pbm standings` and `pbm ratings rebuild` through click's runner, on a real SQLite file."""

from __future__ import annotations

from tests import stores
from tests.test_cli import (  # noqa: F401 (fixtures)
    Pbm,
    accounts_database,
    bare,
    empty_database,
    pbm,
    players,
)

TROU_GAME = ("1B2", "4C2", "2B1", "2B3", "4A2", "3C3", "3A3", "1A1")  # Red (alice) wins
PASSWORDS = {"alice": "secret", "bob": "hunter2"}


def test_standings_and_rebuild(players: Pbm):  # noqa: F811
    assert players.ok("standings", "trou") == "Trou Standings\n\nNo games have finished yet.\n"
    players.ok("challenge", "trou", "alice", "bob")
    for i, move in enumerate(TROU_GAME):
        userid = ("alice", "bob")[i % 2]
        players.ok("run", "--from", f"{userid}@example.org",
                   f"trou move 101 {userid} {PASSWORDS[userid]} {move}")
    standings = players.ok("standings", "TROU")
    assert "Provisionals\nRank  Name   Rating   Won  Lost  Active\n" \
           "   1  alice    1824     1     0       0\n" \
           "   2  bob      1424     0     1       0\n" in standings

    assert players.ok("ratings", "rebuild") == \
        "The stored ratings are as the rated games make them.\n"
    with stores.sql(players.database) as db:
        db.execute("UPDATE ratings SET rating = 1800, won = 2 WHERE rating = 1824")
    result = players("ratings", "rebuild", "trou")
    assert result.exit_code == 1
    assert result.stdout == (
        "trou alice: stored 1800 (won 2, lost 0, tied 0), replayed 1824 (won 1, lost 0, "
        "tied 0)\n"
        "1 difference(s); 'pbm ratings rebuild --fix' stores the replayed values.\n")
    assert players.ok("ratings", "rebuild", "--fix").endswith("Fixed 1 difference(s).\n")
    assert players.ok("ratings", "rebuild") == \
        "The stored ratings are as the rated games make them.\n"
    assert players("standings", "chess").exit_code == 1
