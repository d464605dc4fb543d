"""Votes cast in the place of a move: `propose` (a draw) and `undo` (take back the last
move), answered with `accept` or `reject`; and `resign`, as the resign command does."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbm.boards import play, select, votes
from pbm.boards import proposal as vote
from pbm.boards.position import Position, position
from pbm.commands.grammar import Invocation
from pbm.commands.seats import GUARD, authenticate_on, resign
from pbm.context import CommandError, Context
from pbm.db.models import BoardStatus
from pbm.games import registry
from pbm.games.base import AnyGame, UserError
from pbm.views.boardmail import board_text, send_board
from pbm.views.news import tell

PROPOSE, ACCEPT, REJECT, UNDO, RESIGN = "propose", "accept", "reject", "undo", "resign"
WORDS = frozenset({PROPOSE, ACCEPT, REJECT, UNDO, RESIGN})


def vote_of(words: Sequence[str]) -> tuple[str, int | None] | None:
    """The vote word (lower case) and its #n guard when the move text is a vote word."""
    text = " ".join(words)
    guard = None
    found = GUARD.search(text)
    if found:
        guard = int(found.group(1))
        text = text[: found.start()].strip()
    word = text.lower()
    return (word, guard) if word in WORDS else None


def do_vote(ctx: Context, inv: Invocation) -> bool:
    """Cast the vote when the move text of a `move` command is a vote word; False when it
    is a move to play."""
    found = vote_of(inv.args[3:])
    if found is None:
        return False
    assert inv.game is not None
    number, userid, password = inv.args[:3]
    cast(ctx, registry.get(inv.game), number, userid, password, *found)
    return True


def cast(ctx: Context, game: AnyGame, number: str, userid: str, password: str, word: str,
         guard: int | None = None) -> None:
    """The user's vote `word` on the board, on or off turn; every player is mailed the board
    (the final one when the vote ended the game). A #n guard holds as for a move."""
    board = select.load_board(ctx, number, game.info.name, to_change=True)
    pos = position(board)
    user = authenticate_on(ctx, pos, userid, password)
    seat = pos.seat_of(user)
    if seat is None:
        players = " and ".join(pos.userid(s.position) for s in board.seats)
        raise CommandError(f"{user.userid} does not play on board {board.label}, so has no "
                           f"vote there ({players} do).", board_text=board_text(pos, None))
    try:
        play.check_move_number(pos, guard, word)
    except UserError as err:
        raise CommandError(str(err), board_text=board_text(pos, seat)) from None
    if word == RESIGN:
        resign(ctx, game, number, userid, password)
        return
    if board.status != BoardStatus.ACTIVE or pos.outcome() is not None:
        raise CommandError(f"Board {board.label} is over; there is nothing left to vote on.",
                           board_text=board_text(pos, seat))
    if word in (PROPOSE, UNDO):
        _check_no_bot(pos, seat, word)
    ACTIONS[word](ctx, pos, seat)


def _check_no_bot(pos: Position, seat: int, word: str) -> None:
    """A bot plays every game out: it takes no draw and gives no move back (help bots)."""
    for other in pos.board.seats:
        if other.position != seat and other.user.bot:
            asked = "a draw" if word == PROPOSE else "a takeback"
            raise CommandError(
                f"{other.user.userid} is a bot and declines {asked}: bots play every game "
                "out, and never resign before the game is lost for certain (see 'help "
                "bots'). Play on, or resign to stop.", board_text=board_text(pos, seat))


def _propose_draw(ctx: Context, pos: Position, seat: int) -> None:
    _check_none_open(pos, seat)
    pos.board.proposal = vote.opened(vote.DRAW, seat)
    _settle(ctx, pos, seat)


def _propose_undo(ctx: Context, pos: Position, seat: int) -> None:
    _check_none_open(pos, seat)
    standing = votes.standing_moves(pos.board)
    if not standing:
        taken = " (every move made has been taken back)" if pos.board.move_count else ""
        raise CommandError(f"There is no move to take back on board {pos.board.label}"
                           f"{taken}.", board_text=board_text(pos, seat))
    pos.board.proposal = vote.opened(vote.UNDO, seat, standing[-1].number)
    _settle(ctx, pos, seat)


def _accept(ctx: Context, pos: Position, seat: int) -> None:
    proposal = _open(pos, seat, ACCEPT)
    if seat in proposal["accepted"]:
        waiting = " and ".join(pos.userid(s) for s in
                               vote.waiting_for(proposal, len(pos.board.seats)))
        if seat == proposal["by"]:
            mine = f"You made it; it waits for {waiting}. To withdraw it, send reject."
        else:
            mine = f"You have accepted it already; it waits for {waiting}."
        raise CommandError(f"{pos.userid(proposal['by'])} proposes "
                           f"{vote.subject_of(proposal)} on board {pos.board.label}. {mine}",
                           board_text=board_text(pos, seat))
    pos.board.proposal = vote.accepted_by(proposal, seat)
    _settle(ctx, pos, seat)


def _reject(ctx: Context, pos: Position, seat: int) -> None:
    proposal = _open(pos, seat, REJECT)
    how = vote.WITHDRAWN if seat == proposal["by"] else vote.REJECTED
    pos.board.proposal = vote.closed(proposal, how, seat, pos.board.move_count)
    _mail(ctx, pos, seat)


ACTIONS: dict[str, Callable[[Context, Position, int], None]] = {
    PROPOSE: _propose_draw, UNDO: _propose_undo, ACCEPT: _accept, REJECT: _reject,
}


def _settle(ctx: Context, pos: Position, seat: int) -> None:
    """Carry the proposal out once every player has accepted it; mail every player."""
    proposal = pos.board.proposal
    assert proposal is not None
    if vote.waiting_for(proposal, len(pos.board.seats)):
        _mail(ctx, pos, seat)
    elif proposal["kind"] == vote.DRAW:
        votes.agree_draw(ctx, pos)
        _mail(ctx, pos, seat)
    else:
        after, _ = votes.take_back(ctx, pos, ctx.comment)
        after.board.proposal = vote.closed(proposal, vote.AGREED, seat, after.board.move_count)
        _mail(ctx, after, seat)


def _mail(ctx: Context, pos: Position, seat: int) -> None:
    comment = (pos.userid(seat), ctx.comment) if ctx.comment else None
    tell(ctx)
    send_board(ctx, pos, comment=comment)


def _check_none_open(pos: Position, seat: int) -> None:
    proposal = vote.open_proposal(pos.board)
    if proposal is None:
        return
    by = proposal["by"]
    if by == seat:
        advice = "To withdraw it, send reject."
    else:
        advice = "Answer it first: accept or reject."
    raise CommandError(
        f"{pos.userid(by)} already proposes {vote.subject_of(proposal)} on board "
        f"{pos.board.label}, and one proposal at a time may be open. {advice}",
        board_text=board_text(pos, seat))


def _open(pos: Position, seat: int, word: str) -> vote.Proposal:
    proposal = vote.open_proposal(pos.board)
    if proposal is None:
        start = f"{pos.board.game} move {pos.board.label} {pos.userid(seat)} PASSWORD"
        raise CommandError(
            f"There is no open proposal on board {pos.board.label} to {word}. To offer a "
            f"draw: {start} propose; to ask to take back the last move: {start} undo.",
            board_text=board_text(pos, seat))
    return proposal
