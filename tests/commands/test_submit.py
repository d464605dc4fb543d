"""`GAME submit BOARD USERID PASSWORD MOVE[#n]` and `GAME confirm BOARD USERID PASSWORD`
(issue 25): a move checked and kept, its sender alone shown the board it leads to, then
played by confirm exactly as `move` plays it; a move, an undo or the opponent's move leaves
nothing that confirm would play wrongly. Secrets submitted stay their owner's."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbm.context import Reply
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.games.trou.game import GAME as TROU
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
)
from tests.commands.test_preview import SECRET_GAMES
from tests.commands.test_votes import BOARD, USERS, board_mails, opening, trou_after, vote
from tests.mail.test_amplification import Store, body_of

ADDRESS = {userid: address for userid, (_, address) in ACCOUNTS.items()}
HEADING = "This is a preview of a submitted move. It must be confirmed to take effect."


def submit(run: Runner, userid: str, rest: str, word: str = "trou") -> list[Reply]:
    number, text = rest.split(maxsplit=1)
    return run(ADDRESS[userid], f"{word} submit {number} {userid} {PW[userid]} {text}")


def confirm(run: Runner, userid: str, number: int = BOARD, word: str = "trou",
            comment: str | None = None) -> list[Reply]:
    return run(ADDRESS[userid], f"{word} confirm {number} {userid} {PW[userid]}",
               comment=comment)


def submitted(run: Runner, number: int = BOARD) -> list[str | None]:
    return [seat.submitted for seat in run.board(number).seats]


def notations(run: Runner, number: int = BOARD) -> list[str]:
    return [move.notation for move in run.moves(number)]


def other_legal_move(state: Any, seat: int, but: str) -> str:
    return next(TROU.notation(m) for m in TROU.legal_moves(state, seat)
                if TROU.notation(m) != but)


# ----- Trou, by hand -----------------------------------------------------------------------
def test_a_submitted_move_is_shown_to_its_sender_alone_and_not_played(players):
    start_trou(players, moves=TROU_GAME[:3])  # bob to move
    replies = submit(players, "bob", "101 2b3")
    reply = one(replies)
    assert (reply.to, reply.kind, reply.subject) == ((BOB,), "answer",
                                                     "Trou Board 101 Submitted")
    assert reply.body == "\n".join([
        HEADING,
        "",
        "Submitted on Trou board 101 as move 4: 2B3.",
        "To play it: trou confirm 101 bob PASSWORD",
        "A move made first, or any other change to the board, cancels it.",
        "",
        "Confirmed, it is played on the board after move 3:",
        "   4. 2B3 (bob)",
        "It would be alice's turn.",
        "",
        TROU.render(trou_after(*TROU_GAME[:4]), 1).rstrip("\n"),
    ]) + "\n"
    assert_never_echoed(replies, PW["bob"])
    assert notations(players) == list(TROU_GAME[:3])  # nothing played
    assert submitted(players) == [None, "2B3#4"]  # the game's notation, and its number
    public = one(players(STRANGER, "trou show 101")).body
    assert "2B3" not in public and "Submitted" not in public


def test_confirm_plays_the_submission_exactly_as_move_plays_it(players):
    """Board 101 by submit and confirm, board 102 by move: the same mails."""
    start_trou(players, moves=TROU_GAME[:3])
    start_trou(players, moves=TROU_GAME[:3])
    submit(players, "bob", "101 2b3")
    confirmed = confirm(players, "bob", comment="Here goes.")
    moved = players(BOB, f"trou move 102 bob {PW['bob']} 2b3", comment="Here goes.")
    assert sorted((r.to, r.kind, r.subject, r.body) for r in confirmed) == sorted(
        (r.to, r.kind, r.subject.replace("102", "101"), r.body.replace("102", "101"))
        for r in moved)
    assert set(board_mails(confirmed)) == {ALICE, BOB}
    assert notations(players) == list(TROU_GAME[:4])
    assert submitted(players) == [None, None]
    again = error(confirm(players, "alice"))  # alice's turn now, nothing submitted
    assert "No submission to confirm on board 101." in flat(again.body)


def test_a_new_submission_replaces_the_old_one(players):
    start_trou(players, moves=TROU_GAME[:3])
    other = other_legal_move(trou_after(*TROU_GAME[:3]), 1, "2B3")
    submit(players, "bob", "101 2B3")
    body = one(submit(players, "bob", f"101 {other}#4")).body
    assert "It replaces 2B3, submitted before." in body
    assert f"   4. {other} (bob)" in body
    assert submitted(players) == [None, f"{other}#4"]
    board_mails(confirm(players, "bob"))
    assert notations(players)[-1] == other


def test_a_move_by_hand_drops_the_submission(players):
    start_trou(players, moves=TROU_GAME[:3])
    other = other_legal_move(trou_after(*TROU_GAME[:3]), 1, "2B3")
    submit(players, "bob", "101 2B3")
    players(BOB, f"trou move 101 bob {PW['bob']} {other}")
    assert submitted(players) == [None, None]
    players(ALICE, f"trou move 101 alice {PW['alice']} 4A2")  # bob's turn again
    snapshot = players.snapshot()
    replies = confirm(players, "bob")
    reply = error(replies)
    assert reply.subject == "Trou Board 101 Error"
    assert flat(reply.body).startswith(
        "No submission to confirm on board 101. Submit a move first: trou submit 101 bob "
        "PASSWORD MOVE[#n]; then confirm it with: trou confirm 101 bob PASSWORD")
    assert_never_echoed(replies, PW["bob"])
    assert players.snapshot() == snapshot


def test_an_undo_drops_every_submission(players):
    start_trou(players, moves=TROU_GAME[:3])
    submit(players, "bob", "101 2B3")
    vote(players, "alice", "undo")
    board_mails(vote(players, "bob", "accept"))  # move 3 taken back: alice to move
    assert submitted(players) == [None, None]
    players(ALICE, f"trou move 101 alice {PW['alice']} {TROU_GAME[2]}")
    assert "No submission to confirm" in flat(error(confirm(players, "bob")).body)


def test_the_end_of_the_game_drops_the_submission(players):
    start_trou(players, moves=TROU_GAME[:3])
    submit(players, "bob", "101 2B3")
    board_mails(players(BOB, f"trou resign 101 bob {PW['bob']}"))
    assert submitted(players) == [None, None]
    assert "No submission to confirm" in flat(error(confirm(players, "bob")).body)


@pytest.mark.parametrize("sender,line,says", [
    (BOB, "trou submit 101 bob Wrong-pw-9 2B3", "password"),
    (ALICE, f"trou submit 101 alice {PW['alice']} 2B3",
     "It is not your turn on board 101; it is bob's turn."),
    (CAROL, f"trou submit 101 carol {PW['carol']} 2B3", "carol does not play on board 101"),
    (BOB, f"trou submit 101 bob {PW['bob']} 1B2", "Trou"),  # B2 is taken: the rules say why
    (BOB, f"trou submit 101 bob {PW['bob']} 9Z9", "9Z9"),
    (BOB, f"trou submit 101 bob {PW['bob']} 2B3#3",
     "Move 2B3#3 refused: it would be move #4 of board 101, not #3."),
    (BOB, f"trou submit 101 bob {PW['bob']} 2B3#99999", "not #99999"),
    # No guard but a run of digits int() refuses to read: the rules refuse the move.
    (BOB, f"trou submit 101 bob {PW['bob']} 2B3#" + "9" * 5000, "5004 characters"),
    (BOB, f"trou move 101 bob {PW['bob']} 2B3#" + "9" * 5000, "5004 characters"),
    (BOB, f"trou submit 101 bob {PW['bob']}", "Too few words"),
    (BOB, f"trou submit 101 bob {PW['bob']} #4", "No move given"),
    (BOB, f"trou submit 102 bob {PW['bob']} 2B3", "There is no Trou board 102."),
    (BOB, "trou confirm 101 bob Wrong-pw-9", "password"),
    (BOB, f"trou confirm 101 bob {PW['bob']}", "No submission to confirm on board 101."),
    (ALICE, f"trou confirm 101 alice {PW['alice']}", "No submission to confirm"),
    (CAROL, f"trou confirm 101 carol {PW['carol']}", "carol does not play on board 101"),
    (BOB, f"trou confirm 101 bob {PW['bob']} 2B3", "Too many words"),
    (BOB, "trou confirm 101 bob", "Too few words"),
])
def test_refused_submissions_and_confirms_change_nothing(players, sender, line, says):
    start_trou(players, moves=TROU_GAME[:3])
    snapshot = players.snapshot()
    replies = players(sender, line)
    reply = error(replies)
    assert reply.to == (sender,)
    assert says in flat(reply.body), reply.body
    assert_never_echoed(replies, PW["bob"], PW["alice"], PW["carol"], "Wrong-pw-9")
    assert players.snapshot() == snapshot


# ----- every game ----------------------------------------------------------------------------
def start(players: Runner, word: str, log: list[tuple[int, str]]) -> None:
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        board_mails(players(ADDRESS[USERS[seat]],
                            f"{word} move {BOARD} {USERS[seat]} {PW[USERS[seat]]} {text}"))


@pytest.mark.parametrize("word", registry.names())
def test_every_game_submits_and_confirms(players, word):
    game = registry.get(word)
    log, states = opening(game, 3, seed=17)
    start(players, word, log)
    state = states[-1]
    seat = min(game.to_move(state))
    move = game.random_move(state, seat, random.Random(5))
    text, after = game.notation(move), game.play(state, seat, move)
    userid = USERS[seat]
    reply = one(submit(players, userid, f"{BOARD} {text}", word=word))
    assert reply.to == (ADDRESS[userid],)
    assert reply.body.splitlines()[0] == HEADING
    if game.info.hidden:
        assert f"In {game.info.title} what a move does can depend on secrets" in \
            flat(reply.body)
        assert game.render(state, seat).rstrip("\n") in reply.body  # the board as it is
    else:
        assert game.render(after, seat).rstrip("\n") in reply.body
    assert submitted(players)[seat] == f"{text}#4"
    assert len(notations(players)) == 3
    mails = board_mails(confirm(players, userid, word=word))
    assert game.render(after, seat).rstrip("\n") in mails[ADDRESS[userid]]
    assert notations(players)[-1] == text
    assert submitted(players) == [None, None]


def secret_move(game: AnyGame, seed: int) -> tuple[list[tuple[int, str]], Any, int, Any]:
    """Moves from the start of board 101 to a position where a seat to move has a move
    the other may not read; that seat and move."""
    rng = random.Random(seed)
    state, log = game.start(game.parse_options([]), BOARD), []
    while True:
        for seat in sorted(game.to_move(state)):
            for _ in range(20):
                move = game.random_move(state, seat, rng)
                if game.move_text(state, seat, move, 1 - seat) != game.notation(move):
                    return log, state, seat, move
        seat = min(game.to_move(state))
        move = game.random_move(state, seat, rng)
        log.append((seat, game.notation(move)))
        state = game.play(state, seat, move)


@pytest.mark.parametrize("word", SECRET_GAMES)
def test_a_submitted_secret_is_its_owner_s_alone(players, word):
    game = registry.get(word)
    log, state, seat, move = secret_move(game, seed=7)
    start(players, word, log)
    owner, other = USERS[seat], USERS[1 - seat]
    text = game.notation(move)
    assert text not in one(players(STRANGER, f"{word} show {BOARD}")).body
    replies = submit(players, owner, f"{BOARD} {text}", word=word)
    assert text in one(replies, ADDRESS[owner]).body  # to the owner, and nobody else
    looks = [one(players(STRANGER, f"{word} show {BOARD}")),
             one(players(ADDRESS[other], f"{word} showas {other} {PW[other]} {BOARD}"))]
    mails = board_mails(confirm(players, owner, word=word))
    for body in [*(r.body for r in looks), mails[ADDRESS[other]]]:
        assert text not in body
    assert game.move_text(state, seat, move, 1 - seat) in mails[ADDRESS[other]]


def test_a_submission_the_opponent_s_move_made_stale_is_refused(players):
    """Pipeline's pipes are laid by both players at once: alice submits hers, bob lays his,
    and alice's submission is for a move number the board has passed."""
    game = registry.get("pipeline")
    rng = random.Random(3)
    state, log = game.start(game.parse_options([]), BOARD), []
    while game.to_move(state) != {0, 1}:
        seat = min(game.to_move(state))
        move = game.random_move(state, seat, rng)
        log.append((seat, game.notation(move)))
        state = game.play(state, seat, move)
    start(players, "pipeline", log)
    mine = game.notation(game.random_move(state, 0, rng))
    theirs = game.notation(game.random_move(state, 1, rng))
    number = len(log) + 1
    submit(players, "alice", f"{BOARD} {mine}", word="pipeline")
    board_mails(players(BOB, f"pipeline move {BOARD} bob {PW['bob']} {theirs}"))
    assert submitted(players) == [f"{mine}#{number}", None]
    snapshot = players.snapshot()
    reply = error(confirm(players, "alice", word="pipeline"))
    assert f"refused: it would be move #{number + 1} of board {BOARD}, not #{number}" in \
        flat(reply.body)
    assert players.snapshot() == snapshot
    submit(players, "alice", f"{BOARD} {mine}", word="pipeline")
    board_mails(confirm(players, "alice", word="pipeline"))
    assert notations(players)[-2:] == [theirs, mine]


