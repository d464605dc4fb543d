"""Hex drawn as its rhombus: each row half a cell right of the row above, so that the cells
touching on the picture are exactly the cells the rules call neighbours; Black's edges dark
strips above and below, White's light strips at both ends of each row."""

from __future__ import annotations

from dataclasses import dataclass

from pbm.games.base import PICTURE_WIDTH, Viewer
from pbm.games.hex.board import EMPTY, Board
from pbm.games.hex.game import HexState, status_lines
from pbm.games.kit import (
    BOARD,
    DARK,
    EDGE,
    LAST,
    LIGHT,
    OUTLINE,
    Sheet,
    caption,
    cell,
    classes,
    css,
    frame,
    look_of,
    row,
    table,
)

GAP = 1  # between the spots of a row
NUMBER_WIDTH = 12  # the row numbers, left of each row
EDGE_WIDTH = 5  # the strips that mark each player's edges


def draw(state: HexState, viewer: Viewer) -> str:
    """The board with its stones, edges and labels, the last move's stone ringed in red."""
    # Hex hides nothing: every viewer sees the same picture.
    board = state.board
    tier = tier_of(board.size)
    lines = [_letters(board, tier, 0), _black_edge(board, tier, 0)]
    lines += [_board_row(state, tier, r) for r in range(board.size)]
    lines += [_black_edge(board, tier, board.size - 1), _letters(board, tier, board.size - 1)]
    holder = table([row([f'<td{look_of(_HOLDER)}>{"".join(lines)}</td>'])])
    lines = status_lines(state, "ringed in red")
    # The text board's first line names the players' marks; the picture's, their edges.
    lines[0] = "Black's edges: top and bottom (dark). White's: left and right (light)."
    return frame(holder + caption(lines))


@dataclass(frozen=True)
class Tier:
    """The looks of the boards up to `largest` cells a side: spots `pitch` pixels apart,
    so that the widest row of the largest board still fits a phone (PICTURE_WIDTH)."""

    largest: int
    pitch: int
    font: int  # of the letters and numbers round the board
    # Whether each cell carries its data-cell name. The largest boards' would make a mail
    # of 361 cells pass 16 KB: there a cell is found by its place, the i-th spot of the
    # table whose data-row is N being column i of row N (as in Loophole's picture).
    named: bool
    empty: str = ""
    stones: tuple[str, ...] = ()  # a stone's class by its cell code (BLACK_STONE, WHITE_STONE)
    ringed: str = ""  # with a stone's class, the ring of the last move's stone
    letter: str = ""
    number: str = ""
    white_edge: str = ""

    @property
    def spot(self) -> int:
        return self.pitch - GAP

    @property
    def shift(self) -> int:
        return self.pitch // 2


