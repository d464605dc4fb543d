"""Moves tried on a copy of a position, nothing saved, and the page that shows them: what
`preview`, `replay` and `submit` mail."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbm.boards.position import Position
from pbm.context import CommandError, shorten
from pbm.games.base import AnyGame, GameInfo, InvalidMove, Outcome, UserError
from pbm.views.boardmail import BoardPage

MAX_MOVES = 40  # the work one command may cause stays small


def split_moves(words: Sequence[str]) -> list[str]:
    """The moves to try: separated by `;` when there is one (for a move that has spaces in
    it), else by spaces."""
    text = " ".join(words)
    parts = text.split(";") if ";" in text else text.split()
    return [part.strip() for part in parts if part.strip()]


def check_moves(moves: Sequence[str], what: str) -> None:
    if len(moves) > MAX_MOVES:
        raise CommandError(f"{what} may try at most {MAX_MOVES} moves; this one has "
                           f"{len(moves)}.")


def refuse_secrets(info: GameInfo, what: str, instead: str = "") -> None:
    """Moves are tried only in games without secrets: even the asker's own move can depend
    on what is hidden from them (a Pipeline probe reads the other's pipeline, an Outguess
    turn runs into the other's guess), and a free try would tell them without their ever
    making the move."""
    if info.hidden:
        raise CommandError(
            f"{what} is not offered for {info.title}: the game keeps secrets from its players "
            "while it runs, and what a move shows can depend on them, so trying moves on a "
            f"copy could reveal them.{instead}")


@dataclass
class Trial:
    """A position and the moves tried from it so far."""

    game: AnyGame
    names: Sequence[str]  # who plays each seat: userids, or seat names on a new board
    viewer: int | None  # whose view the page shows (None: the public's)
    state: Any
    upto: int  # moves made before the first one tried
    outcome: Outcome | None  # as it stands (a resignation is not in the state)
    movers: frozenset[int]  # who may move now
    heading: str  # the page's first line
    start: str = ""  # "the board after move 3"
    label: str = "Preview"  # how errors name a move tried: "Preview move 2"
    tried: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, pos: Position, viewer: int | None, heading: str,
           label: str = "Preview") -> Trial:
        start = f"the board after move {pos.upto}" if pos.upto else "the board at its start"
        return cls(pos.game, [pos.userid(seat.position) for seat in pos.board.seats], viewer,
                   pos.state, pos.upto, pos.outcome(), pos.to_move(), heading, start, label)

    def play(self, moves: Sequence[str], quote_unreadable_first: bool = True) -> None:
        """Play each move for whoever is to move (the viewer when several are). One that
        cannot be played is refused with the board before it; the first, when it cannot
        even be read, is quoted only if `quote_unreadable_first`."""
        game = self.game
        for count, text in enumerate(moves, start=1):
            if not self.movers:
                raise CommandError(
                    f"{self.label} move {count} ('{shorten(text)}') cannot be tried: the game "
                    "is over at that point.", board_text=self.page().text())
            mover = self.viewer if self.viewer in self.movers else min(self.movers)
            try:
                move = game.parse(self.state, mover, text)
            except UserError as err:
                if count == 1 and not quote_unreadable_first and isinstance(err, InvalidMove):
                    raise CommandError(
                        "The word after the board is neither a userid nor a move that can "
                        "be read (it is not repeated here, in case it was a password).",
                        board_text=self.page().text()) from None
                raise CommandError(
                    f"{self.label} move {count} ('{shorten(text)}', for {self.names[mover]}) "
                    f"cannot be played: {err}", board_text=self.page().text()) from None
            self.state = game.play(self.state, mover, move)
            self.outcome = game.result(self.state)
            self.movers = frozenset() if self.outcome is not None else \
                game.to_move(self.state)
            self.tried.append(f"{self.upto + count:>4}. {game.notation(move)} "
                              f"({self.names[mover]})")

    def page(self, before: Sequence[str] = (), intro: str | None = None) -> BoardPage:
        """The position reached as the viewer sees it, with the moves tried to reach it;
        `before`: lines between the heading and those moves, `intro` the line above them."""
        lines = [self.heading, "", *before]
        if intro is not None:
            lines.append(intro)
        elif self.tried:
            lines.append(f"From {self.start}, these moves were tried:")
        else:
            lines.append(f"{self.start[0].upper()}{self.start[1:]}, before any move tried:")
        lines += self.tried
        # Tried moves lead to what would be; untried, the page says what is (or was).
        would = bool(self.tried)
        if self.outcome is not None:
            names = " and ".join(self.names[s] for s in sorted(self.outcome.winners))
            if would:
                lines.append("The game would be a tie." if self.outcome.is_draw else
                             f"The game would be won by {names}.")
            else:
                lines.append("Game was a tie." if self.outcome.is_draw else
                             f"Game won by {names}.")
            if self.outcome.reason:
                lines.append(self.outcome.reason)
        elif self.movers:
            movers = " and ".join(f"{self.names[s]}'s" for s in sorted(self.movers))
            lines.append(f"It would be {movers} turn." if would else f"It is {movers} turn.")
        return BoardPage("\n".join(lines),
                         self.game.render(self.state, self.viewer).rstrip("\n"))
