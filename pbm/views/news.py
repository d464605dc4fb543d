"""Telling people what happened on boards: the facts the board layer recorded on a Context
(pbm/boards/facts.py) become mail, in the order they happened."""

from __future__ import annotations

from datetime import timedelta

from pbm.accounts.addresses import addresses_of
from pbm.boards import ladder, rounds
from pbm.boards.facts import (
    Declined,
    DeclinedOnTime,
    Ended,
    Forfeited,
    Nagged,
    QueueDropped,
    TournamentEnded,
    TournamentRound,
)
from pbm.context import Context, Fact, Reply, board_thread
from pbm.views.boardmail import Pictures, announce_decline, board_page, send_board
from pbm.views.end_notice import board_ended
from pbm.views.to_move import to_move_lines
from pbm.views.tournament_page import tournament_html, tournament_text

DAY = timedelta(days=1)


def tell(ctx: Context) -> None:
    """Write the mail of every fact not yet told, and forget them. First the facts are
    settled: a tournament board's end may decide its round and start the next one, whose
    facts are told with the rest; a ladder board's end may move its players' ranks."""
    rounds.settle(ctx)
    ladder.settle(ctx)
    facts, ctx.facts = ctx.facts, []
    for fact in facts:
        _tell(ctx, fact)


def _tell(ctx: Context, fact: Fact) -> None:
    match fact:
        case Ended(pos):
            board_ended(ctx, pos)
        case QueueDropped(pos, seat, reason):
            to = addresses_of(pos.board.seats[seat].user)
            subject = f"{pos.title} Board {pos.board.label}: queued move dropped"
            ctx.replies.append(Reply(to, subject, reason + "\n", "notice",
                                     board_thread(pos.board)))
        case Nagged():
            _nag(ctx, fact)
        case Declined():
            pass  # whoever declined it told the players how (announce_decline)
        case TournamentRound(tournament, number, boards):
            title = boards[0].title if boards else ""
            for pos in boards:
                note = (f"Round {number} of the {title} tournament {tournament.name}.\n"
                        f"'{tournament.game} tournament show {tournament.name}' mails "
                        "the standings.")
                send_board(ctx, pos, new=True, comment=("pbm", note))
        case TournamentEnded(tournament):
            body = tournament_text(ctx.session, tournament)
            html = tournament_html(ctx.session, tournament, body)
            subject = f"Tournament {tournament.name} has ended"
            for entry in tournament.entries:  # at most limits.tournament_players
                to = addresses_of(entry.user)
                if to:
                    ctx.replies.append(Reply(to, subject, body, "notice",
                                             html=html if entry.user.html else None))
        case Forfeited(pos):
            send_board(ctx, pos)  # the final board, to its players and watchers
        case DeclinedOnTime(pos, seat, waited):
            userid = pos.userid(seat)
            announce_decline(ctx, pos, pos.board.seats[seat].user,
                             f"{userid} made no move on {pos.title} board {pos.board.label} "
                             f"in {waited // DAY} days, so the board is declined and has been "
                             "removed. It is not rated.\n")
        case _:
            raise TypeError(f"no mail for {fact!r}")


def _nag(ctx: Context, fact: Nagged) -> None:
    pos, seat = fact.pos, fact.pos.board.seats[fact.seat]
    userid = seat.user.userid
    days = fact.waited // DAY
    left = fact.deadline - ctx.now
    # Short lines: a board mail keeps within 76 columns, so no mail client rewraps it.
    lines = [f"It is {userid}'s move on {pos.title} board {pos.board.label}.",
             f"{userid} has not moved for {days} day{'s' if days != 1 else ''}."]
    if fact.last_call:
        lines += ["The server could not look at the clocks for a while (it was down),",
                  "so instead of losing on time now,",
                  f"{userid} has until {fact.deadline:%Y-%m-%d %H:%M} UTC "
                  f"(in {_days_text(left)}) to move."]
    else:
        if fact.total_left is not None:
            total = pos.board.total_days
            lines.append(f"Of the {total} days of total time, {userid} has "
                         f"{_days_text(fact.total_left)} left.")
        lines.append(f"If no move is made by {fact.deadline:%Y-%m-%d %H:%M} UTC "
                     f"(in {_days_text(left)}),")
        if fact.declines:
            lines += ["the board is declined and removed (not rated),",
                      f"as {userid} has not made a move on it yet."]
        elif fact.total_flag:
            lines.append(f"{userid} exceeds the total time limit and loses the game.")
        else:
            lines.append(f"{userid} forfeits the game on time.")
    lines.append(f"Away? 'vacation {userid} PASSWORD DAYS' stops your clocks.")
    page = board_page(pos, fact.seat, now=ctx.now).after("\n".join(lines))
    command = to_move_lines(pos, fact.seat)
    if command is not None:
        page = page.before(command)
    page = page.linked(ctx, pos)
    body, html = Pictures(pos.game, pos.state).mail(page, fact.seat, seat.user.html)
    subject = f"Nag: {pos.title} Board {pos.board.label} {userid}"
    ctx.replies.append(Reply(addresses_of(seat.user), subject, body, "board",
                             board_thread(pos.board), html=html))


def _days_text(span: timedelta) -> str:
    days = span / DAY
    if days >= 1:
        whole = int(days)
        return f"{whole} day{'s' if whole != 1 else ''}" + (
            f" {int((span - whole * DAY).total_seconds() // 3600)} hours"
            if span - whole * DAY >= timedelta(hours=1) else "")
    return f"{max(1, int(span.total_seconds() // 3600))} hours"
