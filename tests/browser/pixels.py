"""Reading a screenshot of a board picture: colours near a mark, ink inside a piece."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.browser.harness import Box, Shot


def rgb(colour: str) -> tuple[int, int, int]:
    """'#2f6bd8' -> (47, 107, 216)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(x - y) for x, y in zip(a, b))


def near(pixel: tuple[int, int, int], colour: str, tolerance: int = 24) -> bool:
    """The pixel is the colour, give or take anti-aliasing."""
    return distance(pixel, rgb(colour)) <= tolerance


def perimeter(box: Box) -> Iterator[tuple[int, int]]:
    """The points just inside the edge of a box, where a cell's border is drawn."""
    left, top = int(box.x) + 1, int(box.y) + 1
    right, bottom = int(box.x + box.width) - 2, int(box.y + box.height) - 2
    for x in range(left, right + 1):
        yield x, top
        yield x, bottom
    for y in range(top, bottom + 1):
        yield left, y
        yield right, y


def ink_extent(shot: Shot, cell: str, radius: int) -> tuple[int, int]:
    """Width and height of what is drawn on the piece in `cell` (a glyph), within `radius`
    of its centre: the pixels that differ clearly from the piece's colour at its centre's
    edge."""
    cx, cy = shot.boxes[cell].centre
    fill = shot.image.getpixel((cx + radius // 2, cy + radius // 2 + 2))
    xs, ys = [], []
    for x in range(cx - radius, cx + radius + 1):
        for y in range(cy - radius, cy + radius + 1):
            inside = (x - cx) ** 2 + (y - cy) ** 2 <= radius**2
            if inside and distance(shot.image.getpixel((x, y)), fill) > 60:
                xs.append(x)
                ys.append(y)
    assert xs, f"nothing drawn on the piece in {cell}"
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def not_blank(image: Any) -> bool:
    """More than a few colours, and a good share of the page not white."""
    small = image.convert("RGB").resize((100, 100))
    colours = small.getcolors(100 * 100)
    coloured = sum(count for count, p in colours if distance(p, (255, 255, 255)) > 16)
    return len(colours) > 20 and coloured > 100 * 100 // 5


def one_size(boxes: list[Box]) -> bool:
    """All boxes of one size, but for the half pixels where shared borders fall."""
    widths, heights = [b.width for b in boxes], [b.height for b in boxes]
    return max(widths) - min(widths) <= 1.5 and max(heights) - min(heights) <= 1.5


def extent(shot: Shot, cells: list[str]) -> tuple[float, float]:
    """Width and height of the area the given cells cover."""
    boxes = [shot.boxes[name] for name in cells]
    left, top = min(b.x for b in boxes), min(b.y for b in boxes)
    right, bottom = max(b.x + b.width for b in boxes), max(b.y + b.height for b in boxes)
    return right - left, bottom - top
