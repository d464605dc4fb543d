"""Battleship against OpenSpiel's `battleship`, placement by placement and shot by shot.

OpenSpiel's parameters are set to the Milton Bradley game pbm plays: ships of 5, 4, 3, 3
and 2 cells in pbm's order (Carrier, Battleship, Cruiser, Submarine, Destroyer: OpenSpiel
places its ships in the order of `ship_sizes`, default [2;3;3;4;5]), no shot at a cell
twice, and 100 shots each, so that shots never run out before a fleet is sunk.

The mapping, written once: a cell is `row * 10 + col` in both (A1 is 0, J10 is 99), which is
also OpenSpiel's shot action; a ship across a row with its left end on cell n is action
100 + n, one down a column with its top end on n is 200 + n.

pbm takes each fleet whole, from both seats at once and in either order; OpenSpiel has the
players place one ship each in turn (player 0's first ship, player 1's first, ...). So the
bridge holds the first fleet sent until the second is in, then plays the ten placements in
OpenSpiel's order, comparing before each that OpenSpiel allows exactly the placements of
that ship that pbm's rules allow after the ships before it (those from which a whole legal
fleet can still be made: fleet.ship_options, each option's completed fleet read back by
pbm's own parse). Shots are compared as in every bridge: legal shots, whose turn, the end
and the winner.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from pbm.games.battleship.fleet import (
    CELLS,
    FLEET,
    LENGTHS,
    SIZE,
    Fleet,
    Placement,
    cell_name,
    placements,
    random_fleet,
    ship_options,
)
from pbm.games.battleship.game import GAME
from pbm.games.battleship.notation import Written, check_fleet
from pbm.games.battleship.state import BattleshipState, PlaceFleet, Shot
from tests.games.openspiel.harness import Actions, Bridge, bridge

ACROSS, DOWN = 100, 200  # OpenSpiel's offsets of a placement action by its direction
SPIEL_PARAMS = {
    "board_width": SIZE,
    "board_height": SIZE,
    "ship_sizes": "[" + ";".join(str(length) for length in LENGTHS) + "]",
    "ship_values": "[" + ";".join("1" for _ in LENGTHS) + "]",
    "num_shots": CELLS,
    "allow_repeated_shots": False,
}


def placement_action(ship: Placement) -> int:
    return (ACROSS if ship.across else DOWN) + ship.bow


def placement_of(action: int, length: int) -> Placement:
    """The pbm placement of OpenSpiel's placement `action` for a ship of `length`."""
    across = action < DOWN
    return Placement(action - (ACROSS if across else DOWN), across, length)


@dataclass
class Table:
    """OpenSpiel's state and what the bridge holds beside it: the fleet sent first (until
    the other is in) and a disagreement found while playing the placements."""

    spiel: Any
    waiting: dict[int, Fleet] = field(default_factory=dict)
    problem: str | None = None


class _TableGame:
    def __init__(self, game: Any) -> None:
        self.game = game

    def new_initial_state(self) -> Table:
        return Table(self.game.new_initial_state())


