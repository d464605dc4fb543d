"""`pbm dkim record`: the DNS record that publishes the DKIM key of `[dkim]`."""

from __future__ import annotations

import click

from pbm.cli.app import App, fail, main, pass_app


@main.group()
def dkim() -> None:
    """DKIM signatures on the mail pbm sends ([dkim])."""


@dkim.command()
@pass_app
def record(app: App) -> None:
    """Print the TXT record to publish for [dkim]'s key, and how to check it."""
    from pbm.config import ConfigError
    from pbm.mail.signing import dns_record, signer

    config = app.config
    if not config.dkim.domain:
        fail("no [dkim] is set: give dkim.domain, dkim.selector and dkim.key_file", 2)
    try:
        signer(config)  # the key must sign, not only parse
        name, text = dns_record(config)
    except ConfigError as err:
        fail(str(err), 2)
    # TXT strings hold at most 255 characters each (RFC 1035): a 2048-bit key needs two.
    parts = [text[i:i + 255] for i in range(0, len(text), 255)]
    click.echo(f"{name}. IN TXT ( " + " ".join(f'"{part}"' for part in parts) + " )")
    click.echo(f"# check it once published: dig +short TXT {name}")
