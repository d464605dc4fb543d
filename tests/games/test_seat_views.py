"""What a bot may see in the games with hidden information, and the bots that use only it.

For Pipeline and Outguess, at many points of random games (fixed seeds): two states that
differ only in the opponent's secret give the seat equal views; a state sampled from the
view gives the same view back and the same legal moves; every bot, handed either state
through bots.think, plays the same move, and that move parses on the real state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations, islice
from typing import Any

import pytest

from pbm.games import registry
from pbm.games.base import AnyGame, Game
from pbm.games.bot_names import bots_play
from pbm.games.bots import RandomBot, bots_of, think
from pbm.games.outguess.game import GAME as OUTGUESS
from pbm.games.outguess.game import OutguessState
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline import Guess, Phase, Pipe, SubmitPipe
from pbm.games.pipeline import State as PipelineState
from pbm.games.pipeline.flow import HOLES, all_paths, readings
from pbm.games.pipeline.seats import after, consistent
from pbm.games.pipeline.state import GuessEntry, ProbeEntry
from tests.games.example_game import Hilo

Log = list[tuple[int, str]]


def game_points(game: AnyGame, seed: int, every: int = 1,
                limit: int = 400) -> Iterator[tuple[Any, Log]]:
    """The states of a random game (random_move with a fixed seed) with the log that leads
    to each, one in `every`, the final state included."""
    rng = random.Random(seed)
    state = game.start(game.parse_options([]), seed)
    log: Log = []
    for number in range(limit):
        if number % every == 0:
            yield state, list(log)
        if not game.to_move(state):
            if number % every:
                yield state, list(log)
            return
        seat = rng.choice(sorted(game.to_move(state)))
        text = game.notation(game.random_move(state, seat, rng))
        state = game.play(state, seat, game.parse(state, seat, text))
        log.append((seat, text))


def replay(game: AnyGame, log: Log) -> Any:
    return replay_from(game.start(game.parse_options([]), 0), log, game)


def replay_from(state: Any, log: Log, game: AnyGame = OUTGUESS) -> Any:
    for seat, text in log:
        state = game.play(state, seat, game.parse(state, seat, text))
    return state


def same_legal_moves(game: AnyGame, a: Any, b: Any, seat: int) -> bool:
    # Some positions have very many moves (Pipeline's pipelines, long Outguess lines): the
    # first hundreds, in the order both enumerate them, stand for all.
    cap = 600
    return list(islice(game.legal_moves(a, seat), cap)) == list(
        islice(game.legal_moves(b, seat), cap))


def check_twins(game: AnyGame, real: Any, twin: Any, seat: int, seed: int,
                strengths: tuple[str, ...]) -> None:
    """What a seat may see cannot tell `real` from `twin`: views, samples, moves, bots."""
    view = game.seat_view(real, seat)
    assert real != twin
    assert game.seat_view(twin, seat) == view
    hash(view)  # a plain value: bots may keep it in sets and caches
    for draw in range(3):
        sample = game.sample_state(view, seat, random.Random(draw))
        assert game.seat_view(sample, seat) == view
        if seat in game.to_move(real):
            assert game.to_move(sample) == game.to_move(real)
            if draw == 0:
                assert same_legal_moves(game, real, sample, seat)
    if seat not in game.to_move(real):
        return
    for strength in strengths:
        move = think(game, real, seat, strength, seed, 5.0)
        assert game.notation(think(game, twin, seat, strength, seed, 5.0)) == game.notation(
            move), f"{strength} saw through the view"
        # The move is legal on the real state: the server sends exactly this text.
        text = game.notation(move)
        assert game.notation(game.parse(real, seat, text)) == text


# ----- Pipeline ------------------------------------------------------------------------------


def pipeline_twin(state: PipelineState, log: Log, seat: int,
                  rng: random.Random) -> PipelineState | None:
    """The same game with another opponent pipeline on which every probe read the same,
    rebuilt by replaying the log with it; None when the real one is the only such."""
    other = 1 - seat
    assert state.head is not None and state.tail is not None
    real = state.pipes[other]
    candidates = [s.pipe for s in consistent(state.head, state.tail, state.log, other)
                  if s.pipe != real]
    if not candidates:
        return None
    alternative = rng.choice(candidates)
    index = next(i for i, (who, text) in enumerate(log) if who == other and "*" in text)
    changed = [*log]
    changed[index] = (other, alternative.notation())
    twin = replay(PIPELINE, changed)
    # The replay told the same readings and verdicts: only the secret differs.
    assert twin == replace(state, pipes=twin.pipes)
    assert twin.pipes[other] == alternative and twin.pipes[seat] == state.pipes[seat]
    return twin


def pipeline_points() -> Iterator[tuple[PipelineState, Log]]:
    for seed in range(6):
        yield from game_points(PIPELINE, seed, every=3)


def test_pipeline_views_tell_nothing_of_the_opponent_pipeline() -> None:
    rng = random.Random(7)
    twins = checked_bots = 0
    for number, (state, log) in enumerate(pipeline_points()):
        if state.phase is not Phase.PLAY:
            continue
        for seat in (0, 1):
            twin = pipeline_twin(state, log, seat, rng)
            if twin is None:
                continue
            twins += 1
            # The own bots cost more: ask them at one point in eight.
            strengths = ("easy", "good", "best") if number % 8 == 0 else ("easy",)
            checked_bots += len(strengths) > 1
            check_twins(PIPELINE, state, twin, seat, number, strengths)
    assert twins >= 20 and checked_bots >= 3


def test_pipeline_view_holds_what_the_seat_sees_and_no_more() -> None:
    seen_play = seen_pipes = 0
    for state, _ in pipeline_points():
        for seat in (0, 1):
            view = PIPELINE.seat_view(state, seat)
            assert view.own == state.pipes[seat] and view.log == state.log
            assert view.other_sent == (state.pipes[1 - seat] is not None)
            if state.phase is Phase.OVER:
                # Both pipelines are shown to all at the end: the view is the whole state.
                assert view.other == state.pipes[1 - seat]
                assert PIPELINE.sample_state(view, seat, random.Random(0)) == state
            else:
                assert view.other is None
            if state.phase is Phase.PIPES:
                seen_pipes += 1
                sample = PIPELINE.sample_state(view, seat, random.Random(1))
                assert PIPELINE.seat_view(sample, seat) == view
                if seat in PIPELINE.to_move(state):
                    assert same_legal_moves(PIPELINE, state, sample, seat)
            seen_play += state.phase is Phase.PLAY
    assert seen_play and seen_pipes


def brute_force_consistent(state: PipelineState, other: int) -> list[Pipe]:
    """Every pipeline the opponent may have, by the rules' own readings: slow, plain."""
    assert state.head is not None and state.tail is not None
    probes = []
    pawns: dict = {}
    for entry in state.log:
        if isinstance(entry, ProbeEntry):
            pawns = after(pawns, entry.probe)
            probes.append((dict(pawns), entry.readings[other]))
    wrong = {entry.guess.cells for entry in state.log
             if isinstance(entry, GuessEntry) and entry.seat != other and not entry.right}
    found = []
    for path in all_paths(state.head, state.tail):
        for holes in combinations(path[1:-1], HOLES):
            pipe = Pipe(path, frozenset(holes))
            if tuple(sorted(holes)) not in wrong and all(
                    readings(pipe, board) == told for board, told in probes):
                found.append(pipe)
    return found


