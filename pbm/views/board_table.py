"""pbmserv's table of boards: `Board  Move  <Seat1>  <Seat2>  Board Status`, a row a board.

Programs read these rows, so their shape is fixed: the board number right-aligned under
"Board", the move count under "Move", each player under their seat's name, and last the
status: `<u> Won`, `game was a tie`, `<u> to start` or `<u>'s turn`. Userids hold no spaces,
so a row splits into its cells at its spaces (the status is the rest of the line).

A row that cannot fit a mail's 76 columns (userids of up to 32 characters) is written tall:
its first line holds the number, the move count and the first player, and each further cell
has a line of its own, indented to the first player's column. A line that starts with a
digit within the board column starts a row; a line of spaces there goes on with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbm.boards.position import Position
from pbm.db.models import BoardStatus
from pbm.games.base import GameInfo
from pbm.width import WIDTH, fit

GAP = "  "
STATUS = "Board Status"
TO_START = " to start"


def board_status(pos: Position) -> str:
    """The last cell of a board's row, in pbmserv's words."""
    outcome = pos.outcome()
    if outcome is not None:
        if outcome.is_draw:
            return "game was a tie"
        return " and ".join(pos.userid(seat) for seat in sorted(outcome.winners)) + " Won"
    if pos.board.status == BoardStatus.DECLINED:  # listings leave these out: for the rest
        return "declined"
    seats = sorted(pos.to_move())
    if not seats:
        return "nobody to move"
    if pos.upto == 0:
        return " and ".join(pos.userid(seat) for seat in seats) + TO_START
    return " and ".join(f"{pos.userid(seat)}'s" for seat in seats) + " turn"


@dataclass(frozen=True)
class Columns:
    """The widths of one table's columns: the same for every row of a listing mail."""

    seats: tuple[str, ...]
    number: int
    moves: int
    names: tuple[int, ...]

    @classmethod
    def fitting(cls, info: GameInfo, positions: Sequence[Position]) -> Columns:
        """Columns as wide as their widest cell, but a seat column never wider than leaves
        room on the line for its own player's status: a longer userid makes its row tall
        rather than every row of the table."""
        boards = [pos.board for pos in positions]
        number = max([len("Board"), *(len(b.label) for b in boards)])
        moves = max([len("Move"), *(len(str(b.move_count)) for b in boards)])
        lead = number + moves + 2 * len(GAP)
        players = info.players
        most = (WIDTH - lead - players * len(GAP) - len(TO_START)) // (players + 1)
        names = tuple(
            max([len(seat), *(len(name) for pos in positions
                              if len(name := pos.userid(i)) <= most)])
            for i, seat in enumerate(info.seats))
        return cls(info.seats, number, moves, names)

    @property
    def indent(self) -> str:
        """Where the first player's column starts: a tall row's further lines."""
        return " " * (self.number + self.moves + 2 * len(GAP))

    def header(self) -> str:
        seats = "".join(seat.ljust(width) + GAP for seat, width in zip(self.seats, self.names))
        return f"{'Board':>{self.number}}{GAP}{'Move':>{self.moves}}{GAP}{seats}{STATUS}"

    def row(self, pos: Position) -> list[str]:
        """The lines of one board's row: one, or a tall row's several."""
        board = pos.board
        lead = f"{board.label:>{self.number}}{GAP}{board.move_count:>{self.moves}}{GAP}"
        names = [pos.userid(i) for i in range(len(self.seats))]
        status = board_status(pos)
        line = lead + "".join(name.ljust(width) + GAP
                              for name, width in zip(names, self.names)) + status
        if len(line) <= WIDTH and all(len(n) <= w for n, w in zip(names, self.names)):
            return [line]
        # Two players with 32 letters each and both to move: the status may wrap too.
        cells = [fit(self.indent + cell) for cell in [*names[1:], status]]
        return [lead + names[0], *"\n".join(cells).split("\n")]


def board_table(columns: Columns, positions: Sequence[Position]) -> list[str]:
    """The header and the rows of `positions`; "(none)" when there are none."""
    if not positions:
        return ["  (none)"]
    return [columns.header(), *(line for pos in positions for line in columns.row(pos))]
