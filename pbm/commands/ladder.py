"""`GAME ladder [join|leave userid password | challenge userid password OTHER]`: a game's
standing ranking, its joining, leaving and challenges (the rules: pbm/boards/ladder.py)."""

from __future__ import annotations

from pbm.accounts import confirmations
from pbm.accounts.users import authenticate, require_user, users_at
from pbm.boards import ladder
from pbm.commands.grammar import Command, Invocation, game_command
from pbm.context import CommandError, Context, shorten
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.boardmail import send_board, wants_html
from pbm.views.ladder_page import ladder_html, ladder_page, ladder_text
from pbm.width import fit

ACTIONS = ("join", "leave", "challenge")
AUTHOR = "pbm"  # who "writes" the board mail's note on how the board came about


def _game(inv: Invocation) -> AnyGame:
    assert inv.game is not None
    return registry.get(inv.game)


def show(ctx: Context, game: AnyGame) -> None:
    """The ladder, with the place of the sender's (first) account among the top ranks;
    drawn as a table too for a reader who takes HTML."""
    mine = users_at(ctx, ctx.sender) if ctx.sender else []
    page = ladder_page(ctx.session, game.info.name, game.info.title, ctx.limits.ladder_reach,
                       mine[0] if mine else None)
    html = ladder_html(page) if wants_html(ctx, ctx.sender) else None
    ctx.answer(f"{game.info.title} ladder", ladder_text(page), html)


def challenge(ctx: Context, game: AnyGame, challenger_userid: str, password: str,
              other_userid: str) -> None:
    user = authenticate(ctx, challenger_userid, password)
    other = require_user(ctx, other_userid)
    limits = ctx.limits
    if not ctx.admin and limits.challenges_per_mail and \
            ctx.challenges >= limits.challenges_per_mail:
        raise CommandError(f"One mail may start at most {limits.challenges_per_mail} boards; "
                           "this challenge was not made. Send it in another mail.")
    confirmations.require_reachable([user, other])
    reach = limits.ladder_reach
    pos = ladder.challenge(ctx, game, user, other, reach)
    ctx.challenges += 1
    ranks = {r.user_id: r.rank for r in (ladder.rung_of(ctx.session, game.info.name, u.id)
                                         for u in (user, other)) if r is not None}
    note = (f"A {game.info.title} ladder challenge: {user.userid} (rank {ranks[user.id]}) "
            f"challenges {other.userid} (rank {ranks[other.id]}). The challenger moves "
            f"first. A win by {user.userid} takes rank {ranks[other.id]} ({other.userid} "
            f"and those between move one down); a draw or a win by {other.userid} changes "
            f"no rank. A player who never moves on this board loses it on time.")
    send_board(ctx, pos, new=True, comment=(AUTHOR, note))


def do_ladder(ctx: Context, inv: Invocation) -> None:
    game = _game(inv)
    name, title = game.info.name, game.info.title
    if not inv.args:
        show(ctx, game)
        return
    action = inv.args[0].lower()
    if action not in ACTIONS:
        raise CommandError(f"'{shorten(action)}' is not a ladder command: write {name} ladder "
                           f"(to see it), or {name} ladder join|leave userid password, or "
                           f"{name} ladder challenge userid password OTHER.")
    words = 4 if action == "challenge" else 3
    if len(inv.args) != words:
        other = " OTHER" if action == "challenge" else ""
        raise CommandError(f"Write: {name} ladder {action} userid password{other}")
    if action == "challenge":
        challenge(ctx, game, inv.args[1], inv.args[2], inv.args[3])
        return
    user = authenticate(ctx, inv.args[1], inv.args[2])
    if action == "join":
        rung = ladder.join(ctx, game, user)
        ctx.answer(f"{title} ladder", fit(
            f"{user.userid} has joined the {title} ladder at rank {rung.rank}. Challenge "
            f"someone up to {ctx.limits.ladder_reach} places above: {name} ladder challenge "
            f"{user.userid} PASSWORD OTHER. '{name} ladder' mails the ladder.") + "\n")
    else:
        ladder.leave(ctx, game, user)
        ctx.answer(f"{title} ladder", f"{user.userid} has left the {title} ladder.\n")


LADDER = game_command(Command(
    "ladder", "[join|leave userid password | challenge userid password OTHER]",
    "The game's ladder, a standing ranking: without words it mails the ladder; 'join' "
    "puts you at the bottom, 'leave' takes you off; 'challenge' starts a board with OTHER, "
    "a few places above you at most (the ladder's mail says how many; you move first). A "
    "win takes their place.",
    do_ladder, most=4, secret_args=(2,), login=(1, 2)))
