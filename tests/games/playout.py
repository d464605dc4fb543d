"""Random playouts through the game contract, checking what every rule module must keep."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from pbm.games.base import Game, Outcome


@dataclass
class Playout:
    """A finished random game: its final state, outcome and log of (seat, notation)."""

    state: Any
    outcome: Outcome | None
    log: list[tuple[int, str]] = field(default_factory=list)


def random_playout(game: Game, seed: int, max_moves: int = 10_000, options=None) -> Playout:
    """Play random legal moves until the game ends, checking the contract at every step.

    Checked each move: someone is to move while there is no result; notation() parses back
    to a move that plays to the same position; encode/decode round-trips through JSON.
    """
    rng = random.Random(seed)
    opts = game.parse_options([]) if options is None else options
    state = game.start(opts, seed)
    log: list[tuple[int, str]] = []
    for _ in range(max_moves):
        outcome = game.result(state)
        if outcome is not None:
            assert not game.to_move(state), "a finished game still has seats to move"
            return Playout(state, outcome, log)
        seats = game.to_move(state)
        assert seats, f"nobody is to move but the game has no result after {len(log)} moves"
        seat = rng.choice(sorted(seats))
        move = game.random_move(state, seat, rng)
        text = game.notation(move)
        reparsed = game.parse(state, seat, text)
        assert game.notation(reparsed) == text
        state = game.play(state, seat, reparsed)
        log.append((seat, text))
        data = json.loads(json.dumps(game.encode(state)))
        restored = game.decode(data)
        for viewer in [None, *range(game.info.players)]:
            assert game.render(restored, viewer) == game.render(state, viewer)
            assert game.render_full(restored, viewer) == game.render_full(state, viewer)
    return Playout(state, game.result(state), log)


def replay(game: Game, log: list[tuple[int, str]], options=None, seed: int = 0):
    """Rebuild a state from a move log, as the server does from its moves table."""
    opts = game.parse_options([]) if options is None else options
    state = game.start(opts, seed)
    for seat, text in log:
        assert seat in game.to_move(state)
        state = game.play(state, seat, game.parse(state, seat, text))
    return state
