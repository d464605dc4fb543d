"""The bots from the operator's command line, each command its own process: where mail is
piped into `pbm process`, `pbm tick` plays the bots' due moves; `pbm bots` lists them."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from pbm.bench.bots import PAIRINGS
from pbm.cli import main
from pbm.games.bot_names import bot_userid
from tests.test_cli_fresh import pbm, write_config

ALICE = "alice@players.test"


def test_tick_plays_the_bots_due_moves_and_bots_lists_their_boards(tmp_path):
    write_config(tmp_path)
    assert pbm(tmp_path, "db", "upgrade").returncode == 0
    assert pbm(tmp_path, "users", "add", "--password-stdin", "alice", ALICE,
               input=b"secret1\n").returncode == 0
    assert pbm(tmp_path, "challenge", "trou", "easybot", "alice").returncode == 0
    assert pbm(tmp_path, "challenge", "trou", "alice", "goodbot").returncode == 0

    dry = pbm(tmp_path, "tick", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert re.search(r"^Would play: Trou board 101: easybot [1-4][ABC][1-3]$", dry.stdout, re.M)
    assert "(no moves yet)" in pbm(tmp_path, "show", "trou", "101").stdout

    done = pbm(tmp_path, "tick")
    assert done.returncode == 0, done.stderr
    played = re.findall(r"^Played: Trou board (\d+): (\w+) (\S+)$", done.stdout, re.M)
    assert [(board, bot) for board, bot, _move in played] == [("101", "easybot")]
    move = played[0][2]
    shown = pbm(tmp_path, "show", "trou", "101").stdout
    assert f"  1. {move}" in shown and "It is alice's turn." in shown
    # Nothing is due now: a second tick plays nothing (alice is to move on both boards).
    assert "Played:" not in pbm(tmp_path, "tick").stdout

    listed = pbm(tmp_path, "bots").stdout
    assert "easybot (easy): 1 active board\n" in listed
    assert "goodbot (good): 1 active board\n" in listed
    assert "bestbot (best): 0 active boards (not challenged yet)" in listed


def test_bench_bots_plays_only_the_pairings_asked_for():
    option = next(p for p in main.commands["bench"].commands["bots"].params
                  if p.name == "pairings")
    assert list(option.type.choices) == ["-".join(map(bot_userid, pair)) for pair in PAIRINGS]
    done = CliRunner().invoke(main, ["bench", "bots", "--games", "2", "--game", "trou",
                                     "--pairing", "bestbot-goodbot", "--workers", "1", "--json"])
    assert done.exit_code == 0, done.output
    figures = json.loads(done.stdout)
    assert done.stderr.startswith("trou: bestbot against goodbot: "), done.stderr  # as it goes
    assert [key for key in figures if "_vs_" in key] == ["trou.bestbot_vs_goodbot"]
    assert figures["trou.bestbot_vs_goodbot"]["won"] + figures["trou.bestbot_vs_goodbot"][
        "drawn"] == 2  # bestbot never loses Trou
