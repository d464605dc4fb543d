"""Ladders in play: a standing ranking per game, its challenges' boards, and what a board's
end does to the ranks.

The rules, as the help and README give them:
- A newcomer joins at the bottom; one who leaves opens a gap that everyone below closes.
- A player may challenge someone at most `limits.ladder_reach` places above them. The
  challenger takes the first seat (and so, in every game here, moves first): taking the
  board up is theirs to do first.
- A player has one open ladder challenge at a time, made or received: nobody is pinned
  down by a queue of challengers, and no one's rank moves under a game they are playing.
- A win by the challenger moves them into the challenged player's place; the challenged
  player and everyone between them move one place down (the usual leapfrog ladder, not a
  swap of two: a swap would drop the loser below players who beat nobody). A draw or a win
  by the challenged player changes no rank.
- A board declined (its player never moved on it, by leaving it or by the clock) is that
  player's loss: a challenged player who never takes the board up loses their place as by
  a defeat; a challenger who never makes the first move has lost the challenge.

Boards end through pbm.boards.play, which knows nothing of ladders: the Ended and Declined
facts it leaves on the Context are settled here (settle()) before they are told, in the
transaction that ended the board. All changes of ranks hold one lock (Guarded.LADDERS)
until their commit, so two nodes never move the same ranks at once.
"""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from pbm.boards import play
from pbm.boards.facts import Declined, Ended
from pbm.boards.position import Position
from pbm.context import CommandError, Context
from pbm.db import locks
from pbm.db.locks import Guarded
from pbm.db.models import Board, LadderGame, LadderRung, User
from pbm.games.base import AnyGame

# Board.challenger of a ladder's boards: a userid has no space, so no challenge of anyone
# else's reads as one, and settle() asks the store only about boards that say this.
CHALLENGER = "ladder challenge"
WON, LOST, DRAW, FORFEIT, DECLINED = "won", "lost", "draw", "forfeit", "declined"
MOVED_UP = (WON, FORFEIT)  # the challenger took the challenged player's place


def rung_of(session: Session, game: str, user_id: int) -> LadderRung | None:
    return session.get(LadderRung, (game, user_id))


def size(session: Session, game: str) -> int:
    return session.scalar(select(func.count()).select_from(LadderRung).where(
        LadderRung.game == game)) or 0


def open_challenge(session: Session, game: str, user_id: int) -> LadderGame | None:
    """The player's ladder game in play, made or received (there is one at most)."""
    return session.scalar(select(LadderGame).where(
        LadderGame.game == game, LadderGame.outcome.is_(None),
        (LadderGame.challenger_id == user_id) | (LadderGame.challenged_id == user_id)))


# ----- joining and leaving --------------------------------------------------------------------
def join(ctx: Context, game: AnyGame, user: User) -> LadderRung:
    """`user` at the bottom of the game's ladder."""
    name = game.info.name
    if game.info.players != 2:
        raise CommandError(f"Ladders are for two-player games; {game.info.title} is not.")
    if user.bot:
        raise CommandError("Bots do not play on ladders.")
    locks.hold(ctx.session, Guarded.LADDERS)
    if rung_of(ctx.session, name, user.id) is not None:
        raise CommandError(f"{user.userid} is on the {game.info.title} ladder already.")
    rung = LadderRung(game=name, user_id=user.id, user=user, rank=size(ctx.session, name) + 1,
                      joined_at=ctx.now, wins=0, losses=0)
    ctx.session.add(rung)
    ctx.session.flush()
    return rung


def leave(ctx: Context, game: AnyGame, user: User) -> None:
    """`user` off the ladder; those below move up one. Refused while a challenge of theirs
    is in play: its end would have nobody's place to move."""
    name, title = game.info.name, game.info.title
    locks.hold(ctx.session, Guarded.LADDERS)
    rung = rung_of(ctx.session, name, user.id)
    if rung is None:
        raise CommandError(f"{user.userid} is not on the {title} ladder.")
    if open_challenge(ctx.session, name, user.id) is not None:
        raise CommandError(f"{user.userid} has a {title} ladder challenge in play: finish "
                           "(or resign) that board first, then leave the ladder.")
    rank = rung.rank
    ctx.session.delete(rung)
    ctx.session.flush()
    ctx.session.execute(update(LadderRung).where(LadderRung.game == name,
                                                 LadderRung.rank > rank)
                        .values(rank=LadderRung.rank - 1)
                        .execution_options(synchronize_session="fetch"))


