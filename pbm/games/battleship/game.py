"""Battleship's rule module: reading and checking moves, playing them, storing the state."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, Outcome, Viewer
from pbm.games.battleship.bots import BOTS
from pbm.games.battleship.fleet import (
    CELLS,
    FLEET,
    NAMES,
    all_fleets,
    cell_name,
    random_fleet,
)
from pbm.games.battleship.notation import (
    FLEET_EXAMPLE,
    FLEET_HELP,
    looks_like_shot,
    read_fleet,
    read_shot,
)
from pbm.games.battleship.seats import BattleshipView, sample_state, seat_view
from pbm.games.battleship.state import (
    SEATS,
    BattleshipState,
    Move,
    Phase,
    PlaceFleet,
    Shot,
    move_number,
    report_words,
    reports,
    with_fired,
)
from pbm.games.battleship.view import render_lines
from pbm.games.text import or_list, plural

# Past this many shots of one seat, random_move lists the cells left instead of drawing
# cells until one is new (which would take ever more draws near the end of a playout).
DRAW_UNTIL = 60


class Battleship(Game[BattleshipState, Move]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="battleship",
        title="Battleship",
        seats=SEATS,
        rules_version=1,
        aliases=("battleships",),
        hidden=True,
        summary="Place a secret fleet, then shoot in turn; sink all five enemy ships to win.",
    )

    def start(self, options: dict[str, Any], seed: int) -> BattleshipState:
        return BattleshipState()

    # ----- playing ---------------------------------------------------------------------

    def to_move(self, state: BattleshipState) -> frozenset[int]:
        phase = state.phase
        if phase is Phase.PLACING:
            return frozenset(seat for seat in (0, 1) if state.fleets[seat] is None)
        if phase is Phase.SHOOTING:
            return frozenset({state.turn})
        return frozenset()

    def parse(self, state: BattleshipState, seat: int, text: str) -> Move:
        phase = state.phase
        if phase is Phase.OVER:
            raise IllegalMove("This game is over.")
        if phase is Phase.PLACING:
            if state.fleets[seat] is not None:
                raise IllegalMove("You have already placed your fleet; it cannot be moved. "
                                  "Shots start once both fleets are in.")
            if looks_like_shot(text):
                raise IllegalMove(f"Shots start once both fleets are placed. {FLEET_HELP}")
            return PlaceFleet(read_fleet(text))
        if seat != state.turn:
            raise IllegalMove(f"It is {SEATS[state.turn]}'s turn to shoot, not yours.")
        if not looks_like_shot(text) and "-" in text:
            raise IllegalMove("Your fleet is placed and cannot be moved; now shoot at one "
                              f"cell, e.g. {self._example_shot(state, seat)}.")
        cell = read_shot(text)
        self._check_new(state, seat, cell)
        return Shot(cell)

    def _check_new(self, state: BattleshipState, seat: int, cell: int) -> None:
        """A cell may be shot at only once by each player: say when it was, and its answer."""
        if not state.fired[seat] >> cell & 1:
            return
        index = next(i for i in range(seat, len(state.shots), 2) if state.shots[i] == cell)
        told = reports(state.fleets, state.shots[:index + 1])[index]
        left = CELLS - state.fired[seat].bit_count()
        some = or_list(self._fresh_cells(state, seat, near=cell, count=3))
        owner = f"{SEATS[1 - seat]}'s"
        raise IllegalMove(
            f"You shot at {cell_name(cell)} on move {move_number(index)}: "
            f"{report_words(told, owner)}. Shoot at a cell you have not shot at yet "
            f"({plural(left, 'cell')} left), such as {some}.")

    @staticmethod
    def _fresh_cells(state: BattleshipState, seat: int, near: int, count: int) -> list[str]:
        """Up to `count` cells `seat` has not shot at, nearest `near` first (in reading
        order where equally near): the examples a refusal offers."""
        fired = state.fired[seat]
        row, col = divmod(near, 10)
        free = [c for c in range(CELLS) if not fired >> c & 1]
        free.sort(key=lambda c: (abs(c // 10 - row) + abs(c % 10 - col), c))
        return [cell_name(c) for c in free[:count]]

    def _example_shot(self, state: BattleshipState, seat: int) -> str:
        """The prompt's example: E5, or the fresh cell nearest it (the seat's own shots
        alone decide it, so it tells nothing)."""
        return self._fresh_cells(state, seat, near=44, count=1)[0]

    def play(self, state: BattleshipState, seat: int, move: Move) -> BattleshipState:
        if isinstance(move, PlaceFleet):
            fleets = (move.fleet, state.fleets[1]) if seat == 0 else (state.fleets[0], move.fleet)
            return replace(state, fleets=fleets)
        fired = state.fired
        shot = 1 << move.cell
        return BattleshipState(
            state.fleets, (*state.shots, move.cell), state.concluded,
            (fired[0] | shot, fired[1]) if seat == 0 else (fired[0], fired[1] | shot))

    def notation(self, move: Move) -> str:
        if isinstance(move, PlaceFleet):
            return move.fleet.notation()
        return cell_name(move.cell)

    def move_text(self, state: BattleshipState, seat: int, move: Move, viewer: Viewer) -> str:
        # A fleet is secret from all but its owner while the game runs; shots are public.
        if isinstance(move, PlaceFleet) and viewer != seat:
            return "..."
        return self.notation(move)

    def result(self, state: BattleshipState) -> Outcome | None:
        winner = state.winner()
        if winner is None:
            return None
        loser = 1 - winner
        index = len(state.shots) - 1
        last = reports(state.fleets, state.shots)[index]
        ship = FLEET[last].name if last >= 0 else "last ship"
        return Outcome(
            frozenset({winner}),
            f"{SEATS[winner]} sank all five of {SEATS[loser]}'s ships, the last the "
            f"{ship} at {cell_name(state.shots[index])} on move {move_number(index)}.")

    def conclude(self, state: BattleshipState, outcome: Outcome) -> BattleshipState:
        return replace(state, concluded=True)

    def prompt(self, state: BattleshipState, seat: int) -> str | None:
        phase = state.phase
        if phase is Phase.PLACING and state.fleets[seat] is None:
            return f"Place your five ships at once, e.g. {FLEET_EXAMPLE}."
        if phase is Phase.SHOOTING and seat == state.turn:
            return f"Shoot at a cell you have not shot at, e.g. {self._example_shot(state, seat)}."
        return None

    # ----- moves for tests, bots and playouts -------------------------------------------

    def legal_moves(self, state: BattleshipState, seat: int) -> Iterator[Move]:
        phase = state.phase
        if phase is Phase.PLACING and state.fleets[seat] is None:
            yield from (PlaceFleet(fleet) for fleet in all_fleets())
        elif phase is Phase.SHOOTING and seat == state.turn:
            fired = state.fired[seat]
            yield from (Shot(cell) for cell in range(CELLS) if not fired >> cell & 1)

    def random_move(self, state: BattleshipState, seat: int, rng: random.Random) -> Move:
        """A uniformly random legal move, cheaply: a fleet by random_fleet (uniform over
        all legal fleets), a shot by drawing cells until one is new while most are."""
        if not state.placed:
            return PlaceFleet(random_fleet(rng))
        fired = state.fired[seat]
        if fired.bit_count() < DRAW_UNTIL:
            while True:
                cell = rng.randrange(CELLS)
                if not fired >> cell & 1:
                    return Shot(cell)
        return Shot(rng.choice([c for c in range(CELLS) if not fired >> c & 1]))

    # ----- bots ------------------------------------------------------------------------

    def seat_view(self, state: BattleshipState, seat: int) -> BattleshipView:
        """The seat's fleet, every shot and what it was told; the opponent's fleet only
        once the game is over."""
        return seat_view(state, seat)

    def sample_state(self, view: BattleshipView, seat: int,
                     rng: random.Random) -> BattleshipState:
        """The opponent's fleet drawn among those that agree with every hit, miss and
        sinking reported (seats.consistent_fleet)."""
        return sample_state(view, rng)

    def own_bots(self) -> Mapping[str, Any]:
        """Hunt and target as good, shots by the odds over sampled fleets as best."""
        return BOTS

    # ----- storing ---------------------------------------------------------------------

    def encode(self, state: BattleshipState) -> Any:
        return {
            "fleets": [None if fleet is None else fleet.notation() for fleet in state.fleets],
            "shots": " ".join(cell_name(cell) for cell in state.shots),
            "concluded": state.concluded,
        }

    def decode(self, data: Any) -> BattleshipState:
        fleets = [None if text is None else read_fleet(text) for text in data["fleets"]]
        index = {name: cell for cell, name in enumerate(NAMES)}
        shots = tuple(index[name] for name in data["shots"].split())
        return with_fired((fleets[0], fleets[1]), shots, bool(data.get("concluded", False)))

    # ----- showing ---------------------------------------------------------------------

    def render(self, state: BattleshipState, viewer: Viewer) -> str:
        return "\n".join(render_lines(state, viewer)) + "\n"

    def help_figures(self) -> dict[str, str]:
        example = help_example()
        return {
            "placed fleet": self.render(replay_texts(example[:1]), 0),
            "mid game": self.render(replay_texts(example), 0),
        }


def help_example() -> list[tuple[int, str]]:
    """The help page's worked example: two fleets, then a dozen shots (Blue sinks Red's
    Destroyer with its sixth)."""
    return [
        (0, FLEET_EXAMPLE),
        (1, "B2-F2 J1-J4 D5-D7 F7-H7 H9-I9"),
        *[(i % 2, text) for i, text in enumerate(
            ["E5", "A1", "E6", "C3", "H8", "J5", "H9", "D5", "G9", "E9", "I9", "B6"])],
    ]


def replay_texts(moves: list[tuple[int, str]]) -> BattleshipState:
    """The state after these (seat, text) moves from the start."""
    state = GAME.start({}, 0)
    for seat, text in moves:
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    return state


GAME = Battleship()
