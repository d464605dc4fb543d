"""Hilo, README's example of adding a game: hide a number from 1 to 9, find it in three guesses.

A sixth game in miniature, with a secret so that render() and move_text() have something to
hide. The tests that ask for it register it (test_example_game.py); a game in pbm would ship
HELP as pbm/help/hilo.txt and not override help_template().
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from pbm.games import kit
from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome, Viewer

HIDER, SEEKER = 0, 1
GUESSES = 3
NUMBERS = range(1, 10)


@dataclass(frozen=True)
class HiloState:
    """The hidden number (None until hidden), the Seeker's guesses, and whether all is shown."""

    secret: int | None = None
    guesses: tuple[int, ...] = ()
    revealed: bool = False  # set by conclude() when a player resigns


@dataclass(frozen=True)
class HiloView:
    """A seat's view: the number if the seat may know it, and each guess with its answer."""

    secret: int | None
    hidden: bool
    hints: tuple[tuple[int, str], ...]


class Hilo(Game[HiloState, int]):
    """A move is a number: first the Hider's hidden one, then the Seeker's guesses."""

    info = GameInfo(
        name="hilo",
        title="Hilo",
        seats=("Hider", "Seeker"),
        rules_version=1,
        summary="Hide a number from 1 to 9; the other player has three guesses to find it.",
        hidden=True,  # the number, from the Seeker: each reader's mail is drawn for them
    )

    def start(self, options: dict[str, Any], seed: int) -> HiloState:
        return HiloState()

    def to_move(self, state: HiloState) -> frozenset[int]:
        if self.result(state) is not None:
            return frozenset()
        return frozenset({HIDER if state.secret is None else SEEKER})

    def parse(self, state: HiloState, seat: int, text: str) -> int:
        if not re.fullmatch(r"[0-9]{1,3}", text.strip()):  # mail may hold anything at all
            raise InvalidMove(f"Send a number from 1 to 9, not '{text.strip()[:20]}'.")
        number = int(text)
        if number not in NUMBERS:
            raise IllegalMove(f"{number} is not a number from 1 to 9.")
        if number in state.guesses:
            raise IllegalMove(f"You guessed {number} already.")
        return number

    def play(self, state: HiloState, seat: int, move: int) -> HiloState:
        if seat == HIDER:
            return HiloState(secret=move)
        return replace(state, guesses=(*state.guesses, move))

    def notation(self, move: int) -> str:
        return str(move)

    def move_text(self, state: HiloState, seat: int, move: int, viewer: Viewer) -> str:
        # Only the hidden number is secret; the server shows it to all once the game ends.
        return "..." if seat == HIDER and viewer != HIDER else self.notation(move)

    def result(self, state: HiloState) -> Outcome | None:
        if state.secret in state.guesses:
            return Outcome(frozenset({SEEKER}), f"The Seeker found {state.secret}.")
        if len(state.guesses) == GUESSES:
            missed = f"The Seeker did not find {state.secret} in {GUESSES} guesses."
            return Outcome(frozenset({HIDER}), missed)
        return None

    def conclude(self, state: HiloState, outcome: Outcome) -> HiloState:
        return replace(state, revealed=True)

    def render(self, state: HiloState, viewer: Viewer) -> str:
        shown = viewer == HIDER or state.revealed or self.result(state) is not None
        secret = "not hidden yet" if state.secret is None else state.secret if shown else "?"
        hints = [f"{g} {_hint(g, state.secret)}" for g in state.guesses]
        return (
            f"Hidden number: {secret}\n"
            f"Guesses: {', '.join(hints) or 'none'}\n"
            f"Guesses left: {GUESSES - len(state.guesses)}\n"
        )

    def legal_moves(self, state: HiloState, seat: int) -> Iterator[int]:
        return (n for n in NUMBERS if n not in state.guesses)

    def encode(self, state: HiloState) -> Any:
        return {"secret": state.secret, "guesses": list(state.guesses), "revealed": state.revealed}

    def decode(self, data: Any) -> HiloState:
        return HiloState(data["secret"], tuple(data["guesses"]), data["revealed"])

    # What a bot may know: the Hider its number, the Seeker only the answers to its guesses.
    def seat_view(self, state: HiloState, seat: int) -> HiloView:
        shown = seat == HIDER or state.revealed or self.result(state) is not None
        hints = tuple((g, _hint(g, state.secret)) for g in state.guesses)
        return HiloView(state.secret if shown else None, state.secret is not None, hints)

    def sample_state(self, view: HiloView, seat: int, rng: random.Random) -> HiloState:
        if view.secret is not None or not view.hidden:
            return HiloState(view.secret, tuple(g for g, _ in view.hints))
        possible = [n for n in NUMBERS if all(_hint(g, n) == h for g, h in view.hints)]
        return HiloState(rng.choice(possible), tuple(g for g, _ in view.hints))

    def help_template(self) -> str:
        return HELP

    def help_figures(self) -> dict[str, str]:
        # Drawn by render() itself, so the page shows exactly what players will see.
        return {"two guesses": self.render(HiloState(6, (3, 8)), SEEKER)}


def _hint(guess: int, secret: int | None) -> str:
    assert secret is not None  # guesses come only after the number is hidden
    return "found" if guess == secret else "higher" if guess < secret else "lower"


HELP = """\
Help For Hilo

Introduction

Hilo is the example game of pbm's README: a whole game in a page of code.

Rules

The Hider hides a number from 1 to 9. The Seeker then has three guesses,
each answered "higher" (the hidden number is higher) or "lower". The Seeker
wins by naming the number, the Hider when three guesses miss it. With 6
hidden, after the guesses 3 and 8 the Seeker sees:

    [[two guesses]]

Move notation

A move is one number: the Hider's hidden number, then each guess.

    hilo challenge userid1 userid2
    hilo move 101 alice secret 6

References

pbm's README.md, section Development.
"""

GAME = Hilo()


# The picture's looks, declared once at import (a class is the sheet's prefix and a short
# name): the mail writes them once, in its <style> block, and each cell names its class.
SHEET = kit.Sheet("h")
NUMBER = SHEET.rule("n", kit.css(width=34, height=34, text_align="center", background=kit.BOARD,
                                 border=f"1px solid {kit.GRID}", color=kit.EDGE))
GUESS = SHEET.disc("g", 28, kit.DARK, label_colour=kit.LIGHT)
HIDDEN = SHEET.disc("s", 28, kit.LIGHT)


def draw(state: HiloState, viewer: Viewer) -> str:
    """Hilo's picture (registered as its Picture, as registry.PICTURES would)."""
    # The numbers 1 to 9 in a row: guesses as dark discs, the hidden number as a light
    # one where render() shows it to this viewer, the last move ringed.
    shown = viewer == HIDER or state.revealed or GAME.result(state) is not None
    last = state.guesses[-1] if state.guesses else state.secret
    cells = []
    for number in NUMBERS:
        ringed = number == last and (shown or number != state.secret)
        border = kit.RINGED if ringed else kit.OUTLINED
        inner = str(number)
        if number in state.guesses:
            inner = kit.disc(kit.classes(GUESS, border), str(number))
        elif number == state.secret and shown:
            inner = kit.disc(kit.classes(HIDDEN, border), str(number))
        cells.append(kit.cell(str(number), inner, NUMBER))
    hints = [f"{g} {_hint(g, state.secret)}" for g in state.guesses]
    words = [f"Guesses: {', '.join(hints) or 'none'}"]
    return kit.frame(kit.table([kit.row(cells)]) + kit.caption(words))
