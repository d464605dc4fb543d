"""An undo never leaks a secret (issue 10): Pipeline and Outguess, as in test_secrets.py.

Each story: challenge, play up to a player's secret move (a pipeline sent, an Outguess turn
naming a piece), the other player asks to take it back and the owner agrees, the owner makes
it again, play goes on a few moves, the owner asks to take back the last move and the other
agrees; then everyone looks (show, showas, show 101#k at every entry of the log).

Checked: after each takeback every player's board is exactly the one they saw before the
move taken back (the rule module's own rendering of that position, for that viewer); and
the story played again with only the owner's secret changed (test_secrets' twins, so every
public reading stays the same) mails the other player, a stranger and carol byte-identical
replies, while the owner's own mails do differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from pbm.games.base import AnyGame
from pbm.games.outguess import GAME as OUTGUESS
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline.state import SubmitPipe
from tests.commands.conftest import PW, STRANGER, Runner
from tests.commands.test_secrets import (
    ADDRESS,
    BOARD,
    LOOKERS_ON,
    USERS,
    Mailbox,
    assert_same_deliveries,
    assert_told_apart,
    outguess_log,
    outguess_twin,
    pipeline_log,
    pipeline_twin,
    without_fsync,
)
from tests.commands.test_secrets import second_db as _second_db_fixture

SEEDS = 4
second_db = _second_db_fixture  # the same fixture under its own name here


@pytest.fixture
def db(players) -> Runner:
    return without_fsync(players)


def story(box: Mailbox, log: list[tuple[int, str]], sent: int, last: int) -> list[int]:
    """Run the story (see the module's docstring); returns the steps at which a takeback was
    carried out (step = commands sent so far, the same in both runs)."""
    word = box.word

    def send(seat: int, text: str) -> list:
        box.step += 1
        userid = USERS[seat]
        return box.send(ADDRESS[userid], f"{word} move {BOARD} {userid} {PW[userid]} {text}")

    def boards(replies: list) -> None:
        assert {r.kind for r in replies} == {"board"}, replies
        assert {r.to for r in replies} == {(ADDRESS["alice"],), (ADDRESS["bob"],)}, replies

    box.send(STRANGER, f"{word} challenge alice bob")
    for seat, text in log[:sent]:
        boards(send(seat, text))
    owner = log[sent - 1][0]
    other = 1 - owner
    taken = []
    boards(send(other, "undo"))
    boards(send(owner, "accept"))
    taken.append(box.step)
    for seat, text in log[sent - 1:last]:
        boards(send(seat, text))
    boards(send(owner, "undo"))
    boards(send(other, "accept"))
    taken.append(box.step)
    box.step += 1
    entries = last + 3  # the moves, the secret one made twice, two takebacks
    box.send(STRANGER, f"{word} show {BOARD}")
    for seat, userid in enumerate(USERS):
        box.send(ADDRESS[userid], f"{word} showas {userid} {PW[userid]} {BOARD}")
    for k in range(entries + 1):
        (shown,) = box.send(LOOKERS_ON[k % 2], f"{word} show {BOARD}#{k}")
        assert not shown.subject.endswith("Error"), shown
    return taken


def check_restored(box: Mailbox, game: AnyGame, step: int, state: Any) -> None:
    """The board mails of `step` show each player the position `state` as they see it."""
    mails = [r for s, _, _, r in box.log if s == step and r.kind == "board"]
    assert len(mails) == 2
    for reply in mails:
        seat = next(s for s, u in enumerate(USERS) if reply.to == (ADDRESS[u],))
        assert game.render(state, seat).rstrip("\n") in reply.body, reply.body
        assert "taken back)" in reply.body


def run_both(db: Runner, second_db: Callable[[str], Runner], game: AnyGame,
             log: list[tuple[int, str]], twin_log: list[tuple[int, str]], states: list[Any],
             sent: int, last: int) -> None:
    owner = log[sent - 1][0]
    word = game.info.name
    real = Mailbox(db, word)
    taken = story(real, log, sent, last)
    check_restored(real, game, taken[0], states[sent - 1])
    check_restored(real, game, taken[1], states[last - 1])
    twin = Mailbox(second_db("twin"), word)
    story(twin, twin_log, sent, last)
    steps = range(0, real.step + 1)
    for address in (ADDRESS[USERS[1 - owner]], *LOOKERS_ON):
        assert_same_deliveries(real, twin, address, steps)
    assert_told_apart(real, twin, ADDRESS[USERS[owner]], steps, "board")
    assert db.board(BOARD).status == "active"


@pytest.mark.parametrize("seed", range(SEEDS))
def test_pipeline_undo_keeps_the_pipelines_secret(db, second_db, seed):
    moves, states = pipeline_log(seed)
    owner = seed % 2
    twin_pipe, parted = pipeline_twin(moves, states, owner, random.Random(seed))
    sent = next(n for n, (s, m) in enumerate(moves, 1) if s == owner and isinstance(m, SubmitPipe))
    last = max(sent, min(parted - 1, sent + 4, len(moves) - 1))
    assert last < parted  # no probe yet reads the twin pipelines apart
    log = [(seat, PIPELINE.notation(m)) for seat, m in moves]
    twin_log = [(seat, PIPELINE.notation(SubmitPipe(twin_pipe) if n == sent else m))
                for n, (seat, m) in enumerate(moves, 1)]
    run_both(db, second_db, PIPELINE, log, twin_log, states, sent, last)


@pytest.mark.parametrize("seed", range(SEEDS))
def test_outguess_undo_keeps_the_guesses_secret(db, second_db, seed):
    moves, states = outguess_log(seed)
    owner = seed % 2
    twin_moves, changed = outguess_twin(moves, states, owner, random.Random(seed))
    assert changed
    sent = next(n for n, (a, b) in enumerate(zip(moves, twin_moves), 1) if a != b)
    last = min(sent + 4, len(moves) - 1)
    log = [(seat, str(m)) for seat, m in moves]
    twin_log = [(seat, str(m)) for seat, m in twin_moves]
    run_both(db, second_db, OUTGUESS, log, twin_log, states, sent, last)
