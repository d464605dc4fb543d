"""Amazons' rule module (Walter Zamkauskas, 1988): move an amazon like a queen, shoot an
arrow like a queen from where it lands; the player who cannot move loses."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pbm.games.amazons.board import ARROW, BY_NAME, COLOUR, EMPTY, SQUARES, empty_board
from pbm.games.amazons.checks import check
from pbm.games.amazons.moves import AmazonMove, legal_moves, random_move
from pbm.games.amazons.notation import read
from pbm.games.amazons.state import (
    ARROW_MARK,
    MARKS,
    SEATS,
    AmazonsState,
    after,
    start_state,
)
from pbm.games.amazons.view import notation_of, render
from pbm.games.base import Game, GameInfo, Outcome, Viewer

STORED = {EMPTY: ".", COLOUR[0]: MARKS[0], COLOUR[1]: MARKS[1], ARROW: ARROW_MARK}
FROM_STORED = {mark: code for code, mark in STORED.items()}

# The help page's worked example: the first two moves of the game record in Tegos's
# notation that Ludicum's page on Amazons gives ("1.d1-d5,g8; g10-d7,h3;").
HELP_EXAMPLE_MOVES = ("d1-d5,g8", "g10-d7,h3")


def outcome_of(state: AmazonsState) -> Outcome | None:
    if not state.finished:
        return None
    loser, winner = state.turn, 1 - state.turn
    return Outcome(
        frozenset({winner}),
        f"{SEATS[loser]} has no legal move: none of its amazons can move, so"
        f" {SEATS[winner]}, the last to move, wins.",
    )


class Amazons(Game[AmazonsState, AmazonMove]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="amazons",
        title="Amazons",
        seats=SEATS,
        rules_version=1,
        summary="Move an amazon like a queen, then shoot an arrow; the last to move wins.",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> AmazonsState:
        return start_state()

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: AmazonsState) -> frozenset[int]:
        return frozenset() if state.finished else frozenset({state.turn})

    def parse(self, state: AmazonsState, seat: int, text: str) -> AmazonMove:
        move = AmazonMove(*read(text))
        check(state, seat, move)
        return move

    def play(self, state: AmazonsState, seat: int, move: AmazonMove) -> AmazonsState:
        return after(state, move)

    def notation(self, move: AmazonMove) -> str:
        return notation_of(*move)

    def result(self, state: AmazonsState) -> Outcome | None:
        return outcome_of(state)

    def legal_moves(self, state: AmazonsState, seat: int) -> Iterator[AmazonMove]:
        if state.finished or seat != state.turn:
            return iter(())
        return legal_moves(state.board, state.amazons[seat])

    def random_move(self, state: AmazonsState, seat: int, rng: random.Random) -> AmazonMove:
        # Uniform over the legal moves, by rejection (moves.random_move): listing them all
        # (~2,000 at the start) for every move of every playout would be far slower.
        return random_move(state.board, state.amazons[seat], rng)

    def prompt(self, state: AmazonsState, seat: int) -> str | None:
        if state.finished or seat != state.turn:
            return None
        example = next(legal_moves(state.board, state.amazons[seat]))
        # One short line: the mail prints it as it is, and the help page says the rest.
        return f"Move an amazon, then shoot its arrow, e.g. {self.notation(example)}."

    # ----- bots -----------------------------------------------------------------------
    # Amazons' positions are wide (2,176 moves at the start, of which the search samples
    # 100: games/mcts.py) and its random playouts long (70-80 moves): the default 160,000
    # positions of `best` took up to 4.1 s of CPU a move on the 2-core test machine, capped
    # at 100,000 2.3 s at most (median 1.3 s), within the ~3 s a bot's move may take.
    bot_positions = {"best": 100_000}

    # ----- showing --------------------------------------------------------------------
    def render(self, state: AmazonsState, viewer: Viewer) -> str:
        # Amazons hides nothing: every viewer sees the same board.
        return render(state)

    def help_figures(self) -> dict[str, str]:
        # Drawn by render() itself, so the page shows exactly what players will see.
        example = start_state()
        for text in HELP_EXAMPLE_MOVES:
            example = after(example, self.parse(example, example.turn, text))
        return {"start": self.render(start_state(), None),
                "two moves": self.render(example, None)}

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: AmazonsState) -> Any:
        board = "".join(STORED[state.board[sq]] for sq in SQUARES)
        last = None if state.last is None else self.notation(state.last)
        return {"board": board, "last": last}

    def decode(self, data: Any) -> AmazonsState:
        board = empty_board()
        for sq, mark in zip(SQUARES, data["board"], strict=True):
            board[sq] = FROM_STORED[mark]
        amazons = tuple(tuple(sq for sq in SQUARES if board[sq] == COLOUR[seat])
                        for seat in (0, 1))
        plies = sum(1 for sq in SQUARES if board[sq] == ARROW)
        last = None
        if data.get("last"):
            origin, destination, arrow = (BY_NAME[name] for name in _squares(data["last"]))
            last = AmazonMove(origin, destination, arrow)
        return AmazonsState(bytes(board), (amazons[0], amazons[1]), plies, last)


def _squares(notation: str) -> list[str]:
    """The three square names of a canonical notation, as encode() stores it."""
    origin, rest = notation.split("-")
    destination, arrow = rest.split("/")
    return [origin, destination, arrow]


GAME = Amazons()
