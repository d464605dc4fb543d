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
    Sheet,
    caption,
    cell,
    classes,
    css,
    disc,
    frame,
    grid,
    legend,
    table,
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
        parts.append(f'<div class="{_BOARDS}">' + "".join(boards) + "</div>")
    parts.append(_pipe_legend(state.phase in (Phase.PLAY, Phase.OVER), bool(shown)))
    parts.append(caption(last.words))
    return frame("".join(parts))


# ----- the style sheet -------------------------------------------------------------------------
# Every rule at import, in an order where each modifier comes after what it modifies: the
# shapes first, then the fills (_FILL) that colour a shape as its last class. A disc, a
# swatch or a pipe's centre is a shape and a fill, so that a dozen colours make a dozen
# short rules, not a dozen copies of a disc's.

SHEET = Sheet("p")
_GRID_STYLE = css(border=f"2px solid {EDGE}")
_PAWN_GRID = SHEET.grid("g", SQUARE, _GRID_STYLE)
_PIPE_GRID = SHEET.grid("q", NODE, _GRID_STYLE)
_SQUARE = SHEET.rule("s", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              vertical_align="middle", background=BOARD,
                              border=f"1px solid {GRID}"))
_PAWN = SHEET.disc("d", 26, LIGHT)  # on the pawn board
_MARK = SHEET.disc("r", PIPE_WIDTH, LIGHT)  # a reading or a guess, on a pipeline's board
_SMALL = SHEET.disc("e", 12, LIGHT)  # in a legend, and the pawns off the board
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
# A square of a pipeline's board: wood round the centre of the pipe's square (_CENTRE)...
_NODE = SHEET.rule("n", css(width=NODE, height=NODE, padding=0, background=BOARD,
                            text_align="center", vertical_align="middle"))
# ... alone where no pipe leaves the square (most of them, and all of a secret pipeline)...
_CENTRE = SHEET.rule("x", css(display="inline-block", width=PIPE_WIDTH, height=PIPE_WIDTH,
                              background=SLOT, vertical_align="middle", line_height=0))
# ... or with the pipe's arms: a table of three rows, the arm up, the middle (the arms to
# the left and right are its sides: wood, or pipe by _LEFT, _RIGHT, _ACROSS), the arm down.
_ARMS = SHEET.rule("t", css(border_collapse="separate", border_spacing=0))
_WOOD = f"{ARM}px solid {BOARD}"
_NO_ARM = SHEET.rule("v", css(height=ARM, padding=0))
_ARM = SHEET.rule("u", css(width=PIPE_WIDTH, height=ARM, padding=0, background=PIPE,
                           border_left=_WOOD, border_right=_WOOD))
_MIDDLE = SHEET.rule("m", css(width=PIPE_WIDTH, height=PIPE_WIDTH, padding=0, background=PIPE,
                              border_left=_WOOD, border_right=_WOOD, text_align="center",
                              vertical_align="middle", line_height="0"))
_LEFT = SHEET.rule("ml", css(border_left_color=PIPE))
_RIGHT = SHEET.rule("mr", css(border_right_color=PIPE))
_ACROSS = SHEET.rule("mb", css(border_left_color=PIPE, border_right_color=PIPE))
_FILL = {colour: SHEET.rule("z" + name, css(background=colour)) for name, colour in (
    ("b", PAWN[Colour.BLUE]), ("y", PAWN[Colour.YELLOW]), ("g", READING[Reading.GREEN]),
    ("w", LIGHT), ("m", READING[Reading.MISS]), ("p", PIPE), ("o", HOLE), ("s", SLOT),
    ("h", COIN["H"]), ("t", COIN["T"]), ("l", LAST_TINT))}


