"""The 8x8 board of Lines of Action as bit sets: squares, lines, rays and connected groups.

A set of squares is an int whose bit `square` is set for each square in it; square
`rank * 8 + file` is file A-H (0-7) of rank 1-8 (0-7), so A1 is 0, H1 is 7 and H8 is 63.
Rank 8 is printed at the top, as in every published diagram of the game. Counting the
pieces on a line is then one `&` and a bit count, which keeps random playouts (the bots'
thousands of them) cheap.
"""

from __future__ import annotations

from collections.abc import Iterator

SIZE = 8
SQUARES = range(SIZE * SIZE)
FILES = "ABCDEFGH"
FULL = (1 << (SIZE * SIZE)) - 1

# The eight directions as (files, ranks) per step. Direction d and d + 4 are opposite, so
# direction d runs along line d % 4: 0 a column, 1 a rising diagonal, 2 a row, 3 a falling one.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
LINE_NAMES = ("column", "diagonal", "row", "diagonal")

_NOT_FILE_A = FULL & ~sum(1 << (rank * SIZE) for rank in range(SIZE))
_NOT_FILE_H = FULL & ~sum(1 << (rank * SIZE + SIZE - 1) for rank in range(SIZE))


def name(square: int) -> str:
    """'D1' for square 3."""
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


def at(letter: str, number: int) -> int | None:
    """The square of column `letter` (either case) and row `number`; None off the board."""
    file = FILES.find(letter.upper()) if len(letter) == 1 else -1
    if file < 0 or not 1 <= number <= SIZE:
        return None
    return (number - 1) * SIZE + file


def bit(square: int) -> int:
    return 1 << square


def squares(pieces: int) -> list[int]:
    """The squares of a set, lowest first."""
    found = []
    while pieces:
        low = pieces & -pieces
        found.append(low.bit_length() - 1)
        pieces ^= low
    return found


def _ray(square: int, direction: int) -> tuple[int, ...]:
    dfile, drank = DIRECTIONS[direction]
    file, rank = square % SIZE, square // SIZE
    out: list[int] = []
    while True:
        file, rank = file + dfile, rank + drank
        if not (0 <= file < SIZE and 0 <= rank < SIZE):
            return tuple(out)
        out.append(rank * SIZE + file)


# RAYS[square][direction]: the squares from `square` (left out) to the edge, nearest first.
RAYS = tuple(tuple(_ray(square, d) for d in range(8)) for square in SQUARES)
# LINES[square][line]: every square of the line through `square`, itself included.
LINES = tuple(tuple(bit(square) | sum(bit(s) for s in RAYS[square][line] + RAYS[square][line + 4])
                    for line in range(4)) for square in SQUARES)
# STEPS[square][direction][n - 1] = (where n squares that way lands, the squares passed
# over on the way): a move of n squares exists only where n <= len(STEPS[square][direction]).
STEPS = tuple(tuple(tuple((ray[n - 1], sum(bit(s) for s in ray[:n - 1]))
                          for n in range(1, len(ray) + 1))
                    for ray in RAYS[square]) for square in SQUARES)


def direction_between(origin: int, target: int) -> tuple[int, int] | None:
    """(direction, squares apart) from `origin` to `target` along a line; None if they are
    not on one row, column or diagonal (or are the same square)."""
    for direction, ray in enumerate(RAYS[origin]):
        if target in ray:
            return direction, ray.index(target) + 1
    return None


def _grow(group: int) -> int:
    """`group` and every square next to it (by a side or a corner)."""
    near = group | (group << SIZE) | (group >> SIZE)
    return (near | ((near << 1) & _NOT_FILE_A) | ((near >> 1) & _NOT_FILE_H)) & FULL


def group_of(pieces: int, square: int) -> int:
    """The connected group of `pieces` that holds `square` (pieces touch by a side or a
    corner, the king's move in chess)."""
    group = bit(square) & pieces
    while True:
        grown = _grow(group) & pieces
        if grown == group:
            return group
        group = grown


def connected(pieces: int) -> bool:
    """Whether the pieces form one group (a single piece does; so would none)."""
    return group_of(pieces, (pieces & -pieces).bit_length() - 1) == pieces if pieces else True


def groups(pieces: int) -> Iterator[int]:
    """The connected groups of a set, each as a set, lowest square first."""
    while pieces:
        group = group_of(pieces, (pieces & -pieces).bit_length() - 1)
        yield group
        pieces &= ~group
