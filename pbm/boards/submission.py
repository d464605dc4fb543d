"""A move sent with `submit`, kept on its seat until `confirm` plays it (Seat.submitted)."""

from __future__ import annotations

from dataclasses import dataclass

from pbm.db.models import Board


@dataclass(frozen=True)
class Submission:
    """The move in the game's notation, and the number it must be: the `#n` guard, always
    stored, so that a submission the board has moved past is refused, never played."""

    move: str
    number: int

    def dump(self) -> str:
        return f"{self.move}#{self.number}"

    @staticmethod
    def load(text: str | None) -> Submission | None:
        if not text:
            return None
        move, _, number = text.rpartition("#")
        return Submission(move, int(number))


def submission_of(board: Board, seat: int) -> Submission | None:
    return Submission.load(board.seats[seat].submitted)


def store(board: Board, seat: int, submission: Submission | None) -> None:
    board.seats[seat].submitted = None if submission is None else submission.dump()


def clear_all(board: Board) -> None:
    """Drop every submission of the board (the position they were made on is gone)."""
    for seat in board.seats:
        if seat.submitted is not None:
            seat.submitted = None