@pytest.mark.parametrize("seed, probes", [(0, 2), (1, 4), (3, 3), (5, 8)])
def test_pipeline_samples_are_drawn_from_every_consistent_pipeline(seed: int,
                                                                   probes: int) -> None:
    """The enumeration misses no pipeline the readings allow and admits no other."""
    state = next(s for s, _ in game_points(PIPELINE, seed)
                 if s.phase is Phase.PLAY and len(s.log) >= probes)
    for seat in (0, 1):
        truth = brute_force_consistent(state, 1 - seat)
        assert state.pipes[1 - seat] in truth
        assert state.head is not None and state.tail is not None
        found = [s.pipe for s in consistent(state.head, state.tail, state.log, 1 - seat)]
        assert sorted(map(Pipe.notation, found)) == sorted(map(Pipe.notation, truth))
        view = PIPELINE.seat_view(state, seat)
        drawn = {PIPELINE.sample_state(view, seat, random.Random(n)).pipes[1 - seat]
                 for n in range(200)}
        assert drawn <= set(truth)
        assert len(drawn) >= min(len(truth), 5)  # not stuck on one


def test_pipeline_wrong_guesses_rule_out_their_holes() -> None:
    state, _ = next((s, lg) for s, lg in game_points(PIPELINE, 0)
                      if s.phase is Phase.PLAY and s.turn == 0 and not s.owed[0])
    view = PIPELINE.seat_view(state, 0)
    assert state.head is not None and state.tail is not None
    before = {s.holes for s in consistent(state.head, state.tail, state.log, 1)}
    named = next(holes for holes in sorted(before)
                 if holes != tuple(sorted(state.pipes[1].holes)))
    wrong = PIPELINE.play(state, 0, Guess(named))
    assert {s.holes for s in consistent(wrong.head, wrong.tail, wrong.log, 1)} == (
        before - {named})
    view = PIPELINE.seat_view(wrong, 0)
    for n in range(30):
        assert PIPELINE.sample_state(view, 0, random.Random(n)).pipes[1].holes != set(named)


