"""Commands without a game word: accounts, help, list and multiple."""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Sequence

from pbm.accounts import confirmations
from pbm.accounts.addresses import addresses_of
from pbm.accounts.passwords import hash_password
from pbm.accounts.users import (
    authenticate,
    check_addresses,
    check_userid,
    find_user,
)
from pbm.boards import play
from pbm.boards.position import position
from pbm.boards.select import Which, boards
from pbm.commands.grammar import (
    ACCOUNT_COMMANDS,
    GAME_COMMANDS,
    Command,
    Invocation,
    account_command,
)
from pbm.config import BotSettings
from pbm.context import CommandError, Context, Reply, shorten
from pbm.db.models import Address, User
from pbm.games import registry
from pbm.games.bot_names import strength_of
from pbm.help import NoSuchPage, load_page, page_names
from pbm.views.boardmail import announce_decline, send_board
from pbm.views.listings import games_on_offer, send_listing
from pbm.views.news import tell
from pbm.width import WIDTH


def _check_password_word(password: str) -> None:
    if len(password) < 4:
        raise CommandError("A password needs at least 4 characters.")
    if len(password.split()) != 1 or password != password.strip():
        # By mail words are split at spaces, so such a password could never be typed.
        raise CommandError("A password is one word: no spaces in it.")


def _addresses(ctx: Context, words: Sequence[str]) -> list[str]:
    addresses = check_addresses(list(words)) if words else []
    if not addresses:
        if not ctx.sender:
            raise CommandError("Give at least one mail address for the account.")
        addresses = [ctx.sender.lower()]
    return addresses


def _place(ctx: Context, user: User, chosen: list[str],
           named: Collection[str] | None = None) -> list[str]:
    """Give `user` the addresses `chosen`, in order, keeping what is known of those they had;
    a new address is confirmed at once only when the sender or the operator vouches for it,
    else it is mailed a confirmation request. What to tell the sender about them.

    Only the addresses `named` (default: all chosen) are looked at again: `add` keeps the
    others as they were, so an old request still waiting is not sent again for them (and
    does not use up the one mail to a stranger that this mail may cause)."""
    most = ctx.limits.addresses_per_user
    if most and len(chosen) > most:
        # Every board mail of the user goes to each address: bounded, like spectators.
        raise CommandError(f"An account may have at most {most} addresses; {user.userid} "
                           f"would have {len(chosen)}. Nothing was changed. ('change "
                           "address' replaces the addresses an account has.)")
    had = {row.address: row for row in user.addresses}
    rows = [had.get(address) or Address(address=address, confirmed=False)
            for address in chosen]
    for place, row in enumerate(rows):
        row.position = place
    user.addresses = rows  # the rows left out are deleted (delete-orphan)
    notes = []
    for row in rows:
        if named is not None and row.address not in named:
            continue
        if row.stopped:  # named again by its owner: mail to it resumes (see bounces)
            row.stopped, row.bounces = False, 0
        if row.confirmed:
            continue
        if confirmations.vouched(ctx, row.address):
            row.confirmed, row.confirm_token, row.confirm_sent_at = True, None, None
        else:
            notes.append(confirmations.request(ctx, user, row))
    return notes


def _where(user: User, notes: list[str]) -> str:
    """Where the user's board mails go, and what waits for confirmation."""
    reached = addresses_of(user)
    text = (f"Board mails for {user.userid} go to: {', '.join(reached)}\n" if reached else
            f"Board mails for {user.userid} go nowhere until an address is confirmed: "
            f"until then {user.userid} cannot be challenged.\n")
    if notes:
        text += "".join(f"{note}\n" for note in notes)
        text += ("An address other than the one you write from gets board mails only once "
                 "it is confirmed: its owner sends back the line 'confirm TOKEN' that the "
                 "request mailed there gives.\n")
    return text + "\n"


# ----- the typed commands: the mail handlers below and the operator's CLI call these -----
def signup(ctx: Context, userid: str, password: str, addresses: Sequence[str] = ()) -> User:
    """A new account; board mails go to `addresses` (default: the sender's)."""
    userid = check_userid(userid)
    _check_password_word(password)
    if find_user(ctx, userid) is not None:
        raise CommandError(f"The userid '{userid}' is taken; choose another.")
    if strength_of(userid) is not None:
        raise CommandError(f"The userid '{userid}' is taken by a computer player (see 'help "
                           "bots'); choose another.")
    chosen = _addresses(ctx, addresses)
    user = User(userid=userid, password_hash=hash_password(password), created_at=ctx.now)
    ctx.session.add(user)
    notes = _place(ctx, user, chosen)
    ctx.session.flush()
    ctx.answer(
        f"Welcome to pbm, {userid}",
        f"Welcome, {userid}! Your account is ready.\n\n"
        f"{_where(user, notes)}"
        "Keep your password: every move needs it. (It is stored only as a salted hash.)\n\n"
        "To start a game, mail for example:  trou challenge "
        f"{userid} otherplayer\n"
        "Send 'help' for an overview, 'list' for the games on offer.\n",
    )
    return user


