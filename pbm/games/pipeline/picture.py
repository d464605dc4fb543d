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
    caption,
    cell,
    css,
    disc,
    frame,
    grid,
    legend,
)
from pbm.games.pipeline.flow import COLUMNS, SIZE, Colour, Pipe, Reading, cell_at, coords
from pbm.games.pipeline.state import SEATS, GuessEntry, Phase, ProbeEntry, State
from pbm.games.pipeline.view import shown_pipes

SQUARE = 44  # a square of the pawn board, in pixels
NODE = 36  # a square of a pipeline's board: 10 + 16 + 10, the pipe 16 wide
PIPE_WIDTH = 16
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
    parts = [_pawn_board(state, last), _board_legend()]
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
        parts.append(f'<div style="{css(text_align="center", margin="6px 0 0")}">'
                     + "".join(boards) + "</div>")
    parts.append(_pipe_legend(state.phase in (Phase.PLAY, Phase.OVER), bool(shown)))
    parts.append(caption(last.words))
    return frame("".join(parts))


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
            style = css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                        vertical_align="middle", background=background,
                        border=f"1px solid {GRID}")
            if name in pawns:
                ring = LAST if name in last.pawns else None
                inner = disc(26, PAWN[pawns[name]], ring=ring)
            elif coin:
                colour = LAST if name == last.coin else EDGE
                inner = f'<b style="{css(font_size=18, color=colour)}">{coin}</b>'
            else:
                inner = ""
            cells.append(cell(name, inner, style))
        rows.append(cells)
    return grid(rows, COLUMNS, [str(row + 1) for row in range(SIZE)], SQUARE,
                css(border=f"2px solid {EDGE}"))


def _board_legend() -> str:
    return legend([
        (_swatch(COIN["H"]), "head coin"),
        (_swatch(COIN["T"]), "tail coin"),
        ("", "pawns:"),
        *((disc(12, PAWN[c]), c.word) for c in Colour),
    ])


def _supply(state: State) -> str:
    left = state.supply()
    pawns = "".join(disc(12, PAWN[c]) + "&nbsp;" for c in Colour for _ in range(left[c]))
    return (f'<div style="{css(font_size=12, margin="2px 0 4px")}">'
            f"Off the board:&nbsp;{pawns or 'none'}</div>")


def _swatch(colour: str) -> str:
    style = css(display="inline-block", width=12, height=12, background=colour,
                border=f"1px solid {EDGE}", vertical_align="middle")
    return f'<span style="{style}"></span>'


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
            cells.append(cell(f"{SEATS[seat]}:{name}", node, _NODE_STYLE))
        rows.append(cells)
    board = grid(rows, COLUMNS, [str(row + 1) for row in range(SIZE)], NODE,
                 css(border=f"2px solid {EDGE}"))
    title = f"Your pipeline ({SEATS[seat]})" if seat == viewer else f"{SEATS[seat]}'s pipeline"
    note = "" if pipe else _secret_note(state, seat)
    head = (f'<div style="{css(font_size=12, font_weight="bold", margin="0 0 2px")}">{title}'
            f'<span style="{css(font_weight="normal")}">{note}</span></div>')
    box = css(display="inline-block", vertical_align="top", margin="0 2px 6px")
    return f'<div style="{box}">{head}{board}</div>'


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
    centre_colour = HOLE if hole else PIPE if on_pipe else SLOT
    if reading is not None:
        mark = "×" if reading is Reading.MISS else ""
        inner = disc(16, READING[reading], ring=LAST if guessed else None, label=mark)
    elif guessed:
        inner = disc(16, centre_colour, ring=LAST)
    elif coin:
        colour = LIGHT if on_pipe else EDGE
        inner = f'<b style="{css(font_size=12, color=colour)}">{coin}</b>'
    else:
        inner = ""
    if not arms:
        # No pipe leaves the square (most of them, and all of a secret pipeline): its
        # centre alone, without the 3x3 table that draws arms. It keeps mails small.
        style = css(display="inline-block", width=PIPE_WIDTH, height=PIPE_WIDTH,
                    background=centre_colour, vertical_align="middle", line_height=0)
        return f'<span style="{style}">{inner}</span>'
    edge = (NODE - PIPE_WIDTH) // 2

    def part(width: int, height: int, colour: str, content: str = "") -> str:
        style = css(width=width, height=height, padding=0, background=colour,
                    text_align="center", vertical_align="middle", line_height="0")
        return f'<td style="{style}">{content}</td>'

    def arm(side: str, width: int, height: int) -> str:
        return part(width, height, PIPE if side in arms else BOARD)

    rows = [
        part(edge, edge, BOARD) + arm("up", PIPE_WIDTH, edge) + part(edge, edge, BOARD),
        arm("left", edge, PIPE_WIDTH) + part(PIPE_WIDTH, PIPE_WIDTH, centre_colour, inner)
        + arm("right", edge, PIPE_WIDTH),
        part(edge, edge, BOARD) + arm("down", PIPE_WIDTH, edge) + part(edge, edge, BOARD),
    ]
    style = css(border_collapse="collapse", border_spacing=0, width=NODE, height=NODE)
    return (f'<table role="presentation" style="{style}">'
            + "".join(f"<tr>{row}</tr>" for row in rows) + "</table>")


_NODE_STYLE = css(width=NODE, height=NODE, padding=0, background=BOARD, text_align="center",
                  vertical_align="middle")


def _pipe_legend(readings: bool, pipes: bool) -> str:
    """What the marks on the pipelines' boards mean: readings in play, pipes where drawn."""
    entries = []
    if readings:
        entries = [("", "White pawns read:")] + [
            (disc(12, READING[r], label="×" if r is Reading.MISS else ""), r.value)
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

