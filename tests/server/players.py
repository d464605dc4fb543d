"""Two players, alice and bob, playing one board by mail while a local replay checks each mail.

`MailGame` keeps the game's state locally with the rule module itself (parse/play on the
same moves the players mail), so every board mail can be held against what the rules say it
must show: the subject, the title and turn lines, the move just played in the move list as
that reader may see it, and the board exactly as render() draws it for that reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbm.games.base import Game
from tests.server.harness import PbmServer, Received, by_recipient

ALICE = "alice@players.test"
BOB = "bob@players.test"
BOARD = 101  # the first board of a fresh server


@dataclass(frozen=True)
class Player:
    userid: str
    password: str  # words that never occur in a board mail, so a leak would show
    address: str


PLAYERS = (Player("alice", "pw-alice-7q", ALICE), Player("bob", "pw-bob-3z", BOB))


def signup_both(server: PbmServer) -> None:
    for player in PLAYERS:
        server.send(player.address, f"signup {player.userid} {player.password}")
    welcome = by_recipient(server.collect(2))
    for player in PLAYERS:
        assert welcome[player.address].subject == f"Welcome to pbm, {player.userid}"


@dataclass
class Played:
    """One move of the game: its number, seat, canonical notation and how others saw it."""

    number: int
    seat: int
    notation: str
    seen: tuple[str, ...]  # move_text for each seat as viewer while the game runs


class MailGame:
    """Board 101 of `game` between alice (seat 0) and bob (seat 1), played by mail."""

    def __init__(self, server: PbmServer, game: Game, word: str | None = None) -> None:
        self.server = server
        self.game = game
        self.word = word or game.info.name  # the command word the players write
        self.title = game.info.title
        self.state: Any = game.start(game.parse_options([]), BOARD)
        self.log: list[Played] = []
        self.mails: list[dict[str, Received]] = []

    # ----- what the rules say the mails must show -----------------------------------------
    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def movers(self) -> list[int]:
        return sorted(self.game.to_move(self.state))

    def subject(self, new: bool = False) -> str:
        if self.over:
            return f"{self.title} Board {BOARD}"
        movers = " ".join(PLAYERS[seat].userid for seat in self.movers())
        return f"{'New ' if new else ''}{self.title} Board {BOARD} {movers}"

    def turn_line(self) -> str:
        outcome = self.game.result(self.state)
        if outcome is not None:
            assert not outcome.is_draw
            return "Game won by " + " and ".join(
                PLAYERS[seat].userid for seat in sorted(outcome.winners)) + "."
        seats = self.movers()
        if not self.log and seats == [0]:
            return f"Please start the game {PLAYERS[0].userid}."
        return "It is " + " and ".join(f"{PLAYERS[s].userid}'s" for s in seats) + " turn."

    # ----- mail ----------------------------------------------------------------------------
    def ask_help(self, word: str | None = None) -> Received:
        self.server.send(ALICE, f"{word or self.word} help")
        (reply,) = self.server.collect(1)
        assert reply.to == ALICE
        assert reply.subject == f"{self.title} Help"
        assert reply.body.rstrip("\n") == self.game.help_page().rstrip("\n")
        return reply

    def challenge(self) -> dict[str, Received]:
        self.server.send(ALICE, f"{self.word} challenge alice bob")
        replies = by_recipient(self.server.collect(2))
        assert set(replies) == {ALICE, BOB}
        for seat, player in enumerate(PLAYERS):
            reply = replies[player.address]
            assert reply.subject == self.subject(new=True)
            lines = reply.body.splitlines()
            assert lines[0] == f"A new {self.title} board ({BOARD}) has been started"
            assert lines[2] == self.turn_line()
            assert "  (no moves yet)" in lines
            self.check_seats_and_board(reply.body, seat)
        return replies

    def play(self, seat: int, text: str) -> dict[str, Received]:
        """Mail `text` as `seat`'s move with the #n guard; check both players' mails."""
        game, before = self.game, self.state
        assert seat in game.to_move(before), f"{PLAYERS[seat].userid} is not to move"
        move = game.parse(before, seat, text)
        notation = game.notation(move)
        seen = tuple(game.move_text(before, seat, move, viewer) for viewer in (0, 1))
        number = len(self.log) + 1
        self.state = game.play(before, seat, move)
        self.log.append(Played(number, seat, notation, seen))

        player = PLAYERS[seat]
        self.server.send(
            player.address,
            f"{self.word} move {BOARD} {player.userid} {player.password} {text}#{number}",
        )
        replies = by_recipient(self.server.collect(2))
        assert set(replies) == {ALICE, BOB}
        for viewer, reader in enumerate(PLAYERS):
            reply = replies[reader.address]
            assert reply.subject == self.subject(), (number, reply.subject)
            lines = reply.body.splitlines()
            assert lines[0] == f"Summary of {self.title} Board {BOARD}"
            assert lines[2] == self.turn_line(), (number, lines[2])
            shown = notation if self.over else seen[viewer]
            assert f"{number:>3}. {shown}" in reply.body, (number, shown, reply.body)
            self.check_seats_and_board(reply.body, viewer)
            self.check_hidden_moves(reply.body, viewer)
        self.mails.append(replies)
        return replies

    def check_seats_and_board(self, body: str, viewer: int) -> None:
        seats = self.game.info.seats
        assert f"{seats[0]}: alice" in body and f"{seats[1]}: bob" in body
        assert self.game.render(self.state, viewer).rstrip("\n") in body, body
        if viewer in self.game.to_move(self.state):
            prompt = self.game.prompt(self.state, viewer)
            if prompt:
                assert prompt in body
        for player in PLAYERS:
            assert player.password not in body

    def check_hidden_moves(self, body: str, viewer: int) -> None:
        """Moves shown to `viewer` as '...' while the game runs never show their notation."""
        if self.over:
            return
        for played in self.log:
            if played.seen[viewer] != played.notation:
                assert f"{played.number:>3}. {played.seen[viewer]}" in body or \
                    played.number <= len(self.log) - 10, played  # the list shows recent moves
                assert f"{played.number:>3}. {played.notation}" not in body, played

    def check_over(self, reason_words: str) -> dict[str, Received]:
        """The last mails: no one to move, `Game won by`, and the reason in full."""
        outcome = self.game.result(self.state)
        assert outcome is not None
        assert reason_words in outcome.reason
        last = self.mails[-1]
        for reply in last.values():
            assert reply.subject == f"{self.title} Board {BOARD}"
            assert self.turn_line() in reply.body.splitlines()
            assert outcome.reason in " ".join(reply.body.split())
        return last

    def move_after_end_is_refused(self, seat: int, text: str) -> None:
        player = PLAYERS[seat]
        self.server.send(
            player.address, f"{self.word} move {BOARD} {player.userid} {player.password} {text}"
        )
        (reply,) = self.server.collect(1)
        assert reply.to == player.address
        assert reply.subject == f"{self.title} Board {BOARD} Error"
        assert f"Board {BOARD} is over; no more moves can be made." in reply.body
