"""The rating lines of a final board mail: how the game moved each player's rating."""

from __future__ import annotations

from pbm.boards.position import Position
from pbm.ratings.formulas import is_provisional


def rating_lines(pos: Position) -> list[str]:
    """One line per player once the game is rated; none for an earlier position (show #n)."""
    board = pos.board
    if board.rating_changes is None or pos.upto != board.move_count:
        return []
    lines = []
    for seat, (before, after, games) in enumerate(board.rating_changes):
        name = pos.userid(seat)
        if is_provisional(games):
            lines.append(f"{name}'s rating is {after} (provisional).")
        elif after > before:
            lines.append(f"{name}'s rating went up from {before} to {after}.")
        elif after < before:
            lines.append(f"{name}'s rating went down from {before} to {after}.")
        else:
            lines.append(f"{name}'s rating stayed at {after}.")
    return lines
