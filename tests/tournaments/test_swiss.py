"""Swiss pairing: the absolute criteria after every round, checked by rules written here
again (not imported), the Dutch order on clear cases, and random tournaments."""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.tournaments.results import Pairing, Result
from pbm.tournaments.simulation import simulate
from pbm.tournaments.swiss import NoPairing, pair, recommended_rounds


@dataclass
class Book:
    """The tournament so far, kept by the test itself."""

    results: list[Result] = field(default_factory=list)
    met: set[frozenset[str]] = field(default_factory=set)
    byes: set[str] = field(default_factory=set)
    seats: dict[str, str] = field(default_factory=dict)  # "W"/"B" per played game

    def may_take(self, player: str, colour: str) -> bool:
        history = self.seats.get(player, "") + colour
        return (abs(history.count("W") - history.count("B")) <= 2
                and not history.endswith(colour * 3))

    def legal(self, white: str, black: str) -> bool:
        return (frozenset((white, black)) not in self.met
                and self.may_take(white, "W") and self.may_take(black, "B"))

    def check(self, boards: list[Pairing], active: list[str]) -> None:
        """The absolute criteria: everyone active once, no rematch, no second bye, the
        colour rules for the seats given."""
        assert sorted(p for b in boards for p in b.players()) == sorted(active)
        assert sum(b.black is None for b in boards) == len(active) % 2
        for board in boards:
            if board.black is None:
                assert board.white not in self.byes, f"second bye for {board.white}"
            else:
                assert self.legal(board.white, board.black), board

    def record(self, board: Pairing, outcome: str, number: int) -> None:
        if board.black is None:
            self.byes.add(board.white)
            self.results.append(Result.bye(board.white, round=number))
            return
        white, black = board.white, board.black
        self.met.add(frozenset((white, black)))
        winner = {"white": white, "black": black}.get(outcome.split("-")[-1])
        forfeit = outcome.startswith("forfeit")
        if not forfeit:
            self.seats[white] = self.seats.get(white, "") + "W"
            self.seats[black] = self.seats.get(black, "") + "B"
        self.results.append(Result(white, black, winner, forfeit=forfeit, round=number))

    def pairable(self, active: list[str]) -> bool:
        """Whether some pairing keeps the criteria (the test's own graph and a maximum
        cardinality matching, which does not care for the module's weights)."""
        graph: nx.Graph[str] = nx.Graph()
        graph.add_nodes_from(active)
        for i, a in enumerate(active):
            for b in active[i + 1:]:
                if self.legal(a, b) or self.legal(b, a):
                    graph.add_edge(a, b)
        if len(active) % 2:
            graph.add_node("<bye>")
            graph.add_edges_from((p, "<bye>") for p in active if p not in self.byes)
        return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(graph)

    def brute_pairable(self, active: list[str]) -> bool:
        """Whether some pairing keeps the criteria, by trying them all (small fields)."""
        def search(left: list[str | None]) -> bool:
            if not left:
                return True
            first, rest = left[0], left[1:]
            for k, other in enumerate(rest):
                if first is None or other is None:
                    player = first if other is None else other
                    ok = player is not None and player not in self.byes
                else:
                    ok = self.legal(first, other) or self.legal(other, first)
                if ok and search(rest[:k] + rest[k + 1:]):
                    return True
            return False

        field_: list[str | None] = list(active)
        if len(field_) % 2:
            field_.append(None)
        return search(field_)


RATINGS = {f"p{index:02d}": 2000.0 - 10 * index for index in range(1, 13)}


def test_recommended_rounds_are_ceil_log2():
    assert [recommended_rounds(n) for n in (1, 2, 3, 8, 9, 12, 200)] == [0, 1, 2, 3, 4, 4, 8]


def test_round_one_is_top_half_against_bottom_half_with_alternating_seats():
    boards = pair(RATINGS, [], seed=7)
    assert [sorted(b.players()) for b in boards] == [
        [f"p{i:02d}", f"p{i + 6:02d}"] for i in range(1, 7)]
    tops_white = [b.white == f"p{i:02d}" for i, b in enumerate(boards, 1)]
    assert tops_white in ([True, False] * 3, [False, True] * 3)
    assert pair(RATINGS, [], seed=7) == boards  # the lot is the seed's


def test_an_odd_round_one_gives_the_bye_to_the_lowest_rated():
    ratings = dict(list(RATINGS.items())[:11])
    boards = pair(ratings, [], seed=1)
    assert boards[-1] == Pairing("p11")
    assert [sorted(b.players()) for b in boards[:-1]] == [
        [f"p{i:02d}", f"p{i + 5:02d}"] for i in range(1, 6)]


