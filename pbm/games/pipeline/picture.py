"""Pipeline drawn for mails: the pawn board, then one board per pipeline with its readings.

Everything comes from what render() shows the same viewer: the public board and log, and
the pipelines that view.shown_pipes() lets this viewer see (their own; both at the end).
The readings are those stored in the log, never worked out again from a pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    EDGE,
    GRID,
    LAST,
    LAST_TINT,
    LIGHT,
    OUTLINED,
    RINGED,
    Grid,
    Sheet,
    caption,
    classes,
    css,
    disc,
    frame,
    grid,
    legend,
    look_of,
    spot,
)
from pbm.games.pipeline.flow import COLUMNS, SIZE, Colour, Pipe, Reading, cell_at, coords
from pbm.games.pipeline.state import SEATS, GuessEntry, Phase, ProbeEntry, State
from pbm.games.pipeline.view import shown_pipes

SQUARE = 44  # a square of the pawn board, in pixels
NODE = 36  # a square of a pipeline's board: 10 + 16 + 10, the pipe 16 wide
PIPE_WIDTH = 16
ARM = (NODE - PIPE_WIDTH) // 2  # from the pipe's centre square to the square's side
PAWN = {Colour.BLUE: "#2f6bd8", Colour.YELLOW: "#f3c623", Colour.WHITE: LIGHT}
COIN = {"H": "#d9a521", "T": "#aeb5bd"}  # the head coin gold, the tail coin silver
READING = {
    Reading.BLUE: PAWN[Colour.BLUE],
    Reading.YELLOW: PAWN[Colour.YELLOW],
    Reading.GREEN: "#3c9a46",
    Reading.EMPTY: LIGHT,
    Reading.MISS: "#c8c8c8",
}
PIPE = "#7f8e9b"
HOLE = "#2b2b2b"
SLOT = "#f1d9a6"  # a square no pipe is drawn through


@dataclass(frozen=True)
class Highlight:
    """What the last move changed: squares left or reached, pawns placed, coins, guesses."""

    squares: frozenset[str] = frozenset()
    pawns: frozenset[str] = frozenset()
    coin: str | None = None
    guess: tuple[int, frozenset[str]] | None = None  # (seat whose pipeline, squares named)
    words: tuple[str, ...] = ()


def draw(state: State, viewer: Viewer) -> str:
    """The whole picture for `viewer`."""
    last = _last_move(state)
    shown = shown_pipes(state, viewer)
    parts = [_pawn_board(state, last), _BOARD_LEGEND]
    boards = []
    if state.phase in (Phase.PLAY, Phase.OVER):
        parts.append(_supply(state))
        readings = state.last_readings()
        boards = [
            _pipe_board(state, seat, viewer, state.pipes[seat] if seat in shown else None,
                        dict(readings[seat]) if readings else {}, last)
            for seat in (0, 1)
        ]
    elif shown:  # while pipelines are being sent, the viewer's own is drawn on its board
        boards = [_pipe_board(state, shown[0], viewer, state.pipes[shown[0]], {}, last)]
    if boards:
        # No line break between the boards: they are inline blocks, and it would be a space.
        parts.append(f'<div{look_of(_BOARDS)}>' + "".join(boards) + "</div>")
    parts.append(_pipe_legend(state.phase in (Phase.PLAY, Phase.OVER), bool(shown)))
    parts.append(caption(last.words))
    # A line each (between blocks, a line break draws nothing): a mail's line may not pass
    # 998 bytes, and the legends and the pawns off the board together would.
    return frame("\n".join(part for part in parts if part))


# ----- the style sheet -------------------------------------------------------------------------
# Every rule at import, each modifier after what it modifies: the shapes first, then their
# sizes and arms, then the fills (_FILL) that colour a shape as its last class. A disc, a
# swatch or a pipe's centre is a shape and a fill, so that a dozen colours make a dozen
# short rules, not a dozen copies of a disc's.

SHEET = Sheet("p")
_PAWN_GRID = SHEET.grid("g", SQUARE, css(border=f"2px solid {EDGE}"))
# A pipeline's board: the pawn board's frame and names, for smaller squares.
_PIPE_GRID = Grid(
    _PAWN_GRID.table,
    classes(_PAWN_GRID.column, SHEET.rule("qc", css(width=NODE))),
    classes(_PAWN_GRID.row, SHEET.rule("qr", css(height=NODE, line_height=f"{NODE}px"))))
_SQUARE = SHEET.rule("s", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              vertical_align="middle", background=BOARD,
                              border=f"1px solid {GRID}"))
_COIN = SHEET.rule("c", css(font_size=18, color=EDGE))  # a coin's letter on the pawn board
_LAST_COIN = SHEET.rule("cl", css(font_size=18, color=LAST))
_NODE_COIN = SHEET.rule("k", css(font_size=12, color=EDGE))  # ... on a pipeline's board
_PIPE_COIN = SHEET.rule("kp", css(font_size=12, color=LIGHT))  # ... where a pipe passes
_SWATCH = SHEET.rule("w", css(display="inline-block", width=12, height=12,
                              border=f"1px solid {EDGE}", vertical_align="middle"))
_OFF_BOARD = SHEET.rule("f", css(font_size=12, margin="2px 0 4px"))
_BOARDS = SHEET.rule("j", css(text_align="center", margin="6px 0 0"))
_BOX = SHEET.rule("i", css(display="inline-block", vertical_align="top", margin="0 2px 6px"))
_TITLE = SHEET.rule("h", css(font_size=12, font_weight="bold", margin="0 0 2px"))
_NOTE = SHEET.rule("hn", css(font_weight="normal"))

# A disc is a reading's (or a guess's) on a pipeline's board; a pawn's is bigger, and the
# legend's smaller.
_DISC = SHEET.disc("d", PIPE_WIDTH, LIGHT)
_PAWN = SHEET.rule("dp", css(width=26, height=26, font_size=13, line_height="22px"))
_SMALL = SHEET.rule("ds", css(width=12, height=12, line_height="8px"))

# A square of a pipeline's board: wood, holding the pipe's centre (the table a browser
# makes round a lettered middle, below, takes its borders apart from the square)...
_NODE = SHEET.rule("n", css(width=NODE, height=NODE, padding=0, background=BOARD,
                            text_align="center", vertical_align="middle",
                            border_collapse="separate"))
# ... alone where no pipe leaves the square (most of them, and all of a secret pipeline's)...
_CENTRE = SHEET.rule("x", css(display="inline-block", width=PIPE_WIDTH, height=PIPE_WIDTH,
                              background=SLOT, vertical_align="middle", line_height=0))
# ... or with its arms: the arm up, the middle (the centre, whose sides are the arms to the
# left and right: wood, or pipe by _LEFT, _RIGHT, _ACROSS) and the arm down, stacked as
# blocks; with no arm up (or down), they stand at the square's bottom (top).
_TOP = SHEET.rule("nt", css(vertical_align="top"))
_BOTTOM = SHEET.rule("nb", css(vertical_align="bottom"))
_ARM = SHEET.rule("u", css(display="block", width=PIPE_WIDTH, height=ARM, margin="0 auto",
                           background=PIPE))
_WOOD = f"{ARM}px solid {BOARD}"
_MIDDLE = SHEET.rule("m", css(display="block", width=PIPE_WIDTH, height=PIPE_WIDTH,
                              background=PIPE, border_left=_WOOD, border_right=_WOOD,
                              text_align="center", line_height=0))
_LEFT = SHEET.rule("ml", css(border_left_color=PIPE))
_RIGHT = SHEET.rule("mr", css(border_right_color=PIPE))
_ACROSS = SHEET.rule("mb", css(border_left_color=PIPE, border_right_color=PIPE))
# A coin's letter is centred on the pipe as in a table's cell: its middle is one.
_LETTERED = SHEET.rule("mc", css(display="table-cell", vertical_align="middle"))

# The colours a shape takes as its last class; the shape's own needs none (_OWN).
_FILL = {colour: SHEET.rule("z" + name, css(background=colour)) for name, colour in (
    ("b", PAWN[Colour.BLUE]), ("y", PAWN[Colour.YELLOW]), ("g", READING[Reading.GREEN]),
    ("m", READING[Reading.MISS]), ("p", PIPE), ("o", HOLE), ("s", SLOT), ("h", COIN["H"]),
    ("t", COIN["T"]), ("l", LAST_TINT))}
_OWN = {_SQUARE: BOARD, _DISC: LIGHT, _CENTRE: SLOT, _MIDDLE: PIPE}


def _filled(shape: str, colour: str, *more: str | None) -> str:
    """The classes of `shape` in `colour`, then `more` (None left out)."""
    return classes(shape, *more, None if colour == _OWN.get(shape) else _FILL[colour])


def _disc(colour: str, ring: str, size: str | None = None, label: str = "") -> str:
    """A disc of `colour` with its `ring` (OUTLINED or RINGED), of `size` (_PAWN, _SMALL)."""
    return disc(_filled(_DISC, colour, size, ring), label)


# ----- the pawn board ------------------------------------------------------------------------


def _pawn_board(state: State, last: Highlight) -> str:
    pawns = state.board
    coins = {state.head: "H", state.tail: "T"}
    rows = []
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            name = cell_at(col, row)
            coin = coins.get(name)
            background = COIN[coin] if coin else LAST_TINT if name in last.squares else BOARD
            if name in pawns:
                inner = _disc(PAWN[pawns[name]], RINGED if name in last.pawns else OUTLINED,
                              _PAWN)
            elif coin:
                inner = f'<b{look_of(_LAST_COIN if name == last.coin else _COIN)}>{coin}</b>'
            else:
                inner = ""
            cells.append(spot(inner, _filled(_SQUARE, background)))
        rows.append(cells)
    # Named by their place, as the pipelines' squares are (kit.grid): "A1" and so on.
    return grid(_PAWN_GRID, rows, COLUMNS, [str(row + 1) for row in range(SIZE)], "")


def _swatch(colour: str) -> str:
    return f'<span{look_of(classes(_SWATCH, _FILL[colour]))}></span>'


_BOARD_LEGEND = legend([
    (_swatch(COIN["H"]), "head coin"),
    (_swatch(COIN["T"]), "tail coin"),
    ("", "pawns:"),
    *((_disc(PAWN[c], OUTLINED, _SMALL), c.word) for c in Colour),
])
_OFF = {c: _disc(PAWN[c], OUTLINED, _SMALL) + "&nbsp;" for c in Colour}


def _supply(state: State) -> str:
    left = state.supply()
    pawns = "".join(_OFF[c] for c in Colour for _ in range(left[c]))
    return f'<div{look_of(_OFF_BOARD)}>Off the board:&nbsp;{pawns or "none"}</div>'


# ----- a pipeline's board --------------------------------------------------------------------


def _pipe_board(state: State, seat: int, viewer: Viewer, pipe: Pipe | None,
                readings: Mapping[str, Reading], last: Highlight) -> str:
    """One pipeline's board: the readings on it, and the pipe itself when it may be seen."""
    path = pipe.path if pipe else ()
    links = set(zip(path, path[1:])) | set(zip(path[1:], path))
    guessed = last.guess[1] if last.guess and last.guess[0] == seat else frozenset()
    coins = {state.head: "H", state.tail: "T"}
    rows = []
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            name = cell_at(col, row)
            sides = _beside(name)
            look, inner = _node(
                name in path, pipe is not None and name in pipe.holes,
                frozenset(side for n, side in sides.items() if (name, n) in links),
                readings.get(name), coins.get(name), name in guessed)
            cells.append(spot(inner, look))
        rows.append(cells)
    # Its cells are named by their place (kit.grid): their names would be a KB of a mail.
    board = grid(_PIPE_GRID, rows, COLUMNS, [str(row + 1) for row in range(SIZE)], SEATS[seat])
    title = f"Your pipeline ({SEATS[seat]})" if seat == viewer else f"{SEATS[seat]}'s pipeline"
    note = "" if pipe else f'<span{look_of(_NOTE)}>{_secret_note(state, seat)}</span>'
    head = f'<div{look_of(_TITLE)}>{title}{note}</div>'
    return f'<div{look_of(_BOX)}>{head}\n{board}</div>'