def change_password(ctx: Context, userid: str, old: str | None, new: str) -> User:
    """A new password (the operator needs no `old`)."""
    user = authenticate(ctx, userid, old or "")
    _check_password_word(new)
    user.password_hash = hash_password(new)
    ctx.answer("Password changed", f"The password of {user.userid} has been changed.\n")
    return user


def change_address(ctx: Context, userid: str, password: str | None,
                   addresses: Sequence[str] = ()) -> User:
    """Where the user's board mails go from now on (default: the sender's address)."""
    user = authenticate(ctx, userid, password or "")
    chosen = _addresses(ctx, addresses)
    notes = _place(ctx, user, chosen)
    ctx.session.flush()
    ctx.answer("Address changed", _where(user, notes))
    return user


def add_address(ctx: Context, userid: str, password: str | None,
                addresses: Sequence[str] = ()) -> User:
    """More addresses for the user's board mails (default: the sender's), after those it
    has; a new one the sender does not vouch for is confirmed first, as `change address`."""
    user = authenticate(ctx, userid, password or "")
    named = _addresses(ctx, addresses)
    had = [row.address for row in user.addresses]
    chosen = had + [address for address in named if address not in had]
    notes = _place(ctx, user, chosen, set(named))
    ctx.session.flush()
    ctx.answer("Address added", _where(user, notes))
    return user


def signoff(ctx: Context, userid: str, password: str | None) -> User:
    """Close an account: its active boards are resigned (declined before a first move)."""
    user = authenticate(ctx, userid, password or "")
    resigned = []
    for board in boards(ctx.session, user=user, to_change=True):
        pos = position(board)
        seat = pos.seat_of(user)
        assert seat is not None
        if play.withdraw(ctx, pos, seat):
            announce_decline(ctx, pos, user)
        else:
            tell(ctx)
            send_board(ctx, pos)
        resigned.append(f"{board.game} {board.label}")
    farewell = [f"{user.userid} has signed off. The games played stay in the history."]
    if resigned:
        farewell.append(f"Left boards (resigned, or declined before a first move): "
                        f"{', '.join(resigned)}.")
    # Tell the address on file, which may differ from the sender's.
    to = addresses_of(user)
    user.active = False
    ctx.answer("Signed off", "\n".join(farewell) + "\n")
    if ctx.sender and ctx.sender not in to:
        ctx.replies.append(Reply(to, "Signed off", "\n".join(farewell) + "\n"))
    return user


# Settings a user may change with `set`, each on or off: what board mails do then.
SETTINGS = {"html": ("carry the board drawn, as well as the text", "are plain text only")}
SWITCH = {"on": True, "yes": True, "off": False, "no": False}


def set_option(ctx: Context, userid: str, password: str | None, name: str,
               value: str) -> User:
    """Turn one of the user's settings on or off: `html off` makes their mails plain text."""
    user = authenticate(ctx, userid, password or "")
    name = name.lower()
    if name not in SETTINGS:
        known = ", ".join(f"{key} (on or off)" for key in SETTINGS)
        raise CommandError(f"There is no setting '{shorten(name)}'. Settings: {known}.")
    switch = SWITCH.get(value.lower())
    if switch is None:
        raise CommandError(f"The setting {name} is on or off, not '{shorten(value)}'.\n"
                           f"Write: set {user.userid} PASSWORD {name} off")
    user.html = switch
    on, off = SETTINGS[name]
    ctx.answer("Setting changed", f"{name} {'on' if switch else 'off'}: board mails to "
                                  f"{user.userid} {on if switch else off}.\n")
    return user


# ----- mail handlers: words to typed arguments --------------------------------------------
def do_signup(ctx: Context, inv: Invocation) -> None:
    signup(ctx, inv.args[0], inv.args[1], inv.args[2:])


def do_change_password(ctx: Context, inv: Invocation) -> None:
    change_password(ctx, *inv.args)


def do_change_address(ctx: Context, inv: Invocation) -> None:
    change_address(ctx, inv.args[0], inv.args[1], inv.args[2:])


def do_add(ctx: Context, inv: Invocation) -> None:
    add_address(ctx, inv.args[0], inv.args[1], inv.args[2:])


def do_set(ctx: Context, inv: Invocation) -> None:
    set_option(ctx, *inv.args)


def do_signoff(ctx: Context, inv: Invocation) -> None:
    signoff(ctx, *inv.args)


def do_help(ctx: Context, inv: Invocation) -> None:
    topic = inv.args[0].lower() if inv.args else "general"
    ctx.answer(*help_topic(topic, ctx.bots))


