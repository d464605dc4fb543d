"""Trou solved (pbm/games/trou/solver.py) and its bots (bots.py): the solver's compact rules
against the rule module, its values against a plain minimax over the rule module, and the
bots against exhaustive opponents."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pbm.games.bots import RandomBot, bots_of, think
from pbm.games.trou import bots, solver
from pbm.games.trou.bots import BestBot, GoodBot
from pbm.games.trou.game import GAME, GRID, HELP_EXAMPLE_MOVES, Placement, TrouState
from pbm.games.trou.solver import DRAW, LOSS, WIN
from tests.games.playout import replay

RED, BLACK = 0, 1
CORNERS = ("A1", "C1", "A3", "C3")
SIDES = ("B1", "A2", "C2", "B3")


def play_all(moves: tuple[str, ...] | list[str]) -> TrouState:
    return replay(GAME, [(i % 2, text) for i, text in enumerate(moves)])


def red_result(state: TrouState) -> int:
    """Red's result of a finished game, by the rule module."""
    winners = GAME.result(state).winners
    return WIN if RED in winners else LOSS if BLACK in winners else DRAW


def minimax(state: TrouState, memo: dict[TrouState, int]) -> int:
    """Red's value by a plain minimax over the rule module's legal_moves, play and result."""
    if state not in memo:
        if GAME.result(state) is not None:
            memo[state] = red_result(state)
        else:
            (seat,) = GAME.to_move(state)
            values = [minimax(GAME.play(state, seat, m), memo)
                      for m in GAME.legal_moves(state, seat)]
            memo[state] = max(values) if seat == RED else min(values)
    return memo[state]


def sampled_positions(games: int) -> Iterator[TrouState]:
    """Every position of `games` random games, the start and the end included."""
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.start({}, seed)
        yield state
        while GAME.result(state) is None:
            state = GAME.play(state, state.seat_to_move,
                              GAME.random_move(state, state.seat_to_move, rng))
            yield state


def positions_to_depth(depth: int) -> list[TrouState]:
    """Every reachable position with at most `depth` pawns placed."""
    level, found = [GAME.start({}, 0)], [GAME.start({}, 0)]
    for _ in range(depth):
        after = {GAME.play(s, s.seat_to_move, m): None
                 for s in level for m in GAME.legal_moves(s, s.seat_to_move)}
        level = list(after)
        found.extend(level)
    return found


def agrees_with_rules(state: TrouState) -> None:
    """The solver's compact rules say what the rule module says about `state`."""
    board = solver.key(state)
    if GAME.result(state) is not None:
        assert list(solver.placements(board)) == []
        assert solver.score(board) == red_result(state)
        return
    (seat,) = GAME.to_move(state)
    moves = list(GAME.legal_moves(state, seat))
    assert sorted(solver.placements(board)) == sorted(
        (m.value, GRID.index(m.cell)) for m in moves)
    for m in moves:
        after = solver.place(board, m.value, GRID.index(m.cell))
        assert after == solver.key(GAME.play(state, seat, m))


def accepted(state: TrouState, seat: int, move: object) -> bool:
    return GAME.parse(state, seat, GAME.notation(move)) == move


# ----- the solver ------------------------------------------------------------------------


def test_compact_rules_agree_with_the_rule_module_along_random_games():
    for state in sampled_positions(100):
        agrees_with_rules(state)


@pytest.mark.slow  # the whole tree through the rule module: about 13 s of CPU
def test_compact_rules_and_values_agree_with_the_rule_module_on_every_position():
    # The rule module's tree, each position with its legal moves and the position after each.
    tree: dict[TrouState, list[tuple[Placement, TrouState]]] = {}
    stack = [GAME.start({}, 0)]
    while stack:
        state = stack.pop()
        if state not in tree:
            seat = state.seat_to_move
            tree[state] = [(m, GAME.play(state, seat, m)) for m in GAME.legal_moves(state, seat)]
            stack.extend(after for _, after in tree[state])
    assert len(tree) == len(solver.table()) == 91_957
    red: dict[TrouState, int] = {}  # a plain minimax over the tree, deepest positions first
    for state in sorted(tree, key=lambda s: -s.placed):
        board = solver.key(state)
        moves = tree[state]
        assert sorted(solver.placements(board)) == sorted(
            (m.value, GRID.index(m.cell)) for m, _ in moves)
        for m, after in moves:
            assert solver.place(board, m.value, GRID.index(m.cell)) == solver.key(after)
        if not moves:
            red[state] = red_result(state)
            assert solver.score(board) == red[state]
        else:
            values = [red[after] for _, after in moves]
            red[state] = max(values) if state.seat_to_move == RED else min(values)
        assert solver.table()[board] == red[state]


def test_values_agree_with_a_plain_minimax_over_the_rule_module():
    memo: dict[TrouState, int] = {}
    checked = {WIN: 0, DRAW: 0, LOSS: 0}
    for state in sampled_positions(40):
        if state.placed >= 3:  # a subtree of a hundred positions or so
            red = minimax(state, memo)
            assert solver.value(state, RED) == red
            assert solver.value(state, BLACK) == -red
            checked[red] += 1
    assert all(checked.values()), checked  # wins, draws and losses all compared


