"""The `pbm` command line: the server, the mail pipe and the operator's tools."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from pbm.config import LOG_LEVELS, Config, ConfigError, load

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session, sessionmaker

EX_TEMPFAIL = 75  # sysexits.h: the MTA keeps the mail and tries again later
EX_DATAERR = 65  # sysexits.h: the MTA bounces the mail with our message
EX_CONFIG = 2


@dataclass
class App:
    """What every subcommand gets: the settings, and the store opened on demand."""

    config_path: str | None
    overrides: dict

    _config: Config | None = None
    _engine: Engine | None = None

    @property
    def config(self) -> Config:
        if self._config is None:
            try:
                self._config = load(self.config_path, overrides=self.overrides)
            except ConfigError as err:
                click.echo(f"pbm: {err}", err=True)
                sys.exit(EX_CONFIG)
            from pbm import logs

            try:
                logs.setup(self._config.logging, self._config.log_path)
            except OSError as err:
                click.echo(f"pbm: cannot open the log file {self._config.log_path}: "
                           f"{err.strerror}", err=True)
                sys.exit(EX_CONFIG)
        return self._config

    def store(self, migrate: bool = True, *, read_only: bool = False) -> sessionmaker[Session]:
        """A session factory on the configured database, migrated to head if asked.
        Read-only sessions never take the database's write lock."""
        from pbm.db.session import make_engine, session_factory

        if self._engine is None:
            self._engine = make_engine(self.config.database_url)
            if migrate:
                from pbm.db import SCHEMA_REVISION
                from pbm.db.migrate import upgrade
                from pbm.db.session import current_revision

                if current_revision(self._engine) != SCHEMA_REVISION:
                    upgrade(self._engine)
        return session_factory(self._engine, read_only=read_only)


pass_app = click.make_pass_decorator(App)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="Settings file (default: $PBM_CONFIG, else ./pbm.toml, else built-in).")
@click.option("--log-level", type=click.Choice(LOG_LEVELS, case_sensitive=False),
              help="Log this much for this run (overrides logging.level).")
@click.version_option(package_name="pbm")
@click.pass_context
def main(ctx: click.Context, config_path: str | None, log_level: str | None) -> None:
    """pbm: a play-by-mail board game server."""
    overrides = {"logging": {"level": log_level.lower()}} if log_level else {}
    ctx.obj = App(config_path, overrides)


# Subcommands register themselves on `main`.
from pbm.cli import (  # noqa: E402,F401
    admin,
    backup,
    bench,
    housekeeping,
    mailpath,
    settings,
    standing,
    store,
)
