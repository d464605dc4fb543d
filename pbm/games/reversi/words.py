"""Reversi in words: the text board, the lines under it, and the final score's reason.

The picture (picture.py) draws the same board in HTML and prints the same lines under it.
"""

from __future__ import annotations

from textwrap import wrap

from pbm.games.reversi.board import COLUMNS, SIZE, SQUARES, by_column, count, name, square
from pbm.games.reversi.state import MARKS, PASS, SEATS, ReversiState
from pbm.games.text import and_list, plural

WIDTH = 76  # the longest line of a board mail
EMPTY_MARK = "."
# The last move's disc is shown [#], the discs it turned over (#).
PLACED = "[{}]"
TURNED = "({})"


def cell_text(state: ReversiState, sq: int) -> str:
    holder = state.at(sq)
    if holder is None:
        return EMPTY_MARK
    mark = MARKS[holder]
    if sq == state.last:
        return PLACED.format(mark)
    if state.turned >> sq & 1:
        return TURNED.format(mark)
    return mark


def board_text(state: ReversiState) -> str:
    """The board with its column letters above and below, row numbers either side; row 1
    at the top (A1 is the top left corner)."""
    letters = "    " + "".join(f"{letter:^4}" for letter in COLUMNS).rstrip()
    lines = [letters]
    for row in range(SIZE):
        cells = "".join(f"{cell_text(state, square(col, row)):^4}" for col in range(SIZE))
        lines.append(f"{row + 1:>2}  {cells}{row + 1}")
    lines.append(letters)
    return "\n".join(lines) + "\n"


def counts_line(state: ReversiState, drawn: bool = False) -> str:
    """The discs of each colour and the empty squares; `drawn`: for the picture, where the
    colours need no marks and spaces do not line up."""
    black, white = count(state.black), count(state.white)
    empty = SQUARES - black - white
    if drawn:
        return (f"{SEATS[0]}: {plural(black, 'disc')}, {SEATS[1]}: {plural(white, 'disc')},"
                f" empty: {plural(empty, 'square')}.")
    return (f"{SEATS[0]} ({MARKS[0]}): {plural(black, 'disc')}    "
            f"{SEATS[1]} ({MARKS[1]}): {plural(white, 'disc')}    "
            f"Empty: {plural(empty, 'square')}")


def last_move_line(state: ReversiState, drawn: bool = False) -> str:
    """The last move, and the discs it turned over by how the board marks them: [#] and
    (#) on the text board, a ring and tinted squares in the picture (`drawn`)."""
    if state.last is None:
        return f"No move yet: {SEATS[0]} moves first."
    mover = state.last_mover
    if state.last == PASS:
        return f"Last move: {SEATS[mover]} passed, having no legal move."
    mark = MARKS[mover]
    turned = [name(sq) for sq in by_column(state.turned)]
    if drawn:
        placed, marked = ", ringed", "on a tinted square" if len(turned) == 1 else \
            "on tinted squares"
    else:
        placed, marked = f" {PLACED.format(mark)}", f"marked {TURNED.format(mark)}"
    return (f"Last move: {SEATS[mover]} {name(state.last)}{placed}; it turned over"
            f" {plural(len(turned), 'disc')}, {marked}: {and_list(turned)}.")


def status(state: ReversiState, drawn: bool = False) -> list[str]:
    """What the lines under the board say, a sentence each: the disc counts, the last
    move, and what is special about the turn (a pass to make, the end). `drawn`: as the
    picture says it, of its own marks."""
    sentences = [counts_line(state, drawn), last_move_line(state, drawn)]
    if state.finished:
        sentences.append("Neither player can move: the game is over.")
    elif state.must_pass:
        sentences.append(f"{SEATS[state.mover]} has no legal move and must pass.")
    return sentences


def status_lines(state: ReversiState) -> list[str]:
    """status() wrapped to the width of a mail (a move may turn over a score of discs)."""
    return [line for sentence in status(state) for line in wrap(sentence, WIDTH)]


def score_reason(seats: tuple[str, ...], discs: tuple[int, int]) -> str:
    """Why the game ended as it did, with the score by the World Othello Federation's rule:
    the empty squares count for the winner (shared in a draw)."""
    empty = SQUARES - sum(discs)
    gone = [seat for seat in (0, 1) if not discs[seat]]
    if not empty:
        ended = "The board is full"
    elif gone:
        ended = f"{seats[gone[0]]} has no disc left, with {plural(empty, 'square')} empty"
    else:
        ended = f"Neither player can move, with {plural(empty, 'square')} empty"
    if discs[0] == discs[1]:
        shared = f" ({SQUARES // 2} to {SQUARES // 2} with the empty squares shared)" \
            if empty else ""
        return f"{ended}: both have {plural(discs[0], 'disc')}, a draw{shared}."
    winner = 0 if discs[0] > discs[1] else 1
    won, lost = discs[winner], discs[1 - winner]
    scored = f", and scores {won + empty} to {lost} with the empty squares, which go to" \
        " the winner" if empty else ""
    return f"{ended}: {seats[winner]} has more discs, {won} to {lost}{scored}."
