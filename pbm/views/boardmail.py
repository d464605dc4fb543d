"""The text of board mails in pbmserv's layout: title, turn line, move list, board, comments."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select

from pbm.accounts.addresses import addresses_of
from pbm.boards.position import LoggedMove, Position, move_seen
from pbm.boards.proposal import proposal_lines
from pbm.boards.queue import queued_line
from pbm.boards.watchers import board_spectators, notifier_userids
from pbm.context import Context, Reply, board_thread
from pbm.db.models import Address, BoardStatus, User
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views import boardhtml, urls
from pbm.views.clock_block import clock_block
from pbm.views.rating_lines import rating_lines
from pbm.views.to_move import to_move_lines
from pbm.views.watcher_lines import board_watcher_lines, watcher_lines
from pbm.width import WIDTH, fit

RECENT_ROWS = 10  # rows of the move list in ordinary mails; `show` and the final mail: all
COLUMN = 20


def turn_line(pos: Position) -> str:
    outcome = pos.outcome()
    if outcome is not None:
        if outcome.is_draw:
            return "Game was a tie."
        names = " and ".join(pos.userid(seat) for seat in sorted(outcome.winners))
        return f"Game won by {names}."
    if pos.board.status == BoardStatus.DECLINED:
        return "This challenge was declined."
    seats = sorted(pos.to_move())
    if pos.upto == 0 and seats == [0]:
        return f"Please start the game {pos.userid(0)}."
    names = " and ".join(f"{pos.userid(seat)}'s" for seat in seats)
    return f"It is {names} turn."


def move_list(pos: Position, viewer: int | None, last_rows: int | None = RECENT_ROWS) -> str:
    """The moves with their numbers: a column per seat, or a line per move where the game
    asks for it (GameInfo.one_line_per_move).

    The shape is the game's alone: column widths and line breaks come from what everyone
    may see, so a player's own secret text never moves a line of their list.
    """
    info = pos.game.info
    revealed = pos.outcome() is not None
    names = [f"{info.seats[i]}: {pos.userid(i)}" for i in range(info.players)]
    per_row = 1 if info.one_line_per_move else info.players
    moves = pos.moves(None if last_rows is None else (last_rows + 1) * per_row)
    if info.one_line_per_move:
        lines = ["   ".join(names)]
        rows = [_entry_lines(move, viewer, revealed, info.seats[move.seat]) for move in moves]
    else:
        # As wide as the widest name or public text (a takeback's), never a secret's.
        public = [f"{move.number:>3}. {move_seen(move, None, revealed)}" for move in moves]
        widest = max(COLUMN, *(len(text) + 2 for text in [*names, *public]))
        width = min(widest, WIDTH // info.players)
        lines = ["".join(name.ljust(width) for name in names).rstrip()]
        rows = [[row] for row in _column_rows(moves, viewer, revealed, info.players, width)]
    shown = rows if last_rows is None else rows[-last_rows:]
    if moves and (moves[0].number > 1 or len(shown) < len(rows)):
        lines.append(f"  (earlier moves not shown; "
                     f"'{pos.board.game} show {pos.board.label}' lists them all)")
    lines += [line for row in shown for line in row]
    if not rows:
        lines.append("  (no moves yet)")
    return "\n".join(lines)


def _column_rows(moves: list[LoggedMove], viewer: int | None, revealed: bool, players: int,
                 width: int) -> list[str]:
    """A row per round, a column of `width` per seat; a seat's move starts a new row when
    it does not come after the last one's."""
    rows: list[list[str]] = []
    last_seat = players
    for move in moves:
        if move.seat <= last_seat:
            rows.append([""] * players)
        last_seat = move.seat
        rows[-1][move.seat] = f"{move.number:>3}. {move_seen(move, viewer, revealed)}"
    # Two blanks after a cell even where it is wider than its column.
    return ["".join(cell.ljust(width - 2) + "  " for cell in row).rstrip() for row in rows]


def _entry_lines(move: LoggedMove, viewer: int | None, revealed: bool, seat: str) -> list[str]:
    """One move: its number, its text and its seat, wrapped within WIDTH.

    Lines break where the public text (a spectator's) breaks, so the author of a secret
    sees their own words on the same lines as everyone else sees the dots.
    """
    words = move_seen(move, viewer, revealed).split()
    public = move_seen(move, None, revealed).split()
    if len(public) != len(words):  # a hidden text of another shape: wrap the viewer's own
        public = words
    first = f"{move.number:>3}. "
    indent = " " * len(first)
    lines: list[list[str]] = [[]]
    used = len(first)
    for word, measure in zip(words, public):
        if lines[-1] and used + 1 + len(measure) > WIDTH:
            lines.append([])
            used = len(indent)
        used += len(measure) + (1 if len(lines[-1]) else 0)
        lines[-1].append(word)
    tail = f"({seat})"
    if used + 2 + len(tail) > WIDTH:
        lines.append([])
    lines[-1].append(" " + tail if lines[-1] else tail)
    return [(first if i == 0 else indent) + " ".join(line) for i, line in enumerate(lines)]


