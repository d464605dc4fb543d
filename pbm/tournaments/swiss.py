"""Swiss rounds paired in the spirit of FIDE's Dutch system (C.04.3), by weighted matching.

Why our own and not a library: no FIDE-endorsed pairing engine is packaged for Python or
Debian. `swissdutch` on PyPI is a 0.1.0 of 2015, unmaintained; bbpPairings and JaVaFo (the
endorsed engines) are C++ and Java programs outside Debian. So the round is one maximum
weight matching (networkx's `max_weight_matching`, Edmonds' blossom algorithm) on the graph
of legal pairs, with weights that rank the Dutch system's criteria one above the other.

Absolute criteria (an edge exists only where they hold; the matching must be perfect or
NoPairing is raised, which is exact: a maximum cardinality matching is found):
- two players meet at most once (a forfeited game counts as a meeting);
- nobody gets a second bye;
- colours: nobody has the same colour three times running, nor whites minus blacks beyond
  ±2 (colours.py). A pair is legal when one way of seating it keeps both players' rules.

Quality, most important first (each weight level outweighs everything below it, summed over
a whole round):
1. score differences: the sum over boards of the square of the difference in points, so
   players meet their own score group and one float of one group is cheaper than one
   float of two;
2. floats low down: a float between high scores costs more than one between low scores;
3. colour preferences granted (strong, then mild: colours.py);
4. the Dutch order inside a score group: the top half against the bottom half (the i-th
   of a group of g against the (i + g//2)-th), a downfloater the lowest-ranked of its group
   meeting the highest-ranked of the group below, the bye to the lowest-ranked player.
When the count is odd a "bye" vertex joins the graph, linked to each player without a bye
as if it were a player of the field's lowest score.

Where this departs from FIDE Dutch, and why:
- Dutch pairs bracket by bracket from the top, fixing the top bracket before it looks
  below; one global matching instead weighs all brackets at once (Dutch's own C.04.3 rule
  that a bracket's pairing must let the rest be paired is what the global matching gives
  for free). The outcome agrees on clear cases but can differ on close ones.
- Dutch's absolute colour criterion (C3) forbids two players with the same absolute
  preference from meeting; ours is the rule as stated above (no third colour in a row, no
  difference beyond ±2), which also binds in the last round (Dutch exempts topscorers there).
- Not modelled: the float history criteria (no player floating the same way twice in
  consecutive rounds, C.04.3 C12-C15), Dutch's exact order of transpositions and exchanges
  (we approximate it with level 4), the colour allocation rule that goes back to the last
  round the two players had different colours (we grant the stronger preference, then the
  higher-ranked player's), and the extra checks for the last rounds.
- Round 1 follows Dutch: top half against bottom half by rating; the colour of the top
  board is drawn by lot (the seed) and alternates down the boards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import ceil, log2

import networkx as nx

from pbm.tournaments.colours import Colour, can_take, preference
from pbm.tournaments.results import Pairing, Result


class NoPairing(ValueError):
    """No pairing of this round keeps the absolute criteria; the message says whom."""


def recommended_rounds(players: int) -> int:
    """Rounds enough for one player to be the only one with every win: ceil(log2 n)."""
    return ceil(log2(players)) if players > 1 else 0


@dataclass
class Record:
    """What pairing needs to know of a player's past rounds."""

    points: int = 0
    opponents: set[str] = field(default_factory=set)
    had_bye: bool = False
    colours: list[Colour] = field(default_factory=list)


def records(players: Sequence[str], results: Sequence[Result]) -> dict[str, Record]:
    """Each player's record over `results` (in round order; results of players who have
    withdrawn count for their opponents' histories and nothing else)."""
    book = {player: Record() for player in players}
    for result in sorted(results, key=lambda r: r.round):
        for player in result.players():
            record = book.get(player)
            if record is None:
                continue
            record.points += result.points(player)
            opponent = result.opponent(player)
            if opponent is None:
                record.had_bye = True
                continue
            record.opponents.add(opponent)
            if not result.forfeit:
                record.colours.append(Colour.WHITE if player == result.white else Colour.BLACK)
    return book


def seatings(a: Record, b: Record) -> list[tuple[bool, int]]:
    """The legal ways to seat a (higher-ranked) and b: (a takes white?, preference points
    granted), best first; empty when the pair breaks a colour rule either way."""
    ways: list[tuple[bool, int]] = []
    for a_white in (True, False):
        a_colour = Colour.WHITE if a_white else Colour.BLACK
        if not (can_take(a.colours, a_colour) and can_take(b.colours, a_colour.other)):
            continue
        wish_a, wish_b = preference(a.colours), preference(b.colours)
        granted = ((wish_a.strength if wish_a.colour is a_colour else 0)
                   + (wish_b.strength if wish_b.colour is a_colour.other else 0))
        ways.append((a_white, granted))
    ways.sort(key=lambda way: -way[1])
    return ways


