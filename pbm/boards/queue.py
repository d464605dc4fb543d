"""Queued moves: a move, or replies to the opponent's coming move, played for a player when
their turn comes (stored on `Seat.queued`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbm.boards import play
from pbm.boards.facts import QueueDropped
from pbm.boards.position import MOVE, Position, viewer_key
from pbm.context import CommandError, Context, shorten
from pbm.db.models import Board
from pbm.games.base import UserError

MAX_TEXT = 1000  # characters of a queued move or reply list: a mail may hold any length
MAX_CONDITIONS = 30  # replies in one list; each is checked against the rules when queued
IF = re.compile(r"\s+if\s+", re.IGNORECASE)
CHAIN = re.compile(r"(^|\s)(if|then)(\s|$)", re.IGNORECASE)
WRITE = "Write each reply before its condition: K10 if L11, J9 if M2"


@dataclass(frozen=True)
class Queued:
    """What a seat has queued: one move, or (condition, reply) pairs in canonical notation."""

    move: str | None = None
    when: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def load(data: dict[str, Any] | None) -> Queued | None:
        if not data:
            return None
        if "when" in data:
            return Queued(when=tuple((str(c), str(r)) for c, r in data["when"]))
        return Queued(move=str(data["move"]))

    def dump(self) -> dict[str, Any]:
        if self.when:
            return {"when": [list(pair) for pair in self.when]}
        return {"move": self.move}

    def describe(self) -> str:
        """'K10', or 'K10 if L11, J9 if M2'."""
        if self.when:
            return ", ".join(f"{reply} if {condition}" for condition, reply in self.when)
        return self.move or ""

    def line(self) -> str:
        """The line its owner's board mail carries."""
        if self.when:
            return f"Your queued replies: {self.describe()}."
        return f"Your queued move: {self.describe()}."


def read_request(text: str) -> str | list[tuple[str, str]]:
    """The words after the password: a move as written, or (condition, reply) pairs as
    written ('K10 if L11, J9 if M2'); CommandError says how to write a malformed list."""
    text = " ".join(text.split())
    if len(text) > MAX_TEXT:
        raise CommandError(f"A queued move may be at most {MAX_TEXT} characters long; this "
                           f"one is {len(text)}.")
    if not IF.search(f" {text} "):
        return text
    pairs = []
    for item in text.split(","):
        reply, condition = _split_item(item)
        pairs.append((condition, reply))
    if len(pairs) > MAX_CONDITIONS:
        raise CommandError(f"At most {MAX_CONDITIONS} replies may be queued at once; this list "
                           f"has {len(pairs)}.")
    return pairs


def _split_item(item: str) -> tuple[str, str]:
    """'K10 if L11' -> ('K10', 'L11'), refusing empty halves and chains."""
    item = item.strip()
    if not item:
        raise CommandError(f"An empty reply in the list (two commas in a row?). {WRITE}.")
    parts = IF.split(f" {item} ")
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip() or \
            CHAIN.search(parts[0]) or CHAIN.search(parts[1]):
        raise CommandError(
            f"'{shorten(item)}' is not a reply and its condition. {WRITE} (play K10 if the "
            "opponent plays L11). Each condition is the opponent's next move only: chains such "
            "as 'if L11 then K10 if M3 then J9' cannot be queued yet.")
    return parts[0].strip(), parts[1].strip()


def conditional(pos: Position, seat: int, pairs: list[tuple[str, str]]) -> Queued:
    """Replies checked against the rules: each condition a legal next move of the opponent
    (stored as the game writes it, so 'l11' matches 'L11'), each reply legal after it."""
    game = pos.game
    if game.info.hidden:
        raise CommandError(
            f"{pos.title} keeps moves secret while the game runs, so a queued move cannot "
            "depend on the opponent's move: checking the condition would tell you what they "
            "played. Queue a plain move instead (it is played whatever they do).")
    movers = pos.to_move()
    if len(movers) != 1:
        raise CommandError("A condition names the opponent's next move, but more than one "
                           "player is to move now; queue a plain move instead.")
    (opponent,) = movers
    name = pos.userid(opponent)
    when: dict[str, str] = {}
    for written, reply_text in pairs:
        try:
            move = game.parse(pos.state, opponent, written)
        except UserError as err:
            raise CommandError(f"'{shorten(written)}' is not a move {name} can make now: "
                               f"{err}") from None
        condition = game.notation(move)
        if condition in when:
            raise CommandError(f"{condition} is named twice as a condition; give one reply "
                               "to each move.")
        after = game.play(pos.state, opponent, move)
        if game.result(after) is not None:
            raise CommandError(f"If {name} plays {condition} the game is over, so there is "
                               "nothing to reply; leave that condition out.")
        if seat not in game.to_move(after):
            raise CommandError(f"If {name} plays {condition} it is still not your turn, so "
                               "no reply can be played then.")
        try:
            reply = game.notation(game.parse(after, seat, reply_text))
        except UserError as err:
            raise CommandError(f"'{shorten(reply_text)}' would not be a legal reply if {name} "
                               f"plays {condition}: {err}") from None
        when[condition] = reply
    return Queued(when=tuple(when.items()))


