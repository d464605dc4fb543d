"""Why a move that reads well is refused: the first rule it breaks, and what is legal instead."""

from __future__ import annotations

from pbm.games.base import IllegalMove
from pbm.games.breakthrough.board import GLYPHS, SEATS, BreakthroughState, Step
from pbm.games.breakthrough.moves import legal_steps, piece_steps
from pbm.games.breakthrough.notation import Reading, notation
from pbm.games.grid import Cell
from pbm.games.text import and_list, or_list

LISTED = 8  # pieces or moves named in a refusal; more are counted, not listed


def check(state: BreakthroughState, seat: int, reading: Reading) -> Step:
    """The legal move `reading` names for `seat`, or IllegalMove saying why there is none."""
    origin = _square(state, *reading.origin)
    owner = state.at(origin)
    if owner is None:
        raise IllegalMove(f"There is no piece on {origin.name}. {movable(state, seat)}")
    if owner != seat:
        raise IllegalMove(
            f"The piece on {origin.name} is {SEATS[owner]}'s; you play {SEATS[seat]}"
            f" ({GLYPHS[seat]}). {movable(state, seat)}")
    target = _target(state, seat, origin, reading)
    forward = 1 if seat == 0 else -1
    if target.row != origin.row + forward or abs(target.col - origin.col) > 1:
        raise IllegalMove(
            f"A piece moves one square forward, straight or diagonally ({_direction(seat)}):"
            f" {origin.name}-{target.name} is not such a step. {options(state, seat, origin)}")
    there = state.at(target)
    if there == seat:
        raise IllegalMove(
            f"{target.name} holds one of your own pieces. {options(state, seat, origin)}")
    if there is not None and target.col == origin.col:
        raise IllegalMove(
            f"{target.name} holds {SEATS[there]}'s piece, straight ahead of yours: a piece"
            " captures diagonally forward only, and moves straight only onto an empty"
            f" square. {options(state, seat, origin)}")
    if there is None and reading.claims_capture:
        raise IllegalMove(
            f"There is nothing to capture on {target.name}: it is empty. To move there,"
            f" write {origin.name}-{target.name}.")
    return Step(origin, target, there is not None)


def _square(state: BreakthroughState, letter: str, number: int) -> Cell:
    cell = state.geometry.grid.at(letter, number)
    if cell is None:
        raise IllegalMove(f"There is no square {letter}{number}: {_extent(state)}.")
    return cell


def _target(state: BreakthroughState, seat: int, origin: Cell, reading: Reading) -> Cell:
    if reading.target is not None:
        return _square(state, *reading.target)
    assert reading.direction is not None
    target = origin.step(reading.direction, 1 if seat == 0 else -1)
    if target not in state.geometry.grid:
        raise IllegalMove(
            f"That step would take the piece on {origin.name} off the board"
            f" ({_extent(state)}). {options(state, seat, origin)}")
    return target


def _extent(state: BreakthroughState) -> str:
    letters = state.geometry.grid.letters
    return f"the board has columns A to {letters[-1]} and rows 1 to {state.size}"


def _direction(seat: int) -> str:
    return "up the board, towards the last row" if seat == 0 else "down the board, to row 1"


def options(state: BreakthroughState, seat: int, origin: Cell) -> str:
    """What the piece on `origin` may do instead, or which pieces can move if it cannot."""
    index = state.geometry.index(origin)
    moves = [notation(step) for step in piece_steps(state, seat, index)]
    if moves:
        return f"The piece on {origin.name} may play {or_list(moves)}."
    return f"The piece on {origin.name} cannot move now. {movable(state, seat)}"


def movable(state: BreakthroughState, seat: int) -> str:
    """The seat's pieces that have a legal move, for a refusal."""
    # The front-most first: the pieces a player is likeliest to have meant.
    ahead = -1 if seat == 0 else 1
    names = sorted({step.origin for step in legal_steps(state, seat)},
                   key=lambda cell: (ahead * cell.row, cell.col))
    shown = [cell.name for cell in names[:LISTED]]
    more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
    listed = and_list(shown) if not more else ", ".join(shown)
    return f"Your pieces that can move are on {listed}{more}."
