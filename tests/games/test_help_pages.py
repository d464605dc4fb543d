"""Every game's help page, pinned word for word: refactoring the toolkit must not change one."""

from __future__ import annotations

import pytest

from pbm.games import registry


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_help_page_reads_as_pinned(name, golden):
    golden(f"help/{name}", registry.get(name).help_page())
