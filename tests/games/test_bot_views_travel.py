"""What a bot is given crosses into the thinking process (`pbm serve` thinks in a spawned
process of its own): every game's seat view survives pickling whole, at every point of a
game, and the move thought from the copy is the move thought from the original."""

from __future__ import annotations

import pickle
import random

import pytest

from pbm.games import registry
from pbm.games.bots import choose


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_a_seat_view_crosses_a_process_boundary_whole(name: str) -> None:
    game = registry.get(name)
    rng = random.Random(7)
    state = game.start({opt.name: opt.default for opt in game.info.options}, 7)
    for ply in range(60):
        if game.result(state) is not None:
            break
        for seat in sorted(game.to_move(state)):
            view = game.seat_view(state, seat)
            copy = pickle.loads(pickle.dumps(view))
            assert copy == view
            if ply % 10 == 0:
                assert game.notation(choose(game, copy, seat, "easy", ply, 5.0)) == \
                    game.notation(choose(game, view, seat, "easy", ply, 5.0))
        seat = min(game.to_move(state))
        state = game.play(state, seat, game.random_move(state, seat, rng))
