"""Votes in the place of a move (issue 10): a draw offer (`propose`), a takeback (`undo`),
their answers (`accept`, `reject`), and `resign` through `move`. Hand-checked on Trou, then
on the first moves of every registered game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbm.boards.position import TAKEBACK
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
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
)

BOARD = 101  # the first board of a fresh database: its seed is 101 too
USERS = ("alice", "bob")


def vote(run, userid: str, text: str, number: int = BOARD, word: str = "trou",
         comment: str | None = None):
    return run(ACCOUNTS[userid][1], f"{word} move {number} {userid} {PW[userid]} {text}",
               comment=comment)


def board_mails(replies) -> dict[str, str]:
    """The board mail bodies by address: one to each player, nothing else."""
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}, replies
    assert {r.kind for r in replies} == {"board"}
    return {r.to[0]: r.body for r in replies}


def trou_after(*moves: str) -> Any:
    state = TROU.start({}, BOARD)
    for i, text in enumerate(moves):
        state = TROU.play(state, i % 2, TROU.parse(state, i % 2, text))
    return state


def drawn(state: Any, viewer: int | None, game: AnyGame = TROU) -> str:
    return game.render(state, viewer).rstrip("\n")


# ----- a draw -------------------------------------------------------------------------------
def test_a_draw_offered_and_accepted_ends_the_game_as_a_rated_tie(players):
    number = start_trou(players, moves=TROU_GAME[:3])
    offer = board_mails(vote(players, "alice", "propose", comment="Shall we call it a day?"))
    assert offer[ALICE].splitlines()[:4] == [
        "Summary of Trou Board 101", "", "It is bob's turn.",
        "alice proposes a draw; bob has not answered."]
    assert "Answer: trou move 101 bob PASSWORD accept (or reject)." in offer[BOB].splitlines()
    assert "Answer:" not in offer[ALICE]  # the proposer has nothing to answer
    assert all("alice writes:\nShall we call it a day?" in body for body in offer.values())
    assert players.board(number).proposal == {"kind": "draw", "by": 0, "accepted": [0]}

    final = vote(players, "bob", "accept")
    assert {r.subject for r in final} == {"Trou Board 101"}
    for body in board_mails(final).values():
        lines = body.splitlines()
        assert lines[2:7] == ["Game was a tie.", "The players agreed to a draw.",
                              "alice's rating is 1624 (provisional).",
                              "bob's rating is 1624 (provisional).", ""]
        assert "proposes" not in body
    board = players.board(number)
    assert board.status == "finished" and board.winners == [] and board.proposal is None
    assert board.move_count == 3  # a vote is not a move
    refused = error(vote(players, "bob", "2B3"))
    assert "is over" in refused.body
    assert "nothing left to vote on" in error(vote(players, "alice", "propose")).body


def test_votes_are_cast_on_or_off_turn_and_in_any_case(players):
    start_trou(players, moves=TROU_GAME[:2])  # alice is to move
    board_mails(vote(players, "bob", "PROPOSE"))
    final = board_mails(vote(players, "alice", "Accept"))
    assert all("Game was a tie." in body for body in final.values())


def test_a_rejected_draw_stays_a_note_until_the_next_move(players):
    start_trou(players, moves=TROU_GAME[:2])
    vote(players, "bob", "propose")
    rejected = board_mails(vote(players, "alice", "reject", comment="Not yet!"))
    for body in rejected.values():
        assert "alice rejected the draw proposal." in body.splitlines()
        assert "bob proposes" not in body and "alice writes:\nNot yet!" in body
    assert "There is no open proposal on board 101 to accept" in \
        error(vote(players, "bob", "accept")).body
    moved = board_mails(vote(players, "alice", TROU_GAME[2]))
    assert not any("rejected" in body for body in moved.values())
    assert players.board(BOARD).proposal is None


def test_the_proposer_withdraws_with_reject(players):
    start_trou(players, moves=TROU_GAME[:2])
    vote(players, "bob", "propose")
    withdrawn = board_mails(vote(players, "bob", "reject"))
    assert all("bob withdrew the draw proposal." in body for body in withdrawn.values())
    # A new proposal may follow at once, from either player.
    again = board_mails(vote(players, "alice", "propose"))
    assert all("alice proposes a draw; bob has not answered." in b for b in again.values())


@pytest.mark.parametrize("mover", ["alice", "bob"])
def test_a_move_lets_an_open_proposal_lapse(players, mover):
    """bob's move answers alice's offer no; alice moving on after offering withdraws it."""
    moves = TROU_GAME[:3] if mover == "bob" else TROU_GAME[:2]
    start_trou(players, moves=moves)
    vote(players, "alice", "propose")
    after = board_mails(vote(players, mover, TROU_GAME[len(moves)]))
    for body in after.values():
        assert f"The draw proposal lapsed: {mover} moved." in body.splitlines()
        assert "proposes" not in body
    assert "no open proposal" in error(vote(players, "bob", "accept")).body
    shown = one(players(STRANGER, "trou show 101")).body
    assert f"The draw proposal lapsed: {mover} moved." in shown
    # The note belongs to that move: the next one clears it.
    other = "alice" if mover == "bob" else "bob"
    later = board_mails(vote(players, other, TROU_GAME[len(moves) + 1]))
    assert not any("lapsed" in body for body in later.values())
    assert players.board(BOARD).proposal is None


# ----- refusals ------------------------------------------------------------------------------
REFUSALS = [
    # (moves before, votes before, the vote refused, what the answer says)
    (2, [], ("bob", "accept"), "There is no open proposal on board 101 to accept. To offer a "
                               "draw: trou move 101 bob PASSWORD propose"),
    (2, [], ("bob", "reject"), "There is no open proposal on board 101 to reject."),
    (2, [("alice", "propose")], ("alice", "accept"),
     "alice proposes a draw on board 101. You made it; it waits for bob. To withdraw it, "
     "send reject."),
    (2, [("alice", "propose")], ("alice", "propose"),
     "alice already proposes a draw on board 101, and one proposal at a time may be open. "
     "To withdraw it, send reject."),
    (2, [("alice", "propose")], ("bob", "undo"),
     "alice already proposes a draw on board 101, and one proposal at a time may be open. "
     "Answer it first: accept or reject."),
    (2, [("bob", "undo")], ("alice", "propose"), "bob already proposes to take back move 2"),
    (0, [], ("alice", "undo"), "There is no move to take back on board 101."),
    (1, [("bob", "undo"), ("alice", "accept")], ("alice", "undo"),
     "There is no move to take back on board 101 (every move made has been taken back)."),
    (2, [], ("alice", "propose#4"), "Move propose#4 refused: it would be move #3 of board 101"),
    (2, [], ("alice", "undo#2"), "refused: it would be move #3"),
    (2, [], ("alice", "resign#9"), "refused: it would be move #3"),
]


@pytest.mark.parametrize("before,votes,refused,says", REFUSALS)
def test_a_refused_vote_says_why_and_changes_nothing(players, before, votes, refused, says):
    start_trou(players, moves=TROU_GAME[:before])
    for userid, text in votes:
        board_mails(vote(players, userid, text))
    snapshot = players.snapshot()
    userid, text = refused
    replies = vote(players, userid, text)
    reply = error(replies)
    assert reply.subject == "Trou Board 101 Error" and reply.to == (ACCOUNTS[userid][1],)
    assert says in flat(reply.body), reply.body
    assert "Summary of Trou Board 101" in reply.body  # the board as it stands
    assert_never_echoed(replies, PW[userid])
    assert players.snapshot() == snapshot


def test_only_the_players_vote_and_only_with_their_password(players):
    start_trou(players, moves=TROU_GAME[:2])
    snapshot = players.snapshot()
    carol = error(players(CAROL, f"trou move 101 carol {PW['carol']} propose"))
    assert "carol does not play on board 101, so has no vote there (alice and bob do)." \
        in carol.body
    wrong = error(players(BOB, "trou move 101 alice Wrong-Pw-1 propose"))
    assert "password" in wrong.body.lower() and "Wrong-Pw-1" not in wrong.body
    stranger = error(players(STRANGER, f"trou move 101 nobody {PW['bob']} accept"))
    assert PW["bob"] not in stranger.body
    assert players.snapshot() == snapshot


# ----- undo ----------------------------------------------------------------------------------
def test_an_undo_takes_back_the_last_move_and_the_log_keeps_both(players):
    number = start_trou(players, moves=TROU_GAME[:3])  # alice's 2B1 is move 3
    asked = board_mails(vote(players, "bob", "undo"))
    assert "bob proposes to take back move 3; alice has not answered." in asked[ALICE]
    assert "Answer: trou move 101 alice PASSWORD accept (or reject)." in asked[ALICE]
    done = vote(players, "alice", "accept")
    assert {r.subject for r in done} == {"Trou Board 101 alice"}  # alice is to move again
    for address, body in board_mails(done).items():
        seat = (ALICE, BOB).index(address)
        assert "The players agreed to take back move 3." in body.splitlines()
        assert "  1. 1B2                    2. 4C2\n  3. 2B1\n  4. (move 3 taken back)\n" \
            in body, body
        assert drawn(trou_after(*TROU_GAME[:2]), seat) in body
    log = players.moves(number)
    assert [(m.number, m.seat, m.notation, m.kind) for m in log] == [
        (1, 0, "1B2", "move"), (2, 1, "4C2", "move"), (3, 0, "2B1", "move"),
        (4, 0, "undo 3", TAKEBACK)]
    board = players.board(number)
    assert board.move_count == 4 and board.status == "active"
    # History stays true: #3 has the move, #4 (and now) has not.
    at3 = one(players(STRANGER, "trou show 101#3")).body
    at4 = one(players(STRANGER, "trou show 101#4")).body
    now = one(players(STRANGER, "trou show 101")).body
    assert drawn(trou_after(*TROU_GAME[:3]), None) in at3
    assert drawn(trou_after(*TROU_GAME[:2]), None) in at4
    assert drawn(trou_after(*TROU_GAME[:2]), None) in now
    # The #n guard counts the takeback: the next move is move 5.
    assert "it would be move #5" in error(vote(players, "alice", "2A2#4")).body
    moved = board_mails(vote(players, "alice", "2A2#5"))
    assert all("  5. 2A2" in body for body in moved.values())
    assert not any("agreed" in body for body in moved.values())


def test_undo_again_takes_back_one_more_move_and_the_game_plays_on(players):
    """A second undo takes back the move before (each undo undoes the last move still
    standing); the game then ends by the rules as if those moves had never been made."""
    number = start_trou(players, moves=TROU_GAME[:4])
    for proposer, answerer in (("alice", "bob"), ("bob", "alice")):
        board_mails(vote(players, proposer, "undo"))
        board_mails(vote(players, answerer, "accept"))
    log = players.moves(number)
    assert [(m.number, m.seat, m.notation) for m in log[4:]] == [(5, 1, "undo 4"),
                                                                 (6, 0, "undo 3")]
    shown = one(players(STRANGER, "trou show 101")).body
    assert drawn(trou_after(*TROU_GAME[:2]), None) in shown
    assert "  5. (move 4 taken back)" in shown and "  6. (move 3 taken back)" in shown
    for i, text in enumerate(TROU_GAME[2:], start=2):
        board_mails(vote(players, USERS[i % 2], text))
    board = players.board(number)
    assert board.status == "finished" and board.winners == [0]
    assert board.move_count == len(TROU_GAME) + 4  # two moves made again, two takebacks
    final = one(players(STRANGER, "trou show 101")).body
    assert "Game won by alice." in final
    for n in range(board.move_count + 1):  # every #n replays to what the log says
        body = one(players(STRANGER, f"trou show 101#{n}")).body
        # Entries 5 and 6 take back moves 4 and 3; from 7 on the game is replayed.
        standing = TROU_GAME[:n] if n <= 4 else {5: TROU_GAME[:3], 6: TROU_GAME[:2]}.get(
            n, TROU_GAME[:n - 4])
        assert drawn(trou_after(*standing), None) in body, n


def test_an_undo_restarts_the_clock_of_whoever_moves_again(players):
    from datetime import datetime, timedelta

    start = datetime(2030, 1, 1, 12, 0)
    players(STRANGER, "trou challenge alice bob", now=start)
    players(ALICE, f"trou move 101 alice {PW['alice']} 1B2", now=start)
    later = start + timedelta(days=5)
    players(BOB, f"trou move 101 bob {PW['bob']} undo", now=later)
    players(ALICE, f"trou move 101 alice {PW['alice']} accept", now=later)
    seats = players.board(BOARD).seats
    assert seats[0].waiting_since == later and seats[1].waiting_since is None


def test_a_takeback_of_an_accepted_undo_needs_every_player(players):
    start_trou(players, moves=TROU_GAME[:3])
    board_mails(vote(players, "alice", "undo"))
    assert players.board(BOARD).move_count == 3  # nothing yet: bob has not answered
    board_mails(vote(players, "bob", "reject"))
    assert players.board(BOARD).move_count == 3


# ----- resign through move -------------------------------------------------------------------
def test_move_resign_works_as_the_resign_command(players):
    start_trou(players, moves=TROU_GAME[:3])
    queued = one(vote(players, "alice", "resign"))  # off turn: queued
    assert queued.to == (ALICE,) and "queued" in queued.body
    final = board_mails(vote(players, "bob", "Resign"))
    assert all("Game won by alice." in b and "bob resigned." in b for b in final.values())


# ----- every game ----------------------------------------------------------------------------
def opening(game: AnyGame, count: int, seed: int = 0) -> tuple[list[tuple[int, str]], list]:
    """`count` random legal first moves of board 101 and the states (index 0: the start)."""
    rng = random.Random(seed)
    state = game.start(game.parse_options([]), BOARD)
    log, states = [], [state]
    for _ in range(count):
        seat = rng.choice(sorted(game.to_move(state)))
        move = game.random_move(state, seat, rng)
        log.append((seat, game.notation(move)))
        state = game.play(state, seat, game.parse(state, seat, game.notation(move)))
        states.append(state)
    return log, states


@pytest.mark.parametrize("word", registry.names())
def test_every_game_takes_moves_back_and_agrees_a_draw(players, word):
    game = registry.get(word)
    log, states = opening(game, 3)
    players(STRANGER, f"{word} challenge alice bob")
    for seat, text in log:
        board_mails(vote(players, USERS[seat], text, word=word))
    for undone in (3, 2, 1):
        asker, answerer = ("alice", "bob") if undone % 2 else ("bob", "alice")
        asked = board_mails(vote(players, asker, "undo", word=word))
        assert all(f"{asker} proposes to take back move {undone}" in b for b in asked.values())
        done = board_mails(vote(players, answerer, "accept", word=word))
        for address, body in done.items():
            seat = (ALICE, BOB).index(address)
            # Each player sees exactly what they saw before the move taken back.
            assert drawn(states[undone - 1], seat, game) in body, body
            assert f"(move {undone} taken back)" in body
        number = 3 + (4 - undone)  # the takeback's own number in the log
        public = one(players(STRANGER, f"{word} show 101")).body
        assert drawn(states[undone - 1], None, game) in public
        assert drawn(states[undone], None, game) in \
            one(players(STRANGER, f"{word} show 101#{number - 1}")).body
    snapshot = players.snapshot()
    refused = error(vote(players, "bob", "undo", word=word))
    assert "no move to take back" in refused.body and players.snapshot() == snapshot
    board_mails(vote(players, "bob", "propose", word=word))
    final = board_mails(vote(players, "alice", "accept", word=word))
    assert all("Game was a tie." in body for body in final.values())
    board = players.board(BOARD)
    assert board.status == "finished" and board.winners == [] and board.move_count == 6


# ----- help ----------------------------------------------------------------------------------
def test_help_tells_how_to_vote_and_preview(players):
    from pbm.help import load_page

    page = one(players(STRANGER, "help votes"))
    assert page.subject == "Help: votes" and page.body == load_page("votes")
    for word in ("propose", "undo", "accept", "reject", "resign", "preview"):
        assert f"trou move 101 alice mypassword {word}" in page.body or \
            f"hispassword {word}" in page.body or f"trou {word} 101" in page.body, word
    general = one(players(STRANGER, "help")).body
    assert "  GAME move 101 alice pw propose\n" in general and "(see: help votes)" in general
    assert "  GAME preview 101 alice pw 2B3 4A2\n" in general
    commands = one(players(STRANGER, "help commands")).body
    assert "  game preview board[#n] [userid password] move ... | new N move ..." in commands
