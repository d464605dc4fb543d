"""Breakthrough (Dan Troyka, 2000): two rows of pieces race forward; the first to reach the
far row, or to take every piece of the other side, wins."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, Option, Outcome, Viewer
from pbm.games.breakthrough.board import (
    BLACK,
    DEFAULT_SIZE,
    GLYPHS,
    SEATS,
    SIZES,
    WHITE,
    BreakthroughState,
    Step,
    play_step,
    position,
    start_position,
)
from pbm.games.breakthrough.checks import check
from pbm.games.breakthrough.drawing import board_text, status_lines
from pbm.games.breakthrough.moves import legal_steps, random_step
from pbm.games.breakthrough.notation import notation, read, stored
from pbm.games.text import and_list

_TO_MOVE = (frozenset({WHITE}), frozenset({BLACK}))
_NOBODY: frozenset[int] = frozenset()
CAPTURES_LISTED = 6  # captures named in a prompt


def outcome_of(state: BreakthroughState) -> Outcome | None:
    """Who won and how, in words; None while the game runs."""
    winner = state.winner
    if winner is None:
        return None
    loser = 1 - winner
    geo = state.geometry
    goal = geo.goal_row(winner)
    reached = [cell for cell in geo.squares[goal * state.size:(goal + 1) * state.size]
               if state.at(cell) == winner]
    if reached:
        reason = f"{SEATS[winner]} reached row {goal + 1} with the piece on {reached[0].name}"
        if not state.pieces[loser]:
            reason += f", taking {SEATS[loser]}'s last piece"
        return Outcome(frozenset({winner}), reason + ".")
    return Outcome(frozenset({winner}), f"{SEATS[winner]} captured all of {SEATS[loser]}'s"
                                        " pieces.")


class Breakthrough(Game[BreakthroughState, Step]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="breakthrough",
        title="Breakthrough",
        seats=SEATS,
        rules_version=1,
        options=(Option("size", DEFAULT_SIZE,
                        f"rows and columns of the square board, {SIZES[0]} to {SIZES[-1]}",
                        SIZES),),
        summary="Race two rows of pieces forward; first to the far row or to take all wins.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> BreakthroughState:
        # No randomness: White, the first seat, always moves first.
        return start_position(int(options.get("size", DEFAULT_SIZE)))

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: BreakthroughState) -> frozenset[int]:
        return _NOBODY if state.winner is not None else _TO_MOVE[state.turn]

    def parse(self, state: BreakthroughState, seat: int, text: str) -> Step:
        outcome = outcome_of(state)
        if outcome is not None:
            raise IllegalMove(f"The game is over: {outcome.reason}")
        if seat != state.turn:
            raise IllegalMove(f"It is {SEATS[state.turn]}'s turn, not {SEATS[seat]}'s.")
        return check(state, seat, read(text))

    def play(self, state: BreakthroughState, seat: int, move: Step) -> BreakthroughState:
        return play_step(state, seat, move)

    def notation(self, move: Step) -> str:
        return notation(move)

    def result(self, state: BreakthroughState) -> Outcome | None:
        return outcome_of(state)

    def legal_moves(self, state: BreakthroughState, seat: int) -> Iterator[Step]:
        return legal_steps(state, seat)

    def random_move(self, state: BreakthroughState, seat: int, rng: random.Random) -> Step:
        return random_step(state, seat, rng)

    def prompt(self, state: BreakthroughState, seat: int) -> str | None:
        if state.winner is not None or seat != state.turn:
            return None
        captures = [notation(s) for s in legal_steps(state, seat) if s.capture]
        way = "up" if seat == WHITE else "down"
        if not captures:
            return (f"Move a piece ({GLYPHS[seat]}) one square {way}, straight or"
                    f" diagonally, e.g. {self._example(state, seat)}.")
        more = len(captures) - CAPTURES_LISTED
        named = and_list(captures) if more <= 0 else \
            ", ".join(captures[:CAPTURES_LISTED]) + f" and {more} more"
        return f"Move a piece ({GLYPHS[seat]}) one square {way}; you can capture: {named}."

    def _example(self, state: BreakthroughState, seat: int) -> str:
        # The front-most piece's straight step if it has one, else its first: a real move.
        steps = list(legal_steps(state, seat))
        front = steps[-1] if seat == WHITE else steps[0]
        straight = [s for s in steps if s.origin == front.origin and
                    s.target.col == s.origin.col]
        return notation(straight[0] if straight else front)

    # ----- showing --------------------------------------------------------------------
    def render(self, state: BreakthroughState, viewer: Viewer) -> str:
        # Breakthrough hides nothing: every viewer sees the same board, White at the bottom.
        outcome = outcome_of(state)
        lines = [*board_text(state), "", *status_lines(state)]
        if outcome is not None:
            lines.append(f"Result: {outcome.reason}")
        return "\n".join(lines) + "\n"

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: BreakthroughState) -> Any:
        last = None if state.last is None else notation(state.last)
        return {"size": state.size, "board": state.board, "turn": state.turn, "last": last}

    def decode(self, data: Any) -> BreakthroughState:
        state = position(int(data["size"]), str(data["board"]), int(data["turn"]))
        last = data.get("last")
        return state if last is None else replace(state, last=stored(str(last), state))

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        return {
            "start": self.render(start_position(DEFAULT_SIZE), None),
            "steps": self.render(played(STEPS_MOVES), None),
            "captures": self.render(played(CAPTURES_MOVES), None),
        }


# Worked examples for the help page, after the published rules' own (Wikipedia's "Rules"):
# White's piece on C5 may step to B6, C6 or D6; Black's piece on F3 threatens White's on E2
# and G2 but not the one straight ahead on F2, and White may take it from E2 or G2.
STEPS_MOVES = ("C2-C3", "H7-H6", "C3-C4", "H6-H5", "C4-C5", "A7-A6")
CAPTURES_MOVES = ("A2-A3", "F7-F6", "A3-A4", "F6-F5", "A4-A5", "F5-F4", "H2-H3", "F4-F3")


def played(moves: tuple[str, ...], size: int = DEFAULT_SIZE) -> BreakthroughState:
    """The position after `moves` from the start, the seats taking turns."""
    state = start_position(size)
    for text in moves:
        seat = state.turn
        state = play_step(state, seat, check(state, seat, read(text)))
    return state


GAME = Breakthrough()
