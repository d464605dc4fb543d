"""`pbm db backup FILE`: a consistent copy of the live database."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbm.cli.app import App, pass_app
from pbm.cli.store import db


@db.command(name="backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
@pass_app
def db_backup(app: App, file: Path, force: bool) -> None:
    """Copy the database to FILE while pbm keeps running (SQLite's online backup); the copy
    is readable by its owner only. Restore: stop pbm, copy FILE back, `pbm db upgrade`,
    start pbm."""
    from sqlalchemy.engine import make_url

    from pbm.db.backup import BackupError, backup

    url = make_url(app.config.database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        click.echo(f"pbm: db backup copies SQLite databases; back up {url.get_backend_name()} "
                   "with its own tools", err=True)
        sys.exit(1)
    try:
        verdict = backup(Path(url.database), file, force=force,
                         progress=lambda line: click.echo(f"pbm db backup: {line}", err=True))
    except BackupError as err:
        click.echo(f"pbm: {err}", err=True)
        sys.exit(1)
    if verdict != "ok":
        click.echo(f"pbm: the copy in {file} fails SQLite's check: {verdict}", err=True)
        sys.exit(1)
    click.echo(f"backed up {url.database} to {file} (checked: ok)")