@dataclass(frozen=True)
class BoardPage:
    """A board mail's text in two pieces: `head`, the lines above the move list (title, turn
    line, notices), and `rest`, the move list, the board and comments. The text part is the
    two with a blank line between; the HTML part puts the drawn board there."""

    head: str
    rest: str
    link: str = ""  # the board's web page ([web] base_url), last of all; "" for none

    def text(self) -> str:
        end = f"\n\nThis board on the web: {self.link}" if self.link else ""
        return f"{self.head}\n\n{self.rest}{end}\n"

    def html(self, picture: str, style: str = "") -> str:
        """The HTML part around `picture`, whose classes `style` declares."""
        return boardhtml.document(self.head, picture, self.rest, style, self.link)

    def after(self, lines: str) -> BoardPage:
        """The page with `lines` (a nag's words, say) above its head."""
        return replace(self, head=f"{lines}\n\n{self.head}")

    def before(self, lines: str) -> BoardPage:
        """The page with `lines` (how to stop these mails, say) at its end, before the
        link."""
        return replace(self, rest=f"{self.rest}\n\n{lines}")

    def linked(self, ctx: Context, pos: Position) -> BoardPage:
        """The page ending with the link to its board's web page (to the position it shows,
        where that is an earlier one), when the server has a web view at a known address."""
        if not ctx.web_base_url:
            return self
        upto = None if pos.upto == pos.board.move_count else pos.upto
        path = urls.board_path(pos.board.game, pos.board.label, upto)
        return replace(self, link=urls.absolute(ctx.web_base_url, path))


def board_page(
    pos: Position,
    viewer: int | None,
    *,
    new: bool = False,
    comment: tuple[str, str] | None = None,
    full_list: bool = False,
    now: datetime | None = None,
    watching: Sequence[str] | None = None,
) -> BoardPage:
    """A whole board mail body as `viewer` may see it; as of `now`, it says who is away.
    `watching`: its `Subscribers:` and `Notifiers:` lines where the caller has them (one
    move mails many pages of them); else they are looked up."""
    board = pos.board
    if new:
        title = f"A new {pos.title} board ({board.label}) has been started"
    else:
        title = f"Summary of {pos.title} Board {board.label}"
        if pos.upto < board.move_count:
            title += f" after move {pos.upto}"
    parts = [title, ""]
    outcome = pos.outcome()
    parts.append(turn_line(pos))
    if outcome is not None and outcome.reason:
        parts += textwrap.wrap(outcome.reason, WIDTH)
    parts += rating_lines(pos)
    if viewer is not None and viewer in pos.to_move():
        hint = pos.game.prompt(pos.state, viewer)
        if hint:
            parts.append(hint)
    if viewer is not None and board.seats[viewer].resign_queued and pos.upto == board.move_count:
        parts.append("Your resignation is queued and takes effect when your turn comes.")
    parts += proposal_lines(pos, viewer)  # a draw or takeback vote, or what became of it
    queued = queued_line(pos, viewer)  # the owner's own view only
    if queued:
        parts.append(queued)
    if pos.to_move() and pos.upto == board.move_count:
        parts += clock_lines(pos, now)
    # The final mail lists every move, as pbmserv's did: it is the game's record.
    every = full_list or outcome is not None
    rest = [move_list(pos, viewer, None if every else RECENT_ROWS), ""]
    render = pos.game.render_full if full_list else pos.game.render
    rest.append(render(pos.state, viewer).rstrip("\n"))
    if watching is None:
        watching = board_watcher_lines(board)
    if watching:  # pbmserv's place for them: after the board, before the comments
        rest += ["", *watching]
    if comment is not None:
        author, text = comment
        # Fitted here too, not only in the Reply: the HTML part shows it in a <pre>.
        rest += ["", f"{author} writes:", fit(text.rstrip())]
    block = clock_block(pos, now)
    if block:
        rest += ["", *block]
    return BoardPage("\n".join(parts), "\n".join(rest).rstrip())


def board_text(pos: Position, viewer: int | None, **how: Any) -> str:
    """The text of board_page(): what every board mail and `show` has always said."""
    return board_page(pos, viewer, **how).text()


class Pictures:
    """The drawn boards of one position, each drawn once: per viewer in a game with secrets,
    else once for every reader (the public view: it is everyone's)."""

    def __init__(self, game: AnyGame, state: Any) -> None:
        self.game, self.state = game, state
        self._drawn: dict[int | None, str | None] = {}

    def of(self, viewer: int | None) -> str | None:
        """The picture `viewer` may see, or None when the game draws none."""
        if not self.game.info.hidden:
            viewer = None
        if viewer not in self._drawn:
            draw = registry.picture(self.game.info.name)
            self._drawn[viewer] = None if draw is None else draw(self.state, viewer)
        return self._drawn[viewer]

    def mail(self, page: BoardPage, viewer: int | None,
             html: bool = True) -> tuple[str, str | None]:
        """The text of `page` and, when the reader takes HTML and there is a picture, its
        HTML."""
        picture = self.of(viewer) if html else None
        if picture is None:
            return page.text(), None
        return page.text(), page.html(picture, registry.picture_style(self.game.info.name))


