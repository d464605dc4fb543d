"""A picture drawn with its sheet's classes and the rules in the page's <style> block looks,
in a real Chromium, pixel for pixel as the same picture with each element's rules written
inline: the sheet says exactly what the inline styles said, whatever the position."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import ImageChops

from pbm.games import registry
from pbm.games.base import AnyGame
from tests.browser.harness import Browser, Shot
from tests.browser.pages import page
from tests.games.pictures import drawn, has_classes, looks, without_classes

SEED = 23
GAMES = ("trou", "outguess", "synapse-ice")


def positions(game: AnyGame, seed: int) -> dict[str, Any]:
    """The start, the middle and the end of a random game."""
    rng = random.Random(seed)
    state = game.start(game.parse_options([]), seed)
    played = [state]
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_move(state)))
        state = game.play(state, seat, game.random_move(state, seat, rng))
        played.append(state)
    return {"start": played[0], "middle": played[len(played) // 2], "end": played[-1]}


def same(a: Shot, b: Shot) -> bool:
    return a.image.size == b.image.size and ImageChops.difference(a.image, b.image).getbbox() \
        is None


@pytest.mark.parametrize("name", GAMES)
def test_the_sheet_draws_what_inline_styles_draw(browser: Browser, name: str) -> None:
    game = registry.get(name)
    viewers = [None, *range(game.info.players)] if game.info.hidden else [None]
    for where, state in positions(game, SEED).items():
        for viewer in viewers:
            fragment = drawn(game, state, viewer)
            assert has_classes(fragment) and ' style="' not in fragment, "not drawn by a sheet"
            lean = browser.render(page(fragment), f"lean-{name}")
            inline = page(looks(fragment))
            assert "<style>\n</style>" in inline and not has_classes(inline)  # no rules
            assert same(lean, browser.render(inline, f"inline-{name}")), (where, viewer)
    # The rules are what gives it its looks: without them it is another picture.
    bare = page(without_classes(fragment))
    assert "<style>\n</style>" in bare
    assert not same(lean, browser.render(bare, f"bare-{name}"))
