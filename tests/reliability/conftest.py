"""The reliability suite starts real servers too: the `server` fixture of tests/server."""

from tests.server.conftest import server  # noqa: F401
