"""Commands that start with a game name: help, challenge, move, show, showas, games, resign."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pbm.accounts import bots, confirmations, policies
from pbm.accounts.users import authenticate, find_user, require_user, users_at
from pbm.boards import clocks, housekeeping, names, play, select
from pbm.boards.position import Position, position, seat_of
from pbm.boards.queue import play_queued
from pbm.boards.select import Which
from pbm.commands import seats, votes
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.commands.seats import GUARD, authenticate_on, check_turn, seat_on
from pbm.context import CommandError, Context, shorten
from pbm.db import rates
from pbm.db.models import Board, User
from pbm.games import registry
from pbm.games.base import AnyGame, UserError
from pbm.views.boardmail import (
    BoardPage,
    Pictures,
    answer_board,
    board_page,
    board_text,
    send_board,
)
from pbm.views.listings import send_listing
from pbm.views.news import tell
from pbm.views.seekers import send_seekers

SELECTORS = frozenset(Which)


def _game(inv: Invocation) -> AnyGame:
    assert inv.game is not None
    return registry.get(inv.game)


# ----- help ---------------------------------------------------------------------------
def do_help(ctx: Context, inv: Invocation) -> None:
    game = _game(inv)
    ctx.answer(f"{game.info.title} Help", game.help_page())


# ----- challenge ----------------------------------------------------------------------
def challenge(ctx: Context, game: AnyGame, userids: Sequence[str],
              option_words: Sequence[str] = ()) -> Position:
    """A new board of `game` between the users, the first in the first seat; every player
    (and a challenger who does not play) is mailed the board."""
    info = game.info
    if len(userids) != info.players:
        seats = " ".join(f"userid{i + 1}" for i in range(info.players))
        raise CommandError(
            f"{info.title} is played by {info.players} players. "
            f"Write: {info.name} challenge {seats} (the first takes the {info.seats[0]} "
            "seat and moves first)."
        )
    users = [bots.require_player(ctx, userid) for userid in userids]
    if len({u.id for u in users}) != len(users):
        raise CommandError("A player cannot challenge themself: name two different userids.")
    confirmations.require_reachable([u for u in users if not u.bot])  # a bot gets no mail
    bots.check_challenge(ctx, game, users)
    time_limits = clocks.time_options(option_words, ctx.time)
    options = game.parse_options(time_limits.game_words)
    challenger = ctx.sender or "operator"
    challengers = users_at(ctx, ctx.sender) if ctx.sender else []
    if challengers:
        challenger = challengers[0].userid
    if not ctx.admin:
        # A bot gets no mail to be flooded with: its bound is boards per player (above).
        _check_challenge_limits(ctx, [u for u in users if u not in challengers and not u.bot])
    policies.check_challenge(ctx, game, users, challengers)
    pos = play.start_board(ctx, game, users, options, challenger, time_limits.nag,
                           time_limits.forfeit, time_limits.total)
    ctx.challenges += 1
    comment = (challenger, ctx.comment) if ctx.comment else None
    send_board(ctx, pos, new=True, comment=comment, spectators=(ctx.sender,))
    return pos


def do_challenge(ctx: Context, inv: Invocation) -> None:
    challenge(ctx, _game(inv), [a for a in inv.args if not a.startswith("-")],
              [a for a in inv.args if a.startswith("-")])


def _check_challenge_limits(ctx: Context, others: list[User]) -> None:
    """Challenges need no password, so they are what a stranger would use to flood players
    with board mails: bounded per mail, per sender and per challenged player."""
    limits = ctx.limits
    if limits.challenges_per_mail and ctx.challenges >= limits.challenges_per_mail:
        raise CommandError(f"One mail may start at most {limits.challenges_per_mail} boards; "
                           "this challenge was not made. Send it in another mail.")
    if ctx.sender:
        allowed = rates.take(ctx.session, f"challenges-from:{ctx.sender}",
                             limits.challenges_per_sender_per_day, rates.DAY, ctx.now)
        if not allowed.allowed:
            raise CommandError(
                f"{ctx.sender} has started {limits.challenges_per_sender_per_day} boards in the "
                f"last day, the most allowed; this challenge was not made. Send it again after "
                f"{allowed.resets_at:%Y-%m-%d %H:%M} UTC.")
    for user in others:
        allowed = rates.take(ctx.session, f"challenged:{user.userid}",
                             limits.challenges_per_player_per_day, rates.DAY, ctx.now)
        if not allowed.allowed:
            raise CommandError(
                f"{user.userid} has been challenged {limits.challenges_per_player_per_day} "
                "times in the last day by others, the most allowed; this challenge was not "
                f"made. Send it again after {allowed.resets_at:%Y-%m-%d %H:%M} UTC, or ask "
                f"{user.userid} to start the board.")


# ----- move ---------------------------------------------------------------------------
def move(ctx: Context, game: AnyGame, name: str, userid: str, password: str, text: str,
         guard: int | None = None) -> Position:
    """Play `text` for the user on the board named `name` (101, a101); refused unless it
    would be move `guard` (when given). Every player is mailed the new board."""
    board = select.load_board(ctx, name, game.info.name, to_change=True)
    pos = position(board)
    user = authenticate_on(ctx, pos, userid, password)
    return play_for(ctx, pos, user, seat_on(pos, user), text, guard)


def play_for(ctx: Context, pos: Position, user: User, seat: int, text: str,
             guard: int | None) -> Position:
    """move() once the player is known: `confirm` comes in here too, so a submitted move
    is played, checked and mailed exactly as a move sent with `move`."""
    check_turn(pos, seat)
    if clocks.out_of_time(pos.board, pos.board.seats[seat], ctx.now):
        _flag_fell(ctx, pos, seat, text)
        return pos
    try:
        play.check_move_number(pos, guard, text)
        play.play_move(ctx, pos, seat, text, ctx.comment)
    except UserError as err:
        raise CommandError(str(err), board_text=board_text(pos, seat)) from None
    _apply_queued_resignations(ctx, pos)
    play_queued(ctx, pos, seat)  # moves the players queued, marked (Auto); one mail after
    comment = (user.userid, ctx.comment) if ctx.comment else None
    tell(ctx)  # an end, dropped queues: told before the board mails, as they happened
    send_board(ctx, pos, comment=comment)
    return pos


def _flag_fell(ctx: Context, pos: Position, seat: int, text: str) -> None:
    """A move that came after its player's total time ran out (housekeeping had not yet
    ended the board): too late, as on a chess clock. The game is lost on time (declined,
    if they never moved on it); everyone is told as housekeeping would tell them."""
    board, player = pos.board, pos.board.seats[seat]
    housekeeping.lose_on_time(ctx, pos, player, clocks.on_turn(player, ctx.now),
                              clocks.exceeded_reason(board, player))
    ctx.answer(f"{pos.title} Board {board.label}: too late",
               f"Your move {text} on {pos.title} board {board.label} was not played: "
               f"your total time of {board.total_days} days ran out before it came.\n"
               "The game is over on time; the last board comes in its own mail.\n")
    tell(ctx)


def do_move(ctx: Context, inv: Invocation) -> None:
    if votes.do_vote(ctx, inv):  # propose, accept, reject, undo or resign
        return
    number, userid, password = inv.args[:3]
    text = " ".join(inv.args[3:])
    guard = None
    found = GUARD.search(text)
    if found:
        guard = int(found.group(1))
        text = text[: found.start()].strip()
    if not text:
        raise CommandError(f"No move given. Write: {usage(inv)}")
    move(ctx, _game(inv), number, userid, password, text, guard)


def _apply_queued_resignations(ctx: Context, pos: Position) -> None:
    for seat in sorted(pos.to_move()):
        if pos.board.seats[seat].resign_queued:
            play.resign(ctx, pos, seat)
            return


def do_resign(ctx: Context, inv: Invocation) -> None:
    seats.resign(ctx, _game(inv), *inv.args)


# ----- show / showas --------------------------------------------------------------------
def _parse_board_ref(ref: str) -> tuple[str, int | None]:
    number, _, upto = ref.partition("#")
    if upto and not upto.isdigit():
        raise CommandError(f"'{shorten(ref)}' is not a board reference: write 101 or 101#12 "
                           "(a101 or a101#12 for a tournament's board).")
    return number, int(upto) if upto else None


def _page(board: Board, upto: int | None, viewer: int | None,
          now: datetime | None) -> tuple[Position, BoardPage]:
    """The position after move `upto` (default: now) and its page as `viewer` (a seat, or
    None for the public) sees it, with the whole move list."""
    if upto is not None and not 0 <= upto <= board.move_count:
        raise CommandError(f"Board {board.label} has {board.move_count} moves; there is no move "
                           f"#{upto} to show.")
    pos = position(board, upto)
    return pos, board_page(pos, viewer, full_list=True, now=now)


def view(board: Board, upto: int | None = None, viewer: int | None = None,
         now: datetime | None = None) -> str:
    """The text of _page(): what `show` mails, and the operator's `pbm show` prints."""
    return _page(board, upto, viewer, now)[1].text()


