"""A whole game of each game by mail against a real `pbm serve`, every mail checked.

The moves come from the rule modules themselves (a seeded random.Random with legal_moves /
random_move, or a short constructed game) and are replayed locally with parse/play, so each
board mail is held against the position the rules say it shows (see tests/server/players.py).
"""

from __future__ import annotations

import random
import re

import pytest

from pbm.games import registry
from pbm.games.loophole import GAME as LOOPHOLE
from pbm.games.outguess import GAME as OUTGUESS
from pbm.games.outguess import SEATS as OUTGUESS_SEATS
from pbm.games.outguess.notation import cell_name
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline.flow import HOLES
from pbm.games.pipeline.state import Guess, SubmitPipe
from pbm.games.synapse_ice.game import GAME as SYNAPSE
from tests.server.harness import PbmServer
from tests.server.players import BOB, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server


# ----- Loophole -------------------------------------------------------------------------------

# Black's two loops: round window W1 (from its upper rim M4-O4 to its lower rim M8-O8, left of
# the window through the corner cells L4 and L8) and round W2 (E12-G12 to E16-G16, right of the
# window through H12 and H16). White meanwhile plays in the far bottom right corner.
BLACK_W1 = ["L4", "K5", "K6", "K7", "K8", "L8"]
BLACK_W2 = ["H12", "I12", "I13", "I14", "I15", "H16"]
FAR_CORNER = [f"{col}{row}" for col in "KLMNOPQRS" for row in (17, 18, 19)]


def test_loophole_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, LOOPHOLE)
    table.ask_help()
    table.challenge()
    rng = random.Random(2008)
    black = BLACK_W1 + BLACK_W2
    rng.shuffle(black)  # any order: the game is won by whichever stone closes the second loop
    white = rng.sample(FAR_CORNER, len(black) - 1)
    for turn, cell in enumerate(black):
        assert not table.over
        replies = table.play(0, cell)
        for reply in replies.values():
            assert f"Last stone: Black {cell}, shown as [#]." in reply.body
        if turn < len(white):
            table.play(1, white[turn].lower())  # lower case is read too; the list says K17
    last = table.check_over("single node loop")
    reason = ("Black has two distinct loops: single node loop through W1,"
              " single node loop through W2.")
    for reply in last.values():
        assert "Game won by alice." in reply.body.splitlines()
        words = " ".join(reply.body.split())  # long lines are wrapped
        assert reason in words
        assert "Black (#) loops: single node loop through W1, single node loop through W2" in words
        assert "White (O) loops: none" in reply.body
    assert len(table.log) == 23
    table.move_after_end_is_refused(1, "A10")


# ----- Pipeline -------------------------------------------------------------------------------

HEAD_COIN, TAIL_COIN = "A1", "D4"
# Fixed, known pipelines: alice is Head, bob is Tail.
PIPES = ("A1-B1-B2*-A2-A3*-A4-B4*-C4-D4", "A1-B1-C1*-D1-D2*-C2-C3*-D3-D4")


def holes_of(pipe: str) -> list[str]:
    return sorted(square.rstrip("*") for square in pipe.split("-") if square.endswith("*"))


def and_list(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1]


def random_probe(table: MailGame, seat: int, rng: random.Random) -> str:
    """A random legal probe of the rule module (its random guesses may peek: not those)."""
    while True:
        move = PIPELINE.random_move(table.state, seat, rng)
        if not isinstance(move, Guess):
            return PIPELINE.notation(move)


def wrong_guess(seat: int, rng: random.Random) -> str:
    squares = [f"{c}{r}" for c in "ABCD" for r in range(1, 5)]
    squares = [square for square in squares if square not in (HEAD_COIN, TAIL_COIN)]
    while True:
        cells = sorted(rng.sample(squares, HOLES))
        if cells != holes_of(PIPES[1 - seat]):
            return "guess " + ",".join(cells)


