"""Which word a too-short command lacks, worked out from what the words given look like:
"Too few words: the password is missing" helps where "Too few words" does not, and knowing
where the password stands lets the echo of the line hide it alone, not every word after it.

The words of a command's syntax tell what stands where: a board number, a userid (a known
one), a password, a move. Every way of leaving out the missing number of them is tried; a
way is kept when each word given fits its place, and where several are kept the likelier
wins: a password is not someone's userid, and a move reads as a move of its board."""

from __future__ import annotations

from itertools import combinations

from pbm.accounts.users import find_user
from pbm.boards import names, select
from pbm.boards.position import position, seat_of
from pbm.commands.grammar import Invocation
from pbm.context import CommandError, Context
from pbm.games.base import InvalidMove, UserError

BOARD, USERID, PASSWORD, MOVE, OTHER = "board", "userid", "password", "move", "other"
# The kind of word each place of a syntax holds, by the place's name there.
KINDS = {"board": BOARD, "userid": USERID, "password": PASSWORD, "oldpassword": PASSWORD,
         "newpassword": PASSWORD, "move": MOVE}
NAMES = {BOARD: "board number", "oldpassword": "old password", "newpassword": "new password"}


class MissingWords(CommandError):
    """Too few words; `password_at`: the arguments that may be the password, as typed."""

    def __init__(self, message: str, password_at: tuple[int, ...]):
        super().__init__(message)
        self.password_at = password_at


def required_places(invocation: Invocation) -> list[tuple[str, str]]:
    """The kind and the name of each word the command needs, in order."""
    places = []
    for word in invocation.command.syntax.split():
        if word.startswith("[") or word == "|":
            continue
        word = word.split("[")[0]
        if "|" in word:  # one of these words ("on|off"), and no other
            places.append((word, "word " + " or ".join(word.split("|"))))
            continue
        kind = KINDS.get(word, OTHER)
        places.append((kind, NAMES.get(word, NAMES.get(kind, word))))
    return places[:invocation.command.least]


def missing(ctx: Context, invocation: Invocation) -> MissingWords:
    """The error for a command with fewer words than it needs: which are missing, and
    where the password stands among those given."""
    places, args = required_places(invocation), invocation.args
    gap = len(places) - len(args)
    ways = []
    for left_out in combinations(range(len(places)), gap):
        standing = [kind for place, (kind, _) in enumerate(places) if place not in left_out]
        score = _fit(ctx, invocation, list(zip(standing, args)))
        if score is not None:
            ways.append((score, left_out, standing))
    usage = " ".join([*invocation.words, invocation.command.syntax]).strip()
    if not ways:  # nothing fits: every word may be anything, the password among them
        return MissingWords(f"Too few words. Write: {usage}", tuple(range(len(args))))
    best = max(score for score, _, _ in ways)
    likely = [(left_out, standing) for score, left_out, standing in ways if score == best]
    # Between equally likely ways, the last words are the ones people leave off; the echo
    # hides every word that stands in a password's place in any of them.
    left_out, _ = max(likely)
    hide = {i for _, standing in likely for i, kind in enumerate(standing) if kind == PASSWORD}
    if gap > 1:  # two words off: too little is left to tell the password by
        hide = set(range(len(args)))
    what = " and the ".join(places[p][1] for p in left_out)
    return MissingWords(f"Too few words: the {what} {'is' if gap == 1 else 'are'} missing. "
                        f"Write: {usage}", tuple(sorted(hide)))


def _fit(ctx: Context, invocation: Invocation, given: list[tuple[str, str]]) -> int | None:
    """How likely the words stand in these places (higher is likelier); None: they cannot."""
    score = 0
    userid = board = None
    for kind, word in given:
        if kind == BOARD:
            if not names.is_name(word.split("#")[0]):
                return None
            board = word
        elif kind == USERID:
            # A command that logs in names a known user; `signup` names a new one.
            if invocation.command.login is not None and find_user(ctx, word) is None:
                return None
            userid = word
        elif "|" in kind:
            if word.lower() not in kind.split("|"):
                return None
        elif kind == PASSWORD and find_user(ctx, word) is not None:
            score -= 1  # a userid in the password's place: likelier the userid's own
    moves = [word for kind, word in given if kind == MOVE]
    if moves and board is not None and userid is not None and invocation.game is not None:
        reads = _reads_as_move(ctx, invocation.game, board, userid, moves[0])
        if reads is False:
            return None
        score += 1 if reads else 0
    return score


def _reads_as_move(ctx: Context, game: str, number: str, userid: str,
                   text: str) -> bool | None:
    """Whether `text` is written as a move of the user's seat on the board (a legal one or
    not); None when that cannot be told (no such board, or the user does not play on it)."""
    try:
        board = select.load_board(ctx, number.split("#")[0], game)
    except UserError:
        return None
    user = find_user(ctx, userid)
    seat = seat_of(board, user) if user is not None else None
    if seat is None:
        return None
    pos = position(board)
    try:
        pos.game.parse(pos.state, seat, text.split("#")[0])
    except InvalidMove:
        return False
    except UserError:
        return True  # written as a move, if not a legal one
    return True