def test_reachable_positions_and_the_start_is_a_draw():
    # RULINGS: 91,957 reachable positions; help.txt: "With perfect play on both sides, Trou
    # is a draw." Every first pawn keeps the draw, and so does every reply to it.
    assert len(solver.table()) == 91_957
    start = GAME.start({}, 0)
    assert solver.value(start, RED) == solver.value(start, BLACK) == DRAW
    for first in GAME.legal_moves(start, RED):
        after = GAME.play(start, RED, first)
        assert solver.value(after, RED) == DRAW
        assert all(solver.value(GAME.play(after, BLACK, m), BLACK) == DRAW
                   for m in GAME.legal_moves(after, BLACK))
    # But not every position is a draw: a mistake later on loses.
    assert set(solver.table().values()) == {WIN, DRAW, LOSS}


def test_source_example_the_first_pawn_1_in_the_centre():
    # "The first player put a 1 in the centre: the second player may only put a 2 or a 4
    # on the cells marked 2/4 [the sides]", "a 1 or a 3 on the cells marked 1/3 [corners]".
    board = solver.key(play_all(["1B2"]))
    expected = {(v, GRID.index(GRID.named(c))) for v in (2, 4) for c in SIDES}
    expected |= {(v, GRID.index(GRID.named(c))) for v in (1, 3) for c in CORNERS}
    assert set(solver.placements(board)) == expected


def test_source_example_the_first_pawn_1_in_a_corner():
    # "The first player put a 1 top left: the second player cannot place any pawn on the
    # cells marked X [C1, C2, A3, B3, C3], which touch no occupied cell."
    board = solver.key(play_all(["1A1"]))
    reached = {i for _, i in solver.placements(board)}
    assert reached == {GRID.index(GRID.named(c)) for c in ("B1", "A2", "B2")}


@pytest.mark.parametrize(("moves", "red"), [
    # The source's scoring examples, coloured as in test_trou.py: "2 red pawns and 0 black
    # around the hole: Black wins"; "1 red and 1 black: Red wins, its pawn is smaller";
    # "1 red and 1 black: no winner, both pawns have the same value".
    (("2B1", "1A1", "1B2", "4A2", "4C2", "2B3", "3A3", "3C3"), LOSS),
    (("2B1", "1A1", "4A2", "4C2", "1B2", "2B3", "3A3", "3C3"), WIN),
    (("2B1", "1A1", "4A2", "2C2", "1B2", "4B3", "3A3", "3C3"), DRAW),
    # help.txt's finished board: "Red's 2 is smaller than Black's 4, so Red wins."
    (HELP_EXAMPLE_MOVES, WIN),
])
def test_source_scoring_examples_are_the_values_of_their_boards(moves, red):
    state = play_all(moves)
    assert solver.value(state, RED) == red
    assert solver.value(state, BLACK) == -red


def test_the_hole_is_a_corner_or_the_centre_and_a_centre_hole_is_a_draw():
    # The source: "the hole will be either the central cell or one of the 4 corners";
    # help.txt: "A hole in the centre is always a draw".
    centre, corners = GRID.index(GRID.named("B2")), {GRID.index(GRID.named(c)) for c in CORNERS}
    holes = set()
    for board, red in solver.table().items():
        codes = solver.cells(board)
        if codes.count(0) == 1:  # all eight pawns placed
            hole = codes.index(0)
            holes.add(hole)
            if hole == centre:
                assert red == DRAW
    assert holes == corners | {centre}


# ----- the bots --------------------------------------------------------------------------


def test_trou_has_its_own_good_and_best_bots_and_the_random_easy_one():
    found = bots_of(GAME)
    assert isinstance(found["easy"], RandomBot)
    assert isinstance(found["good"], GoodBot) and found["good"].strength == "good"
    assert isinstance(found["best"], BestBot) and found["best"].strength == "best"
    assert "Trou is solved" in found["good"].method
    assert "Trou is solved" in found["best"].method


def bestbot_lines(state: TrouState, bot_seat: int, seed: int) -> Iterator[TrouState]:
    """Every end of a game where bestbot plays `bot_seat` (its rng seeded from `seed` and
    the position) and the opponent plays every legal reply."""
    if GAME.result(state) is not None:
        yield state
        return
    (seat,) = GAME.to_move(state)
    if seat == bot_seat:
        rng = random.Random(f"{seed}/{solver.key(state)}")
        move = BestBot().choose(GAME, GAME.seat_view(state, seat), seat, rng, 10.0)
        assert accepted(state, seat, move)
        after = GAME.play(state, seat, move)
        assert solver.value(after, seat) == solver.value(state, seat)  # never gives value away
        yield from bestbot_lines(after, bot_seat, seed)
    else:
        for move in GAME.legal_moves(state, seat):
            yield from bestbot_lines(GAME.play(state, seat, move), bot_seat, seed)


