"""A bot's turn end to end: the boards waiting for a bot, its move thought out away from the
database, and the move played as a mail's is (the same command, the same log, the same board
mails), in a transaction of its own.

Thinking holds no session and no lock: `Turn` carries all a bot may use, the seat's view of
the game (Game.seat_view) and never the state, so the bot cannot see what the rules hide from
its seat, and the thinking can run in another process. The move then goes in with the `#n`
guard of the turn it was thought for: a board that changed meanwhile (the player resigned,
another node's bot moved first) refuses it, and is looked at again."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from pbm.boards.position import position
from pbm.commands.game_commands import move
from pbm.config import Config
from pbm.context import CommandError, Context
from pbm.db.models import Board, BoardStatus, Seat, User
from pbm.games import bots, registry
from pbm.mail.receive import queue

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Turn:
    """A bot to move on a board: what the thinking needs, as plain data."""

    board_id: int
    game: str
    label: str  # the board's name: 101, a101
    move_count: int  # the board's moves so far: the bot's move is #move_count+1
    seat: int
    userid: str
    strength: str
    view: Any  # Game.seat_view of the board's state for the bot's seat: all it may know
    seed: int  # from the board's seed and the turn: a game replays exactly

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.board_id, self.move_count, self.seat)


def turn_seed(board_seed: int, board_id: int, move_count: int, seat: int) -> int:
    """The bot's random seed for one turn: the same on every node and every run."""
    text = f"{board_seed}:{board_id}:{move_count}:{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Watch:
    """Which boards with a bot on them wait for a bot to move. It remembers the boards it
    found waiting for a person, by their move count, so that an idle server asks the
    database one small query a round, not every bot board's state."""

    def __init__(self) -> None:
        self.waiting_for_people: dict[int, int] = {}  # board id -> move count then

    def due(self, session: Session, most: int = 20) -> list[Turn]:
        rows = session.execute(
            select(Board.id, Board.move_count)
            .join(Seat, Seat.board_id == Board.id).join(User, User.id == Seat.user_id)
            .where(Board.status == BoardStatus.ACTIVE, User.bot.is_not(None))
            .distinct().order_by(Board.id)).all()
        live = {board_id: count for board_id, count in rows}
        self.waiting_for_people = {board_id: count for board_id, count in
                                   self.waiting_for_people.items()
                                   if live.get(board_id) == count}
        changed = [board_id for board_id in live if board_id not in self.waiting_for_people]
        turns: list[Turn] = []
        for board in _boards(session, changed):
            found = list(turns_on(board))
            if not found:
                self.waiting_for_people[board.id] = board.move_count
            turns += found
            if len(turns) >= most:
                break
        return turns[:most]


def _boards(session: Session, ids: list[int]) -> Iterable[Board]:
    for start in range(0, len(ids), 100):
        yield from session.scalars(select(Board).where(Board.id.in_(ids[start:start + 100]))
                                   .order_by(Board.id))


def turns_on(board: Board) -> Iterable[Turn]:
    """The bots to move on `board` now (two where a bot plays both seats of a step)."""
    pos = position(board)
    for seat in sorted(pos.to_move()):
        user = board.seats[seat].user
        if user.bot:
            yield Turn(board.id, board.game, board.label, board.move_count, seat,
                       user.userid, user.bot, pos.game.seat_view(pos.state, seat),
                       turn_seed(board.seed, board.id, board.move_count, seat))


def think(turn: Turn, seconds: float) -> str:
    """The bot's move for the turn, in notation. Pure: no database, no mail; it may run in
    another process."""
    game = registry.get(turn.game)
    return game.notation(bots.choose(game, turn.view, turn.seat, turn.strength, turn.seed,
                                     seconds))


def play(factory: sessionmaker[Session], config: Config, turn: Turn, text: str,
         now: datetime) -> list[int]:
    """Play the bot's move `text` in a transaction of its own; the outbox ids of the board
    mails it queued. A turn gone stale (the board moved on) plays nothing."""
    game = registry.get(turn.game)
    with factory() as session:
        session.begin()
        try:
            ctx = Context(session, "", admin=True, limits=config.limits, time=config.time,
                          bots=config.bots, now=now, web_base_url=config.web.base_url)
            try:
                move(ctx, game, turn.label, turn.userid, "", text,
                     guard=turn.move_count + 1)
            except CommandError as err:
                log.info("%s board %s: %s's move %s not played: %s", game.info.title,
                         turn.label, turn.userid, text, str(err).split("\n")[0])
                return []
            ids = queue(session, config, ctx.replies, None, None)
            session.commit()
        finally:
            session.rollback()  # after a commit: nothing left to undo
    log.info("%s board %s: %s moved %s", game.info.title, turn.label, turn.userid, text)
    return ids


MOST_MOVES_PER_RUN = 200  # a bound on one `pbm tick`: bots playing each other never end it


def play_due(factory: sessionmaker[Session], config: Config, now: datetime,
             *, dry_run: bool = False) -> tuple[list[str], list[int]]:
    """Every bot move due now, thought out here and played one by one (`pbm tick`, where
    there is no `pbm serve` to do it): a line for each, and the outbox ids they queued."""
    watch, done, ids = Watch(), list[str](), list[int]()
    seconds = float(config.bots.think_seconds)
    while len(done) < MOST_MOVES_PER_RUN:
        with factory() as session:
            turns = watch.due(session, most=1)
        if not turns:
            break
        turn = turns[0]
        text = think(turn, seconds)
        title = registry.get(turn.game).info.title
        done.append(f"{title} board {turn.label}: {turn.userid} {text}")
        if dry_run:
            break  # nothing is played, so the same turn would come round again
        ids += play(factory, config, turn, text, now)
    return done, ids
