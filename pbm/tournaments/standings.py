"""A pool's table from its results: W L T, pbmserv's points (2W+T) and the tie-breaks.

Scale: everything is on pbmserv's pool scale, 2 for a win and 1 for a tie, not chess's 1
and 1/2, so the tie-breaks come out twice the size FIDE's tables print for the same games.

- Sonneborn-Berger (the round robin's tie-break): the points of every opponent a player beat,
  plus half the points of every opponent they tied with. Halves are exact in a float.
- Buchholz (the Swiss tie-break): the sum of the points of every opponent met.

Unplayed rounds follow one simple rule, not FIDE's: a bye is a win (W, 2 points: the Swiss
pairing-allocated bye; a round robin's rest round is no result at all and is not passed
here); for Buchholz a bye counts as an opponent with the player's own final points (the
"dummy opponent" of FIDE's 2023 tie-break rules; the older "virtual opponent" rule needs
each round's running score, which a bare list of results does not carry); for
Sonneborn-Berger a bye adds nothing, as nobody was beaten. A forfeit is a result between two
real players and counts like a played game in both tie-breaks (FIDE counts forfeits as
unplayed): a withdrawn player's finished games and forfeits stand as one cross table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from pbm.tournaments.results import Result


class Tiebreak(Enum):
    """The tie-break after points; its value is the table's column heading."""

    SONNEBORN_BERGER = "SB"  # round robin (AbstractPlay's divisions)
    BUCHHOLZ = "Buch"  # Swiss


@dataclass(frozen=True)
class Standing:
    """One row of a pool's table."""

    userid: str
    wins: int
    losses: int
    ties: int
    sonneborn_berger: float
    buchholz: int
    rating: float

    @property
    def points(self) -> int:
        """pbmserv's pool score."""
        return 2 * self.wins + self.ties

    def tiebreak(self, which: Tiebreak) -> float:
        if which is Tiebreak.SONNEBORN_BERGER:
            return self.sonneborn_berger
        return self.buchholz


def points(results: Iterable[Result]) -> dict[str, int]:
    """Every player's pool score (2W+T) over `results`."""
    scores: dict[str, int] = {}
    for result in results:
        for player in result.players():
            scores[player] = scores.get(player, 0) + result.points(player)
    return scores


def standings(results: Iterable[Result], ratings: Mapping[str, float],
              tiebreak: Tiebreak) -> list[Standing]:
    """The table of the players in `ratings` (and anyone else in `results`, rated 0), best
    first: by points, then `tiebreak`, then rating, then userid (so no two rows tie)."""
    results = list(results)
    score = points(results)
    players = set(ratings) | set(score)
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    ties = dict.fromkeys(players, 0)
    sb = dict.fromkeys(players, 0.0)
    buchholz = dict.fromkeys(players, 0)
    for result in results:
        for player in result.players():
            opponent = result.opponent(player)
            got = result.points(player)
            if got == 2:
                wins[player] += 1
            elif got == 1:
                ties[player] += 1
            else:
                losses[player] += 1
            if opponent is None:
                buchholz[player] += score[player]
                continue
            buchholz[player] += score[opponent]
            sb[player] += score[opponent] * got / 2
    rows = [Standing(p, wins[p], losses[p], ties[p], sb[p], buchholz[p], ratings.get(p, 0.0))
            for p in players]
    rows.sort(key=lambda row: (-row.points, -row.tiebreak(tiebreak), -row.rating, row.userid))
    return rows
