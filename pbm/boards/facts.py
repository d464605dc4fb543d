"""What happened on a board that people must be told: the board layer records these facts on
the command's Context, and the layer that ran the command hands them to the views
(pbm/views/news.py), which write the mail. Boards never compose mail themselves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pbm.boards.position import Position
from pbm.context import Fact
from pbm.db.models import Tournament


@dataclass(frozen=True)
class Ended(Fact):
    """The board finished: a last move, a resignation, a forfeit or an agreed draw. Those
    who asked to be told (`GAME notify`) hear of it; its players have the final board."""

    pos: Position


@dataclass(frozen=True)
class Declined(Fact):
    """`seat` left the board before making a move on it (or its time ran out before one):
    the board is removed, unrated. Whoever declined it tells its players how; a tournament
    counts it as that seat's loss (pbm.boards.rounds)."""

    pos: Position
    seat: int


@dataclass(frozen=True)
class TournamentRound(Fact):
    """Round `number` of the tournament started (or its draws are replayed) on `boards`."""

    tournament: Tournament
    number: int
    boards: tuple[Position, ...]


@dataclass(frozen=True)
class TournamentEnded(Fact):
    """The tournament's last game was decided: every participant gets the final table."""

    tournament: Tournament


@dataclass(frozen=True)
class QueueDropped(Fact):
    """A seat's queued move or replies were dropped; `reason` is what the rules would have
    told that seat had it sent the move itself, so it shows nothing more."""

    pos: Position
    seat: int
    reason: str


@dataclass(frozen=True)
class Nagged(Fact):
    """A seat to move was reminded: it has `waited`, and loses on time at `deadline` (a last
    call: the server was down when that fell due, and this is the player's one last day)."""

    pos: Position
    seat: int
    waited: timedelta
    deadline: datetime
    last_call: bool = False
    declines: bool = False  # its player never moved: the deadline declines the board instead
    total_left: timedelta | None = None  # on a total-time board: what is left of it
    total_flag: bool = False  # ... and the deadline is when it runs out (before the forfeit)


@dataclass(frozen=True)
class Forfeited(Fact):
    """A seat lost on time; the board has ended (an Ended fact came first)."""

    pos: Position
    seat: int


@dataclass(frozen=True)
class DeclinedOnTime(Fact):
    """A seat whose player never moved ran out of time: the board is declined (removed,
    unrated), as resigning before a first move does; its players are told."""

    pos: Position
    seat: int
    waited: timedelta