# ----- by mail ---------------------------------------------------------------------------------
def test_a_confirm_by_mail_is_the_game_command_not_an_address_confirmation(tmp_path):
    """The account command `confirm TOKEN` has the same word: by mail, `trou confirm ...`
    (as a Subject, or as the Subject of a reply) still plays the submitted move."""
    store = Store(tmp_path)
    store.mail(ALICE, "signup alice secret1")
    store.mail(BOB, "signup bob secret2")
    store.mail(ALICE, "trou challenge alice bob")
    store.mail(ALICE, "trou move 101 alice secret1 1B2")
    (preview,) = store.mail(BOB, "trou submit 101 bob secret2 4C2")
    assert (preview.recipient, preview.subject) == (BOB, "Trou Board 101 Submitted")
    assert body_of(preview).startswith(HEADING)
    rows = store.mail(BOB, "Re: trou confirm 101 bob secret2", "Your move.\n")
    assert sorted(row.recipient for row in rows) == [ALICE, BOB]
    for row in rows:
        body = body_of(row).replace("\r\n", "\n")
        assert "  2. 4C2" in body and "bob writes:\nYour move." in body
        assert "secret2" not in body
    (refused,) = store.mail(BOB, "trou confirm 101 bob secret2")
    assert "No submission to confirm on board 101." in flat(body_of(refused))
