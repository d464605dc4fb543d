"""Board mails keep their shape (issue 14): one move-list layout for every reader of an
Outguess board all game long, and a Pipeline board mail that stays short in a long game."""

from __future__ import annotations

import random
import re
from typing import Any

from pbm.context import Reply
from pbm.games.base import AnyGame
from pbm.games.outguess.game import OutguessState, _pieces_of, _Sim
from pbm.games.outguess.notation import Drop, Step, Turn
from pbm.games.pipeline.state import Probe
from tests.commands.conftest import ALICE, BOB, CAROL, PW, STRANGER, one
from tests.commands.played import BOARD, Played, play_game

READERS = (ALICE, BOB, CAROL)  # both players and a spectator


def move_list(body: str, header: str) -> list[str]:
    """The lines of the move list: from its header to the blank line after it."""
    lines = body.splitlines()
    start = lines.index(header)
    end = lines.index("", start)
    return lines[start + 1:end]


def shape(lines: list[str]) -> list[str]:
    """Where the words of each line stand, whatever they say."""
    return [re.sub(r"\S+", "x", line) for line in lines]


def entries(lines: list[str]) -> list[str]:
    """The move list's entries, each joined back onto one line."""
    joined: list[str] = []
    for line in lines:
        if re.match(r" *\d+\. ", line):
            joined.append(line)
        elif joined:
            joined[-1] += " " + line.strip()
    return joined


# ----- Outguess ------------------------------------------------------------------------------
def busy_named_piece(game: AnyGame, state: OutguessState, seat: int,
                     rng: random.Random) -> Turn:
    """The mover moves the piece the guesser named, as often as it can without ending the
    game: every turn's allotment is one more than the last, so the lines grow long."""
    if state.guess is None:
        return Turn((), rng.choice(_pieces_of(state.board, state.mover)))
    sim = _Sim(state)
    actions = []
    while sim.done < state.allotment:
        options = []
        for action in sim.actions():
            branch = sim.copy()
            branch.apply(action)
            if branch.end is None:
                options.append(action)
        named = [a for a in options if isinstance(a, Step) and a.src == sim.tracked
                 and not a.capture or isinstance(a, Drop) and a.anchor == sim.tracked]
        action = rng.choice(named or options)
        sim.apply(action)
        actions.append(action)
    return Turn(tuple(actions), rng.choice(_pieces_of(sim.board, sim.opponent)))


def outguess_game(players: Any, moves: int) -> Played:
    def look(played: Played, number: int) -> None:
        if number == moves:  # the full list, each as they may see it, before the end
            played.send(STRANGER, f"outguess show {BOARD}")
            played.send(ALICE, f"outguess showas alice {PW['alice']} {BOARD}")
            played.send(BOB, f"outguess showas bob {PW['bob']} {BOARD}")

    return play_game(players, "outguess", 7, policy=busy_named_piece, most=moves, looks=look)


OUTGUESS_HEADER = "White: alice   Black: bob"


def test_every_reader_of_an_outguess_board_gets_one_move_list_layout(players):
    played = outguess_game(players, 24)
    # carol subscribed after the challenge: she has every mail but the first.
    mails = [played.boards(address)[-25:] for address in READERS]
    assert len(played.boards(CAROL)) == 25
    wrapped = 0
    for alices, bobs, carols in zip(*mails):
        lists = [move_list(m.body, OUTGUESS_HEADER) for m in (alices, bobs, carols)]
        assert shape(lists[0]) == shape(lists[1]) == shape(lists[2]), lists
        for line in lists[2]:
            assert len(line) <= 76
            wrapped += line.startswith("     ") and not line.startswith("      ")
    assert wrapped > 5  # long turns went onto more lines, the same ones for everyone

    # The whole list of `show` and of each player's `showas` has that shape too.
    views = [r.body for line, r in played.replies if " show" in line]
    assert len(views) == 3
    full = [move_list(body, OUTGUESS_HEADER) for body in views]
    assert shape(full[0]) == shape(full[1]) == shape(full[2])
    assert len(entries(full[0])) == 24


def test_outguess_layout_shows_no_guess_but_the_readers_own(players):
    played = outguess_game(players, 16)
    last = {address: played.boards(address)[-2] for address in READERS}  # before the resign
    seats = {ALICE: "(White)", BOB: "(Black)", CAROL: None}
    for address, mail in last.items():
        for entry in entries(move_list(mail.body, OUTGUESS_HEADER)):
            if "guess" not in entry:
                continue
            if entry.endswith(f" {seats[address]}"):
                assert "guess ..." not in entry, (address, entry)
            else:
                assert re.search(r"guess \.\.\. +\((White|Black)\)$", entry), (address, entry)
    # The game ends by a resignation: every guess is then shown to everyone.
    final = played.boards(CAROL)[-1]
    assert "won by" in final.body and "guess ..." not in final.body


# ----- Pipeline ------------------------------------------------------------------------------
def probing(game: AnyGame, state: Any, seat: int, rng: random.Random) -> Any:
    """Random moves, but no guess: the game goes on probing."""
    move = game.random_move(state, seat, rng)
    while state.pipes[1] is not None and state.pipes[0] is not None \
            and not isinstance(move, Probe):
        move = game.random_move(state, seat, rng)
    return move


def test_a_sixty_probe_pipeline_board_mail_stays_under_eighty_lines(players):
    played = play_game(players, "pipeline", 11, policy=probing, most=64)
    assert len(played.states[-1].log) == 60
    finals: list[Reply] = [played.boards(address)[-2] for address in READERS]  # the 64th move
    for mail in finals:
        lines = mail.body.splitlines()
        assert len(lines) < 80, mail.body
        assert ("  (1-50 not shown: 'pipeline show' with this board's number"
                " lists them all)") in lines
        assert re.search(r"^  51\. ", mail.body, re.M) and not re.search(r"^  50\. ", mail.body,
                                                                          re.M)
        assert re.search(r"^  60\. (Head|Tail) ", mail.body, re.M)
    shown = one(players(STRANGER, f"pipeline show {BOARD}")).body
    assert "not shown" not in shown.split("Probes and guesses")[1]
    for number in range(1, 61):
        assert re.search(rf"^ {{1,3}}{number}\. (Head|Tail) ", shown, re.M), number
