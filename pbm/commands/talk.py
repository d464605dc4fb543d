"""Talking by mail: `chat` on a board, `message` to users, `broadcast` from an operator.

The text is the mail body. It is mailed on, never stored on a board nor in the move log.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from pbm.accounts.addresses import addresses_of
from pbm.accounts.users import authenticate, find_user
from pbm.boards import select as boards
from pbm.boards import watchers
from pbm.boards.position import seat_of
from pbm.commands.grammar import Command, Invocation, account_command, game_command
from pbm.context import CommandError, Context, Reply, board_thread, shorten
from pbm.db import rates
from pbm.db.models import User
from pbm.games import registry
from pbm.games.base import AnyGame

MAX_TEXT_CHARS = 20_000  # a body may be a megabyte; what is passed on is bounded
MAX_RECIPIENTS = 10  # users one `message` may name


def text_of(ctx: Context, what: str, example: str) -> str:
    """The mail body to pass on, cut at MAX_TEXT_CHARS with a note; refused when empty."""
    text = (ctx.comment or "").strip()
    if not text:
        raise CommandError(
            f"A {what} needs a text: put the command in the Subject and write the text in the "
            f"body of the mail. For example, Subject: {example}. Nothing was sent.")
    if len(text) > MAX_TEXT_CHARS:
        text = (text[:MAX_TEXT_CHARS].rstrip() + f"\n\n[The text was cut here: it had "
                f"{len(text)} characters, {MAX_TEXT_CHARS} are passed on.]")
    return text


def _count_mails(ctx: Context, sender: User, recipients: int) -> None:
    """A message's text is its author's, so the mails one user may send a day are bounded:
    otherwise one account could spam anybody with an account through the server."""
    limit = ctx.limits.messages_per_user_per_day
    if ctx.admin or not limit:
        return
    for _ in range(recipients):
        allowed = rates.take(ctx.session, f"messages-from:{sender.userid}", limit, rates.DAY,
                             ctx.now)
        if not allowed.allowed:
            raise CommandError(
                f"{sender.userid} has sent {limit} messages and chats in the last day, the most "
                "allowed (every recipient counts one); nothing was sent. Send it again after "
                f"{allowed.resets_at:%Y-%m-%d %H:%M} UTC.")


def _names(users: Sequence[User]) -> str:
    return ", ".join(user.userid for user in users)


# ----- chat -------------------------------------------------------------------------------
def chat(ctx: Context, game: AnyGame, number: str, userid: str, password: str | None) -> None:
    """Mail the body to the players and spectators of the board, from one of them."""
    board = boards.load_board(ctx, number, game.info.name)
    players = [seat.user for seat in board.seats]
    user = authenticate(ctx, userid, password or "", players)
    # Players and spectators only, not anyone with a password as in pbmserv: any account
    # could otherwise write into the inbox of the players of every board (`games` lists
    # them all). A stranger must subscribe first, and spectators are bounded per board.
    if seat_of(board, user) is None and not watchers.is_spectator(ctx.session, board, user):
        raise CommandError(
            f"{user.userid} neither plays on nor watches board {board.label}: chat goes from "
            f"a player or spectator of a board to the others. To watch it: {game.info.name} "
            f"subscribe {board.label} {user.userid} PASSWORD. To write to its players: "
            f"message {user.userid} PASSWORD {' '.join(u.userid for u in players)}")
    text = text_of(ctx, "chat", f"{game.info.name} chat {board.label} {user.userid} PASSWORD")
    watching = watchers.spectators_of(ctx.session, board)
    # Each address once (two users may share one), and not the sender's: it gets the answer.
    seen = {ctx.sender.lower()} if ctx.sender else set()
    recipients: list[tuple[User, tuple[str, ...]]] = []
    for other in dict.fromkeys([*players, *watching]):
        if other.id == user.id or not other.active:
            continue
        addresses = tuple(a for a in addresses_of(other) if a not in seen)
        if addresses:
            seen.update(addresses)
            recipients.append((other, addresses))
    if not recipients:
        raise CommandError(f"Nobody else plays on or watches board {board.label} now; nothing "
                           "was sent.")
    _count_mails(ctx, user, len(recipients))
    title = f"{game.info.title} Board {board.label}"
    whom = "players and spectators" if watching else "players"
    # No board in it, whoever reads it: a spectator may not see what a player does.
    body = (f"{user.userid} writes to the {whom} of {title} (a chat: it is not part of the "
            f"board):\n\n{text}\n\nTo answer: {game.info.name} chat {board.label} YOURID "
            "PASSWORD, with your text in the body.\n")
    # Not pbmserv's Subject "Trou chat 101 alice": a reply keeping it would read as a chat
    # command without its password. "Trou Board 101 ..." is known as one of ours.
    for _, addresses in recipients:
        ctx.replies.append(Reply(addresses, f"{title} chat from {user.userid}", body,
                                 "notice", board_thread(board)))
    ctx.answer(f"{title} chat",
               f"Your chat was sent to {_names([other for other, _ in recipients])}.\n")


def do_chat(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    chat(ctx, registry.get(inv.game), *inv.args)


# ----- message ----------------------------------------------------------------------------
def message(ctx: Context, userid: str, password: str | None, to: Sequence[str]) -> None:
    """Mail the body to the users named (at most MAX_RECIPIENTS), one mail each."""
    user = authenticate(ctx, userid, password or "")
    named = list(dict.fromkeys(word.lower() for word in to))
    if len(named) > MAX_RECIPIENTS:
        raise CommandError(f"One message may go to at most {MAX_RECIPIENTS} users; this one "
                           f"named {len(named)}. Nothing was sent: send it in parts.")
    found = {word: find_user(ctx, word) for word in named}
    unknown = [word for word, other in found.items() if other is None or not other.active]
    if unknown:
        # A word here might be the password typed twice: that one is never quoted back.
        shown = ", ".join("'********'" if word == (password or "").lower() else
                          f"'{shorten(word)}'" for word in unknown)
        raise CommandError(f"There is no user {shown}. Nothing was sent. Write: message "
                           f"{user.userid} PASSWORD userid1 [userid2 ...]")
    recipients = [other for other in found.values() if other is not None]
    text = text_of(ctx, "message", f"message {user.userid} PASSWORD {recipients[0].userid}")
    _count_mails(ctx, user, len(recipients))
    body = (f"{user.userid} writes to {_names(recipients)}:\n\n{text}\n\n"
            f"To answer: message YOURID PASSWORD {user.userid}, with your text in the body.\n")
    for other in recipients:
        ctx.replies.append(Reply(addresses_of(other), f"Message from {user.userid}", body,
                                 "notice"))
    ctx.answer("Message sent", f"Your message was sent to {_names(recipients)}.\n")


def do_message(ctx: Context, inv: Invocation) -> None:
    message(ctx, inv.args[0], inv.args[1], inv.args[2:])


# ----- broadcast --------------------------------------------------------------------------
def broadcast(ctx: Context, userid: str, password: str | None) -> int:
    """Mail the body to every active user but the sender (operators only); how many."""
    user = authenticate(ctx, userid, password or "")
    if not ctx.admin and user.userid not in ctx.operators:
        raise CommandError(f"Only the server's operators may broadcast, and {user.userid} is "
                           "not one. To write to some players, use: message "
                           f"{user.userid} PASSWORD userid1 [userid2 ...]")
    text = text_of(ctx, "broadcast", f"broadcast {user.userid} PASSWORD")
    everyone = ctx.session.scalars(
        select(User).where(User.active.is_(True), User.id != user.id).order_by(User.userid))
    body = f"{user.userid}, an operator of this server, writes to every player:\n\n{text}\n"
    sent = 0
    for other in everyone:
        if addresses_of(other):
            ctx.replies.append(Reply(addresses_of(other), f"Broadcast from {user.userid}", body,
                                     "notice"))
            sent += 1
    ctx.answer("Broadcast sent", f"Your broadcast was sent to {sent} users.\n")
    return sent


def do_broadcast(ctx: Context, inv: Invocation) -> None:
    broadcast(ctx, *inv.args)


CHAT = game_command(Command(
    "chat", "board userid password",
    "Mail the body of your mail to the other players and the spectators of a board you "
    "play on or watch. It is not stored on the board.", do_chat, least=3, most=3,
    secret_args=(2,), login=(1, 2), board_arg=0, takes_comment=True))
account_command(Command(
    "message", "userid password userid1 [userid2 ...]",
    f"Mail the body of your mail to those users (at most {MAX_RECIPIENTS}).", do_message,
    least=3, secret_args=(1,), login=(0, 1), takes_comment=True))
account_command(Command(
    "broadcast", "userid password",
    "Operators only: mail the body of your mail to every user (the one command whose one "
    "mail makes many).", do_broadcast, least=2, most=2, secret_args=(1,), login=(0, 1),
    takes_comment=True))
