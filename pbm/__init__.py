"""pbm: a play-by-mail board game server in the tradition of Richard's PBeM Server."""

__version__ = "0.1.0"