def _filled(shape: str, colour: str, *more: str | None) -> str:
    """The classes of `shape` in `colour` (the shapes' own fill needs no second class)."""
    base = SHEET.rules[shape].split("background:", 1)[1].split(";", 1)[0] if (
        "background:" in SHEET.rules[shape]) else None
    return classes(shape, None if colour == base else _FILL[colour], *more)


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
                ring = RINGED if name in last.pawns else OUTLINED
                inner = disc(_filled(_PAWN, PAWN[pawns[name]], ring))
            elif coin:
                look = _LAST_COIN if name == last.coin else _COIN
                inner = f'<b class="{look}">{coin}</b>'
            else:
                inner = ""
            cells.append(cell(name, inner, _filled(_SQUARE, background)))
        rows.append(cells)
    return grid(_PAWN_GRID, rows, COLUMNS, [str(row + 1) for row in range(SIZE)])


def _swatch(colour: str) -> str:
    return f'<span class="{classes(_SWATCH, _FILL[colour])}"></span>'


_BOARD_LEGEND = legend([
    (_swatch(COIN["H"]), "head coin"),
    (_swatch(COIN["T"]), "tail coin"),
    ("", "pawns:"),
    *((disc(_filled(_SMALL, PAWN[c], OUTLINED)), c.word) for c in Colour),
])
_OFF = {c: disc(_filled(_SMALL, PAWN[c], OUTLINED)) + "&nbsp;" for c in Colour}


def _supply(state: State) -> str:
    left = state.supply()
    pawns = "".join(_OFF[c] for c in Colour for _ in range(left[c]))
    return f'<div class="{_OFF_BOARD}">Off the board:&nbsp;{pawns or "none"}</div>'


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
            node = _node(name in path, pipe is not None and name in pipe.holes,
                         frozenset(side for n, side in sides.items() if (name, n) in links),
                         readings.get(name), coins.get(name), name in guessed)
            cells.append(cell(f"{SEATS[seat]}:{name}", node, _NODE))
        rows.append(cells)
    board = grid(_PIPE_GRID, rows, COLUMNS, [str(row + 1) for row in range(SIZE)])
    title = f"Your pipeline ({SEATS[seat]})" if seat == viewer else f"{SEATS[seat]}'s pipeline"
    note = "" if pipe else _secret_note(state, seat)
    head = f'<div class="{_TITLE}">{title}<span class="{_NOTE}">{note}</span></div>'
    return f'<div class="{_BOX}">{head}{board}</div>'


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
          coin: str | None, guessed: bool) -> str:
    """A square of a pipeline's board: the pipe's centre and its `arms` (the sides it leaves
    by). Squares repeat from board to board and mail to mail, so each kind is made once."""
    centre = HOLE if hole else PIPE if on_pipe else SLOT
    ring = RINGED if guessed else OUTLINED
    if reading is not None:
        mark = "×" if reading is Reading.MISS else ""
        inner = disc(_filled(_MARK, READING[reading], ring), mark)
    elif guessed:
        inner = disc(_filled(_MARK, centre, RINGED))
    elif coin:
        inner = f'<b class="{_PIPE_COIN if on_pipe else _NODE_COIN}">{coin}</b>'
    else:
        inner = ""
    if not arms:
        # The centre alone, without the table that draws arms: it keeps mails small.
        return f'<span class="{_filled(_CENTRE, centre)}">{inner}</span>'
    across = {"left", "right"} & arms
    sides = _ACROSS if len(across) == 2 else _LEFT if "left" in across else (
        _RIGHT if across else None)

    def upright(side: str) -> str:
        return f'<tr><td class="{_ARM if side in arms else _NO_ARM}"></td></tr>\n'

    return (f'<table role="presentation" class="{_ARMS}">' + upright("up")
            + f'<tr><td class="{_filled(_MIDDLE, centre, sides)}">{inner}</td></tr>\n'
            + upright("down") + "</table>")


def _pipe_legend(readings: bool, pipes: bool) -> str:
    """What the marks on the pipelines' boards mean: readings in play, pipes where drawn."""
    entries = []
    if readings:
        entries = [("", "White pawns read:")] + [
            (disc(_filled(_SMALL, READING[r], OUTLINED), "×" if r is Reading.MISS else ""),
             r.value)
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

