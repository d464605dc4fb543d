"""README's first commands stay true: CI runs the test command README gives."""

import re
from pathlib import Path

from pbm.games import registry

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.startswith("    python3 -m venv")]


def test_readme_opens_with_server_and_test_commands():
    commands = _commands()
    assert len(commands) == 2
    assert commands[0].endswith("pbm serve")
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _commands()[1] in [line.strip() for line in ci]


def test_the_example_game_in_readme_is_the_one_the_tests_play():
    """Each excerpt under 'Adding a game' appears, in order, in tests/games/example_game.py."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Adding a game", 1)[1].split("\n#", 1)[0]
    source = (ROOT / "tests" / "games" / "example_game.py").read_text(encoding="utf-8")
    lines = source.splitlines()
    excerpts: list[list[str]] = [[]]  # code blocks in the numbered list are indented 7
    for line in section.splitlines():
        if line.startswith(" " * 7):
            excerpts[-1].append(line[7:])
        elif line.strip():
            excerpts.append([])
    excerpts = [block for block in excerpts if block]
    assert len(excerpts) == 3 and sum(map(len, excerpts)) > 20
    for block in excerpts:
        at = 0
        for line in block:
            if line.strip() in ("", "..."):
                continue
            assert line in lines[at:], f"README's example line is not in example_game.py: {line!r}"
            at = lines.index(line, at) + 1


def test_help_bots_gives_the_figures_of_readmes_table():
    """`help bots` is the short form of README's table of bot strength: the same
    won-drawn-lost, game by game and pairing by pairing."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("### Computer players", 1)[1].split("\n\n| Game", 1)[1].split("\n\n")[0]
    wanted = {}
    for row in table.splitlines()[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        name = cells[0].split(" (")[0]
        wanted[name] = [re.match(r"(\d+)(?: won, |-)(\d+)(?: drawn, |-)(\d+)", cell).groups()
                        for cell in cells[1:4]]
    assert sorted(wanted) == sorted(registry.get(n).info.title for n in registry.names())
    page = (ROOT / "pbm" / "help" / "bots.txt").read_text(encoding="utf-8")
    for name, figures in wanted.items():
        row = re.search(rf"^  {re.escape(name)} +(.*)$", page, re.M)
        assert row, f"help bots has no row for {name}"
        assert [tuple(cell.split("-")) for cell in row.group(1).split()] == figures


# pbmserv's commands and spellings (from its framework: see docs/pbmserv.md), each of which
# the parity page must say what pbm does with.
PBMSERV_COMMANDS = [
    "help", "signup", "change password", "change address", "add", "delete", "signoff",
    "list", "message", "broadcast", "multiple", "all show",
    "game help", "game challenge", "game move", "game show", "game showas", "game games",
    "game resign", "game queue", "game submit", "game confirm", "game preview", "game replay",
    "game standings", "game history", "game subscribe", "game notify", "game chat",
    "game accept", "game limit", "game seek", "--nagtime", "--forfeittime", "--totaltime",
    "mvoe", "qmove", "qboard", "moveq", "boardq", "prev", "sub", "unsub",
]


def test_the_pbmserv_page_lists_every_pbmserv_command_and_every_command_of_ours():
    from pbm.commands.grammar import ACCOUNT_COMMANDS, GAME_COMMANDS

    page = (ROOT / "docs" / "pbmserv.md").read_text()
    assert "(docs/pbmserv.md)" in (ROOT / "README.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    written = " ".join(rows)
    for command in PBMSERV_COMMANDS:
        assert f"`{command}" in written, command
    ours = [*ACCOUNT_COMMANDS, *(f"game {name}" for name in GAME_COMMANDS)]
    for name in ours:
        assert f"`{name}" in written, name
    for command in [*ACCOUNT_COMMANDS.values(), *GAME_COMMANDS.values()]:
        for alias in command.aliases:
            assert re.search(rf"`(game )?{re.escape(alias)}`", written), alias
    # Each row says how pbm's behaviour stands to pbmserv's.
    for row in rows:
        if set(row) <= set("|- ") or row.startswith("| pbmserv | pbm |"):
            continue  # a table's head
        last = row.rstrip(" |").rsplit("|", 1)[-1].strip()
        assert last.split(":")[0].split(" (")[0].split(",")[0] in \
            ("Same", "Better", "Ours", "Differs", "Not yet", ""), row