@pytest.mark.parametrize("bot_seat", [RED, BLACK])
def test_bestbot_never_loses_against_every_line_of_an_exhaustive_opponent(bot_seat):
    ends = list(bestbot_lines(GAME.start({}, 0), bot_seat, seed=24))
    assert len(ends) > 400  # every reply was followed
    results = {red_result(end) * (1 if bot_seat == RED else -1) for end in ends}
    assert LOSS not in results
    assert WIN in results  # and the opponent's mistakes are punished


@pytest.mark.slow  # every move bestbot might choose, by any seed: about 12 s
@pytest.mark.parametrize("bot_seat", [RED, BLACK])
def test_no_move_bestbot_can_choose_ever_loses_against_an_exhaustive_opponent(bot_seat):
    safe: set[TrouState] = set()  # positions whose every line was followed and none lost

    def follow(state: TrouState) -> None:
        if state in safe:
            return
        if GAME.result(state) is not None:
            assert bot_seat in GAME.result(state).winners or GAME.result(state).is_draw
        else:
            (seat,) = GAME.to_move(state)
            moves = (bots.best_moves(GAME, state, seat) if seat == bot_seat
                     else list(GAME.legal_moves(state, seat)))
            for move in moves:
                follow(GAME.play(state, seat, move))
        safe.add(state)

    follow(GAME.start({}, 0))
    assert len(safe) > 30_000


def test_bestbot_only_chooses_among_its_best_moves():
    for state in sampled_positions(30):
        if GAME.result(state) is None:
            seat = state.seat_to_move
            move = BestBot().choose(GAME, state, seat, random.Random(7), 10.0)
            assert move in bots.best_moves(GAME, state, seat)


def test_goodbot_never_turns_a_won_or_drawn_endgame_into_a_worse_one():
    positions = [s for s in sampled_positions(300)
                 if GAME.result(s) is None and s.placed >= bots.ENDGAME]
    could_go_wrong = 0
    for i, state in enumerate(positions):
        seat = state.seat_to_move
        worth = solver.value(state, seat)
        move = GoodBot().choose(GAME, GAME.seat_view(state, seat), seat, random.Random(i), 10.0)
        assert accepted(state, seat, move)
        assert solver.value(GAME.play(state, seat, move), seat) == worth
        if worth > LOSS and any(w < worth for w, _, _ in bots.graded(GAME, state, seat)):
            could_go_wrong += 1
    assert could_go_wrong > 100  # the sample holds many chances to give value away


def test_goodbot_opens_at_random_so_bestbot_has_something_to_win():
    start = GAME.start({}, 0)
    chosen = {GAME.notation(GoodBot().choose(GAME, start, RED, random.Random(s), 10.0))
              for s in range(400)}
    assert chosen == {GAME.notation(m) for m in GAME.legal_moves(start, RED)}
    # Somewhere in the opening it plays a move that gives the draw away.
    losing = [state for state in positions_to_depth(3)
              if GAME.result(state) is None and state.placed < bots.ENDGAME
              and any(w < solver.value(state, state.seat_to_move)
                      for w, _, _ in bots.graded(GAME, state, state.seat_to_move))]
    assert losing
    state = losing[0]
    seat = state.seat_to_move
    values = {solver.value(GAME.play(state, seat, GoodBot().choose(
        GAME, state, seat, random.Random(s), 10.0)), seat) for s in range(200)}
    assert min(values) < solver.value(state, seat)


def a_position_where_good_and_best_differ() -> TrouState:
    for state in sampled_positions(50):
        if GAME.result(state) is None and state.placed >= bots.ENDGAME:
            seat = state.seat_to_move
            if len(bots.best_moves(GAME, state, seat)) < len(bots.good_moves(GAME, state, seat)):
                return state
    raise AssertionError("good and best never differ")


def test_goodbot_in_the_endgame_plays_every_move_that_keeps_the_value_not_only_the_best():
    state = a_position_where_good_and_best_differ()
    seat = state.seat_to_move
    chosen = {GAME.notation(GoodBot().choose(GAME, state, seat, random.Random(s), 10.0))
              for s in range(300)}
    assert chosen == {GAME.notation(m) for m in bots.good_moves(GAME, state, seat)}
    best = {GAME.notation(m) for m in bots.best_moves(GAME, state, seat)}
    assert best < chosen


def test_same_seed_same_move_and_different_seeds_differ_among_equal_moves():
    start = GAME.start({}, 0)
    for strength in ("good", "best"):
        moves = {GAME.notation(think(GAME, start, RED, strength, seed, 10.0))
                 for seed in range(40)}
        assert len(moves) > 10  # all 36 first pawns are draws: the rng picks among them
        for seed in (0, 1, 99):
            again = {GAME.notation(think(GAME, start, RED, strength, seed, 10.0))
                     for _ in range(3)}
            assert len(again) == 1
    state = a_position_where_good_and_best_differ()
    seat = state.seat_to_move
    first = BestBot().choose(GAME, state, seat, random.Random(5), 10.0)
    assert BestBot().choose(GAME, state, seat, random.Random(5), 10.0) == first