def check_pipeline_secrets(table: MailGame) -> None:
    """Before the end, no mail to a player shows the other player's pipeline or holes."""
    if table.over:
        return
    seats = PIPELINE.info.seats
    for reader, player in enumerate(PLAYERS):
        body = table.mails[-1][player.address].body
        other = 1 - reader
        secret = PIPES[other]
        assert secret not in body
        assert secret.replace("*", "") not in body  # not even the route without its holes
        assert f"holes on {and_list(holes_of(secret))}" not in body
        assert f"guess {','.join(holes_of(secret))}" not in body
        own_sent = any(p.seat == reader and p.notation == PIPES[reader] for p in table.log)
        assert body.count("with its holes on") == (1 if own_sent else 0)
        for line in body.splitlines():
            if f"{seats[other]}'s pipeline" in line:  # never the drawing's title
                assert re.fullmatch(
                    rf"{seats[other]}'s pipeline: (not sent yet|sent|secret until the game ends)\."
                    rf"|  on {seats[other]}'s pipeline .*",
                    line,
                ), line
        # The move list: a long game's mail lists the last moves only ('show' gives all).
        listed = next(part for part in body.split("\n\n") if part.startswith(f"{seats[0]}: "))
        for played in table.log:
            row = f"{played.number:>3}. "
            if row not in listed:
                continue
            if played.notation == secret:
                assert f"{row}..." in listed  # the submission shows as '...'
            if played.notation == PIPES[reader]:
                assert f"{row}{PIPES[reader]}" in listed  # its author sees it


def test_pipeline_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, PIPELINE)
    table.ask_help()
    table.challenge()

    def play(seat: int, text: str) -> None:
        table.play(seat, text)
        check_pipeline_secrets(table)

    play(0, HEAD_COIN)
    play(1, TAIL_COIN)
    assert table.subject() == "Pipeline Board 101 alice bob"  # both send pipelines, any order
    for reply in table.mails[-1].values():
        assert reply.subject == "Pipeline Board 101 alice bob"
        assert "It is alice's and bob's turn." in reply.body
    play(1, PIPES[1])  # Tail sends first
    for reply in table.mails[-1].values():
        assert reply.subject == "Pipeline Board 101 alice"
        assert "Tail's pipeline: sent." in reply.body or "Your pipeline (Tail)" in reply.body
    assert isinstance(PIPELINE.parse(table.state, 0, PIPES[0]), SubmitPipe)
    play(0, PIPES[0])

    rng = random.Random(4)
    for _ in range(3):  # three rounds of probes
        play(0, random_probe(table, 0, rng))
        play(1, random_probe(table, 1, rng))
    play(0, random_probe(table, 0, rng))
    play(1, wrong_guess(1, rng))  # bob guesses wrong and now owes a probe ...
    for reply in table.mails[-1].values():
        assert "  Tail  1               1" in reply.body.splitlines()
    play(0, wrong_guess(0, rng))  # ... and so does alice

    # A guess while owing a probe is refused, and the refusal shows no secret either.
    server.send(BOB, f"pipeline move 101 bob {PLAYERS[1].password} guess A2,B3,C4")
    (error,) = server.collect(1)
    assert error.to == BOB and error.subject == "Pipeline Board 101 Error"
    assert "You still owe 1 probe since your last wrong guess" in error.body
    assert PIPES[0] not in error.body and PIPES[0].replace("*", "") not in error.body
    assert f"holes on {and_list(holes_of(PIPES[0]))}" not in error.body

    play(1, random_probe(table, 1, rng))
    play(0, random_probe(table, 0, rng))
    play(1, random_probe(table, 1, rng))
    play(0, "guess " + ",".join(holes_of(PIPES[1])))  # alice has found bob's holes

    last = table.check_over("found Tail's holes")
    found = and_list(holes_of(PIPES[1]))
    for reply in last.values():
        assert "Game won by alice." in reply.body.splitlines()
        assert f"Head found Tail's holes at {found}." in " ".join(reply.body.split())
        # After the end both pipelines are in both players' mails, holes and all.
        for pipe in PIPES:
            assert pipe in reply.body
            assert f"holes on {and_list(holes_of(pipe))}." in reply.body
        assert "secret until the game ends" not in reply.body
    # The mails list the last moves; 'show' lists them all, the pipelines revealed.
    server.send(BOB, "pipeline show 101")
    (shown,) = server.collect(1)
    assert f"  4. {PIPES[0]}" in shown.body and f"  3. {PIPES[1]}" in shown.body
    table.move_after_end_is_refused(1, "W@A2,W@A3")


# ----- Outguess -------------------------------------------------------------------------------


def short_outguess_game(limit: int = 60) -> list[tuple[int, str]]:
    """The first seeded random game that ends within `limit` mails and shows off the rules:
    a drop and a turn with extra moves earned."""
    for seed in range(500):
        rng = random.Random(seed)
        state = OUTGUESS.start({}, 0)
        log: list[tuple[int, str]] = []
        while OUTGUESS.result(state) is None and len(log) < limit:
            (seat,) = OUTGUESS.to_move(state)
            move = OUTGUESS.random_move(state, seat, rng)
            log.append((seat, OUTGUESS.notation(move)))
            state = OUTGUESS.play(state, seat, move)
        texts = " ".join(text for _, text in log)
        if OUTGUESS.result(state) is not None and "+" in texts and re.search(
                r"(,[^,]*){2}, guess", texts):
            return log
    raise AssertionError("no short random Outguess game found")


