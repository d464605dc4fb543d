"""The `browser` fixture: one real headless Chromium per test process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.harness import Browser, unavailable


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"no headless Chromium here: {reason}")
    chromium = Browser()
    yield chromium
    chromium.close()
