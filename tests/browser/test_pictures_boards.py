"""Loophole, Trou and Synapse-Ice pictures as headless Chromium draws them: every cell laid
out where the board has it, within a phone's width, in the colours of what stands on it."""

from __future__ import annotations

from itertools import combinations

from pbm.games.base import PICTURE_WIDTH, AnyGame
from pbm.games.kit import BOARD, DARK, GREEN, LAST, LAST_BACKGROUND, LIGHT, RED
from pbm.games.loophole.board import COLUMNS as LOOPHOLE_COLUMNS
from pbm.games.loophole.board import SIZE as LOOPHOLE_SIZE
from pbm.games.loophole.game import GAME as LOOPHOLE
from pbm.games.synapse_ice.game import GAME as SYNAPSE
from pbm.games.synapse_ice.game import SAMPLE_OPENING, SAMPLE_PLAY
from pbm.games.trou.game import GAME as TROU
from pbm.games.trou.game import HELP_EXAMPLE_MOVES
from pbm.games.trou.picture import PIT
from tests.browser.harness import PHONE_WIDTH, Box, Browser, Shot
from tests.browser.pages import page, shot_of
from tests.games.pictures import drawn
from tests.games.playout import replay

WHITE_PAGE = (255, 255, 255)


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(pixel: tuple[int, int, int], colour: str, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb(colour), strict=True))


def share(shot: Shot, cell: str, colour: str) -> float:
    """The fraction of the cell's pixels drawn in `colour`."""
    box = shot.boxes[cell]
    area = shot.image.crop((int(box.x), int(box.y), int(box.x + box.width),
                            int(box.y + box.height)))
    counted = area.getcolors(area.width * area.height)
    return sum(n for n, p in counted if near(p, colour)) / (area.width * area.height)


def render(browser: Browser, game: AnyGame, moves: tuple[str, ...] | list[str],
           name: str) -> Shot:
    state = replay(game, [(i % game.info.players, text) for i, text in enumerate(moves)])
    html = drawn(game, state, None)
    assert html is not None
    return shot_of(browser, game.info.name, page(html), name)


def check_fits_a_phone(shot: Shot) -> None:
    """Not blank, no sideways scrolling, and every cell within the picture's width."""
    assert len(shot.image.getcolors(1 << 20)) > 5, "a blank picture"
    assert shot.page_width <= PHONE_WIDTH
    assert min(b.x for b in shot.boxes.values()) >= 0
    assert max(b.x + b.width for b in shot.boxes.values()) <= PICTURE_WIDTH


def check_grid(boxes: dict[str, Box], columns: str, rows: int) -> None:
    """Cells of one row share a line; cells of one column share a line; in order."""
    for r in range(1, rows + 1):
        line = [boxes[f"{c}{r}"] for c in columns]
        assert len({b.centre[1] for b in line}) == 1
        assert [b.centre[0] for b in line] == sorted({b.centre[0] for b in line})
    for c in columns:
        column = [boxes[f"{c}{r}"] for r in range(1, rows + 1)]
        assert len({b.centre[0] for b in column}) == 1
        assert [b.centre[1] for b in column] == sorted({b.centre[1] for b in column})


# ----- Loophole ------------------------------------------------------------------------------
# Black K10, L9 and J10 (the last), White J11 and K9.
LOOPHOLE_MOVES = ["K10", "J11", "L9", "K9", "J10"]