def view_as(ctx: Context, name: str, upto: int | None = None,
            userid: str | None = None, game: str | None = None) -> str:
    """The board named `name` (101, a101; of `game`, needed when several games have a board
    of that name) as the public, or as player `userid`, sees it (the operator's view)."""
    board = select.load_board(ctx, name, game)
    viewer = None
    if userid:
        viewer = seat_of(board, require_user(ctx, userid, signed_off_too=True))
        if viewer is None:
            raise CommandError(f"{userid} does not play on board {board.label}.")
    return view(board, upto, viewer, ctx.now)


def send_view(ctx: Context, board: Board, upto: int | None, viewer: int | None) -> None:
    """The board in a mail of its own to the sender, as `viewer` sees it (`show`'s mail)."""
    pos, page = _page(board, upto, viewer, ctx.now)
    answer_board(ctx, f"{pos.title} Board {board.label}", page.linked(ctx, pos),
                 Pictures(pos.game, pos.state), viewer)


def _select(ctx: Context, inv: Invocation, user: User | None,
            words: list[str]) -> tuple[list[tuple[Board, int | None]], str]:
    """Boards named by reference (101, 101#12), else `user`'s boards by selector; and a note
    when there were more than one command may show."""
    limit = ctx.limits.boards_per_command
    which = Which.ACTIVE
    refs = []
    for word in words:
        if word.lower() in SELECTORS:
            which = Which(word.lower())
        else:
            refs.append(_parse_board_ref(word))
    refs = list(dict.fromkeys(refs))  # a board named twice is shown once
    if refs:
        if limit and len(refs) > limit:
            raise CommandError(f"One command may name at most {limit} boards; this one named "
                               f"{len(refs)}. Ask for the others in another command.")
        loaded = {(board.id, upto): (board, upto) for board, upto in
                  ((select.load_board(ctx, number, inv.game), upto) for number, upto in refs)}
        return list(loaded.values()), ""  # 101 and 0101 name one board
    if user is None:
        return [], ""
    found = select.boards(ctx.session, game=inv.game, user=user, which=which)
    if limit and len(found) > limit:
        note = (f"{user.userid} has {len(found)} such boards; the first {limit} are shown. "
                "Name the boards you want to see, for example: "
                f"{inv.game} show {found[limit].label} {found[-1].label}\n")
        return [(board, None) for board in found[:limit]], note
    return [(board, None) for board in found], ""


