"""The registry: names, aliases, lookups, and that it imports only the rule modules used."""

import subprocess
import sys

import pytest

from pbm.games import registry
from pbm.games.base import Game


def test_every_builtin_game_loads_and_names_itself():
    for name in registry.BUILTIN:
        game = registry.get(name)
        assert isinstance(game, Game)
        assert game.info.name == name
        assert registry.canonical(name.upper()) == name


def test_builtin_aliases_match_what_the_games_declare():
    declared = {
        alias.lower(): name
        for name in registry.BUILTIN
        for alias in registry.get(name).info.aliases
    }
    assert declared == registry.BUILTIN_ALIASES


def test_unknown_game_lists_the_games_on_offer():
    with pytest.raises(registry.UnknownGame) as refused:
        registry.lookup("chess")
    assert "There is no game called 'chess'" in str(refused.value)
    for name in registry.names():
        assert name in str(refused.value)


def test_a_non_game_command_imports_no_rule_module():
    """`pbm process` pays only for the game a mail names (design: near the import floor)."""
    code = (
        "import sys\n"
        "from pbm.commands.grammar import is_command\n"
        "assert is_command('help commands') and is_command('trou move 101 a b 1A1')\n"
        "assert not is_command('hello there')\n"
        "print(sorted(m for m in sys.modules if m.startswith('pbm.games.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # The kit, but no rule module and no picture: the mail's document declares its own
    # looks in a kit.Sheet (views/boardhtml.py), a few class rules.
    # The bots' names too (a signup is checked against them), not their search.
    assert out.stdout.strip() == ("['pbm.games.base', 'pbm.games.bot_names', 'pbm.games.kit', "
                                  "'pbm.games.registry']")


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_a_game_imports_only_its_own_modules_and_the_shared_toolkit(name):
    """A game split into several modules (a subpackage) still costs `pbm process` only itself."""
    code = (
        "import sys\n"
        "from pbm.games import registry\n"
        f"registry.get({name!r})\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('pbm.games.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    module = registry.BUILTIN[name]
    shared = {"pbm.games.base", "pbm.games.registry", "pbm.games.grid", "pbm.games.text"}
    others = [
        m for m in out.stdout.split()
        if m not in shared and m != module and not m.startswith(module + ".")
    ]
    assert others == []
