"""Pipeline's picture as mailed (classes, their rules in a <style> block) draws exactly what
its classes written out as inline styles draw: the sheet declares each modifier after what
it modifies, so that the cascade ends where the classes' order in the element does."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import ImageChops

from pbm.games.base import Viewer
from pbm.games.pipeline import GAME
from pbm.games.pipeline.state import Phase
from tests.browser.harness import Browser
from tests.browser.pages import page, shot_of
from tests.games.pictures import drawn, has_classes, looks

SEED = 5
EMPTY_SHEET = "<style>\n</style>\n"


def positions() -> dict[str, Any]:
    """The first position of play (both pipelines in), one halfway on, and the end, of a
    random game."""
    rng = random.Random(SEED)
    state = GAME.start({}, SEED)
    states = []
    while GAME.result(state) is None:
        seat = rng.choice(sorted(GAME.to_move(state)))
        state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
        if state.phase is not Phase.PIPES and state.pipes != (None, None):
            states.append(state)
    assert len(states) >= 5, "too short a game to have a middle"
    return {"start": states[0], "middle": states[len(states) // 2], "end": states[-1]}


POSITIONS = positions()


def inline_page(fragment: str) -> str:
    """The page of page(), its picture's looks written inline and no <style> block."""
    whole = page(looks(fragment))
    assert whole.count(EMPTY_SHEET) == 1 and "class=" not in whole
    return whole.replace(EMPTY_SHEET, "")


@pytest.mark.parametrize("viewer", [None, 0], ids=["spectator", "head"])
@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_the_style_block_draws_what_inline_styles_draw(browser: Browser, position: str,
                                                      viewer: Viewer) -> None:
    fragment = drawn(GAME, POSITIONS[position], viewer)
    mailed = page(fragment)
    assert "<style>\n." in mailed and has_classes(mailed)  # the rules are in the block
    shot = shot_of(browser, "pipeline", mailed, f"lean-pipeline-{position}-{viewer}")
    inline = browser.render(inline_page(fragment), f"lean-pipeline-{position}-{viewer}-inline")
    assert shot.image.size == inline.image.size
    assert ImageChops.difference(shot.image, inline.image).getbbox() is None
    # Both drew the same board: every square where the other drew it, the pipes included.
    assert shot.boxes == inline.boxes and len(shot.boxes) == 3 * 16
