"""`submit` and `confirm`: the two-step move. A move is checked and kept on its seat, its
sender shown the board it leads to; `confirm` then plays it as `move` would."""

from __future__ import annotations

from pbm.boards import play, select
from pbm.boards.position import position
from pbm.boards.submission import Submission, store, submission_of
from pbm.commands.game_commands import play_for
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.commands.seats import authenticate_on, check_turn, seat_on, split_guard
from pbm.commands.trial import Trial
from pbm.context import CommandError, Context
from pbm.games import registry
from pbm.games.base import AnyGame, UserError
from pbm.views.boardmail import Pictures, answer_board, board_text

HEADING = "This is a preview of a submitted move. It must be confirmed to take effect."


def submit(ctx: Context, game: AnyGame, number: str, userid: str, password: str, text: str,
           guard: int | None = None) -> Submission:
    """Check `text` as `move` would (the turn, the rules, the #n guard) and keep it on the
    user's seat in place of any earlier submission; answer the sender alone with the board
    it leads to, as they would see it. Nothing is played and nobody else is told."""
    board = select.load_board(ctx, number, game.info.name, to_change=True)
    pos = position(board)
    user = authenticate_on(ctx, pos, userid, password)
    seat = seat_on(pos, user)
    check_turn(pos, seat)
    try:
        play.check_move_number(pos, guard, text)
        move = game.parse(pos.state, seat, text)
    except UserError as err:
        raise CommandError(str(err), board_text=board_text(pos, seat)) from None
    submission = Submission(game.notation(move), board.move_count + 1)
    before = submission_of(board, seat)
    store(board, seat, submission)
    word = game.info.name
    lines = [f"Submitted on {pos.title} board {board.label} as move {submission.number}: "
             f"{submission.move}."]
    if before is not None and before != submission:
        lines.append(f"It replaces {before.move}, submitted before.")
    lines += [f"To play it: {word} confirm {board.label} {user.userid} PASSWORD",
              "A move made first, or any other change to the board, cancels it."]
    trial = Trial.of(pos, seat, HEADING)
    if game.info.hidden:
        # What a move does here can depend on what the sender may not see (a probe reads
        # the other's pipeline): they see it when the move is played, not before.
        lines.append(f"In {pos.title} what a move does can depend on secrets, so it shows "
                     "when the move is played; this is the board as it is now.")
        intro = f"{trial.start[0].upper()}{trial.start[1:]}:"
    else:
        trial.play([submission.move])
        intro = f"Confirmed, it is played on {trial.start}:"
    page = trial.page([*lines, ""], intro)
    answer_board(ctx, f"{pos.title} Board {board.label} Submitted", page,
                 Pictures(game, trial.state), seat)
    return submission


def confirm(ctx: Context, game: AnyGame, number: str, userid: str, password: str) -> None:
    """Play the user's submission on the board exactly as `move` would, #n guard and all:
    one the board has moved past is refused, never played."""
    board = select.load_board(ctx, number, game.info.name, to_change=True)
    pos = position(board)
    user = authenticate_on(ctx, pos, userid, password)
    seat = seat_on(pos, user)
    submission = submission_of(board, seat)
    if submission is None or seat not in pos.to_move():
        word = game.info.name
        raise CommandError(
            f"No submission to confirm on board {board.label}. Submit a move first: "
            f"{word} submit {board.label} {user.userid} PASSWORD MOVE[#n]; then confirm "
            f"it with: {word} confirm {board.label} {user.userid} PASSWORD",
            board_text=board_text(pos, seat))
    play_for(ctx, pos, user, seat, submission.move, submission.number)


def do_submit(ctx: Context, inv: Invocation) -> None:
    number, userid, password = inv.args[:3]
    text, guard = split_guard(" ".join(inv.args[3:]))
    if not text:
        raise CommandError(f"No move given. Write: {usage(inv)}")
    assert inv.game is not None
    submit(ctx, registry.get(inv.game), number, userid, password, text, guard)


def do_confirm(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    confirm(ctx, registry.get(inv.game), *inv.args)


SUBMIT = game_command(Command(
    "submit", "board userid password move[#n]",
    "Check a move as move would, without playing it: it is kept until you confirm it, and "
    "you alone are mailed the board it leads to (in games with secrets, the board as it "
    "is). A new submit replaces the last; a move, or any change to the board, cancels it.",
    do_submit, least=4, secret_args=(2,), login=(1, 2), board_arg=0))
CONFIRM = game_command(Command(
    "confirm", "board userid password",
    "Play the move you submitted, on your turn, as move would (refused if the board has "
    "changed since). The mail body is a comment, as with move.",
    do_confirm, least=3, most=3, secret_args=(2,), login=(1, 2), board_arg=0,
    takes_comment=True))
