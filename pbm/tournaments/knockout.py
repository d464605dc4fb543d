"""Knockout: a bracket seeded by rating, byes for the top seeds, and the rule for draws.

Seeding is the standard one (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight): seeds 1 and 2 can meet
only in the final, 1 to 4 only in the semi-finals, and so on. When the field is not a power
of two the missing places are byes, and they fall to the top seeds.

Draws: a drawn game is replayed once with the seats swapped; if the replay is drawn too,
the higher seed goes through (a double forfeit counts as a draw). In the first game the
higher seed has seat 0 (white). A forfeit is a win for the other player like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbm.tournaments.results import Pairing, Result
from pbm.tournaments.roundrobin import ranked


@dataclass(frozen=True)
class Match:
    """Two players of a bracket, `high` the higher seed; no `low` is a bye for `high`."""

    high: str
    low: str | None = None


@dataclass(frozen=True)
class Decision:
    """Where a match stands: who goes through, or else the game still to be played (the
    first game, or the replay after a draw)."""

    advances: str | None = None
    game: Pairing | None = None


def seeds(ratings: Mapping[str, float]) -> list[str]:
    """The seeding: by rating, best first (equal ratings by userid)."""
    return ranked(ratings)


def seed_order(size: int) -> list[int]:
    """The seed numbers (1-based) down a bracket of `size` places, a power of two, so that
    neighbours meet in round 1: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [seed for top in order for seed in (top, doubled + 1 - top)]
    return order


def first_round(seeded: Sequence[str]) -> list[Match]:
    """Round 1 of players in seed order (seeds()), in bracket order: the winners of
    matches 2k and 2k+1 meet next. Seeds beyond the field are byes for the top seeds."""
    if len(seeded) < 2:
        raise ValueError("a knockout needs two players at least")
    size = 1
    while size < len(seeded):
        size *= 2
    order = seed_order(size)
    matches = []
    for k in range(0, size, 2):
        high, low = order[k], order[k + 1]
        matches.append(Match(seeded[high - 1], seeded[low - 1] if low <= len(seeded) else None))
    return matches


def decide(match: Match, results: Sequence[Result]) -> Decision:
    """Who goes through `match` after `results` (any list holding this match's games; the
    two players' games are taken in round order, then in the order given)."""
    if match.low is None:
        return Decision(advances=match.high)
    pair = {match.high, match.low}
    games = sorted((r for r in results if not r.is_bye and set(r.players()) == pair),
                   key=lambda r: r.round)
    first = Pairing(match.high, match.low)
    if not games:
        return Decision(game=first)
    if games[0].winner is not None:
        return Decision(advances=games[0].winner)
    if len(games) == 1:
        return Decision(game=Pairing(match.low, match.high))
    if games[1].winner is not None:
        return Decision(advances=games[1].winner)
    return Decision(advances=match.high)


def next_round(matches: Sequence[Match], results: Sequence[Result],
               seeded: Sequence[str]) -> list[Match]:
    """The matches of the next round: the winner of matches 2k and 2k+1 meet, the higher
    seed of the two as `high`. Empty after the final (decide() names the champion).
    Raises ValueError while a match of this round is undecided."""
    if len(matches) <= 1:
        return []
    seed_of = {player: number for number, player in enumerate(seeded)}
    winners = []
    for match in matches:
        through = decide(match, results).advances
        if through is None:
            raise ValueError(f"{match.high} v {match.low} is not decided yet")
        winners.append(through)
    following = []
    for k in range(0, len(winners), 2):
        a, b = sorted(winners[k:k + 2], key=lambda player: seed_of[player])
        following.append(Match(a, b))
    return following


def rounds(players: int) -> int:
    """How many rounds a knockout of `players` takes (byes included)."""
    count, size = 0, 1
    while size < players:
        size *= 2
        count += 1
    return count