def rules_neighbours(col: int, row: int) -> set[tuple[int, int]]:
    """RULINGS.md: the neighbours of (c, r) are (c±1, r), (c, r±1), (c+1, r-1), (c-1, r+1)."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    return {(col + dc, row + dr) for dc, dr in steps}


def position(name: str) -> tuple[int, int]:
    return LOOPHOLE_COLUMNS.index(name[0]), int(name[1:]) - 1


def test_loophole_is_drawn_as_a_rhombus_whose_touching_cells_are_neighbours(browser) -> None:
    shot = render(browser, LOOPHOLE, LOOPHOLE_MOVES, "loophole")
    browser.keep(shot, "loophole")
    check_fits_a_phone(shot)
    boxes = shot.boxes
    assert len(boxes) == LOOPHOLE_SIZE * LOOPHOLE_SIZE - 18  # the windows have no cells
    pitch = boxes["B1"].centre[0] - boxes["A1"].centre[0]
    assert 10 <= pitch <= 14
    for name, box in boxes.items():
        col, row = position(name)
        above = f"{name[0]}{row}"  # the same column, one row up
        if row and above in boxes:
            # Each row lies half a cell right of the row above, and below it.
            assert abs(box.centre[0] - boxes[above].centre[0] - pitch / 2) <= 1, name
            assert box.centre[1] > boxes[above].centre[1]
    # Touching on the page (centres about a cell apart) is exactly being neighbours.
    for a, b in combinations(boxes, 2):
        (xa, ya), (xb, yb) = boxes[a].centre, boxes[b].centre
        touching = (xa - xb) ** 2 + (ya - yb) ** 2 <= (1.25 * pitch) ** 2
        assert touching == (position(b) in rules_neighbours(*position(a))), (a, b)


def test_loophole_cells_show_stones_wood_windows_and_the_last_ring(browser) -> None:
    shot = render(browser, LOOPHOLE, LOOPHOLE_MOVES, "loophole-colours")
    for black in ("K10", "L9", "M4", "E16"):
        assert near(shot.pixel(black), DARK), black
    for white in ("J11", "K9", "L5", "H15"):
        assert near(shot.pixel(white), LIGHT), white
    for empty in ("A1", "S19", "K11", "P4"):
        assert near(shot.pixel(empty), BOARD), empty
    # A window's middle cell would sit halfway between the rim stones left and right of it.
    for left, right in (("L6", "P6"), ("D14", "H14")):
        x = (shot.boxes[left].centre[0] + shot.boxes[right].centre[0]) // 2
        assert shot.image.getpixel((x, shot.boxes[left].centre[1])) == WHITE_PAGE
    # The last stone, J10, is ringed: its rim is red, its middle still the stone's.
    box = shot.boxes["J10"]
    assert near(shot.image.getpixel((int(box.x) + 1, box.centre[1])), LAST, 60)
    assert near(shot.pixel("J10"), DARK)
    assert share(shot, "L9", LAST) == 0


# ----- Trou ----------------------------------------------------------------------------------
TROU_MOVES = ("1B2", "4C2", "2B1")  # Red 1 on B2, Black 4 on C2, Red 2 on B1 (the last)


def test_trou_pawns_in_their_colours_and_the_last_highlighted(browser) -> None:
    shot = render(browser, TROU, TROU_MOVES, "trou")
    browser.keep(shot, "trou")
    check_fits_a_phone(shot)
    assert len(shot.boxes) == 9
    check_grid(shot.boxes, "ABC", 3)
    assert share(shot, "B2", RED) > 0.25 and share(shot, "B1", RED) > 0.25
    assert share(shot, "C2", DARK) > 0.25
    assert share(shot, "A1", BOARD) > 0.7 and share(shot, "A1", RED) == 0
    box = shot.boxes["B1"]  # the last placement: its cell's corner is highlighted
    assert near(shot.image.getpixel((int(box.x) + 4, int(box.y) + 4)), LAST_BACKGROUND)
    box = shot.boxes["B2"]
    assert near(shot.image.getpixel((int(box.x) + 4, int(box.y) + 4)), BOARD)


def test_trou_finished_board_shows_the_hole_as_a_pit(browser) -> None:
    shot = render(browser, TROU, HELP_EXAMPLE_MOVES, "trou-finished")
    assert near(shot.pixel("C1"), PIT)
    assert all(not near(shot.pixel(c), PIT) for c in shot.boxes if c != "C1")


# ----- Synapse-Ice ---------------------------------------------------------------------------
SYNAPSE_MOVES = SAMPLE_OPENING + SAMPLE_PLAY[:1]  # Green's C3:2E last; Red must play on E3


def coloured_columns(shot: Shot, cell: str, colour: str) -> list[int]:
    """How many pixels of `colour` each pixel column of the cell holds, left to right."""
    box = shot.boxes[cell]
    xs, ys = range(int(box.x), int(box.x + box.width)), range(int(box.y), int(box.y + box.height))
    counts = [sum(near(shot.image.getpixel((x, y)), colour) for y in ys) for x in xs]
    return [n for n in counts if n]


def coloured_rows(shot: Shot, cell: str, colour: str) -> list[int]:
    """How many pixels of `colour` each pixel row of the cell holds, top to bottom."""
    box = shot.boxes[cell]
    xs, ys = range(int(box.x), int(box.x + box.width)), range(int(box.y), int(box.y + box.height))
    counts = [sum(near(shot.image.getpixel((x, y)), colour) for x in xs) for y in ys]
    return [n for n in counts if n]


def test_synapse_ice_pyramids_point_their_way_in_their_owners_colour(browser) -> None:
    shot = render(browser, SYNAPSE, SYNAPSE_MOVES, "synapse-ice")
    browser.keep(shot, "synapse-ice")
    check_fits_a_phone(shot)
    assert len(shot.boxes) == 30
    check_grid(shot.boxes, "ABCDEF", 5)
    # C3: Green 2-pointer east, so its base (the tallest column) is on the left.
    east = coloured_columns(shot, "C3", GREEN)
    assert east[0] == max(east) and east[-1] < max(east) / 3
    # C4: Red 1-pointer north, its base below; C1: Green 3-pointer, bigger than C3's 2.
    north = coloured_rows(shot, "C4", RED)
    assert north[-1] == max(north) and north[0] < max(north) / 3
    assert share(shot, "C1", GREEN) > 1.4 * share(shot, "C3", GREEN)
    assert share(shot, "A4", BOARD) > 0.9 and share(shot, "A4", RED) == 0
    assert share(shot, "E3", LAST) > 0.02  # the dashed ring where Red must play
    box = shot.boxes["C3"]  # the last piece laid: its square's corner is highlighted
    assert near(shot.image.getpixel((int(box.x) + 4, int(box.y) + 4)), LAST_BACKGROUND)
