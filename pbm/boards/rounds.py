"""Tournaments in play: starting one, its rounds, and what a board's end does to it.

A round's boards start together; the next round starts in the transaction that decides
the last game of the current one (its last board ending, a forfeit or a withdrawal). That
transaction holds the tournament's row locked (on PostgreSQL; SQLite's one writer holds
everything), so with several nodes the next round is started exactly once: a node that
decided a game while another decided the last one waits, then finds the round already
moved on. The arithmetic (pools, Swiss pairings, the bracket, standings) is in
pbm.tournaments; here it meets the boards.

Boards end through pbm.boards.play, which knows nothing of tournaments: the Ended and
Declined facts it leaves on the Context are settled here (settle()) before they are told.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.boards import play
from pbm.boards.facts import Declined, Ended, TournamentEnded, TournamentRound
from pbm.boards.position import Position, position
from pbm.context import CommandError, Context
from pbm.db.models import (
    Board,
    BoardStatus,
    Rating,
    Tournament,
    TournamentEntry,
    TournamentGame,
    User,
)
from pbm.db.statuses import TournamentStatus
from pbm.games import registry
from pbm.ratings.formulas import START
from pbm.tournaments import knockout, roundrobin, swiss
from pbm.tournaments.results import Pairing, Result

ROUND_ROBIN, SWISS, KNOCKOUT = "roundrobin", "swiss", "knockout"
FORMATS = (ROUND_ROBIN, SWISS, KNOCKOUT)
MIN_PLAYERS = {ROUND_ROBIN: 3, SWISS: 4, KNOCKOUT: 2}
DRAW, BYE, BOTH_LOST = "draw", "bye", "lost"  # lost: both withdrawn, a loss for each
WALKOVER = "w"  # after a seat's digit: won without the game played to its end


@dataclass(frozen=True)
class Standing:
    """Where a tournament stands, for its tables: its games and players by id."""

    games: list[TournamentGame]
    userids: dict[int, str]


def players(t: Tournament) -> list[TournamentEntry]:
    """Its entries still in it (not withdrawn), in the order they joined."""
    return [entry for entry in t.entries if entry.withdrawn_at is None]


def games_of(session: Session, t: Tournament) -> list[TournamentGame]:
    return list(session.scalars(select(TournamentGame).where(
        TournamentGame.tournament_id == t.id).order_by(TournamentGame.round,
                                                        TournamentGame.pool,
                                                        TournamentGame.id)))


def standing(session: Session, t: Tournament) -> Standing:
    userids = {entry.user_id: entry.user.userid for entry in t.entries}
    return Standing(games_of(session, t), userids)


# ----- results ------------------------------------------------------------------------------
def result_of(game: TournamentGame, userids: dict[int, str], knockout_order: bool = False
              ) -> Result | None:
    """The game as pbm.tournaments reads it (None while undecided)."""
    if game.outcome is None:
        return None
    white = userids[game.seat0_id]
    # The bracket orders a match's games by round, then replay.
    order = game.round * 2 + game.replay if knockout_order else game.round
    if game.outcome == BYE or game.seat1_id is None:
        return Result.bye(white, order)
    black = userids[game.seat1_id]
    if game.outcome == DRAW:
        return Result(white, black, None, round=order)
    if game.outcome == BOTH_LOST:  # a double forfeit
        return Result(white, black, None, forfeit=True, round=order)
    winner = (white, black)[int(game.outcome[0])]
    return Result(white, black, winner, forfeit=game.outcome.endswith(WALKOVER), round=order)


def results(st: Standing, knockout_order: bool = False) -> list[Result]:
    found = (result_of(game, st.userids, knockout_order) for game in st.games)
    return [result for result in found if result is not None]


def ratings_at_start(t: Tournament) -> dict[str, float]:
    return {entry.user.userid: float(entry.rating or START) for entry in t.entries}


# ----- starting ---------------------------------------------------------------------------------
def start(ctx: Context, t: Tournament) -> None:
    """Seed the players by their ratings now, make the pools, and start round 1."""
    entries = players(t)
    if len(entries) < MIN_PLAYERS[t.format]:
        raise CommandError(
            f"A {t.format} tournament needs {MIN_PLAYERS[t.format]} players at least; "
            f"{t.name} has {len(entries)}. Nothing was started: players join with "
            f"'{t.game} tournament join {t.name} userid password'.")
    rated = {user_id: rating for user_id, rating in ctx.session.execute(
        select(Rating.user_id, Rating.rating).where(
            Rating.game == t.game, Rating.user_id.in_([e.user_id for e in entries])))}
    for entry in entries:
        entry.rating = rated.get(entry.user_id, START)
    if t.format == ROUND_ROBIN:
        divisions = roundrobin.pools(ratings_at_start(t), t.pool_size)
        pool_of = {userid: index for index, pool in enumerate(divisions) for userid in pool}
        for entry in entries:
            entry.pool = pool_of[entry.user.userid]
    t.status = TournamentStatus.RUNNING
    t.started_at = ctx.now
    _open(ctx, t, 1)


def _open(ctx: Context, t: Tournament, number: int) -> None:
    """Start round `number`: its boards, its byes, and walkovers where a player is gone."""
    previous, t.round = t.round, number  # the bracket reads the round it is in
    st = standing(ctx.session, t)
    pairings = _pairings(t, st, number)
    if not pairings and t.format == SWISS:  # everyone has met everyone they may
        t.round = previous
        _finish(ctx, t)
        return
    started = [_play(ctx, t, number, pool, pairing, replay) for pool, pairing, replay in pairings]
    ctx.facts.append(TournamentRound(t, number, tuple(p for p in started if p is not None)))
    _advance_if_done(ctx, t)


def _pairings(t: Tournament, st: Standing, number: int
              ) -> list[tuple[int, Pairing, int]]:
    """(pool, pairing, replay) of round `number` of the tournament."""
    if t.format == ROUND_ROBIN:
        found = []
        for pool, members in enumerate(_pools(t)):
            rounds = roundrobin.schedule(members)
            if number <= len(rounds):
                found += [(pool, pairing, 0) for pairing in rounds[number - 1]
                          if pairing.black is not None]  # a rest is no game
        return found
    if t.format == SWISS:
        still = {e.user.userid: float(e.rating or START) for e in players(t)}
        try:
            return [(0, p, 0) for p in swiss.pair(still, results(st), seed=t.id * 1000 + number)]
        except swiss.NoPairing:  # everyone has met everyone they may: the tournament ends
            return []
    return [(0, game, replay) for game, replay in _knockout_games(t, st)]


def _pools(t: Tournament) -> list[list[str]]:
    """Each pool's players in seeding order (the schedule follows from it)."""
    count = 1 + max((e.pool or 0) for e in t.entries)
    ratings = ratings_at_start(t)
    return [roundrobin.ranked({e.user.userid: ratings[e.user.userid] for e in t.entries
                               if e.pool == pool}) for pool in range(count)]


