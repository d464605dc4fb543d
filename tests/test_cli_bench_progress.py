"""Every `pbm bench` says its steps on standard error as it goes, while standard output keeps
the figures alone, exactly as scripts and the other bench tests parse them (`--json`: one
JSON object, nothing else)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from pbm.cli import main


def bench(*args: str) -> tuple[dict, list[str]]:
    result = CliRunner().invoke(main, ["bench", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result.stderr.splitlines()


def test_loophole_says_how_many_games_are_played_ten_times():
    figures, steps = bench("loophole", "--games", "20")
    assert figures["games"] == 20
    assert len(steps) == 10, steps
    assert re.fullmatch(r"loophole: 2/20 games, [\d,]+ moves \(\d+\.\d s\)", steps[0]), steps
    assert steps[-1].startswith("loophole: 20/20 games, ")
    assert steps[-1].split(", ")[1] == f"{figures['moves']:,} moves (" + \
        steps[-1].split("(")[1]


def test_swiss_says_each_round():
    figures, steps = bench("swiss", "--players", "12", "--rounds", "3")
    assert figures["rounds"] == 3
    assert [step.split(" paired")[0] for step in steps] == \
        ["swiss: round 1/3", "swiss: round 2/3", "swiss: round 3/3"]
    assert all(step.endswith("(6 boards)") for step in steps)


def test_scale_says_each_store_and_the_long_game():
    figures, steps = bench("scale", "--small", "60", "--big", "120", "--users", "200")
    assert figures["big_boards"] == 120 and figures["move_big_us"] > 0
    assert steps == [
        "scale: building the small store (60 boards, 200 players)",
        f"scale: small store built in {figures['build_small_seconds']} s; timing move, "
        "show, games, the turn list, showas",
        "scale: building the big store (120 boards, 200 players)",
        f"scale: big store built in {figures['build_big_seconds']} s; timing move, "
        "show, games, the turn list, showas",
        "scale: a long game in the big store"]


def test_memory_says_each_reading():
    figures, steps = bench("memory", "--mails", "40", "--first", "20")
    assert steps == ["memory: setup: 2 sign-ups and 1 challenges",
                     f"memory: after 20 mails: {figures['rss_after_first_kib']:,} KiB resident",
                     f"memory: after 40 mails: {figures['rss_after_all_kib']:,} KiB resident"]


@pytest.mark.slow
def test_process_says_each_mail():
    figures, steps = bench("process", "--mails", "2")
    assert figures["mails"] == 2
    assert [step.split(": pbm process")[0] for step in steps] == \
        ["process: mail 1/2", "process: mail 2/2"]
