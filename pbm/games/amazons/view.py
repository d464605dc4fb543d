"""Amazons as text: the board with its coordinates, the last move marked, the status under it.

Amazons hides nothing: every viewer sees the same board and lines. The picture
(picture.py) draws the same position and prints the same status lines.
"""

from __future__ import annotations

from pbm.games.amazons.board import ARROW, FILES, NAME, SIZE, names, square
from pbm.games.amazons.moves import count_moves, trapped
from pbm.games.amazons.state import ARROW_MARK, MARKS, SEATS, AmazonsState
from pbm.games.text import and_list

EMPTY_MARK = "."
LEFT_MARK = "(.)"  # the square the last move's amazon left


def notation_of(origin: int, destination: int, arrow: int) -> str:
    return f"{NAME[origin]}-{NAME[destination]}/{NAME[arrow]}"


def board_lines(state: AmazonsState) -> list[str]:
    """Rank 10 at the top (Black's side), rank 1 at the bottom (White's), A-J across; the
    last move's amazon and arrow in brackets and the square it left as (.)."""
    last = state.last
    letters = "     " + "  ".join(FILES)
    lines = [letters]
    for rank in range(SIZE, 0, -1):
        cells = []
        for file in range(SIZE):
            sq = square(file, rank)
            mark = _mark(state, sq)
            if last is not None and sq in (last.destination, last.arrow):
                cells.append(f"[{mark}]")
            elif last is not None and sq == last.origin:
                cells.append(LEFT_MARK)
            else:
                cells.append(f" {mark} ")
        lines.append(f"{rank:>3} " + "".join(cells) + f" {rank}")
    lines.append(letters)
    return lines


def _mark(state: AmazonsState, sq: int) -> str:
    code = state.board[sq]
    if code == ARROW:
        return ARROW_MARK
    for seat, squares in enumerate(state.amazons):
        if sq in squares:
            return MARKS[seat]
    return EMPTY_MARK


def last_move_line(state: AmazonsState) -> str | None:
    last = state.last
    if last is None:
        return None
    mover = SEATS[1 - state.turn]
    marks = f"[{MARKS[1 - state.turn]}] moved, [{ARROW_MARK}] its arrow"
    if last.arrow == last.origin:
        marks += " shot where it was"
    else:
        marks += f", {LEFT_MARK} where it was"
    return f"Last move: {mover} {notation_of(*last)}: {marks}."


def status_lines(state: AmazonsState, marks: bool = True) -> list[str]:
    """What the board shows besides its squares and the last move, one line each: the
    arrows, each seat's amazons (and which are trapped), what the seat to move can do.
    `marks`: each seat's letter on the text board after its name (a picture has discs)."""
    lines = []
    empty = SIZE * SIZE - 2 * len(state.amazons[0]) - state.plies
    lines.append(f"Arrows shot: {state.plies}; empty squares left: {empty}.")
    for seat, squares in enumerate(state.amazons):
        named = f"{SEATS[seat]} ({MARKS[seat]})" if marks else SEATS[seat]
        line = f"{named}: amazons on {and_list(names(squares))}"
        stuck = trapped(state.board, squares)
        if stuck:
            line += f"; trapped: {and_list(names(stuck))}"
        lines.append(line + ".")
    mover = SEATS[state.turn]
    if state.finished:
        lines.append(f"{mover} to move has no legal move: {SEATS[1 - state.turn]} wins.")
    else:
        count = count_moves(state.board, state.amazons[state.turn])
        moves = "legal move" if count == 1 else "legal moves"
        lines.append(f"{mover} to move: {count:,} {moves}.")
    return lines


def render(state: AmazonsState) -> str:
    last = last_move_line(state)
    lines = [*board_lines(state), "", *([] if last is None else [last]), *status_lines(state)]
    return "\n".join(lines) + "\n"