def test_a_twelve_player_swiss_of_four_rounds_keeps_every_absolute_criterion():
    """Scripted: the higher rating wins, neighbours in the rating list draw, p12 loses
    round 3 by forfeit and withdraws before round 4 (11 players: a bye)."""
    book = Book()
    active = list(RATINGS)
    rank = {p: i for i, p in enumerate(RATINGS)}
    for number in range(1, 5):
        if number == 4:
            active.remove("p12")
        boards = pair({p: RATINGS[p] for p in active}, book.results, seed=26)
        book.check(boards, active)
        if number == 2:
            # By hand: after round 1 (the higher rating won every board) p01-p06 have 2,
            # p07-p12 have 0; each score group pairs its top half against its bottom half,
            # and every player gets the other seat from round 1.
            assert {frozenset(b.players()) for b in boards} == {
                frozenset(pair_) for pair_ in [("p01", "p04"), ("p02", "p05"), ("p03", "p06"),
                                               ("p07", "p10"), ("p08", "p11"), ("p09", "p12")]}
            for board in boards:
                assert book.seats[board.white] == "B" and book.seats[board.black] == "W"
        if number == 4:
            assert boards[-1].black is None and boards[-1].white not in book.byes
        for board in boards:
            if board.black is None:
                book.record(board, "bye", number)
                continue
            gap = rank[board.white] - rank[board.black]
            if "p12" in board.players() and number == 3:
                outcome = "forfeit-black" if board.white == "p12" else "forfeit-white"
            elif abs(gap) == 1:
                outcome = "draw"
            else:
                outcome = "white" if gap < 0 else "black"
            book.record(board, outcome, number)
    assert len(book.results) == 6 + 6 + 6 + 6


def test_no_legal_pairing_is_a_clear_error():
    # Three players, two rounds: everyone has met one of the others and had a bye...
    results = [Result("a", "b", "a", round=1), Result.bye("c", round=1),
               Result("c", "a", "c", round=2), Result.bye("b", round=2),
               Result("b", "c", "b", round=3), Result.bye("a", round=3)]
    with pytest.raises(NoPairing, match="cannot all be paired"):
        pair({"a": 1.0, "b": 1.0, "c": 1.0}, results)


def test_the_colour_rules_bind_even_when_the_scores_would_pair_them():
    # x and y lead with 4 points each, both after white twice: the score group would pair
    # them, but one of them would have white a third time.
    results = [Result("x", "p", "x", round=1), Result("y", "q", "y", round=1),
               Result("r", "s", round=1),
               Result("x", "r", "x", round=2), Result("y", "s", "y", round=2),
               Result("p", "q", round=2)]
    boards = pair(dict(zip("xypqrs", [6.0, 5.0, 4.0, 3.0, 2.0, 1.0])), results)
    assert frozenset("xy") not in {frozenset(b.players()) for b in boards}
    assert {b.black for b in boards} >= {"x", "y"}


OUTCOMES = st.sampled_from(["white", "black", "draw", "forfeit-white", "forfeit-black",
                            "forfeit-none"])


def play_random(data: st.DataObject, players: int, rounds: int, brute: bool) -> None:
    ratings = {f"p{i:02d}": float(data.draw(st.integers(1000, 2400), label="rating"))
               for i in range(players)}
    seed = data.draw(st.integers(0, 2**16), label="seed")
    book = Book()
    active = sorted(ratings)
    for number in range(1, rounds + 1):
        if len(active) > 2 and data.draw(st.integers(0, 9), label="withdraw") == 0:
            active.remove(data.draw(st.sampled_from(active), label="withdrawn"))
        now = {p: ratings[p] for p in active}
        try:
            boards = pair(now, book.results, seed=seed)
        except NoPairing:
            assert not book.pairable(active)
            if brute:
                assert not book.brute_pairable(active)
            return
        if brute:
            assert book.brute_pairable(active)
        book.check(boards, active)
        for board in boards:
            book.record(board, data.draw(OUTCOMES, label="outcome"), number)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_tournaments_never_break_an_absolute_criterion(data):
    players = data.draw(st.integers(8, 40), label="players")
    rounds = data.draw(st.integers(1, recommended_rounds(players) + 1), label="rounds")
    play_random(data, players, rounds, brute=False)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_small_fields_raise_exactly_when_no_legal_pairing_exists(data):
    """Small fields played past their length run out of legal pairings; the error must
    come exactly then (checked against every possible pairing)."""
    players = data.draw(st.integers(2, 8), label="players")
    play_random(data, players, players + 2, brute=True)


def test_the_simulation_times_every_round():
    seconds = simulate(30, 5, seed=3)
    assert len(seconds) == 5 and all(s >= 0 for s in seconds)
