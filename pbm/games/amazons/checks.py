"""Why an Amazons move is illegal, in words a player can act on.

Each refusal says which rule the move breaks and what the player can do instead: where the
amazon can go, where its arrow can land, or which amazons can move at all.
"""

from __future__ import annotations

from pbm.games.amazons.board import ARROW, BETWEEN, COLOUR, EMPTY, NAME, direction, names
from pbm.games.amazons.moves import AmazonMove, arrows, destinations, trapped
from pbm.games.amazons.state import SEATS, AmazonsState
from pbm.games.base import IllegalMove
from pbm.games.text import and_list, or_list


def check(state: AmazonsState, seat: int, move: AmazonMove) -> None:
    """Raise IllegalMove, with the reason, unless `seat` may make `move` now."""
    if state.finished:
        raise IllegalMove(f"The game is over: {SEATS[state.turn]} has no legal move.")
    if seat != state.turn:
        raise IllegalMove(f"It is {SEATS[state.turn]}'s turn, not {SEATS[seat]}'s.")
    _check_amazon(state, seat, move.origin)
    _check_queen_move(state, move.origin, move.destination)
    _check_arrow(state, move)


def _check_amazon(state: AmazonsState, seat: int, origin: int) -> None:
    board, own = state.board, state.amazons[seat]
    yours = f"your amazons are on {and_list(names(own))}"
    if board[origin] == EMPTY:
        raise IllegalMove(f"There is no amazon on {NAME[origin]}: {yours}.")
    if board[origin] == ARROW:
        raise IllegalMove(f"{NAME[origin]} holds an arrow, not an amazon: {yours}.")
    if board[origin] != COLOUR[seat]:
        raise IllegalMove(
            f"The amazon on {NAME[origin]} is {SEATS[1 - seat]}'s: {yours}.")
    if origin in trapped(board, own):
        free = [sq for sq in own if sq not in trapped(board, own)]
        raise IllegalMove(
            f"Your amazon on {NAME[origin]} cannot move: every square beside it is taken."
            f" Move one on {or_list(names(free))}.")


def _check_queen_move(state: AmazonsState, origin: int, destination: int) -> None:
    board = state.board
    reach = list(destinations(board, origin))
    can = f"From {NAME[origin]} it can reach {_listed(reach)}."
    if destination == origin:
        raise IllegalMove(f"The amazon must move: {NAME[origin]} to {NAME[origin]} leaves it"
                          f" where it is. {can}")
    if direction(origin, destination) is None:
        raise IllegalMove(
            f"{NAME[origin]} to {NAME[destination]} is not a straight line: an amazon moves"
            f" like a chess queen, along a row, a column or a diagonal. {can}")
    if board[destination] != EMPTY:
        raise IllegalMove(
            f"{NAME[destination]} holds {_what(state, destination)}: an amazon moves only to"
            f" an empty square. {can}")
    block = _blocked(state, origin, destination, vacated=None)
    if block is not None:
        raise IllegalMove(
            f"The way from {NAME[origin]} to {NAME[destination]} is blocked at {NAME[block]}"
            f" by {_what(state, block)}: an amazon cannot pass over anything. {can}")


def _check_arrow(state: AmazonsState, move: AmazonMove) -> None:
    origin, destination, arrow = move
    reach = list(arrows(state.board, origin, destination))
    can = f"From {NAME[destination]} it can reach {_listed(reach)}."
    if arrow == destination:
        raise IllegalMove(
            f"The arrow cannot land on {NAME[destination]}, where the amazon that shoots it"
            f" stands: it flies like a queen from there. {can}")
    if direction(destination, arrow) is None:
        raise IllegalMove(
            f"{NAME[destination]} to {NAME[arrow]} is not a straight line: the arrow flies"
            f" like a chess queen from where the amazon lands. {can}")
    if state.board[arrow] != EMPTY and arrow != origin:
        raise IllegalMove(
            f"{NAME[arrow]} holds {_what(state, arrow)}: the arrow must land on an empty"
            f" square (the square the amazon left, {NAME[origin]}, counts as empty). {can}")
    block = _blocked(state, destination, arrow, vacated=origin)
    if block is not None:
        raise IllegalMove(
            f"The arrow's way from {NAME[destination]} to {NAME[arrow]} is blocked at"
            f" {NAME[block]} by {_what(state, block)}: an arrow cannot pass over anything."
            f" {can}")


def _blocked(state: AmazonsState, start: int, target: int, vacated: int | None) -> int | None:
    """The first square between `start` and `target` (on one line) that is taken."""
    for sq in BETWEEN[start, target]:
        if state.board[sq] != EMPTY and sq != vacated:
            return sq
    return None


def _what(state: AmazonsState, sq: int) -> str:
    """What stands on a taken square: 'an arrow', "White's amazon"."""
    code = state.board[sq]
    return "an arrow" if code == ARROW else f"{SEATS[COLOUR.index(code)]}'s amazon"


def _listed(squares: list[int]) -> str:
    # All of them: a queen line holds at most 35 squares, and a player wants the choice.
    return and_list(names(squares))

