"""The `pbm` group and what every subcommand shares: the settings, the store, how to fail."""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

import click

from pbm.config import LOG_LEVELS, Config, ConfigError, load

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session, sessionmaker

EX_TEMPFAIL = 75  # sysexits.h: the MTA keeps the mail and tries again later
EX_DATAERR = 65  # sysexits.h: the MTA bounces the mail with our message
EX_CONFIG = 2

log = logging.getLogger("pbm.cli")


@dataclass
class App:
    """What every subcommand gets: the settings, and the store opened on demand."""

    config_path: str | None
    overrides: dict

    _config: Config | None = None
    _engine: Engine | None = None
    # How a bad setting ends the command: `pbm process` makes it a temporary failure, as
    # the mail is not at fault and must wait in the MTA's queue until the file is fixed.
    config_failure_status: int = EX_CONFIG

    @property
    def config(self) -> Config:
        if self._config is None:
            try:
                self._config = load(self.config_path, overrides=self.overrides)
            except ConfigError as err:
                fail(str(err), self.config_failure_status)
            from pbm import logs

            try:
                logs.setup(self._config.logging, self._config.log_path)
            except OSError as err:
                fail(f"cannot open the log file {self._config.log_path}: {err.strerror}",
                     self.config_failure_status)
            log.debug("settings from %s (%s), paths relative to %s", self._config.source,
                      _chosen_by(self.config_path), self._config.base_dir)
        return self._config

    def store(self, migrate: bool = True, *, read_only: bool = False,
              create: bool = False) -> sessionmaker[Session]:
        """A session factory on the configured database, migrated to head if asked.
        Read-only sessions never take the database's write lock. Only `serve` creates a
        missing database (create=True); any other command stops with the path it looked for,
        so a wrong working folder or setting never starts an empty second database."""
        from pbm.db.session import StoreMissing, StoreUnavailable, make_engine, session_factory

        if self._engine is None:
            try:
                engine = make_engine(self.config.database_url, create=create)
                if migrate:
                    migrate_to_head(engine)
            except StoreMissing as err:
                fail(str(err), EX_CONFIG)
            except (StoreUnavailable, SchemaRefused) as err:
                fail(str(err), 1)
            self._engine = engine
        return session_factory(self._engine, read_only=read_only)


def _chosen_by(config_path: str | None) -> str:
    """How the settings file was chosen, in the order load() looks."""
    import os

    from pbm.config import DEFAULT_FILE, ENV_FILE

    if config_path:
        return "--config"
    if os.environ.get(ENV_FILE):
        return f"${ENV_FILE}"
    return f"./{DEFAULT_FILE} in {os.getcwd()}" if os.path.isfile(DEFAULT_FILE) \
        else f"no --config, no ${ENV_FILE}, no ./{DEFAULT_FILE}: built-in defaults"


class SchemaRefused(Exception):
    """The database is at a schema revision this pbm cannot bring to its own."""


def migrate_to_head(engine: Engine) -> None:
    """Migrate an empty or older database; refuse one a newer pbm wrote.

    Alembic is imported only when the revision differs: `pbm process` runs once per mail."""
    from pbm.db import SCHEMA_REVISION
    from pbm.db.session import current_revision

    revision = current_revision(engine)
    if revision == SCHEMA_REVISION:
        return
    from pbm.db.migrate import UnknownRevision, upgrade_known

    try:
        upgrade_known(engine, revision)
    except UnknownRevision as err:
        raise SchemaRefused(str(err)) from None


def fail(message: str, status: int) -> NoReturn:
    """Stop with `pbm: message` on standard error."""
    click.echo(f"pbm: {message}", err=True)
    sys.exit(status)


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