TOO_MUCH_MAIL = "This would generate too much mail -- please refine request."  # pbmserv's


def do_show(ctx: Context, inv: Invocation) -> None:
    user = None
    words = list(inv.args)
    if not words or words[0].lower() in SELECTORS:  # every board of everyone
        raise CommandError(f"{TOO_MUCH_MAIL} Name boards or a player. Write: {usage(inv)}")
    if not _names_board(ctx, inv, words[0].split("#")[0]):
        user = require_user(ctx, words.pop(0), signed_off_too=True)
    selected, note = _select(ctx, inv, user, words)
    title = _game(inv).info.title
    if not selected and user is not None:  # board numbers always select (or are refused)
        ctx.answer(f"{title} show", f"{user.userid} has no such boards.\n")
    for board, upto in selected:
        send_view(ctx, board, upto, None)
    if note:
        ctx.answer(f"{title} show", note)


def _names_board(ctx: Context, inv: Invocation, word: str) -> bool:
    """Whether `show`'s first word names a board rather than a player: a number always (a
    userid starts with a letter); `a101`, a valid userid too, when it is nobody's userid
    and a tournament's boards are named so (`bob1` is then still a player, if unknown)."""
    name = names.parse(word)
    if name is None:
        return False
    return not name.prefix or _tournament_board(ctx, inv, word, name.prefix)