def _bracket(t: Tournament, st: Standing) -> tuple[list[knockout.Match], list[str]]:
    """The matches of the tournament's current round, from round 1 and the results."""
    seeded = knockout.seeds(ratings_at_start(t))
    done = results(st, knockout_order=True)
    matches = knockout.first_round(seeded)
    for _ in range(1, t.round):
        matches = knockout.next_round(matches, done, seeded)
    return matches, seeded


def _knockout_games(t: Tournament, st: Standing) -> list[tuple[Pairing, int]]:
    """The games the current round still needs: its first games, or replays of draws."""
    matches, _ = _bracket(t, st)
    done = results(st, knockout_order=True)
    games = []
    for match in matches:
        decision = knockout.decide(match, done)
        if decision.game is not None:
            played = sum(1 for g in st.games if g.round == t.round
                         and {st.userids[g.seat0_id], st.userids.get(g.seat1_id or -1)}
                         == {match.high, match.low})
            games.append((decision.game, played))
    return games


def _play(ctx: Context, t: Tournament, number: int, pool: int, pairing: Pairing,
          replay: int) -> Position | None:
    """One pairing of the round: a board, or (a bye, a player withdrawn) a result at once."""
    entry = {e.user.userid: e for e in t.entries}
    white = entry[pairing.white]
    game_row = TournamentGame(tournament_id=t.id, round=number, pool=pool,
                              seat0_id=white.user_id, replay=replay)
    ctx.session.add(game_row)
    if pairing.black is None:
        game_row.outcome = BYE
        return None
    black = entry[pairing.black]
    game_row.seat1_id = black.user_id
    gone = [seat for seat, e in enumerate((white, black)) if e.withdrawn_at is not None]
    if gone:  # a withdrawn player's games are lost without a board (both gone: by both)
        game_row.outcome = BOTH_LOST if len(gone) == 2 else f"{1 - gone[0]}{WALKOVER}"
        return None
    game = registry.get(t.game)
    # The challenger names the tournament by its letters: a name may be as long as the
    # column (boards.challenger) itself.
    pos = play.start_board(ctx, game, [white.user, black.user], game.parse_options([]),
                           f"tournament {t.prefix}", t.nag_days, t.forfeit_days, prefix=t.prefix)
    game_row.board_id = pos.board.id
    return pos


