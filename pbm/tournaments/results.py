"""The two facts every tournament format is built from: who meets whom, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """One board of a round: `white` takes seat 0, `black` seat 1; no black is a bye."""

    white: str
    black: str | None = None

    @property
    def is_bye(self) -> bool:
        return self.black is None

    def players(self) -> tuple[str, ...]:
        return (self.white,) if self.black is None else (self.white, self.black)


@dataclass(frozen=True)
class Result:
    """How one pairing ended.

    `winner` is a userid of the pairing, or None for a draw. A bye (no black) is a win for
    white and needs no winner. `forfeit` says the game was not played to its end: the loser
    ran out of time or withdrew; a forfeit with no winner is a double forfeit (both lose).
    `round` (1, 2, ...) orders a player's colours for the Swiss colour rules; results of
    one round may come in any order.
    """

    white: str
    black: str | None = None
    winner: str | None = None
    forfeit: bool = False
    round: int = 0

    def __post_init__(self) -> None:
        if self.black == self.white:
            raise ValueError(f"{self.white} cannot play themself")
        if self.black is None and self.winner not in (None, self.white):
            raise ValueError(f"the bye of {self.white} cannot be won by {self.winner}")
        if self.black is not None and self.winner not in (None, self.white, self.black):
            raise ValueError(f"{self.winner} did not play {self.white} v {self.black}")

    @classmethod
    def bye(cls, player: str, round: int = 0) -> Result:
        return cls(player, None, player, round=round)

    @property
    def is_bye(self) -> bool:
        return self.black is None

    @property
    def is_draw(self) -> bool:
        """A game both players finished level (not a double forfeit, not a bye)."""
        return self.black is not None and self.winner is None and not self.forfeit

    def players(self) -> tuple[str, ...]:
        return (self.white,) if self.black is None else (self.white, self.black)

    def opponent(self, player: str) -> str | None:
        """The other player of this result; None for a bye."""
        if player == self.white:
            return self.black
        if player == self.black:
            return self.white
        raise ValueError(f"{player} is not in {self.white} v {self.black}")

    def points(self, player: str) -> int:
        """pbmserv's pool score of this result for `player`: 2 a win (a bye is one), 1 a
        draw, 0 a loss (a double forfeit is a loss for both)."""
        self.opponent(player)  # raises for a stranger
        if self.black is None or self.winner == player:
            return 2
        if self.is_draw:
            return 1
        return 0