def test_outguess_by_mail(server: PbmServer):
    signup_both(server)
    table = MailGame(server, OUTGUESS)
    table.ask_help()
    challenge = table.challenge()
    for reply in challenge.values():
        assert reply.subject == "New Outguess Board 101 bob"  # bob names a piece first
        assert "It is bob's turn." in reply.body.splitlines()
    moves = short_outguess_game()
    for seat, text in moves:
        replies = table.play(seat, text)
        state = table.state
        for viewer, player in enumerate(PLAYERS):
            body = replies[player.address].body
            if table.over:
                continue
            mover = OUTGUESS_SEATS[state.mover]
            moves_word = "move" if state.allotment == 1 else "moves"
            assert f"{mover} to move: {state.allotment} {moves_word} this turn" in body
            if state.last is not None:
                times = "time" if state.last.count == 1 else "times"
                assert (f"Last turn ({OUTGUESS_SEATS[state.last.mover]}'s): the piece"
                        f" {OUTGUESS_SEATS[1 - state.last.mover]} named moved"
                        f" {state.last.count} {times}.") in body
            secret = f"the piece on {cell_name(state.guess)}"
            if viewer == state.guesser:
                assert f"Your secret guess for this turn: {secret}." in body
            else:  # the mover never learns which piece was named ...
                assert secret not in body and "Your secret guess" not in body
                assert "Revealed" not in body
                # ... nor sees the guess in the move list (players.py checks every entry).
                if seat != viewer and "guess" in table.log[-1].notation:
                    assert table.log[-1].seen[viewer].endswith("guess ...")
                    assert f"{table.log[-1].number:>3}. {table.log[-1].seen[viewer]}" in body

    last = table.check_over("")
    state = table.state
    winner = PLAYERS[min(OUTGUESS.result(state).winners)].userid
    for reply in last.values():
        assert f"Game won by {winner}." in reply.body.splitlines()
        # Every guess is revealed: the move list shows the whole lines of the recent moves ...
        for played in table.log[-10:]:
            assert f"{played.number:>3}. {played.notation}" in reply.body, played
            assert "guess ..." not in reply.body
        # ... and the guess of the last turn is told.
        if state.winner is not None:
            assert (f"Revealed: for that turn {OUTGUESS_SEATS[1 - state.last.mover]} had named"
                    f" the piece on {cell_name(state.last.guess)}.") in reply.body
    table.move_after_end_is_refused(1, "guess A1")


# ----- Synapse-Ice ----------------------------------------------------------------------------


def test_synapse_ice_by_mail(server: PbmServer):
    assert registry.canonical("synapse-ice") == "synapse-ice", (
        "synapse-ice is not registered in pbm/games/registry.py BUILTIN")
    assert registry.canonical("synapse") == "synapse-ice"
    signup_both(server)
    table = MailGame(server, SYNAPSE, word="synapse-ice")
    table.ask_help()
    table.ask_help("synapse")  # the alias
    table.challenge()
    rng = random.Random(5)
    while not table.over:
        (seat,) = table.movers()
        move = SYNAPSE.random_move(table.state, seat, rng)
        notation = SYNAPSE.notation(move)
        # The first move names its square; later ones may leave it out (it is implied).
        text = notation if not table.log else notation.split(":")[1]
        if len(table.log) % 3 == 2:
            table.word = "synapse"  # the alias works for moves too
        replies = table.play(seat, text)
        table.word = "synapse-ice"
        if not table.over:
            state = table.state
            legal = [SYNAPSE.notation(m) for m in SYNAPSE.legal_moves(state, state.turn)]
            assert 0 < len(legal) <= 12
            mover = SYNAPSE.info.seats[state.turn]
            for reply in replies.values():
                text = " ".join(reply.body.split())
                assert (f"{mover} must play on {state.forced.name}; legal moves ({len(legal)}): "
                        + " ".join(legal)) in text
                assert "[*]" in reply.body
    assert len(table.log) <= 29
    last = table.check_over("has no piece that can point from")
    winner = PLAYERS[min(SYNAPSE.result(table.state).winners)]
    loser = PLAYERS[1 - PLAYERS.index(winner)]
    for reply in last.values():
        assert f"Game won by {winner.userid}." in reply.body.splitlines()
    table.move_after_end_is_refused(PLAYERS.index(loser), "1N")
