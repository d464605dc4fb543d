"""Schema migrations through Alembic, with the scripts shipped as package data."""

from __future__ import annotations

from importlib.resources import files

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory
from sqlalchemy import Engine


def alembic_config() -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(files("pbm.migrations")))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "pbm ships its migrations: there is always a head"
    return head


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to `revision` (creating it if it is empty)."""
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)