# ----- Outguess ------------------------------------------------------------------------------


def with_guess(text: str, square: int) -> str:
    """A move line (or the first guess alone) with its guess naming `square` instead."""
    actions, _, _ = text.rpartition("guess")
    return f"{actions}guess {'ABCDEFGH'[square % 8]}{square // 8 + 1}"


def outguess_twins(state: OutguessState, log: Log, seat: int) -> Iterator[OutguessState]:
    """The same game with another secret guess of the opponent's, every public count as
    it was: the pending guess (the seat is the mover), or the one named for the seat's
    last turn (the seat is the guesser), rebuilt by replaying the log with it."""
    if state.guess is None or not OUTGUESS.to_move(state):
        return
    if seat == state.mover:
        *before, (who, text) = log  # the opponent's line that ended with the guess
        start = replay(OUTGUESS, before)
        for square, piece in enumerate(state.board):
            if piece is not None and piece.owner == seat and square != state.guess:
                twin = replay_from(start, [(who, with_guess(text, square))])
                assert twin == replace(state, guess=square)
                yield twin
        return
    if state.last is None:
        return
    *before, (who, text), mine = log  # the opponent's guess, then the seat's turn
    assert who == 1 - seat and mine[0] == seat and state.last.mover == seat
    start = replay(OUTGUESS, before)
    named_at = replay_from(start, [(who, text)])
    for square, piece in enumerate(named_at.board):
        if piece is None or piece.owner != seat or square == named_at.guess:
            continue
        twin = replay_from(start, [(who, with_guess(text, square)), mine])
        if twin.last is not None and twin.last.count == state.last.count:
            assert twin == replace(state, last=replace(state.last, guess=square))
            yield twin


def outguess_points() -> Iterator[tuple[OutguessState, Log]]:
    for seed in range(6):
        yield from game_points(OUTGUESS, seed, every=3)


def test_outguess_views_tell_nothing_of_the_opponent_guess() -> None:
    mover_twins = guesser_twins = 0
    for number, (state, log) in enumerate(outguess_points()):
        for seat in (0, 1):
            for twin in islice(outguess_twins(state, log, seat), 2):
                if seat == state.mover:
                    mover_twins += 1
                else:
                    guesser_twins += 1
                strengths = ("easy", "good", "best") if number % 4 == 0 else ("easy",)
                check_twins(OUTGUESS, state, twin, seat, number, strengths)
    assert mover_twins >= 30 and guesser_twins >= 10


def test_outguess_view_holds_the_seat_own_guesses_and_all_at_the_end() -> None:
    ended = 0
    for state, _ in outguess_points():
        for seat in (0, 1):
            view = OUTGUESS.seat_view(state, seat)
            over = not OUTGUESS.to_move(state)
            if over:
                ended += 1
                assert OUTGUESS.sample_state(view, seat, random.Random(0)) == state
                continue
            assert view.guessed == (state.guess is not None)
            assert view.guess == (state.guess if seat == state.guesser else None)
            mine = state.last is not None and state.last.mover != seat
            assert view.last_guess == (state.last.guess if mine else None)
            for draw in range(5):
                sample = OUTGUESS.sample_state(view, seat, random.Random(draw))
                assert OUTGUESS.seat_view(sample, seat) == view
                if sample.guess is not None:
                    piece = sample.board[sample.guess]
                    assert piece is not None and piece.owner == state.mover
    assert ended >= 8


