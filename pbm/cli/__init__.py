"""The `pbm` command line: the server, the mail pipe and the operator's tools.

The group lives in `app`; importing this package registers every subcommand on it, so the
entry point `pbm.cli:main` always sees the whole tree."""

from pbm.cli import (  # noqa: F401
    admin,
    backup,
    bench,
    bots,
    dkim,
    housekeeping,
    ladders,
    mailpath,
    settings,
    standing,
    store,
    tournaments,
    web,
)
from pbm.cli.app import main

__all__ = ["main"]
