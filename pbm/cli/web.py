"""`pbm web`: the read-only web view alone, for a server fed by `pbm process` or a second
node (`pbm serve --web` serves it beside the mail)."""

from __future__ import annotations

import sys

import click

from pbm.cli.app import EX_CONFIG, App, fail, main, pass_app

DEFAULT_LISTEN = "127.0.0.1:8080"


def web_address(app: App, listen: str | None, flag: str = "--web"
                ) -> tuple[str, int] | None:
    """Where to serve the web view: the `flag` given, else web.listen; None for nowhere."""
    from pbm.config import ConfigError, listen_address

    text = listen if listen is not None else app.config.web.listen
    if not text:
        return None
    where = flag if listen is not None else f"{app.config.origin('web.listen')}: web.listen"
    try:
        return listen_address(text, where)
    except ConfigError as err:
        fail(str(err), EX_CONFIG)


def announce(address: tuple[str, int], command: str) -> None:
    host = f"[{address[0]}]" if ":" in address[0] else address[0]
    click.echo(f"pbm {command}: web view on http://{host}:{address[1]}/ (read only)")
    sys.stdout.flush()


@main.command()
@click.option("--listen", metavar="HOST:PORT",
              help=f"Serve here (overrides web.listen; default {DEFAULT_LISTEN}).")
@pass_app
def web(app: App, listen: str | None) -> None:
    """Serve the web view (boards, games, players, feeds, records): it only reads."""
    import asyncio
    import signal

    from pbm.web.site import WebSite

    address = web_address(app, listen, "--listen") or web_address(app, DEFAULT_LISTEN)
    assert address is not None
    site = WebSite(app.config, app.store(read_only=True))

    async def run() -> None:
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        try:
            bound = await site.start(*address)
        except OSError as err:
            fail(f"cannot listen on {address[0]}:{address[1]}: {err.strerror}", 1)
        announce(bound, "web")
        try:
            await stopping.wait()
        finally:
            await site.stop()

    asyncio.run(run())
    click.echo("pbm web: stopped")