def test_outguess_pending_guess_is_drawn_over_every_piece_of_the_mover() -> None:
    state, _ = next((s, lg) for s, lg in game_points(OUTGUESS, 2)
                    if s.guess is not None and s.last is not None)
    view = OUTGUESS.seat_view(state, state.mover)
    drawn = {OUTGUESS.sample_state(view, state.mover, random.Random(n)).guess
             for n in range(300)}
    pieces = {s for s in range(64) if (p := state.board[s]) and p.owner == state.mover}
    assert drawn == pieces


# ----- the bots ------------------------------------------------------------------------------


def test_a_hidden_game_without_a_seat_view_gives_its_bots_nothing() -> None:
    """A game that hides something must say what each seat sees: the base refuses, and
    the server offers no bots for it."""

    class Unseen(Hilo):  # Hilo as it was before it said what its seats see
        seat_view = Game.seat_view  # type: ignore[assignment]
        sample_state = Game.sample_state  # type: ignore[assignment]

    hilo = Unseen()
    assert not bots_play(hilo) and bots_play(Hilo())
    state = hilo.play(hilo.start({}, 0), 0, hilo.parse(hilo.start({}, 0), 0, "4"))
    with pytest.raises(TypeError, match="must define seat_view"):
        hilo.seat_view(state, 1)
    with pytest.raises(TypeError, match="must define sample_state"):
        hilo.sample_state(state, 1, random.Random(0))
    with pytest.raises(TypeError, match="must define seat_view"):
        think(hilo, state, 1, "easy", 0, 5.0)


@pytest.mark.parametrize("name", ["pipeline", "outguess"])
def test_the_hidden_games_have_bots_of_their_own(name: str) -> None:
    bots = bots_of(registry.get(name))
    assert isinstance(bots["easy"], RandomBot)
    for strength in ("good", "best"):
        bot = bots[strength]
        assert type(bot).__module__ == f"pbm.games.{name}.bots"
        assert bot.strength == strength
        assert 0 < len(bot.method) <= 60  # one line of `help bots`
    assert bots["good"].method != bots["best"].method


def play_match(game: AnyGame, first: str, second: str, seed: int) -> str:
    """A whole game between two strengths through think(); the winner's strength."""
    players = (first, second)
    state = game.start(game.parse_options([]), seed)
    for number in range(500):
        outcome = game.result(state)
        if outcome is not None:
            return players[min(outcome.winners)]
        for seat in sorted(game.to_move(state)):
            move = think(game, state, seat, players[seat], seed * 1000 + number, 5.0)
            state = game.play(state, seat, game.parse(state, seat, game.notation(move)))
            if game.result(state) is not None:
                break
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("name, games", [("pipeline", 4), ("outguess", 10)])
def test_good_beats_the_random_bot(name: str, games: int) -> None:
    game = registry.get(name)
    wins = sum(play_match(game, *(("good", "easy") if n % 2 == 0 else ("easy", "good")), n)
               == "good" for n in range(games))
    assert wins == games


def test_best_beats_the_random_bot_at_outguess() -> None:
    wins = sum(play_match(OUTGUESS, *(("best", "easy") if n % 2 == 0 else ("easy", "best")), n)
               == "best" for n in range(10))
    assert wins == 10


@pytest.mark.parametrize("strength, seeds", [("good", 3), ("best", 1)])
def test_pipeline_bots_find_a_secret_in_few_probes(strength: str, seeds: int) -> None:
    """Alone (its turn again after each move), a bot names a random pipeline's holes long
    before random probing would (measured: good 6.9 probes and 1.3 guesses on average,
    random probes with the same deduction 22 probes). best, which spares its own
    pipeline, must still learn when the opponent never probes: it never stalls."""
    bot = bots_of(PIPELINE)[strength]
    for seed in range(seeds):
        rng = random.Random(seed)
        state = PIPELINE.start({}, seed)
        for seat, text in ((0, "A1"), (1, "D4")):
            state = PIPELINE.play(state, seat, PIPELINE.parse(state, seat, text))
        for seat in (0, 1):
            pipe = PIPELINE.random_move(state, seat, rng)
            assert isinstance(pipe, SubmitPipe)
            state = PIPELINE.play(state, seat, pipe)
        for turn in range(20):
            move = bot.choose(PIPELINE, PIPELINE.seat_view(state, 0), 0, random.Random(turn),
                              5.0)
            state = PIPELINE.play(state, 0, PIPELINE.parse(state, 0, PIPELINE.notation(move)))
            if state.winner is not None:
                break
            state = replace(state, turn=0)
        assert state.winner == 0, f"seed {seed}: not found in 20 turns"