def _secret_note(state: State, seat: int) -> str:
    if state.pipes[seat] is None:
        return ": not sent yet"
    return ": sent" if state.phase is Phase.PIPES else ": secret"


def _beside(name: str) -> dict[str, str]:
    """The squares beside `name` by the side they lie on: up, down, left, right."""
    col, row = coords(name)
    steps = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
    return {cell_at(col + dc, row + dr): side for side, (dc, dr) in steps.items()
            if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE}


@cache
def _node(on_pipe: bool, hole: bool, arms: frozenset[str], reading: Reading | None,
          coin: str | None, guessed: bool) -> tuple[str, str]:
    """A square of a pipeline's board, its classes and what it holds: the pipe's centre and
    its `arms` (the sides it leaves by). Squares repeat from board to board and mail to
    mail, so each kind is made once."""
    centre = HOLE if hole else PIPE if on_pipe else SLOT
    letter = None
    if reading is not None:
        mark = "×" if reading is Reading.MISS else ""
        inner = _disc(READING[reading], RINGED if guessed else OUTLINED, label=mark)
    elif guessed:
        inner = _disc(centre, RINGED)
    elif coin:
        inner, letter = f'<b{look_of(_PIPE_COIN if on_pipe else _NODE_COIN)}>{coin}</b>', _LETTERED
    else:
        inner = ""
    if not arms:
        return _NODE, f'<span{look_of(_filled(_CENTRE, centre))}>{inner}</span>'
    middle = f'<span{look_of(_filled(_MIDDLE, centre, _SIDES[arms & _ACROSS_ARMS], letter))}>'
    arm = f'<span{look_of(_ARM)}></span>'
    up, down = "up" in arms, "down" in arms
    look = _NODE if up == down else classes(_NODE, _TOP if up else _BOTTOM)
    return look, (arm if up else "") + middle + inner + "</span>" + (arm if down else "")