def help_topic(topic: str, bots: BotSettings) -> tuple[str, str]:
    """Subject and text of a help topic: general, commands, a game, bots (as the server's
    `bots` settings have them), or another page."""
    if topic == "commands":
        return "Help: commands", commands_page()
    if topic == "bots":
        # Here, not at the top: every mail's commands load this module, and the bots'
        # page would bring the bots (their search) into each `pbm process` for nothing.
        from pbm.views.botpage import bots_page

        return "Help: bots", bots_page(bots)
    game = registry.canonical(topic)
    if game is not None:
        info = registry.get(game).info
        return f"{info.title} Help", registry.get(game).help_page()
    if topic == "general":
        listed = textwrap.wrap("Send 'help TOPIC' for any of: " + ", ".join(help_topics())
                               + ".", WIDTH, break_on_hyphens=False)
        return "Help: general", "\n".join([load_page(topic), "Help topics", *listed, ""])
    try:
        return f"Help: {topic}", load_page(topic)
    except NoSuchPage:
        topics = ", ".join(help_topics())
        raise CommandError(f"There is no help on '{shorten(topic)}'. Topics: {topics}.") \
            from None


def help_topics() -> list[str]:
    """Every topic `help` answers, from the pages shipped (a new page is listed without
    anyone remembering to): general and commands first, then the pages, then the games."""
    pages = sorted(page_names() - {"general"})
    return list(dict.fromkeys(["general", "commands", *pages, *registry.names()]))


def commands_page() -> str:
    """The command reference, generated from the command objects the parser uses."""
    lines = ["Commands", "", "Account and server commands:"]
    for command in ACCOUNT_COMMANDS.values():
        lines.append(f"  {command.name} {command.syntax}".rstrip())
        lines += described(command.description)
    lines += ["", *textwrap.wrap("Game commands (game = " + ", ".join(registry.names()) + "):",
                                 WIDTH, subsequent_indent="  ", break_on_hyphens=False)]
    for command in GAME_COMMANDS.values():
        lines.append(f"  game {command.name} {command.syntax}".rstrip())
        lines += described(command.description)
    lines += [
        "",
        "Put one command in the Subject of a mail. For several, make the Subject",
        "'multiple' and write one command per line of the body; the commands end at",
        "a line 'end', a signature line '-- ' or quoted text. With a single command",
        "in the Subject, the body is a comment shown to the other players.",
        "In a reply to a board mail, the lines that are commands run and the other",
        "lines are their comment; a reply holding only a move is answered with the",
        "command that plays it.",
        "Userids, game names and commands are not case-sensitive; passwords are.",
        "",
        *textwrap.wrap("Other spellings (pbmserv's): " + "; ".join(
            f"{command.name}: {', '.join(command.aliases)}"
            for command in [*ACCOUNT_COMMANDS.values(), *GAME_COMMANDS.values()]
            if command.aliases) + "; and any 5 letters or more that begin one command only.",
            WIDTH, break_on_hyphens=False),
    ]
    return "\n".join(lines) + "\n"


def described(description: str) -> list[str]:
    """A command's description under its syntax, indented, in lines that fit a mail."""
    return textwrap.wrap(description, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 6,
                         break_on_hyphens=False)


def do_list(ctx: Context, inv: Invocation) -> None:
    if not inv.args:
        ctx.answer("List of games", games_on_offer(ctx.bots))
        return
    for word in inv.args:
        send_listing(ctx, registry.lookup(word), [], Which.ACTIVE)


def do_multiple(ctx: Context, inv: Invocation) -> None:
    raise CommandError(
        "'multiple' belongs in the Subject: then every line of the body is a command."
    )


account_command(Command("help", "[topic]", "General help; 'help commands' lists every "
                        "command; 'help <game>' gives the rules of a game.", do_help, most=1))
account_command(Command("signup", "userid password [address ...]",
                        "Open an account. Board mails go to the addresses given, or to "
                        "the address you write from.", do_signup, least=2, secret_args=(1,)))
account_command(Command("change password", "userid oldpassword newpassword",
                        "Change your password.", do_change_password, least=3, most=3,
                        secret_args=(1, 2), login=(0, 1)))
account_command(Command("change address", "userid password [address ...]",
                        "Change where your board mails go.", do_change_address, least=2,
                        secret_args=(1,), login=(0, 1)))
account_command(Command("add", "userid password [address ...]",
                        "Add addresses for your board mails (default: the one you write "
                        "from), keeping those you have; another address is confirmed "
                        "first.", do_add, least=2, secret_args=(1,), login=(0, 1)))
account_command(Command("set", "userid password html on|off",
                        "Board mails come with the board drawn (an HTML part) as well as the "
                        "text; 'html off': plain text only.", do_set, least=4, most=4,
                        secret_args=(1,), login=(0, 1)))
account_command(Command("signoff", "userid password",
                        "Close your account: your active games are resigned, their history "
                        "is kept.", do_signoff, least=2, most=2, secret_args=(1,),
                        login=(0, 1)))
# pbmserv's name for it: its players write `delete`.
account_command(Command("delete", "userid password",
                        "The same as signoff: close your account; your active games are "
                        "resigned, their history is kept.", do_signoff, least=2, most=2,
                        secret_args=(1,), login=(0, 1)))
account_command(Command("list", "[game ...]", "The games on offer, or the active boards "
                        "of the named games.", do_list))
account_command(Command("multiple", "", "As the Subject: run every line of the body as a "
                        "command.", do_multiple))
