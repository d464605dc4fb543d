"""`pbm config show`: the settings in effect, and where each one came from."""

from __future__ import annotations

import json
from dataclasses import fields

import click

from pbm.cli.app import App, main, pass_app
from pbm.config import SECTIONS, Config, masked

SECRET_URLS = {"delivery.relay", "database.url"}  # URLs that may carry a password


@main.group(name="config")
def config_group() -> None:
    """The settings in effect."""


@config_group.command(name="show")
@pass_app
def config_show(app: App) -> None:
    """Print every setting in TOML, each with where it came from (defaults, the file, an
    environment variable, a flag); passwords in URLs are masked."""
    click.echo("\n".join(effective(app.config)))


def effective(config: Config) -> list[str]:
    """The lines of `pbm config show`."""
    lines = [f"# settings file: {config.source}",
             f"# relative paths are taken from {config.base_dir}"]
    for section, cls in SECTIONS.items():
        lines += ["", f"[{section}]"]
        values = getattr(config, section)
        for f in fields(cls):
            key = f"{section}.{f.name}"
            value = getattr(values, f.name)
            if key in SECRET_URLS:
                value = masked(value)
            setting = f"{f.name} = {_toml(value)}"
            lines.append(f"{setting:<40} # {config.origin(key)}")
    lines += ["", f"# database: {masked(config.database_url)}",
              f"# Maildir: {config.maildir_path}",
              f"# log: {config.log_path or 'standard error'}"]
    return lines


def _toml(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(json.dumps(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
