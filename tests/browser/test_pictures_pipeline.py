"""Pipeline's picture in a real Chromium: laid out whole within a phone's width, pawns and
readings in their colours, the pipe drawn only on the viewer's own board."""

from __future__ import annotations

from pbm.games.base import PICTURE_WIDTH
from pbm.games.kit import LIGHT
from pbm.games.pipeline import GAME, Colour, Reading
from pbm.games.pipeline.flow import CELLS
from pbm.games.pipeline.picture import HOLE, PAWN, PIPE, READING, SLOT
from tests.browser.harness import Browser, Shot
from tests.browser.pages import shot_of
from tests.browser.pixels import extent, near, not_blank, one_size
from tests.games.pictures import drawn, page
from tests.games.test_pictures_pipeline import HEAD, mid_game

BOARDS = ("", "Head:", "Tail:")


def shot_of_mid_game(browser: Browser, viewer: int | None) -> Shot:
    return shot_of(browser, "pipeline", page(drawn(GAME, mid_game(), viewer)),
                   f"pipeline-{viewer}")


def test_the_picture_is_the_three_boards_in_a_phones_width(browser: Browser) -> None:
    shot = shot_of_mid_game(browser, HEAD)
    browser.keep(shot, "pipeline")
    assert not_blank(shot.image)
    assert shot.page_width <= 400  # the window: nothing overflows it
    for board in BOARDS:
        names = [board + square for square in CELLS]
        boxes = [shot.boxes[name] for name in names]
        # Every square laid out, all of one size, in four columns and four rows.
        assert one_size(boxes), board
        assert len({round(b.x) for b in boxes}) == 4 and len({round(b.y) for b in boxes}) == 4
        assert boxes[0].width >= 30, board
    width, _ = extent(shot, list(shot.boxes))
    assert width <= PICTURE_WIDTH
    # The pipelines' boards stand side by side, level with each other, under the pawns.
    assert shot.boxes["Head:A1"].y == shot.boxes["Tail:A1"].y > shot.boxes["D4"].y
    assert shot.boxes["Tail:A1"].x > shot.boxes["Head:D1"].x


def test_pawns_and_readings_show_in_their_colours(browser: Browser) -> None:
    shot = shot_of_mid_game(browser, HEAD)
    # The pawn board: Y@A2, W@A4, B@B3, W@C3.
    assert near(shot.pixel("A2"), PAWN[Colour.YELLOW])
    assert near(shot.pixel("B3"), PAWN[Colour.BLUE])
    assert near(shot.pixel("C3"), LIGHT) and near(shot.pixel("A4"), LIGHT)
    # White pawns read miss and empty on Head's pipeline, empty and blue on Tail's.
    cx, cy = shot.boxes["Head:A4"].centre
    assert near(shot.image.getpixel((cx, cy + 5)), READING[Reading.MISS])  # beside the x
    assert near(shot.pixel("Head:C3"), READING[Reading.EMPTY])
    assert near(shot.pixel("Tail:A4"), READING[Reading.EMPTY])
    assert near(shot.pixel("Tail:C3"), READING[Reading.BLUE])


def test_the_pipe_shows_on_its_owners_board_alone(browser: Browser) -> None:
    head, spectator = shot_of_mid_game(browser, HEAD), shot_of_mid_game(browser, None)
    # Head's pipeline B2-B3*-C3*-D3-D4*-C4: pipe on D3, a hole on B3, nothing on A3.
    assert near(head.pixel("Head:D3"), PIPE) and near(head.pixel("Head:B3"), HOLE)
    assert near(head.pixel("Head:A3"), SLOT)
    for shot in (head, spectator):
        for square in ("A2", "B4", "D3"):  # on Tail's pipeline, hidden from both
            assert near(shot.pixel(f"Tail:{square}"), SLOT), square
    assert near(spectator.pixel("Head:D3"), SLOT) and near(spectator.pixel("Head:B3"), SLOT)
