"""A spectator never sees a seat's secret (in the style of test_secrets.py).

carol subscribes to board 101 of a seeded random Pipeline or Outguess game between alice and
bob and gets a board mail after every move. Before the end:

* textual: no mail to carol holds a pipeline, its holes or a secret guess in any form the
  renderers write them (test_secrets' checks, which read every reply not to the owner);
* differential: the game played again with one player's secret changed (the same public
  moves) gives carol byte-identical mails; and the comparison does fail where the two runs
  must differ (the first public reading that tells the pipelines apart, or the end, where
  every secret is revealed to everyone, spectators too).
"""

from __future__ import annotations

import random

import pytest

from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline.state import SubmitPipe
from tests.commands.conftest import ALICE, BOB, CAROL, PW, STRANGER
from tests.commands.test_secrets import (  # noqa: F401  (db, second_db: fixtures)
    ADDRESS,
    BOARD,
    USERS,
    Mailbox,
    assert_same_deliveries,
    assert_told_apart,
    check_outguess_secrets,
    check_pipeline_secrets,
    db,
    outguess_log,
    outguess_states,
    outguess_twin,
    pipeline_log,
    pipeline_twin,
    quick_wrong_passwords,
    second_db,
)

GAMES = 4  # of each kind; test_secrets plays 30 with every other way of looking


def spectate(box: Mailbox, log: list[tuple[int, str]], until: int | None = None) -> None:
    """Challenge, carol subscribes, then the moves of `log` (up to move `until`): every
    move mails both players and carol."""
    box.send(STRANGER, f"{box.word} challenge alice bob")
    answer = box.send(CAROL, f"{box.word} subscribe {BOARD} carol {PW['carol']}")
    assert [r.to for r in answer] == [(CAROL,)] and "carol now watches" in answer[0].body
    for number, (seat, text) in enumerate(log, start=1):
        box.step = number
        userid = USERS[seat]
        replies = box.send(ADDRESS[userid],
                           f"{box.word} move {BOARD} {userid} {PW[userid]} {text}")
        assert {r.kind for r in replies} == {"board"}, replies
        assert {r.to for r in replies} == {(ALICE,), (BOB,), (CAROL,)}, replies
        if number == until:
            return


@pytest.mark.parametrize("seed", range(GAMES))
def test_a_pipeline_spectator_never_sees_a_pipeline(db, second_db, seed):  # noqa: F811
    moves, states = pipeline_log(seed)
    log = [(seat, PIPELINE.notation(move)) for seat, move in moves]
    end = len(moves)
    real = Mailbox(db, "pipeline")
    spectate(real, log)
    assert len(real.to(CAROL, range(1, end + 1))) == end
    assert check_pipeline_secrets(real, moves, states[-1].pipes, range(0, end)) > 0

    owner = seed % 2
    twin_pipe, parted = pipeline_twin(moves, states, owner, random.Random(seed))
    twin_log = [(seat, PIPELINE.notation(SubmitPipe(twin_pipe))
                 if isinstance(m, SubmitPipe) and seat == owner else PIPELINE.notation(m))
                for seat, m in moves]
    last = min(parted, end)
    twin = Mailbox(second_db("twin"), "pipeline")
    spectate(twin, twin_log, until=last)
    assert_same_deliveries(real, twin, CAROL, range(0, last))
    assert_told_apart(real, twin, CAROL, range(last, last + 1))


@pytest.mark.parametrize("seed", range(GAMES))
def test_an_outguess_spectator_never_sees_a_guess(db, second_db, seed):  # noqa: F811
    moves, states = outguess_log(seed)
    log = [(seat, str(move)) for seat, move in moves]
    end = len(moves)
    real = Mailbox(db, "outguess")
    spectate(real, log)
    assert len(real.to(CAROL, range(1, end + 1))) == end
    assert check_outguess_secrets(real, moves, states, range(0, end)) > 0

    owner = seed % 2
    twin_moves, changed = outguess_twin(moves, states, owner, random.Random(seed))
    assert changed > 0
    twin = Mailbox(second_db("twin"), "outguess")
    spectate(twin, [(seat, str(move)) for seat, move in twin_moves])
    check_outguess_secrets(twin, twin_moves, outguess_states(twin_moves), range(0, end))
    assert_same_deliveries(real, twin, CAROL, range(0, end))
    assert_told_apart(real, twin, CAROL, range(end, end + 1))