def wants_html(ctx: Context, address: str) -> bool:
    """Whether mail to `address` may carry a drawn board: not when a user who gets mail
    there asked for plain text (`set ... html off`), nor on the operator's terminal."""
    if not address:
        return False
    plain = select(Address.id).join(User, User.id == Address.user_id).where(
        Address.address == address.lower(), User.html.is_(False), User.active.is_(True))
    return ctx.session.scalar(plain.limit(1)) is None


def answer_board(ctx: Context, subject: str, page: BoardPage, pictures: Pictures,
                 viewer: int | None) -> str:
    """Answer the sender with `page` (and its picture, if they take HTML); its text."""
    text, html = pictures.mail(page, viewer, wants_html(ctx, ctx.sender))
    ctx.answer(subject, text, html)
    return text


def clock_lines(pos: Position, now: datetime | None) -> list[str]:
    """Time limits other than the server's, and who is on vacation (as of `now`)."""
    board, lines = pos.board, []
    if board.nag_days is not None and board.forfeit_days is not None:
        lines.append(f"Time limits: a reminder after {board.nag_days} days without a move, "
                     f"forfeit after {board.forfeit_days} days.")
        # pbm.boards.clocks.limits: so that a stranger's challenge cannot rush anyone.
        lines.append("Limits shorter than the server's apply once every player has moved.")
    if now is not None:
        for seat in board.seats:
            until = seat.user.vacation_until
            if until is not None and until > now:
                lines.append(f"{seat.user.userid} is on vacation until {until:%Y-%m-%d}.")
    return lines


def board_subject(pos: Position, *, new: bool = False, commented: bool = False) -> str:
    board = pos.board
    if pos.outcome() is not None:
        subject = f"{pos.title} Board {board.label}"
    else:
        movers = " ".join(pos.userid(seat) for seat in sorted(pos.to_move()))
        prefix = f"New {pos.title}" if new else pos.title
        subject = f"{prefix} Board {board.label} {movers}".rstrip()
    return subject + (" **" if commented else "")


def send_board(
    ctx: Context,
    pos: Position,
    *,
    new: bool = False,
    comment: tuple[str, str] | None = None,
    spectators: tuple[str, ...] = (),
) -> None:
    """Mail every player their own view of the board; spectators (`spectators`, and the
    board's subscribers) get the public view. Each mail carries the drawn board too, unless
    its reader asked for plain text."""
    # The Subject names the player to move, as pbmserv's did, so it changes from mail to
    # mail: the board's thread is kept by References (mail/threads.py), which mutt and
    # Thunderbird thread by first.
    subject = board_subject(pos, new=new, commented=comment is not None)
    thread = board_thread(pos.board)
    pictures = Pictures(pos.game, pos.state)
    # Spectators and notifiers asked once for every page (each query only where the
    # board's own query found some); the spectators come with their addresses and their
    # choice of HTML, in that one query.
    spectating = board_spectators(ctx.session, pos.board)
    watched = watcher_lines(spectating.userids, notifier_userids(ctx.session, pos.board))
    player_addresses: set[str] = set()
    for seat in pos.board.seats:
        to = addresses_of(seat.user)
        player_addresses.update(to)
        page = board_page(pos, seat.position, new=new, comment=comment, now=ctx.now,
                          watching=watched)
        command = to_move_lines(pos, seat.position, new=new)
        if command is not None:
            page = page.before(command)
        page = page.linked(ctx, pos)
        body, html = pictures.mail(page, seat.position, seat.user.html)
        ctx.replies.append(Reply(to, subject, body, "board", thread, new, html))
    # Subscribers came with their choice of HTML; others are looked up.
    subscribed = dict(spectating.addresses)
    watching: dict[str, bool] = {}
    for address in (*spectators, *subscribed):
        if address and address not in player_addresses and address not in watching:
            watching[address] = subscribed[address] if address in subscribed else \
                wants_html(ctx, address)
    if not watching:
        return
    page = board_page(pos, None, new=new, comment=comment, now=ctx.now,
                      watching=watched).linked(ctx, pos)
    body, html = pictures.mail(page, None)
    groups = [(tuple(watching), html)] if html is None else [
        (tuple(a for a, wanted in watching.items() if wanted), html),
        (tuple(a for a, wanted in watching.items() if not wanted), None)]
    for to, part in groups:
        if to:
            ctx.replies.append(Reply(to, subject, body, "board", thread, new, part))


def announce_decline(ctx: Context, pos: Position, user: User, body: str | None = None) -> None:
    """Tell every player of a board that `user` declined it and it is gone (`body`: how,
    when not by resigning)."""
    body = body or (f"{user.userid} declined {pos.title} board {pos.board.label} before "
                    "making a move, so the board has been removed.\n")
    for seat in pos.board.seats:
        ctx.replies.append(
            Reply(addresses_of(seat.user), f"{pos.title} Board {pos.board.label}", body, "board",
                  board_thread(pos.board))
        )
