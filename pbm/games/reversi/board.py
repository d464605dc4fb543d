"""Reversi's 8x8 board as two bitboards, and the one rule of the game: outflanking.

A board is two ints of 64 bits, one per colour: bit `row * 8 + col` is set where that
colour has a disc. Square 0 is A1, the top left corner as the board is printed (the World
Othello Federation's notation: columns A-H left to right, rows 1-8 top to bottom), square
7 is H1 and square 63 is H8. Shifting a whole bitboard by one step in a direction moves
every disc one square that way at once, which is what makes finding every legal move
cheap: bots and the differential tests play millions of them.
"""

from __future__ import annotations

from collections.abc import Iterator

SIZE = 8
SQUARES = SIZE * SIZE
COLUMNS = "ABCDEFGH"
FULL = (1 << SQUARES) - 1
_NOT_A = sum(1 << (row * SIZE + col) for row in range(SIZE) for col in range(1, SIZE))
_NOT_H = sum(1 << (row * SIZE + col) for row in range(SIZE) for col in range(SIZE - 1))

# The eight directions as (shift, mask): a square moves to square + shift, and the mask
# keeps only the squares a step can reach (a step east from column H must not wrap round to
# column A of the next row; one south from row 8 must not leave the 64 bits).
_EAST, _WEST, _SOUTH, _NORTH = 1, -1, SIZE, -SIZE
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (_EAST, _NOT_A),
    (_WEST, _NOT_H),
    (_SOUTH, FULL),
    (_NORTH, FULL),
    (_SOUTH + _EAST, _NOT_A),
    (_SOUTH + _WEST, _NOT_H),
    (_NORTH + _EAST, _NOT_A),
    (_NORTH + _WEST, _NOT_H),
)


def square(col: int, row: int) -> int:
    """The square in column `col` (0 is A) and row `row` (0 is row 1)."""
    return row * SIZE + col


def name(sq: int) -> str:
    """'D3' for square 19."""
    return f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1}"


def bit(sq: int) -> int:
    return 1 << sq


def count(board: int) -> int:
    """How many discs a bitboard holds."""
    return board.bit_count()


def squares_of(board: int) -> Iterator[int]:
    """The squares set in a bitboard, A1 first, in reading order (row 1, then row 2...)."""
    while board:
        low = board & -board
        yield low.bit_length() - 1
        board ^= low


def by_column(board: int) -> list[int]:
    """The squares set in a bitboard in the order messages list them: C4, D3, E6, F5."""
    return sorted(squares_of(board), key=lambda sq: (sq % SIZE, sq // SIZE))


def _step(discs: int, shift: int, mask: int) -> int:
    return (discs << shift if shift > 0 else discs >> -shift) & mask


def legal_squares(own: int, other: int) -> int:
    """The squares where the player with discs `own` may play against `other`, as a
    bitboard: every empty square from which a straight line of one or more of the
    opponent's discs runs, with no gap, to a disc of the player's own."""
    empty = ~(own | other) & FULL
    moves = 0
    for shift, mask in DIRECTIONS:
        flank = other & mask  # opponent discs a step in this direction can land on
        if shift > 0:
            run = (own << shift) & flank
            for _ in range(SIZE - 3):  # a run of opponent discs is at most six long
                run |= (run << shift) & flank
            moves |= (run << shift) & mask & empty
        else:
            back = -shift
            run = (own >> back) & flank
            for _ in range(SIZE - 3):
                run |= (run >> back) & flank
            moves |= (run >> back) & mask & empty
    return moves


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the squares along each direction in order, as single bits."""
    table = []
    for sq in range(SQUARES):
        lines = []
        for shift, mask in DIRECTIONS:
            line = []
            at = _step(bit(sq), shift, mask)
            while at:
                line.append(at)
                at = _step(at, shift, mask)
            if len(line) >= 2:  # a line of one square cannot outflank anything
                lines.append(tuple(line))
        table.append(tuple(lines))
    return tuple(table)


_RAYS = _rays()


def flips(own: int, other: int, sq: int) -> int:
    """The opponent's discs a disc on `sq` turns over, as a bitboard (0: not a legal move):
    in every direction, the unbroken run of opponent discs next to `sq` when a disc of the
    player's own ends it."""
    turned = 0
    for line in _RAYS[sq]:
        run = 0
        for at in line:
            if other & at:
                run |= at
            else:
                if own & at:
                    turned |= run
                break
    return turned
