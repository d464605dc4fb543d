"""Outguess move lines: squares, steps, drops and guesses, read from text and spelled back."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbm.games.base import InvalidMove

SIZE = 8
COLUMNS = "ABCDEFGH"

# How a line is written, quoted in every error about syntax.
HOW_TO_WRITE = (
    "write steps like `A8-B8`, drops like `+C7h` (heads up) or `+C7t` (tails up),"
    " `+C7h/C8` to name the anchor, and end with your guess, e.g. `guess E1`"
)

_CELL = r"[a-z]\d+"
# Mail programs like to turn `-` into a dash, so dashes are read as `-` too.
_ITEM_RE = re.compile(
    rf"""
    (?P<step>(?P<src>{_CELL})\s*(?P<op>[-x\u2013\u2014])\s*(?P<dst>{_CELL}))
    | (?P<drop>\+\s*(?P<at>{_CELL})\s*(?P<side>[a-z](?![a-z0-9]))?(?:\s*/\s*(?P<anchor>{_CELL}))?)
    | (?P<guess>guess\s*[:=]?\s*(?P<named>{_CELL})?)
    """,
    re.IGNORECASE | re.VERBOSE,
)
# Items are separated by commas or semicolons; whitespace alone also works between items.
_SEPARATORS = re.compile(r"[\s,;]*")
_TO_NEXT_COMMA = re.compile(r"[^,;]*")


def cell_name(square: int) -> str:
    """Square index (row 1 first, column A first) to its name: 0 -> 'A1', 63 -> 'H8'."""
    row, col = divmod(square, SIZE)
    return f"{COLUMNS[col]}{row + 1}"


def square_at(col: int, row: int) -> int:
    """Index of the square in column `col` (0 = A) and row `row` (1 = top row)."""
    return (row - 1) * SIZE + col


# ----- the board's geometry: the rule module and the bots' search both step by it ------------
HOME_ROWS = (SIZE, 1)  # White (seat 0) starts on the bottom row, Black on the top row


def row_of(square: int) -> int:
    return square // SIZE + 1


def goal_row(seat: int) -> int:
    """The row a piece of `seat` must enter to win: the opponent's home row."""
    return HOME_ROWS[1 - seat]


def step_targets(square: int, heads: bool) -> list[int]:
    """Where a piece may step: tails sideways, heads up or down, one square, on the board."""
    col, row = square % SIZE, row_of(square)
    if heads:
        return [square_at(col, r) for r in (row - 1, row + 1) if 1 <= r <= SIZE]
    return [square_at(c, row) for c in (col - 1, col + 1) if 0 <= c < SIZE]


def orthogonal(square: int) -> list[int]:
    return step_targets(square, heads=False) + step_targets(square, heads=True)


@dataclass(frozen=True)
class Step:
    """One piece moves to the adjacent square `dst`; `capture` when that square was occupied."""

    src: int
    dst: int
    capture: bool = False

    def __str__(self) -> str:
        return f"{cell_name(self.src)}{'x' if self.capture else '-'}{cell_name(self.dst)}"


@dataclass(frozen=True)
class Drop:
    """A reserve piece goes onto empty `dst`, anchored on the tails piece at `anchor`.

    `show_anchor` is set when more than one tails piece could anchor the drop: only then
    does the notation name the anchor, since otherwise the square alone decides it.
    """

    dst: int
    heads: bool
    anchor: int
    show_anchor: bool = False

    def __str__(self) -> str:
        text = f"+{cell_name(self.dst)}{'h' if self.heads else 't'}"
        return f"{text}/{cell_name(self.anchor)}" if self.show_anchor else text


Action = Step | Drop


@dataclass(frozen=True)
class Turn:
    """A move line: the actions in order, then the guess for the opponent's coming turn.

    The first move of the game is a guess alone; a line that ends the game has no guess.
    `spare` is a guess written after the winning move anyway: not used, but kept (in the
    notation too), so that the final board can say so rather than drop it silently.
    """

    actions: tuple[Action, ...]
    guess: int | None
    spare: int | None = None

    def __str__(self) -> str:
        parts = [str(action) for action in self.actions]
        for guess in (self.guess, self.spare):
            if guess is not None:
                parts.append(f"guess {cell_name(guess)}")
        return ", ".join(parts)


# ----- reading -----------------------------------------------------------------------------
@dataclass(frozen=True)
class StepItem:
    """A step as written: `marked` when the player wrote `x` (a capture)."""

    text: str
    src: int
    dst: int
    marked: bool


@dataclass(frozen=True)
class DropItem:
    """A drop as written; `anchor` is None when the player left it to be deduced."""

    text: str
    dst: int
    heads: bool
    anchor: int | None


@dataclass(frozen=True)
class GuessItem:
    """The guess as written: the square of the opponent's piece it names."""

    text: str
    square: int


Item = StepItem | DropItem | GuessItem


def read_line(text: str) -> list[Item]:
    """Split a move line into items, checking only the spelling (the rules come later)."""
    items: list[Item] = []
    pos = _always(_SEPARATORS.match(text)).end()
    while pos < len(text):
        number = len(items) + 1
        match = _ITEM_RE.match(text, pos)
        if match is None:
            junk = _always(_TO_NEXT_COMMA.match(text, pos)).group().strip()
            raise InvalidMove(f"Item {number} (`{junk}`) is not a move: {HOW_TO_WRITE}.")
        items.append(_item(match, number))
        pos = _always(_SEPARATORS.match(text, match.end())).end()
    if not items:
        raise InvalidMove(f"Your move is empty: {HOW_TO_WRITE}.")
    return items


def _always(match: re.Match[str] | None) -> re.Match[str]:
    """The match of a pattern that also matches the empty string, so never fails."""
    assert match is not None
    return match


def _item(match: re.Match[str], number: int) -> Item:
    text = _canonical_spacing(match.group())
    if match["step"]:
        src = _square(match["src"], number, text)
        dst = _square(match["dst"], number, text)
        return StepItem(text, src, dst, match["op"].lower() == "x")
    if match["drop"]:
        dst = _square(match["at"], number, text)
        side = (match["side"] or "").lower()
        if side not in ("h", "t"):
            where = cell_name(dst)
            raise InvalidMove(
                f"Item {number} (`{text}`): say which side is up after the square,"
                f" `+{where}h` for heads or `+{where}t` for tails."
            )
        anchor = _square(match["anchor"], number, text) if match["anchor"] else None
        return DropItem(text, dst, side == "h", anchor)
    if not match["named"]:
        raise InvalidMove(
            f"Item {number} (`{text}`): a guess names the square of one of your opponent's"
            " pieces, e.g. `guess E1`."
        )
    return GuessItem(text, _square(match["named"], number, text))


def _square(name: str, number: int, text: str) -> int:
    col = COLUMNS.find(name[0].upper())
    # A row of many digits is no row; int() would refuse more than 4300 of them.
    row = int(name[1:]) if len(name) <= 3 else 0
    if col < 0 or not 1 <= row <= SIZE:
        raise InvalidMove(
            f"Item {number} (`{text}`): there is no square {name.upper()}; the board runs"
            " from A1 to H8."
        )
    return square_at(col, row)


def _canonical_spacing(text: str) -> str:
    """The item as the player wrote it, runs of spaces collapsed, for quoting in messages."""
    return " ".join(text.split())
