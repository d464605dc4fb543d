"""What an Outguess seat may know: its view, in plain values (the rule module builds it).

Everything on the board is public: the pieces, the reserves, whose turn it is, the
allotment, how often the named piece moved on the last turn, the squares that turn left
and reached. Secret while the game runs is only the guesser's choice of the mover's
piece: the seat's own guesses are in its view (the one pending for this turn when it is
the guesser, the last turn's when it named it), the opponent's are not. Once the game is
over the view holds every guess, as the board then shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

# A square's content: (owner's seat, heads up) of a piece, or None when empty.
Square = tuple[int, bool] | None


@dataclass(frozen=True)
class OutguessView:
    """All that `seat` may know of an Outguess game: plain values, never the state."""

    seat: int
    board: tuple[Square, ...]
    reserves: tuple[int, int]
    mover: int
    allotment: int
    # Whether the guesser has named a piece for this turn (only the very first guess of
    # the game is still to come when not), and which one if the seat may know it.
    guessed: bool
    guess: int | None
    # The last finished turn: its mover, how often the named piece moved (public), and the
    # square that was named if the seat named it or the game is over.
    last_mover: int | None
    last_count: int | None
    last_guess: int | None
    winner: int | None
    reason: str
    concluded: bool
    over: bool
    left: frozenset[int]
    reached: frozenset[int]
    spare_guess: int | None

    @property
    def guesser(self) -> int:
        return 1 - self.mover