_ACROSS_ARMS = frozenset({"left", "right"})
_SIDES = {frozenset(): None, frozenset({"left"}): _LEFT, frozenset({"right"}): _RIGHT,
          _ACROSS_ARMS: _ACROSS}


def _pipe_legend(readings: bool, pipes: bool) -> str:
    """What the marks on the pipelines' boards mean: readings in play, pipes where drawn."""
    entries = []
    if readings:
        entries = [("", "White pawns read:")] + [
            (_disc(READING[r], OUTLINED, _SMALL, "×" if r is Reading.MISS else ""), r.value)
            for r in (Reading.BLUE, Reading.YELLOW, Reading.GREEN, Reading.EMPTY, Reading.MISS)]
    if pipes:
        entries += [(_swatch(PIPE), "pipe"), (_swatch(HOLE), "hole")]
    return legend(entries) if entries else ""


# ----- the last move -------------------------------------------------------------------------


def _last_move(state: State) -> Highlight:
    """What the last public move changed, and a line saying what it was."""
    if state.log:
        entry = state.log[-1]
        who = SEATS[entry.seat]
        if isinstance(entry, GuessEntry):
            verdict = "right" if entry.right else "wrong"
            cells = ",".join(entry.guess.cells)
            return Highlight(guess=(1 - entry.seat, frozenset(entry.guess.cells)),
                             words=(f"Last move: {who} guessed {cells}, {verdict}.",))
        assert isinstance(entry, ProbeEntry)
        steps = entry.probe.steps
        text = ",".join(step.notation() for step in steps)
        moved = {step.source for step in steps if step.source is not None}
        reached = {step.target for step in steps}
        return Highlight(squares=frozenset(moved | reached), pawns=frozenset(reached),
                         words=(f"Last move: {who}'s probe {text}.",))
    if state.phase is Phase.TAIL_COIN:
        return Highlight(coin=state.head, words=(f"Last move: the head coin on {state.head}.",))
    if state.tail is not None and state.pipes == (None, None):
        return Highlight(coin=state.tail, words=(f"Last move: the tail coin on {state.tail}.",))
    return Highlight()

