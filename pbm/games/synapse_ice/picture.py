"""Synapse-Ice drawn from above: Icehouse pyramids of three sizes, in their owner's colour,
pointing their way; the square the next piece must go on, the last piece laid, the stashes."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.grid import Cell
from pbm.games.kit import (
    BOARD,
    GREEN,
    GRID,
    LAST,
    LAST_BACKGROUND,
    RED,
    Sheet,
    caption,
    cell,
    classes,
    css,
    frame,
    label,
    look_of,
    row,
    table,
)
from pbm.games.synapse_ice.game import (
    COLUMNS,
    GAME,
    MAX_PLACEMENTS,
    ROWS,
    SEATS,
    SIZES,
    Direction,
    SynapseState,
)

COLOURS = (RED, GREEN)  # Red's and Green's pieces
SQUARE = 50
NUMBER_WIDTH = 16
# A pyramid seen from above is a triangle: its length along where it points, per size.
LENGTH = {1: 16, 2: 25, 3: 34}
STASH_SCALE = 2  # stash pieces are drawn at half size, so a stash fits on one line
# The side of the triangle whose border is coloured: the one opposite the tip.
_BASE_SIDE = {Direction.N: "bottom", Direction.E: "left", Direction.S: "top", Direction.W: "right"}
_ACROSS = {"bottom": ("left", "right"), "top": ("left", "right"),
           "left": ("top", "bottom"), "right": ("top", "bottom")}


def draw(state: SynapseState, viewer: Viewer) -> str:
    """The board, then each stash, then whose turn it is and where (or how it ended)."""
    # Synapse-Ice hides nothing: every viewer sees the same picture.
    letters = [label("", _CORNER), *(label(x, _LETTER) for x in COLUMNS)]
    rows = [row(letters)]
    for r in range(ROWS):
        squares = [_square(state, Cell(c, r)) for c in range(len(COLUMNS))]
        rows.append(row([label(str(r + 1), _NUMBER), *squares]))
    stashes = [_stash_row(state, seat) for seat in range(len(SEATS))]
    return frame(table(rows) + table(stashes, _STASHES) + caption(_caption_lines(state)))


def pyramid(size: int, owner: int, direction: Direction, scale: int = 1) -> str:
    """An Icehouse pyramid from above: a triangle of its owner's colour, tip where it points.

    Drawn with borders alone (a box of no size whose one coloured border is the triangle),
    which mail clients render where they would drop SVG. The coloured border takes its
    colour from the owner's class (a border of no colour is drawn in the text's colour).
    """
    look = classes(_PYRAMID, _SHAPES[size, direction, scale], _OWNERS[owner])
    return f'<span{look_of(look)}></span>'


SHEET = Sheet("s")
_CORNER = SHEET.label("k", NUMBER_WIDTH, 16)
_LETTER = SHEET.label("a", SQUARE, 16, size=12)
_NUMBER = SHEET.label("b", NUMBER_WIDTH, SQUARE, size=12)
_SQUARE = SHEET.rule("q", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              background=BOARD, border=f"1px solid {GRID}", line_height=0))
_LAST = SHEET.rule("l", css(background=LAST_BACKGROUND))  # over _SQUARE: the last piece laid
_FORCED = SHEET.rule("f", css(display="inline-block", width=30, height=30,
                              border_radius="50%", border=f"3px dashed {LAST}",
                              box_sizing="border-box", vertical_align="middle"))
_STASHES = SHEET.rule("u", css(margin="8px auto 0"))
_STASH_NAME = SHEET.label("w", 86, 26, "left", 13)
_STASH_COUNT = SHEET.rule("x", css(width=62, padding=0, font_size=13, text_align="left",
                                   white_space="nowrap"))
_PYRAMID = SHEET.rule("p", css(display="inline-block", width=0, height=0,
                               vertical_align="middle"))


def _shape(length: int, direction: Direction) -> str:
    """The borders of a triangle `length` pixels long pointing `direction`."""
    half = length * 2 // 5  # the base is four fifths of the length, as the pieces are slim
    base = _BASE_SIDE[direction]
    sides = {f"border_{base}": f"{length}px solid"}
    for side in _ACROSS[base]:
        sides[f"border_{side}"] = f"{half}px solid transparent"
    return css(**sides)


# Every triangle drawn: on the board each size each way, in a stash each size upright.
_SHAPES = {(size, direction, scale): SHEET.rule(
               f"{direction.value.lower()}{LENGTH[size] // scale}",
               _shape(LENGTH[size] // scale, direction))
           for scale, directions in ((1, tuple(Direction)), (STASH_SCALE, (Direction.N,)))
           for direction in directions for size in SIZES}
_OWNERS = [SHEET.rule(name, css(color=colour))
           for name, colour in zip(("r", "g"), COLOURS, strict=True)]


def _square(state: SynapseState, at: Cell) -> str:
    look = classes(_SQUARE, _LAST if at == state.last else None)
    piece = state.at(at)
    if piece is not None:
        return cell(at.name, pyramid(piece.size, piece.owner, piece.direction), look)
    if at == state.forced:
        return cell(at.name, f'<span{look_of(_FORCED)}></span>', look)
    return cell(at.name, "", look)


def _stash_row(state: SynapseState, seat: int) -> str:
    """'Red stash:' then, per size, a small upright pyramid and how many are left."""
    parts = [label(f"{SEATS[seat]} stash:", _STASH_NAME)]
    for size in SIZES:
        piece = pyramid(size, seat, Direction.N, STASH_SCALE)
        count = f"&times;{state.left(seat, size)}"
        parts.append(f'<td{look_of(_STASH_COUNT)}>{piece} {count}</td>')
    return row(parts)


def _caption_lines(state: SynapseState) -> list[str]:
    lines = [
        "Each piece points where the next one must go; size 1, 2 or 3 squares away.",
        f"Pieces on the board: {state.placements} (a game has at most {MAX_PLACEMENTS}).",
    ]
    if state.forced is None:
        lines.append(f"{SEATS[state.turn]} lays the first piece on any square.")
        return lines
    outcome = GAME.result(state)
    if outcome is not None:
        lines.append(outcome.reason)
    else:
        lines.append(f"{SEATS[state.turn]} must play on {state.forced.name}"
                     " (the dashed ring).")
    if state.last is not None:
        lines.append(f"The last piece laid, on {state.last.name}, stands on yellow.")
    return lines