# ----- a game decided ------------------------------------------------------------------------
def settle(ctx: Context) -> None:
    """Record the tournament games that the facts on `ctx` decided, and start the rounds
    that completes (their facts join the others, to be told in order)."""
    seen: set[int] = set()
    index = 0
    while index < len(ctx.facts):
        fact = ctx.facts[index]
        index += 1
        if isinstance(fact, Ended | Declined) and fact.pos.board.prefix and \
                fact.pos.board.id not in seen:
            seen.add(fact.pos.board.id)
            declined = fact.seat if isinstance(fact, Declined) else None
            _board_decided(ctx, fact.pos.board, declined)


def _board_decided(ctx: Context, board: Board, declined: int | None) -> None:
    row = ctx.session.scalar(select(TournamentGame).where(TournamentGame.board_id == board.id))
    if row is None or row.outcome is not None:
        return
    t = locked(ctx.session, row.tournament_id)
    if declined is not None:  # never moved: lost on time or by leaving, as a forfeit
        row.outcome = f"{1 - declined}{WALKOVER}"
    elif not board.winners:
        row.outcome = DRAW
    else:
        walkover = WALKOVER if _forfeited(board) else ""
        row.outcome = f"{board.winners[0]}{walkover}"
    if t.status == TournamentStatus.RUNNING and row.round == t.round:
        _advance_if_done(ctx, t)


def _forfeited(board: Board) -> bool:
    reason = board.result_reason or ""
    return "forfeited" in reason or "exceeded the total time" in reason or "withdrew" in reason


def locked(session: Session, tournament_id: int) -> Tournament:
    """The tournament, its row locked until the commit and read afresh (several nodes)."""
    t = session.scalar(select(Tournament).where(Tournament.id == tournament_id)
                       .with_for_update().execution_options(populate_existing=True))
    assert t is not None
    return t


def _advance_if_done(ctx: Context, t: Tournament) -> None:
    """When every game of the round is decided: the next round, replays, or the end."""
    ctx.session.flush()
    st = standing(ctx.session, t)
    if any(g.outcome is None for g in st.games if g.round == t.round):
        return
    if t.format == KNOCKOUT:
        replays = _knockout_games(t, st)
        if replays:
            started = [_play(ctx, t, t.round, 0, game, replay) for game, replay in replays]
            ctx.facts.append(TournamentRound(t, t.round, tuple(p for p in started if p)))
            _advance_if_done(ctx, t)
            return
        matches, seeded = _bracket(t, st)
        if len(matches) == 1:
            _finish(ctx, t)
            return
        _open(ctx, t, t.round + 1)
        return
    last = last_round(t)
    if t.round >= last:
        _finish(ctx, t)
        return
    _open(ctx, t, t.round + 1)


def last_round(t: Tournament) -> int:
    if t.format == ROUND_ROBIN:
        return max(len(roundrobin.schedule(pool)) for pool in _pools(t))
    return t.rounds or swiss.recommended_rounds(len(t.entries))


def _finish(ctx: Context, t: Tournament) -> None:
    if t.status != TournamentStatus.RUNNING:
        return
    t.status = TournamentStatus.FINISHED
    t.finished_at = ctx.now
    ctx.facts.append(TournamentEnded(t))


def champion(t: Tournament, st: Standing) -> str | None:
    """A finished knockout's winner."""
    if t.format != KNOCKOUT or t.status != TournamentStatus.FINISHED:
        return None
    matches, _ = _bracket(t, st)
    return knockout.decide(matches[0], results(st, knockout_order=True)).advances


# ----- leaving --------------------------------------------------------------------------------
def withdraw(ctx: Context, t: Tournament, user: User) -> list[Position]:
    """`user` leaves a running tournament: their boards in play are lost (declined, if they
    never moved on one), their later games are walkovers, their finished games stand."""
    entry = next(e for e in t.entries if e.user_id == user.id)
    entry.withdrawn_at = ctx.now
    ended = []
    rows = ctx.session.scalars(select(TournamentGame).where(
        TournamentGame.tournament_id == t.id, TournamentGame.outcome.is_(None),
        TournamentGame.board_id.is_not(None)))
    for row in list(rows):
        if user.id not in (row.seat0_id, row.seat1_id):
            continue
        board = ctx.session.get(Board, row.board_id)
        if board is None or board.status != BoardStatus.ACTIVE:
            continue
        from_position = position(board)
        seat = 0 if row.seat0_id == user.id else 1
        if not play.withdraw(ctx, from_position, seat):
            # It was resigned: say why in the final mail.
            board.result_reason = f"{user.userid} withdrew from the tournament {t.name}."
        ended.append(from_position)
    return ended


def cancel(ctx: Context, t: Tournament) -> None:
    """Called off: no more rounds; the boards in play play on, rated as any board."""
    t.status = TournamentStatus.CANCELLED
    t.finished_at = ctx.now