def queued_of(board: Board, seat: int) -> Queued | None:
    return Queued.load(board.seats[seat].queued)


def store(board: Board, seat: int, queued: Queued | None) -> None:
    # A new value each time: the JSON column notices assignment, not changes inside it.
    board.seats[seat].queued = None if queued is None else queued.dump()


def clear_all(board: Board) -> None:
    """Drop every queue of the board (the position they were written for is gone)."""
    for seat in board.seats:
        if seat.queued is not None:
            seat.queued = None


def queued_line(pos: Position, viewer: int | None) -> str | None:
    """'Your queued move: K10.' for the queue's owner only, on the current position."""
    if viewer is None or pos.upto != pos.board.move_count:
        return None
    queued = queued_of(pos.board, viewer)
    return queued.line() if queued else None


def play_queued(ctx: Context, pos: Position, mover: int) -> None:
    """After `mover` moved by hand: play the queues of the seats now to move, and of those
    to move after those, each queue once. A queued resignation comes first and ends the
    board."""
    seats = pos.board.seats
    if not any(seat.queued for seat in seats):
        return  # the common case: the seats came with the board, so this costs no query
    if seats[mover].queued:
        # Written for a turn that came some other way (a takeback): the mover has now
        # chosen for themself.
        store(pos.board, mover, None)
    for _ in seats:  # each round uses up one queue, so this many rounds are enough
        movers = sorted(pos.to_move())
        resigning = [seat for seat in movers if seats[seat].resign_queued]
        if resigning:
            play.resign(ctx, pos, resigning[0])  # finish() clears every queue
            return
        ready = [seat for seat in movers if seats[seat].queued]
        if not ready:
            return
        _play_one(ctx, pos, ready[0])


def _play_one(ctx: Context, pos: Position, seat: int) -> None:
    queued = queued_of(pos.board, seat)
    assert queued is not None
    store(pos.board, seat, None)  # used once, whatever happens to it
    text = queued.move
    if queued.when:
        text = _reply(ctx, pos, seat, queued)
        if text is None:
            return
    assert text is not None
    try:
        play.play_move(ctx, pos, seat, text, None, auto=True)
    except UserError as err:
        # The reason is what the rules tell this seat had it sent the move itself now, so
        # it shows nothing a move by hand would not.
        _notice(ctx, pos, seat, f"Your queued move {shorten(text)} on {pos.title} board "
                                f"{pos.board.label} was dropped: it is not legal now. {err}")


def _reply(ctx: Context, pos: Position, seat: int, queued: Queued) -> str | None:
    """The reply to the opponent's move just played, or None (the queue dropped, told)."""
    moves = pos.moves(1)
    last = moves[-1] if moves else None
    if last is None or last.kind != MOVE or last.seat == seat:
        _notice(ctx, pos, seat, f"Your queued replies on {pos.title} board {pos.board.label} "
                                "were dropped: the move they answered was not played.")
        return None
    conditions = dict(queued.when)
    if last.notation in conditions:
        return conditions[last.notation]
    from pbm.games.text import or_list  # here: a mail of other commands needs no games.*

    seen = last.shown.get(viewer_key(seat), last.notation)
    _notice(ctx, pos, seat, f"Your queued move on {pos.title} board {pos.board.label} was "
                            f"dropped: {pos.userid(last.seat)} played {seen}, not "
                            f"{or_list(conditions)}.")
    return None


def _notice(ctx: Context, pos: Position, seat: int, text: str) -> None:
    ctx.facts.append(QueueDropped(pos, seat, text))
