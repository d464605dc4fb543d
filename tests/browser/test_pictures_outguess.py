"""Outguess's picture in a real Chromium: the whole board within a phone's width, each
piece in its owner's colour with its arrow the way its side steps, the last turn and the
viewer's own guess marked."""

from __future__ import annotations

from pbm.games.base import PICTURE_WIDTH
from pbm.games.kit import DARK, LAST_TINT, LIGHT, MINE
from pbm.games.outguess.game import GAME
from pbm.games.outguess.picture import PIECE
from tests.browser.harness import Browser, Shot
from tests.browser.pixels import extent, ink_extent, near, not_blank, one_size, perimeter
from tests.games.pictures import drawn, page
from tests.games.test_pictures_outguess import BLACK, SQUARES, WHITE, after


def shot_after(browser: Browser, viewer: int | None) -> Shot:
    return browser.render(page(drawn(GAME, after(), viewer)), f"outguess-{viewer}")


def fill(shot: Shot, cell: str) -> tuple[int, int, int]:
    """The piece's colour, off its arrow: below right of its centre."""
    cx, cy = shot.boxes[cell].centre
    return shot.image.getpixel((cx + PIECE // 4, cy + PIECE // 4))


def test_the_whole_board_fits_a_phone(browser: Browser) -> None:
    shot = shot_after(browser, WHITE)
    browser.keep(shot, "outguess")
    assert not_blank(shot.image)
    assert shot.page_width <= 400
    boxes = [shot.boxes[name] for name in SQUARES]
    assert one_size(boxes)
    assert len({round(b.x) for b in boxes}) == 8 and len({round(b.y) for b in boxes}) == 8
    assert min(b.width for b in boxes) >= 32  # a fingertip's worth
    width, _ = extent(shot, sorted(SQUARES))
    assert width <= PICTURE_WIDTH


def test_pieces_show_their_owner_and_their_side(browser: Browser) -> None:
    shot = shot_after(browser, None)
    # Black's tails pieces on row 1 and heads piece on E2; White's row 8, heads on C8 and E7.
    assert near(fill(shot, "A1"), DARK) and near(fill(shot, "E2"), DARK)
    assert near(fill(shot, "A8"), LIGHT) and near(fill(shot, "C8"), LIGHT)
    radius = PIECE // 2 - 4  # inside the ring
    for cell in ("C8", "E7", "E2"):  # heads: the arrow points up and down
        width, height = ink_extent(shot, cell, radius)
        assert height > width * 1.4, cell
    for cell in ("A8", "D8", "A1"):  # tails: the arrow points sideways
        width, height = ink_extent(shot, cell, radius)
        assert width > height * 1.4, cell


def test_the_last_turn_and_the_viewers_own_guess_are_marked(browser: Browser) -> None:
    white, black = shot_after(browser, WHITE), shot_after(browser, BLACK)
    for shot in (white, black):
        assert near(shot.pixel("E8"), LAST_TINT)  # E8-E7 left E8 empty
        assert not near(shot.pixel("F8"), LAST_TINT)
    # White named E2 for Black's coming turn: outlined for White, for nobody else.
    assert any(near(white.image.getpixel(p), MINE, 40) for p in perimeter(white.boxes["E2"]))
    width, height = black.image.size
    assert not any(near(black.image.getpixel((x, y)), MINE, 40)
                   for x in range(0, width, 2) for y in range(0, height, 2))
