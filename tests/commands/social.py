"""Helpers for the tests of talking, watching and challenge policies."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import text

from pbm.commands.dispatch import run_line
from pbm.context import Context, Reply
from pbm.db.models import utcnow
from pbm.games import registry
from tests.commands.conftest import Runner

SOCIAL_TABLES = ("subscriptions", "end_notices", "challenge_policies")


def snapshot(run: Runner) -> dict[str, list[tuple[Any, ...]]]:
    """conftest's snapshot plus the tables of spectators, end notices and policies."""
    found = run.snapshot()
    with run.engine.connect() as conn:
        for table in SOCIAL_TABLES:
            found[table] = sorted(map(tuple, conn.execute(text(f"SELECT * FROM {table}"))),
                                  key=repr)
    return found


def rows(run: Runner, table: str) -> list[tuple[Any, ...]]:
    return snapshot(run)[table]


def run_as(run: Runner, sender: str, line: str, comment: str | None = None, *,
           operators: tuple[str, ...] = (), admin: bool = False) -> list[Reply]:
    """Like `run`, with the server's operators set (or as the operator's command line)."""
    with run.factory() as session, session.begin():
        ctx = Context(session, sender, comment=comment, limits=run.limits, time=run.time,
                      operators=operators, admin=admin, now=utcnow())
        run_line(ctx, line)
        return list(ctx.replies)


def first_move(word: str) -> tuple[int, str]:
    """The seat to move first on the first board of a database (whose seed is its id, 101),
    and a legal move for it."""
    game = registry.get(word)
    state = game.start(game.parse_options([]), 101)
    seat = min(game.to_move(state))
    return seat, game.notation(game.random_move(state, seat, random.Random(0)))
