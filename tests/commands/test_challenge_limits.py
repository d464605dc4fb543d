"""Challenges need no password, so they are bounded: per mail, per sender and per player."""

from __future__ import annotations

from sqlalchemy import func, select

from pbm.commands.dispatch import run_lines
from pbm.config import LimitSettings
from pbm.context import Context
from pbm.db.models import Board
from tests.commands.conftest import ALICE, CAROL, STRANGER, error

LIMITS = LimitSettings()


def boards(run) -> int:
    with run.session() as session:
        return session.scalar(select(func.count()).select_from(Board))


def test_one_mail_starts_at_most_a_few_boards(players):
    """A `multiple` body of 100 challenges once started 100 boards and sent 200 mails."""
    run = players
    with run.session() as session:
        ctx = Context(session, STRANGER, limits=LIMITS)
        run_lines(ctx, ["trou challenge alice bob"] * 100)
    assert boards(run) == LIMITS.challenges_per_mail
    refusals = [r for r in ctx.replies if "One mail may start at most" in r.body]
    assert len(refusals) == 100 - LIMITS.challenges_per_mail
    board_mails = [r for r in ctx.replies if r.kind == "board"]
    # Each board: one mail per player, and a copy for the challenger (who does not play).
    assert len(board_mails) == 3 * LIMITS.challenges_per_mail


def test_a_sender_starts_a_bounded_number_of_boards_a_day(players):
    run = players
    run.limits = LimitSettings(challenges_per_sender_per_day=4, challenges_per_player_per_day=0)
    for _ in range(4):
        run(STRANGER, "trou challenge alice bob")
    err = error(run(STRANGER, "trou challenge alice bob"))
    assert f"{STRANGER} has started 4 boards in the last day" in err.body
    assert "Send it again after" in err.body
    assert boards(run) == 4
    run(CAROL, "trou challenge alice bob")  # another sender is not affected
    assert boards(run) == 5


def test_a_player_is_challenged_by_others_a_bounded_number_of_times_a_day(players):
    """A stranger's mails once started 100 boards against one player."""
    run = players
    run.limits = LimitSettings(challenges_per_player_per_day=3, challenges_per_sender_per_day=0)
    for sender in ("x1@example.net", "x2@example.net", "x3@example.net"):
        run(sender, "trou challenge carol bob")
    err = error(run("x4@example.net", "trou challenge carol alice"))
    assert "carol has been challenged 3 times in the last day" in err.body
    assert "ask carol to start the board" in err.body
    assert boards(run) == 3
    # carol herself may still start boards, and doing so costs her own count nothing.
    run(CAROL, "trou challenge carol alice")
    assert boards(run) == 4


def test_a_refused_challenge_costs_nothing(players):
    run = players
    run.limits = LimitSettings(challenges_per_sender_per_day=2)
    error(run(STRANGER, "trou challenge alice nosuchuser"))
    error(run(STRANGER, "trou challenge alice alice"))
    run(STRANGER, "trou challenge alice bob")
    run(STRANGER, "trou challenge alice bob")
    assert boards(run) == 2


def test_the_operator_is_not_limited(players):
    run = players
    with run.session() as session:
        ctx = Context(session, "", admin=True, limits=LimitSettings(challenges_per_mail=1))
        run_lines(ctx, ["trou challenge alice bob"] * 3)
    assert boards(run) == 3


def test_limits_of_zero_mean_no_limit(players):
    run = players
    run.limits = LimitSettings(challenges_per_sender_per_day=0, challenges_per_player_per_day=0)
    for _ in range(40):
        run(ALICE, "trou challenge carol bob")
    assert boards(run) == 40