def row_width(size: int, pitch: int) -> int:
    """Pixels from the left of the picture to the right of the last row's White edge: the
    widest row, its shift, number, edges and spots with their gaps (see _board_row)."""
    return (size - 1) * (pitch // 2) + NUMBER_WIDTH + 2 * EDGE_WIDTH + size * pitch + 2 * GAP


SHEET = Sheet("x")
_LINE = SHEET.rule("r", css(margin=0))  # a line of the picture, left-aligned
_HOLDER = SHEET.rule("y", css(padding="1px 0 1px 1px"))
# The cells' own table keeps a gap between spots, so that round spots do not touch.
_SPOTS = SHEET.rule("g", css(margin=0, border_collapse="separate", border_spacing=f"{GAP}px 0"))
_SHIFT = SHEET.rule("h", css(height=1, padding=0, background="transparent", font_size=0,
                             line_height=0))


def _round(inner: int) -> str:
    """A round cell `inner` pixels across inside its ring (the ring adds to it)."""
    return css(width=inner, height=inner, padding=0, border_radius="50%")


def _stone(spot: int, fill: str, ring: str | None, width: int) -> str:
    style = f"{_round(spot - 2 * width)};{css(background=fill)}"
    return style + (f";border:{width}px solid {ring}" if ring else "")


def _tier(number: int, largest: int, pitch: int, font: int, named: bool) -> Tier:
    """Declare the classes of tier `number` (at import, as every rule of a SHEET is)."""
    spot, name = pitch - GAP, str(number)
    return Tier(
        largest, pitch, font, named,
        empty=SHEET.rule("e" + name, f"{_round(spot)};{css(background=BOARD)}"),
        stones=("", SHEET.rule("b" + name, _stone(spot, DARK, None, 0)),
                SHEET.rule("w" + name, _stone(spot, LIGHT, OUTLINE, 1))),
        # Over a stone's class (declared after it): the ring of the last move's stone.
        ringed=SHEET.rule("l" + name, f"{css(width=spot - 4, height=spot - 4)};"
                                      f"border:2px solid {LAST}"),
        letter=SHEET.label("a" + name, pitch, 14, size=font),
        # A row's number ends where it would after the row's shift: it takes the shift.
        number=SHEET.rule("n" + name, css(padding=0, font_size=font, color=EDGE,
                                          text_align="right", line_height=f"{spot}px",
                                          height=spot)),
        white_edge=SHEET.rule("x" + name, css(width=EDGE_WIDTH - 2, height=spot, padding=0,
                                              background=LIGHT,
                                              border_left=f"1px solid {OUTLINE}",
                                              border_right=f"1px solid {OUTLINE}")),
    )


# Four sizes of spot, the largest that lets each board fit: 28 px up to 8 cells a side, 20
# up to 11 (the usual board), 16 up to 14, 12 up to 19.
TIERS = tuple(_tier(number, largest, pitch, font, named) for number, (largest, pitch, font, named)
              in enumerate(((8, 28, 12, True), (11, 20, 11, True), (14, 16, 10, True),
                            (19, 12, 9, False)), start=1))
assert all(row_width(t.largest, t.pitch) <= PICTURE_WIDTH for t in TIERS)
_BLACK_EDGE = SHEET.rule("s", css(height=EDGE_WIDTH, padding=0, background=DARK, font_size=0,
                                  line_height=0))


def tier_of(size: int) -> Tier:
    return next(t for t in TIERS if size <= t.largest)


def _line(tier: Tier, board_row: int, cells: list[str]) -> str:
    """One line of the picture, shifted like board row `board_row`, left-aligned (the shift
    is the one width a line has of its own, so it is written on its spacer)."""
    width = tier.shift * board_row
    return table([row(([_before(width)] if width else []) + cells)], _LINE)


def _before(width: int) -> str:
    """A spacer cell of `width` pixels, written inline: it varies with the board's size
    (the kit's spacer() takes a class of one width)."""
    return f'<td{look_of(_SHIFT)} style="{css(width=width)};{css(min_width=width)}"></td>'


def _letters(board: Board, tier: Tier, board_row: int) -> str:
    """Column letters over (or under) the board row they label."""
    letters = "".join(f"<td{look_of(tier.letter)}>{letter}" for letter in board.letters)
    return _line(tier, board_row, [_before(NUMBER_WIDTH + EDGE_WIDTH + 2 * GAP) + letters])


def _black_edge(board: Board, tier: Tier, board_row: int) -> str:
    """Black's edge: a dark strip along the top (or bottom) row."""
    strip = (f'<td{look_of(_BLACK_EDGE)} style="{css(width=board.size * tier.pitch + GAP)}">'
             "</td>")
    return _line(tier, board_row, [_before(NUMBER_WIDTH + EDGE_WIDTH + GAP) + strip])


def _board_row(state: HexState, tier: Tier, r: int) -> str:
    """Board row `r`: its number (taking the row's shift), White's edge, its cells as round
    spots (a stone or the wood), White's edge. One table a row, its cells GAP apart."""
    board, stones, last = state.board, state.stones, state.last
    width = tier.shift * r + NUMBER_WIDTH - 2 * GAP
    edge = f"<td{look_of(tier.white_edge)}>"
    spots = []
    for at in range(r * board.size, (r + 1) * board.size):
        code = stones[at]
        look = tier.empty if code == EMPTY else \
            classes(tier.stones[code], tier.ringed if at == last else None)
        spots.append(cell(board.names[at], "", look) if tier.named else f"<td{look_of(look)}>")
    return (f"<table{look_of(_SPOTS)} data-row={r + 1}><tr>"
            f'<td{look_of(tier.number)} style="{css(min_width=width)}">{r + 1}{edge}'
            f'{"".join(spots)}{edge}</table>\n')