def _tournament_board(ctx: Context, inv: Invocation, word: str, prefix: str) -> bool:
    assert inv.game is not None
    return find_user(ctx, word) is None and \
        select.names_a_tournament(ctx.session, inv.game, prefix)


def do_showas(ctx: Context, inv: Invocation) -> None:
    user = authenticate(ctx, inv.args[0], inv.args[1])
    selected, note = _select(ctx, inv, user, list(inv.args[2:]))
    title = _game(inv).info.title
    if not selected:
        ctx.answer(f"{title} showas", f"{user.userid} has no such {title} boards.\n")
    for board, upto in selected:
        # On a board the user does not play, showas gives the public view.
        send_view(ctx, board, upto, seat_of(board, user))
    if note:
        ctx.answer(f"{title} showas", note)


# ----- games --------------------------------------------------------------------------
def do_games(ctx: Context, inv: Invocation) -> None:
    game = _game(inv)
    if [word.lower() for word in inv.args] == ["seek"]:
        send_seekers(ctx, game)  # pbmserv's `GAME games seek`: who wants games
        return
    which, first = Which.ACTIVE, None
    userids = []
    for word in inv.args:
        name = names.parse(word)
        if word.lower() in SELECTORS:
            which = Which(word.lower())
        elif name is not None and (not name.prefix or
                                   _tournament_board(ctx, inv, word, name.prefix)):
            # A board to list from: a number (userids start with a letter), or a name such
            # as a101 (the listing's "for the next ones" line), as `show` tells them apart.
            if first is not None:
                raise CommandError(f"Name one board to list from. Write: {usage(inv)}")
            first = (name.prefix, name.number if name.storable else 10**9)  # past them all
        else:
            userids.append(word)
    if which is Which.NEXT and not userids:
        raise CommandError(f"'next' lists the boards where it is a player's turn: name the "
                           f"player. Write: {game.info.name} games userid next")
    send_listing(ctx, game, [require_user(ctx, u, signed_off_too=True) for u in userids], which,
                 first)


HELP = game_command(Command("help", "", "The rules of the game and how to write its moves.",
                            do_help, most=0))
CHALLENGE = game_command(Command(
    "challenge", "[-option=value ...] userid1 userid2",
    "Start a new board between the players (no password needed; userid1 moves first).",
    do_challenge, aliases=("chal",), takes_comment=True))
MOVE = game_command(Command(
    "move", "board userid password move[#n]",
    "Make a move. A trailing #n is refused unless this would be move n of the board. "
    "Instead of a move: propose (a draw), undo, accept, reject, resign (help votes).",
    do_move, aliases=("board", "mvoe", "mv"), least=4, secret_args=(2,), login=(1, 2), board_arg=0,
    takes_comment=True))
SHOW = game_command(Command(
    "show", "board[#n] ... | userid [active|inactive|next|all]",
    "Mail the public view of boards (#n: as it was after move n), each in its own mail.",
    do_show))
SHOWAS = game_command(Command(
    "showas", "userid password [board ...|active|inactive|next|all]",
    "Mail boards as you see them, with what only you may see.", do_showas, least=2,
    secret_args=(1,), login=(0, 1)))
GAMES = game_command(Command(
    "games", "[userid ...] [active|inactive|next|all] [board] | seek",
    "List boards of this game, of everyone or of the named players, from the board numbered "
    "(if given) on; 'next': where it is their turn; 'seek': the players seeking games.",
    do_games))
RESIGN = game_command(Command(
    "resign", "board userid password",
    "Resign. Out of turn it is queued for your next turn (send again to take it back); "
    "before your first move it declines the challenge and removes the board.",
    do_resign, least=3, most=3, secret_args=(2,), login=(1, 2), board_arg=0))
