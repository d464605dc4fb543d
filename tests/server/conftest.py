"""Fixtures that start a real `pbm serve` and stop it after the test."""

from __future__ import annotations

import pytest

from tests.server.harness import PbmServer


@pytest.fixture
def server(tmp_path):
    pbm = PbmServer(tmp_path)
    pbm.start()
    try:
        yield pbm
    finally:
        pbm.stop()