@bridge("battleship")
class BattleshipBridge(Bridge):
    game = GAME
    spiel_name = "battleship"
    spiel_params = SPIEL_PARAMS
    differences = (
        "OpenSpiel has the players place one ship each in turn, player 0 first; pbm takes "
        "each whole fleet at once, secretly from both players, in either order (the bridge "
        "interleaves them). Both allow the same placements.",
        "OpenSpiel scores by the value of the ships sunk and ends when each player has "
        "fired num_shots shots (50 by default), a draw or a win on points with both fleets "
        "afloat; the published rules end only when a fleet is sunk (num_shots=100 here, "
        "so shots never run out).",
        "OpenSpiel allows a shot at a cell shot before unless allow_repeated_shots=False "
        "(its default is True); the published rules and pbm refuse it.",
        "OpenSpiel tells a player only that a shot sank a ship (S); the published rules and "
        "pbm name the ship sunk.",
    )

    def spiel_game(self) -> Any:
        return _TableGame(pyspiel.load_game(self.spiel_name, dict(self.spiel_params)))

    def actions(self, state: BattleshipState, seat: int, move: Any) -> Actions:
        if isinstance(move, PlaceFleet):
            return tuple(placement_action(ship) for ship in move.fleet.ships)
        return (move.cell,)

    def describe(self, actions: Actions, spiel_state: Any) -> str:
        raw = spiel_state.spiel if isinstance(spiel_state, Table) else spiel_state
        return super().describe(actions, raw)

    def compare(self, state: BattleshipState, spiel_state: Any) -> str | None:
        table: Table = spiel_state
        if table.problem is not None:
            return table.problem
        if not state.placed:
            spiel = table.spiel
            if spiel.is_terminal() or spiel.history():
                return f"pbm waits for fleets, OpenSpiel has played {spiel.history()}"
            if spiel.current_player() != 0:
                return f"OpenSpiel has player {spiel.current_player()} to place first"
            seats = self.game.to_move(state)
            expected = frozenset({0, 1}) - frozenset(table.waiting)
            if seats != expected:
                return f"pbm has seats {sorted(seats)} to place, not {sorted(expected)}"
            return None
        return super().compare(state, table.spiel)

    def step(self, state: BattleshipState, spiel_state: Any, seat: int,
             move: Any) -> tuple[Any, Any]:
        table: Table = spiel_state
        after = self.game.play(state, seat, move)
        if isinstance(move, Shot):
            table.spiel.apply_action(move.cell)
            return after, table
        table.waiting[seat] = move.fleet
        if len(table.waiting) == 2:
            self._place(table)
        return after, table

    def _place(self, table: Table) -> None:
        """The ten placements in OpenSpiel's order, each compared before it is made."""
        spiel = table.spiel
        for ship in range(len(FLEET)):
            for player in (0, 1):
                fleet = table.waiting[player]
                if spiel.current_player() != player:
                    table.problem = (f"OpenSpiel has player {spiel.current_player()} to "
                                     f"place ship {ship}, pbm player {player}")
                    return
                ours = {placement_action(p) for p in self.options(fleet.ships[:ship])}
                theirs = set(spiel.legal_actions())
                if ours != theirs:
                    table.problem = (
                        f"placements of player {player}'s {FLEET[ship].name} after "
                        f"{[p.notation() for p in fleet.ships[:ship]]} differ: only pbm "
                        f"{sorted(ours - theirs)[:5]}, only OpenSpiel "
                        f"{sorted(theirs - ours)[:5]}")
                    return
                spiel.apply_action(placement_action(fleet.ships[ship]))
        table.waiting.clear()

    def options(self, placed: tuple[Placement, ...]) -> list[Placement]:
        """pbm's placements of the next ship after `placed`: those fleet.ship_options
        finds a whole fleet for, each such fleet checked by the rules' own check_fleet (so
        a fleet the rules would refuse can never pass for a legal prefix; the fleets
        played are read by parse() itself, from their notation)."""
        found = []
        for option in ship_options(placed):
            fleet = complete((*placed, option))
            assert fleet is not None, "ship_options offered a placement with no fleet"
            # As written, without names: what parse() checks once it has read the text.
            written = [Written(None, (cell_name(p.bow), cell_name(p.stern)))
                       for p in fleet.ships]
            assert check_fleet(written) == fleet
            found.append(option)
        return found

    def choose(self, state: BattleshipState, seat: int, rng: random.Random,
               biased: bool) -> Any:
        if not biased:
            return self.game.random_move(state, seat, rng)
        if not state.placed:
            return PlaceFleet(packed_fleet(rng))
        return Shot(targeted_shot(state, seat, rng))


def complete(placed: tuple[Placement, ...]) -> Fleet | None:
    """The first whole fleet (in placements() order) that begins with `placed`."""
    taken = sum(p.mask for p in placed)
    if len(placed) == len(FLEET):
        return Fleet(placed)
    for option in placements(LENGTHS[len(placed)]):
        if not option.mask & taken:
            found = complete((*placed, option))
            if found is not None:
                return found
    return None


def packed_fleet(rng: random.Random) -> Fleet:
    """A fleet whose ships touch each other and the edges more than random ones do: the
    best of a few random fleets by cells beside another ship or the board's edge (the
    placements random play seldom tries: ships end to end, side by side, in corners)."""

    def crowding(fleet: Fleet) -> int:
        score = 0
        for mask in fleet.masks:
            others = fleet.mask & ~mask
            for cell in range(CELLS):
                if not mask >> cell & 1:
                    continue
                row, col = divmod(cell, SIZE)
                score += row in (0, SIZE - 1) or col in (0, SIZE - 1)
                for near_row, near_col in ((row - 1, col), (row + 1, col), (row, col - 1),
                                           (row, col + 1)):
                    if 0 <= near_row < SIZE and 0 <= near_col < SIZE:
                        score += others >> (near_row * SIZE + near_col) & 1
        return score

    return max((random_fleet(rng) for _ in range(12)), key=crowding)


def targeted_shot(state: BattleshipState, seat: int, rng: random.Random) -> int:
    """Mostly a cell beside one of the seat's hits (so ships sink and games end in fewer
    shots, as between players who aim), else any new cell."""
    fired = state.fired[seat]
    target = state.fleets[1 - seat]
    assert target is not None
    hits = fired & target.mask
    beside = []
    for cell in range(CELLS):
        if fired >> cell & 1:
            continue
        row, col = divmod(cell, SIZE)
        for near_row, near_col in ((row - 1, col), (row + 1, col), (row, col - 1),
                                   (row, col + 1)):
            if 0 <= near_row < SIZE and 0 <= near_col < SIZE and \
                    hits >> (near_row * SIZE + near_col) & 1:
                beside.append(cell)
                break
    if beside and rng.random() < 0.8:
        return rng.choice(beside)
    return rng.choice([cell for cell in range(CELLS) if not fired >> cell & 1])
