"""pyproject.toml ships every package under pbm/, Alembic's migrations and the package data."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "setuptools"
]


def packages_on_disk() -> set[str]:
    """Dotted names of every folder under pbm/ that holds an __init__.py."""
    return {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "pbm").rglob("__init__.py")
    }


def test_every_package_under_pbm_is_shipped():
    """A new subpackage (a game split into modules, say) must be listed, or `pip install .`
    silently leaves it out: setuptools' `find` cannot be used, see pyproject.toml."""
    listed = set(SETUPTOOLS["packages"])
    assert listed - {"pbm.migrations"} == packages_on_disk()


def test_migrations_ship_inside_the_package_from_the_top_level_folder():
    assert "pbm.migrations" in SETUPTOOLS["packages"]
    assert SETUPTOOLS["package-dir"]["pbm.migrations"] == "migrations"
    assert (ROOT / "migrations" / "__init__.py").is_file()
    assert SETUPTOOLS["package-data"]["pbm.migrations"] == ["script.py.mako", "versions/*.py"]


def test_help_pages_and_the_typing_marker_ship_as_package_data():
    assert SETUPTOOLS["package-data"]["pbm.help"] == ["*.txt"]
    assert SETUPTOOLS["package-data"]["pbm"] == ["py.typed"]
    assert (ROOT / "pbm" / "py.typed").is_file()


def test_every_game_package_ships_its_help_page_beside_its_rules():
    """A game is one folder: rules, picture and help.txt; the page must ship with it."""
    shipped = SETUPTOOLS["package-data"]
    for page in (ROOT / "pbm" / "games").glob("*/help.txt"):
        package = f"pbm.games.{page.parent.name}"
        assert shipped.get(package) == ["help.txt"], package
