"""A board's vote in progress (`Board.proposal`): a draw offer or a takeback, its answers,
and the note the board mails carry about it.

An open proposal is {"kind": "draw" | "undo", "by": seat, "accepted": [seats], and for an
undo "move": the number of the move it would take back}. Once it is decided without ending
the game it stays as a note, with "closed" ("lapsed", "rejected", "withdrawn", "agreed"),
"seat" (who closed it) and "at" (the board's move count then): the mails of that moment say
what became of it, and the next move clears it.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pbm.boards.position import Position
from pbm.db.models import Board, BoardStatus

DRAW, UNDO = "draw", "undo"
LAPSED, REJECTED, WITHDRAWN, AGREED = "lapsed", "rejected", "withdrawn", "agreed"
WIDTH = 76

Proposal = dict[str, Any]


def open_proposal(board: Board) -> Proposal | None:
    """The proposal waiting for answers, if any (a closed one's note is not)."""
    proposal = board.proposal
    if proposal is None or "closed" in proposal:
        return None
    return proposal


def opened(kind: str, seat: int, move: int | None = None) -> Proposal:
    proposal: Proposal = {"kind": kind, "by": seat, "accepted": [seat]}
    if move is not None:
        proposal["move"] = move
    return proposal


def accepted_by(proposal: Proposal, seat: int) -> Proposal:
    """The proposal with `seat`'s acceptance added (a new dict: the column is plain JSON)."""
    return {**proposal, "accepted": sorted({*proposal["accepted"], seat})}


def waiting_for(proposal: Proposal, players: int) -> list[int]:
    """The seats that have not accepted yet."""
    return [seat for seat in range(players) if seat not in proposal["accepted"]]


def closed(proposal: Proposal, how: str, seat: int, at: int) -> Proposal:
    return {**proposal, "closed": how, "seat": seat, "at": at}


def after_move(proposal: Proposal | None, seat: int, number: int) -> Proposal | None:
    """What a move (number `number`, by `seat`) leaves: an open proposal lapses (a move
    answers it no), an older note is gone."""
    if proposal is None or "closed" in proposal:
        return None
    return closed(proposal, LAPSED, seat, number)


def subject_of(proposal: Proposal) -> str:
    """What is proposed, as the object of a sentence: 'a draw', 'to take back move 8'.

    Only the move's number: its text may be secret from some players."""
    if proposal["kind"] == DRAW:
        return "a draw"
    return f"to take back move {proposal['move']}"


def name_of(proposal: Proposal) -> str:
    """The proposal as a noun: 'the draw proposal', 'the proposal to take back move 8'."""
    if proposal["kind"] == DRAW:
        return "the draw proposal"
    return f"the proposal {subject_of(proposal)}"


def _names(pos: Position, seats: list[int]) -> str:
    return " and ".join(pos.userid(seat) for seat in seats)


def proposal_lines(pos: Position, viewer: int | None) -> list[str]:
    """The lines a board mail (as `viewer` sees the board now) gives the vote: the open
    proposal and who must answer it, or what just became of it."""
    board = pos.board
    proposal = board.proposal
    if proposal is None or pos.upto != board.move_count or board.status != BoardStatus.ACTIVE:
        return []
    if "closed" in proposal:
        if proposal["at"] != board.move_count:
            return []
        return textwrap.wrap(_closing(pos, proposal), WIDTH)
    by = proposal["by"]
    waiting = waiting_for(proposal, len(board.seats))
    agreed = [seat for seat in proposal["accepted"] if seat != by]
    text = f"{pos.userid(by)} proposes {subject_of(proposal)};"
    if agreed:
        text += f" {_names(pos, agreed)} accepted;"
    verb = "has" if len(waiting) == 1 else "have"
    text += f" {_names(pos, waiting)} {verb} not answered."
    lines = textwrap.wrap(text, WIDTH)
    if viewer in waiting:
        lines.append(f"Answer: {board.game} move {board.label} {pos.userid(viewer)} "
                     "PASSWORD accept (or reject).")
    return lines


def _closing(pos: Position, proposal: Proposal) -> str:
    who = pos.userid(proposal["seat"])
    how = proposal["closed"]
    if how == LAPSED:
        return f"{name_of(proposal).capitalize()} lapsed: {who} moved."
    if how == REJECTED:
        return f"{who} rejected {name_of(proposal)}."
    if how == WITHDRAWN:
        return f"{who} withdrew {name_of(proposal)}."
    return f"The players agreed {subject_of(proposal)}."
