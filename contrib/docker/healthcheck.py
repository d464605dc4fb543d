"""The container's HEALTHCHECK: exit 0 when pbm serve answers with its SMTP (or LMTP) 220
greeting, else 1 with the reason. The port comes from pbm's own settings (/etc/pbm.toml and
PBM_SMTPD_PORT), as `pbm serve` reads them."""

from __future__ import annotations

import socket
import sys

from pbm.config import ConfigError, load

CONFIG = "/etc/pbm.toml"


def main(argv: list[str]) -> int:
    try:
        port = load(argv[1] if len(argv) > 1 else CONFIG).smtpd.port
    except ConfigError as err:
        print(f"unhealthy: {err}", file=sys.stderr)
        return 1
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            greeting = conn.recv(512)
            if not greeting.startswith(b"220"):
                print(f"unhealthy: greeting {greeting[:80]!r}", file=sys.stderr)
                return 1
            conn.sendall(b"QUIT\r\n")
    except OSError as err:
        print(f"unhealthy: 127.0.0.1:{port}: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