# ----- a challenge ----------------------------------------------------------------------------
def challenge(ctx: Context, game: AnyGame, challenger: User, challenged: User,
              reach: int) -> Position:
    """The board of `challenger`'s challenge to `challenged`, who stands at most `reach`
    places above; refused (nothing written) for anyone else."""
    name, title = game.info.name, game.info.title
    locks.hold(ctx.session, Guarded.LADDERS)
    mine = rung_of(ctx.session, name, challenger.id)
    if mine is None:
        raise CommandError(f"{challenger.userid} is not on the {title} ladder: join it first "
                           f"with '{name} ladder join userid password'.")
    if challenged.id == challenger.id:
        raise CommandError("A player cannot challenge themself.")
    theirs = rung_of(ctx.session, name, challenged.id)
    if theirs is None:
        raise CommandError(f"{challenged.userid} is not on the {title} ladder.")
    if theirs.rank > mine.rank:
        raise CommandError(f"{challenged.userid} (rank {theirs.rank}) stands below "
                           f"{challenger.userid} (rank {mine.rank}): a ladder challenge goes "
                           "up, to someone ranked above you.")
    if mine.rank - theirs.rank > reach:
        raise CommandError(f"{challenged.userid} (rank {theirs.rank}) is "
                           f"{mine.rank - theirs.rank} places above {challenger.userid} "
                           f"(rank {mine.rank}); a challenge reaches at most {reach} places "
                           "up.")
    for user in (challenger, challenged):
        found = open_challenge(ctx.session, name, user.id)
        if found is not None:
            raise CommandError(f"{user.userid} has a {title} ladder challenge in play already "
                               "(one at a time, made or received): it must end first.")
    pos = play.start_board(ctx, game, [challenger, challenged], game.parse_options([]),
                           CHALLENGER)
    ctx.session.add(LadderGame(game=name, board_id=pos.board.id, challenger_id=challenger.id,
                               challenged_id=challenged.id, created_at=ctx.now))
    ctx.session.flush()
    return pos


# ----- a board ended --------------------------------------------------------------------------
def settle(ctx: Context) -> None:
    """Move the ranks that the ended ladder boards among the facts on `ctx` decide. Every
    move's mail passes here: a board that is no ladder's costs no query."""
    seen: set[int] = set()
    for fact in ctx.facts:
        if isinstance(fact, Ended | Declined) and fact.pos.board.challenger == CHALLENGER \
                and fact.pos.board.id not in seen:
            seen.add(fact.pos.board.id)
            declined = fact.seat if isinstance(fact, Declined) else None
            _board_decided(ctx, fact.pos.board, declined)


def outcome_of(board: Board, declined: int | None) -> str:
    """The challenge's outcome; the challenger sits in seat 0."""
    if declined is not None:
        return FORFEIT if declined == 1 else DECLINED
    if not board.winners:
        return DRAW
    return WON if board.winners[0] == 0 else LOST


def _board_decided(ctx: Context, board: Board, declined: int | None) -> None:
    row = ctx.session.scalar(select(LadderGame).where(LadderGame.board_id == board.id))
    if row is None or row.outcome is not None:
        return
    locks.hold(ctx.session, Guarded.LADDERS)
    row.outcome = outcome_of(board, declined)
    if row.outcome == DRAW:
        return
    rungs = {r.user_id: r for r in ctx.session.scalars(select(LadderRung).where(
        LadderRung.game == row.game,
        LadderRung.user_id.in_([row.challenger_id, row.challenged_id])))}
    challenger, challenged = rungs.get(row.challenger_id), rungs.get(row.challenged_id)
    winner, loser = (challenger, challenged) if row.outcome in MOVED_UP \
        else (challenged, challenger)
    if winner is not None:
        winner.wins += 1
    if loser is not None:
        loser.losses += 1
    if row.outcome in MOVED_UP and challenger is not None and challenged is not None:
        _move_up(ctx.session, challenger, challenged.rank)


def _move_up(session: Session, rung: LadderRung, rank: int) -> None:
    """`rung` into `rank`; those from there to just above it move one down."""
    if rung.rank <= rank:
        return  # above already (nothing moves ranks past an open challenge: a safeguard)
    old = rung.rank
    session.execute(update(LadderRung).where(
        LadderRung.game == rung.game, LadderRung.rank >= rank, LadderRung.rank < old)
        .values(rank=LadderRung.rank + 1).execution_options(synchronize_session="fetch"))
    rung.rank = rank
