"""`pbm tick`: the housekeeping step (nags, forfeits, pairing) without `pbm serve`."""

from __future__ import annotations

import sys

import click

from pbm.cli.app import App, main, pass_app


@main.command()
@click.option("--now", "moment", metavar="WHEN",
              help="Run as of this moment, UTC (2027-01-15T12:00), not the present.")
@click.option("--dry-run", is_flag=True,
              help="Say what would be done (the first batch); change and mail nothing.")
@pass_app
def tick(app: App, moment: str | None, dry_run: bool) -> None:
    """Nag players who have not moved and forfeit those past their time, pair the waiting
    seekers (`GAME seek`; with a bot after `bots.seek_wait_hours`), and play the bots' due
    moves, once.

    `pbm serve` does this by itself; where mail is piped into `pbm process`, run it from
    cron every few minutes (see the README)."""
    from pbm.clock import SYSTEM, parse_moment
    from pbm.mail.botmoves import play_due
    from pbm.mail.delivery import deliver_pending
    from pbm.mail.housekeeping import tick as housekeeping

    try:
        now = parse_moment(moment) if moment else SYSTEM.now()
    except ValueError as err:
        click.echo(f"pbm: {err}", err=True)
        sys.exit(2)
    factory = app.store()
    report, ids = housekeeping(factory, app.config, now, dry_run=dry_run)
    click.echo(("Would do: " if dry_run else "") + str(report))
    if app.config.bots.games:
        played, bot_ids = play_due(factory, app.config, now, dry_run=dry_run)
        ids += bot_ids
        for line in played:
            click.echo(("Would play: " if dry_run else "Played: ") + line)
    if ids:
        sent, failed = deliver_pending(factory, app.config, only=ids)
        click.echo(f"{sent} mail(s) delivered now, {len(ids) - sent} left in the outbox"
                   + (f" ({failed} not delivered yet; see `pbm outbox`)" if failed else ""))
