"""Round robin in pools: divisions by rating, and each pool's schedule by the circle method.

The circle method is the construction behind Berger's tables: one player stands still, the
others turn round him one place a round, and the two ends of the line meet. With an odd
count the one standing still is nobody: whoever meets him has a bye (a rest, not a result:
it is not scored and not passed to standings()).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import ceil

from pbm.tournaments.results import Pairing


def ranked(ratings: Mapping[str, float]) -> list[str]:
    """Userids by rating, best first; equal ratings by userid, so the order is fixed."""
    return sorted(ratings, key=lambda player: (-ratings[player], player))


def pools(ratings: Mapping[str, float], size: int) -> list[list[str]]:
    """Divisions of at most `size` players by rating, the best in the first, as even as
    can be and the larger ones first: 11 players in pools of 10 make 6 and 5."""
    if size < 2:
        raise ValueError("a pool needs room for two players at least")
    players = ranked(ratings)
    if not players:
        return []
    count = ceil(len(players) / size)
    small, larger = divmod(len(players), count)
    divisions: list[list[str]] = []
    start = 0
    for index in range(count):
        end = start + small + (1 if index < larger else 0)
        divisions.append(players[start:end])
        start = end
    return divisions


def schedule(players: Sequence[str]) -> list[list[Pairing]]:
    """Every pair of `players` exactly once, in len-1 rounds (len rounds when the count is
    odd, each player resting once: a Pairing with no black).

    Seats alternate as Berger's tables do: the player standing still changes seat every
    round, and the boards of the turning players take seat 0 on alternate sides, so a
    player moving one place a round changes seat every round too (bar the round he meets
    the one standing still). Over the schedule each player has seat 0 in half the games,
    rounded up or down.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    line: list[str | None] = list(players)
    if len(line) % 2:
        line.append(None)  # the bye stands still
    n = len(line)
    still, turning = line[-1], line[:-1]
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        order = turning[r:] + turning[:r]
        boards: list[Pairing | None] = []
        # board 0: the one standing still against the end of the line
        boards.append(seat(still, order[-1], still_white=r % 2 == 0))
        for board in range(1, n // 2):
            top, bottom = order[board - 1], order[n - 2 - board]
            boards.append(seat(top, bottom, still_white=board % 2 == 1))
        rounds.append([b for b in boards if b is not None and b.black is not None]
                      + [b for b in boards if b is not None and b.black is None])
    return rounds


def seat(first: str | None, second: str | None, still_white: bool) -> Pairing | None:
    """The board of `first` and `second`, `first` in seat 0 when `still_white`; against
    nobody (None) it is a bye; the bye of an empty pool is no board."""
    if first is None and second is None:
        return None
    if first is None or second is None:
        player = first if first is not None else second
        assert player is not None
        return Pairing(player)
    return Pairing(first, second) if still_white else Pairing(second, first)
