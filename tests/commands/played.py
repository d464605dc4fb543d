"""Whole games played through the command layer, every reply kept: for tests of mail shape.

The moves are chosen on a state replayed here with the rule module (random_move, or a
policy the test gives), then sent as `GAME move` commands by the player to move. carol
watches the board (subscribe), so every board mail goes to both players and a spectator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbm.context import Reply
from pbm.games import registry
from pbm.games.base import AnyGame
from tests.commands.conftest import ACCOUNTS, CAROL, PW, STRANGER, Runner, one

BOARD = 101
USERS = ("alice", "bob")  # seat 0 and seat 1, challenged in this order

# A move for the seat to move: (game, state, seat, rng) -> move
Policy = Callable[[AnyGame, Any, int, random.Random], Any]
# Called after every move with the game so far and the move's number: more commands
Looks = Callable[["Played", int], None]


def random_policy(game: AnyGame, state: Any, seat: int, rng: random.Random) -> Any:
    return game.random_move(state, seat, rng)


@dataclass
class Played:
    """One board's game: every command line sent and the replies it got, in order."""

    run: Runner
    word: str
    replies: list[tuple[str, Reply]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    def send(self, sender: str, line: str) -> list[Reply]:
        got = self.run(sender, line)
        self.replies += [(line, reply) for reply in got]
        return got

    def boards(self, address: str) -> list[Reply]:
        """The board mails (after moves, not answers) that went to `address`, in order."""
        return [r for _, r in self.replies if r.kind == "board" and address in r.to]


def play_game(run: Runner, word: str, seed: int, *, policy: Policy = random_policy,
              most: int = 10_000, looks: Looks | None = None) -> Played:
    """Challenge alice and bob to `word`, let carol watch, and play until the game ends
    (or, after `most` moves, the player to move resigns)."""
    game = registry.get(word)
    played = Played(run, word)
    played.send(STRANGER, f"{word} challenge {USERS[0]} {USERS[1]}")
    one(played.send(CAROL, f"{word} subscribe {BOARD} carol {PW['carol']}"))
    rng = random.Random(seed)
    state = game.start(game.parse_options([]), BOARD)
    played.states.append(state)
    number = 0
    while game.result(state) is None and number < most:
        seat = min(game.to_move(state))
        text = game.notation(policy(game, state, seat, rng))
        userid = USERS[seat]
        got = played.send(ACCOUNTS[userid][1], f"{word} move {BOARD} {userid} {PW[userid]} {text}")
        assert not any(r.subject.endswith("Error") for r in got), got
        state = game.play(state, seat, game.parse(state, seat, text))
        played.states.append(state)
        number += 1
        if looks is not None:
            looks(played, number)
    if game.result(state) is None:  # the player to move resigns (out of turn it is queued)
        userid = USERS[min(game.to_move(state))]
        played.send(ACCOUNTS[userid][1], f"{word} resign {BOARD} {userid} {PW[userid]}")
    return played
