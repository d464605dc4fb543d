"""Scale benchmark: what a move, `show`, `games USERID`, the turn list and `showas` cost in a
small store and in a big one, and what a move costs at the start and at the end of a long game.

The databases are built directly (bulk inserts of users, boards, seats and moves), not
through mail, so that 100,000 boards take seconds. The operations then run through the
command layer exactly as a mail's would: one transaction each, a Context for the sender.
The players measured have the same number of boards in both stores, so only the size of
everything around them differs. Figures are medians in microseconds, and the big store's
as a ratio to the small one's.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert
from sqlalchemy.orm import Session, sessionmaker

from pbm.accounts.passwords import hash_password
from pbm.bench.progress import Progress, quiet
from pbm.commands.dispatch import run_line
from pbm.config import LimitSettings
from pbm.context import Context
from pbm.db.migrate import upgrade
from pbm.db.models import Address, Board, BoardStatus, Move, Seat, User, utcnow
from pbm.db.session import make_engine, session_factory
from pbm.games.loophole import GAME as LOOPHOLE

PASSWORD = "bench-pw"
MEASURED = 10  # players measured; each plays BOARDS_EACH boards in every store
BOARDS_EACH = 5
OPENING = ("K10", "J10", "K9", "J9")  # every board starts from this position, Black to move
NEXT_MOVE = "L11"
UNLIMITED = LimitSettings(mails_per_sender_per_hour=0, challenges_per_sender_per_day=0,
                          challenges_per_player_per_day=0)


def userid(number: int) -> str:
    return f"u{number:05d}"


def build(url: str, boards: int, users: int) -> sessionmaker[Session]:
    """A migrated store at `url` of `users` players and `boards` Loophole boards after
    OPENING."""
    engine = make_engine(url)
    upgrade(engine)
    state = LOOPHOLE.start({}, 0)
    for seat, text in zip((0, 1, 0, 1), OPENING):
        state = LOOPHOLE.play(state, seat, LOOPHOLE.parse(state, seat, text))
    encoded = LOOPHOLE.encode(state)
    now = utcnow()
    secret = hash_password(PASSWORD)
    # The measured players' boards come first, the same in every store: player n plays
    # BOARDS_EACH boards, each against an opponent of its own. Everyone else plays the rest.
    ours = MEASURED * BOARDS_EACH
    pairs = [(n // BOARDS_EACH + 1, MEASURED + 1 + n) for n in range(ours)]
    first, others = MEASURED + ours + 1, users - MEASURED - ours
    pairs += [(first + 2 * i % others, first + (2 * i + 1) % others)
              for i in range(boards - ours)]
    with engine.begin() as conn:
        conn.execute(insert(User), [
            {"id": n, "userid": userid(n), "password_hash": secret, "created_at": now,
             "active": True, "wrong_passwords": 0} for n in range(1, users + 1)])
        conn.execute(insert(Address), [
            {"user_id": n, "position": 0, "address": f"{userid(n)}@bench.test"}
            for n in range(1, users + 1)])
        conn.execute(insert(Board), [
            {"id": 101 + i, "number": 101 + i, "game": "loophole",
             "rules_version": LOOPHOLE.info.rules_version,
             "options": {}, "seed": 101 + i, "status": BoardStatus.ACTIVE, "state": encoded,
             "move_count": len(OPENING), "challenger": "bench", "created_at": now,
             "updated_at": now} for i in range(boards)])
        conn.execute(insert(Seat), [
            {"board_id": 101 + i, "position": seat, "user_id": player,
             "resign_queued": False}
            for i, pair in enumerate(pairs) for seat, player in enumerate(pair)])
        conn.execute(insert(Move), [
            {"board_id": 101 + i, "number": n + 1, "seat": n % 2, "notation": text,
             "shown": {}, "created_at": now}
            for i in range(boards) for n, text in enumerate(OPENING)])
    return session_factory(engine)


def _mail(factory: sessionmaker[Session], sender: str, line: str) -> None:
    with factory() as session, session.begin():
        ctx = Context(session, sender, limits=UNLIMITED)
        run_line(ctx, line)
        assert not ctx.failures, ctx.replies[-1].body


def _median_us(factory: sessionmaker[Session], lines: list[tuple[str, str]]) -> float:
    times = []
    for sender, line in lines:
        started = time.perf_counter()
        _mail(factory, sender, line)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def operations(factory: sessionmaker[Session]) -> dict[str, float]:
    """Median µs of each operation, on the measured players' boards."""
    players = [(userid(n), f"{userid(n)}@bench.test") for n in range(1, MEASURED + 1)]
    boards = [(101 + n, players[n // BOARDS_EACH]) for n in range(MEASURED * BOARDS_EACH)]
    # Warm the caches (compiled statements, the rule module) before timing anything.
    _mail(factory, players[0][1], f"loophole show {boards[0][0]}")
    return {
        "show": _median_us(factory, [(a, f"loophole show {b}") for b, (_, a) in boards]),
        "showas": _median_us(factory, [(a, f"loophole showas {u} {PASSWORD} {b}")
                                       for b, (u, a) in boards]),
        "games_userid": _median_us(factory, [(a, f"loophole games {u}")
                                             for u, a in players * BOARDS_EACH]),
        "turn_list": _median_us(factory, [(a, f"games {u}") for u, a in players * BOARDS_EACH]),
        "move": _median_us(factory, [(a, f"loophole move {b} {u} {PASSWORD} {NEXT_MOVE}")
                                     for b, (u, a) in boards]),
    }


def long_game(factory: sessionmaker[Session], moves: int = 300) -> dict[str, float]:
    """Median µs per move over the first and the last 30 moves of a `moves`-move game."""
    seed = next(s for s in range(1000) if _length(s) > moves)
    rng = random.Random(seed)
    state = LOOPHOLE.start({}, 0)
    alice, bob = (userid(n) for n in (1, MEASURED + 1))
    _mail(factory, "bench@bench.test", f"loophole challenge {alice} {bob}")
    number = _newest_board(factory)
    times = []
    for _ in range(moves):
        (seat,) = LOOPHOLE.to_move(state)
        move = LOOPHOLE.random_move(state, seat, rng)
        player = (alice, bob)[seat]
        line = f"loophole move {number} {player} {PASSWORD} {LOOPHOLE.notation(move)}"
        started = time.perf_counter()
        _mail(factory, f"{player}@bench.test", line)
        times.append(time.perf_counter() - started)
        state = LOOPHOLE.play(state, seat, move)
    first, last = statistics.median(times[:30]) * 1e6, statistics.median(times[-30:]) * 1e6
    return {"long_game_first_30_us": round(first), "long_game_last_30_us": round(last),
            "long_game_ratio_last_to_first": round(last / first, 2)}


def _length(seed: int) -> int:
    rng, state, count = random.Random(seed), LOOPHOLE.start({}, 0), 0
    while LOOPHOLE.result(state) is None:
        (seat,) = LOOPHOLE.to_move(state)
        state = LOOPHOLE.play(state, seat, LOOPHOLE.random_move(state, seat, rng))
        count += 1
    return count


def _newest_board(factory: sessionmaker[Session]) -> int:
    from sqlalchemy import func, select

    with factory() as session:
        return int(session.scalar(select(func.max(Board.id))) or 0)


def run(small: int = 1_000, big: int = 100_000, users: int = 10_000,
        progress: Progress = quiet) -> dict[str, float]:
    figures: dict[str, float] = {"small_boards": small, "big_boards": big, "users": users}
    with tempfile.TemporaryDirectory(prefix="pbm-bench-") as tmp:
        folder = Path(tmp)
        built: dict[str, Callable[[], sessionmaker[Session]]] = {
            "small": lambda: build(f"sqlite:///{folder / 'small.sqlite'}", small, users),
            "big": lambda: build(f"sqlite:///{folder / 'big.sqlite'}", big, users),
        }
        measured = {}
        for name, make in built.items():
            progress(f"scale: building the {name} store ({figures[f'{name}_boards']:,} "
                     f"boards, {users:,} players)")
            started = time.perf_counter()
            factory = make()
            figures[f"build_{name}_seconds"] = round(time.perf_counter() - started, 1)
            progress(f"scale: {name} store built in {figures[f'build_{name}_seconds']} s; "
                     "timing move, show, games, the turn list, showas")
            measured[name] = operations(factory)
            if name == "big":
                progress("scale: a long game in the big store")
                figures.update(long_game(factory))
    for operation, small_us in measured["small"].items():
        big_us = measured["big"][operation]
        figures[f"{operation}_small_us"] = round(small_us)
        figures[f"{operation}_big_us"] = round(big_us)
        figures[f"{operation}_ratio_big_to_small"] = round(big_us / small_us, 2)
    return figures
