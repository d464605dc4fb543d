"""The move path issues a bounded number of SQL statements per move mail, the same at the
start of a game as at its end: a feature that adds a query per board, per move in the log or
per player fails here rather than in a benchmark."""

from __future__ import annotations

import random
from pathlib import Path

from sqlalchemy import event

from pbm.bench.mail import PLAYERS, player_mail
from pbm.config import load
from pbm.db.migrate import upgrade
from pbm.db.session import make_engine, session_factory
from pbm.games.loophole import GAME as LOOPHOLE
from pbm.mail.receive import Received, check_ahead, prepare, receive
from tests import stores

# What a move mail costs today, statement by statement (the assertion prints them):
#   BEGIN
#   the mail stored, as done (a Message-ID seen before fails on its unique index)
#   the board with its players, their addresses and whether anyone watches it (one query)
#   the sender's wrong-password count
#   the move
#   the board's spectators' addresses (one query), where it has any
#   the board's new state, with its last moves (a board mail's move list needs no read)
#   the seats' clocks (one statement for both)
#   the board mails (one INSERT for all)
# No savepoint: a mail runs without them unless a command fails (then it is rolled back and
# runs again with them; tests/mail/test_failed_commands.py). (The sender rate is off here;
# on, it adds one upsert.)
MOST_PER_MOVE = 9
WATCHED_FROM = 60  # two spectators from this move on
SPECTATORS = [("carol", "secret-c", "carol@bench.test"), ("dave", "secret-d", "dave@bench.test")]


class Counter:
    def __init__(self, engine) -> None:
        self.statements: list[str] = []
        event.listen(engine, "before_cursor_execute", self.count)

    def count(self, conn, cursor, statement, parameters, context, executemany) -> None:
        self.statements.append(" ".join(statement.split()[:3]))


def test_a_move_costs_a_bounded_number_of_statements_at_any_point_of_a_game(tmp_path: Path):
    config = load(None, env={"PBM_DATABASE_URL": stores.url(tmp_path / "pbm.sqlite", migrated=True),
                             "PBM_LIMITS_MAILS_PER_SENDER_PER_HOUR": "0"})
    engine = make_engine(config.database_url)
    upgrade(engine)
    factory, reader = session_factory(engine), session_factory(engine, read_only=True)
    for userid, password, address in PLAYERS:
        receive(factory, config, player_mail(address, f"signup {userid} {password}"), address)
    receive(factory, config, player_mail(PLAYERS[0][2], "loophole challenge alice bob"),
            PLAYERS[0][2])
    counter = Counter(engine)
    rng, state, per_move = random.Random(3), LOOPHOLE.start({}, 0), []
    for number in range(120):
        if number == WATCHED_FROM:
            for userid, password, address in SPECTATORS:
                for line in (f"signup {userid} {password}",
                             f"loophole subscribe 101 {userid} {password}"):
                    receive(factory, config, player_mail(address, line), address)
        (seat,) = LOOPHOLE.to_move(state)
        move = LOOPHOLE.random_move(state, seat, rng)
        userid, password, address = PLAYERS[seat]
        raw = player_mail(address, f"loophole move 101 {userid} {password} "
                                   f"{LOOPHOLE.notation(move)}")
        prepared = prepare(raw, address, config.limits)
        with reader() as session:
            prepared = check_ahead(prepared, session, config.limits)
        counter.statements.clear()
        result, queued = receive(factory, config, raw, address, prepared)
        watched = number >= WATCHED_FROM
        assert result is Received.STORED and len(queued) == 2 + 2 * watched
        per_move.append(list(counter.statements))
        state = LOOPHOLE.play(state, seat, move)
    counts = [len(statements) for statements in per_move]
    assert max(counts) <= MOST_PER_MOVE, per_move[counts.index(max(counts))]
    # None grows with the log, nor with the spectators: a watched board asks once for them.
    assert counts[5] == counts[WATCHED_FROM - 1], (per_move[5], per_move[WATCHED_FROM - 1])
    assert counts[-1] == counts[WATCHED_FROM + 5] == counts[5] + 1, (per_move[5], per_move[-1])