def multipliers(maxima: Sequence[int], boards: int) -> list[int]:
    """Weights for penalty levels (most important first) such that one unit of a level
    outweighs the most all lower levels can add up to over `boards` boards."""
    scale = [1] * len(maxima)
    for level in range(len(maxima) - 2, -1, -1):
        below = sum(maxima[k] * scale[k] for k in range(level + 1, len(maxima)))
        scale[level] = boards * below + 1
    return scale


def dutch_order(i: int, j: int, group: int) -> int:
    """How far the pair of the i-th and j-th (i < j) of a score group is from Dutch's first
    choice, S1's i-th against S2's i-th: a transposition costs its distance; two of one half
    (an exchange, which Dutch tries only after every transposition) cost more than any."""
    half = group // 2
    distance = abs(j - i - half)
    return distance if i < half <= j else group + distance


def pair(ratings: Mapping[str, float], results: Sequence[Result], seed: int = 0) -> list[Pairing]:
    """The next round for the players in `ratings` (those still in the tournament), after
    `results` (every result so far, byes included). Boards come in rank order (points,
    then rating, then userid), the bye, if any, last. Deterministic for a given seed.
    Raises NoPairing when no pairing keeps the absolute criteria."""
    ranking = sorted(ratings, key=lambda p: (-ratings[p], p))
    book = records(ranking, results)
    ranking.sort(key=lambda p: -book[p].points)  # stable: rating order inside a score
    n = len(ranking)
    if n == 0:
        return []
    rank = {player: index for index, player in enumerate(ranking)}
    groups: dict[int, list[str]] = {}
    for player in ranking:
        groups.setdefault(book[player].points, []).append(player)
    place = {p: i for members in groups.values() for i, p in enumerate(members)}
    size = {p: len(groups[book[p].points]) for p in ranking}
    lowest = min(book[p].points for p in ranking)
    top = max(book[p].points for p in ranking)
    bye = n if n % 2 else None

    boards = n // 2 + 1
    # maxima of: squared score difference, float height, preferences missed, Dutch order
    scale = multipliers([(top - lowest) ** 2, (top - lowest) * top, 4, 2 * n], boards)
    ceiling = sum(m * s for m, s in zip([(top - lowest) ** 2, (top - lowest) * top, 4, 2 * n],
                                        scale)) + 1

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n + (1 if bye is not None else 0)))
    for i, a in enumerate(ranking):
        ra = book[a]
        for j in range(i + 1, n):
            b = ranking[j]
            rb = book[b]
            if b in ra.opponents:
                continue
            ways = seatings(ra, rb)
            if not ways:
                continue
            gap = ra.points - rb.points
            if gap == 0:
                order = dutch_order(place[a], place[b], size[a])
            else:
                order = (size[a] - 1 - place[a]) + place[b]
            missed = 4 - ways[0][1]
            penalty = (gap * gap * scale[0] + gap * ra.points * scale[1]
                       + missed * scale[2] + order * scale[3])
            graph.add_edge(i, j, weight=ceiling - penalty)
        if bye is not None and not ra.had_bye:
            gap = ra.points - lowest
            penalty = (gap * gap * scale[0] + gap * ra.points * scale[1]
                       + (n - 1 - i) * scale[3])
            graph.add_edge(i, bye, weight=ceiling - penalty)

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < graph.number_of_nodes():
        paired = {v for edge in matching for v in edge}
        left = [ranking[v] if v != bye else "the bye" for v in graph.nodes if v not in paired]
        raise NoPairing("no pairing keeps the rules (nobody meets twice, no second bye, "
                        "no colour three times running or more than two ahead): "
                        + ", ".join(left) + " cannot all be paired")

    lot = random.Random(f"{seed}/{len({r.round for r in results})}/{len(results)}")
    first_white = lot.random() < 0.5
    boards_out: list[Pairing] = []
    bye_out: list[Pairing] = []
    for u, v in sorted((min(e), max(e)) for e in matching):
        if v == bye:
            bye_out.append(Pairing(ranking[u]))
            continue
        a, b = ranking[u], ranking[v]
        boards_out.append(seat(a, b, book, first_white ^ (len(boards_out) % 2 == 1)))
    boards_out.sort(key=lambda board: min(rank[p] for p in board.players()))
    return boards_out + bye_out


def seat(a: str, b: str, book: Mapping[str, Record], lot_white: bool) -> Pairing:
    """Who of a (ranked higher) and b takes white: the way that grants more preference;
    level, the higher-ranked player's wish, then the lower's, then the lot."""
    ways = seatings(book[a], book[b])
    if len(ways) == 1 or ways[0][1] != ways[1][1]:
        a_white = ways[0][0]
    else:
        wish_a, wish_b = preference(book[a].colours), preference(book[b].colours)
        if wish_a.colour is not None:
            a_white = wish_a.colour is Colour.WHITE
        elif wish_b.colour is not None:
            a_white = wish_b.colour is Colour.BLACK
        else:
            a_white = lot_white
    return Pairing(a, b) if a_white else Pairing(b, a)
