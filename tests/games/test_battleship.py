"""Battleship: the published rules, each refusal, notation, renders, secrets and playouts.

The rules are Milton Bradley's ("Battleship: The Classic Naval Combat Game", the 1990
edition's instructions, which keep the fleet of 1967). Their placement rules read: "Place
each ship in any horizontal or vertical position, but not diagonally. Do not place a ship
so that any part of it overlaps letters, numbers, the edge of the grid or another ship. Do
not change the position of any ship once the game has begun." Play: "You and your opponent
will alternate turns, calling out one shot per turn"; a shot is answered hit or miss; a
ship whose every hole is hit is sunk and its owner says which; "Be the first to sink all 5
of your opponent's ships." The instructions give no worked game, so the examples here are
built on those sentences, each test quoting the one it checks.
"""

from __future__ import annotations

import json
import random

import pytest

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove, Outcome
from pbm.games.battleship.bots import BOTS, unaccounted_hits
from pbm.games.battleship.fleet import FLEET, Fleet, all_fleets, ship_options
from pbm.games.battleship.game import GAME, help_example, replay_texts
from pbm.games.battleship.seats import consistent_fleet, evidence
from pbm.games.battleship.state import HIT, MISS, BattleshipState, PlaceFleet, Shot, reports
from pbm.games.bots import think
from pbm.games.mcts import MCTSBot
from tests.games.playout import random_playout, replay

BLUE, RED = 0, 1
BLUE_FLEET = "A1-A5 C3-F3 H1-H3 J5-J7 E9-F9"
RED_FLEET = "B2-F2 J1-J4 D5-D7 F7-H7 H9-I9"


def placed() -> BattleshipState:
    return replay(GAME, [(BLUE, BLUE_FLEET), (RED, RED_FLEET)])


def shots(*texts: str, start: BattleshipState | None = None) -> BattleshipState:
    """The shots in turn after both fleets (Blue first)."""
    state = placed() if start is None else start
    for text in texts:
        (seat,) = GAME.to_move(state)
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    return state


def refusal(state: BattleshipState, seat: int, text: str, kind: type = IllegalMove) -> str:
    with pytest.raises(kind) as caught:
        GAME.parse(state, seat, text)
    return str(caught.value)


# ----- the game contract ---------------------------------------------------------------------


def test_registered_with_its_alias_and_info():
    assert registry.lookup("Battleships") is registry.lookup("BATTLESHIP") is GAME
    assert GAME.info.seats == ("Blue", "Red")
    assert GAME.info.hidden and GAME.info.rules_version == 1
    assert GAME.parse_options([]) == {}


def test_both_place_at_once_in_either_order_then_blue_shoots_first():
    # "Secretly place your fleet of 5 ships on your ocean grid. Your opponent does the same."
    state = GAME.start({}, 5)
    assert state == GAME.start({}, 0)  # nothing random in the rules
    assert GAME.to_move(state) == frozenset({BLUE, RED})
    after_red = GAME.play(state, RED, GAME.parse(state, RED, RED_FLEET))
    assert GAME.to_move(after_red) == frozenset({BLUE})
    both = GAME.play(after_red, BLUE, GAME.parse(after_red, BLUE, BLUE_FLEET))
    assert both == placed()  # the order of placing changes nothing
    assert GAME.to_move(both) == frozenset({BLUE})


def test_one_shot_per_turn_hit_or_miss():
    # "You and your opponent will alternate turns, calling out one shot per turn": a hit
    # does not earn another shot.
    state = shots("B2")  # a hit on Red's Carrier
    assert GAME.to_move(state) == frozenset({RED})
    state = shots("B2", "A1", "C2")
    assert reports(state.fleets, state.shots) == [HIT, HIT, HIT]
    assert GAME.to_move(state) == frozenset({RED})
    assert reports(shots("A1").fleets, shots("A1").shots) == [MISS]


def test_the_shot_on_a_ships_last_cell_sinks_it_and_it_is_named():
    # "When all holes in a ship are hit, the ship is sunk" and its owner must say which.
    state = shots("H9", "A1", "I9")
    assert reports(state.fleets, state.shots)[-1] == 4  # the Destroyer
    assert "You sank Red's Destroyer!" in GAME.render(state, BLUE)
    assert "Blue sank your Destroyer." in GAME.render(state, RED)
    assert "Blue sank Red's Destroyer." in GAME.render(state, None)


def test_sinking_the_whole_fleet_wins_at_once():
    # "Be the first to sink all 5 of your opponent's ships."
    red_cells = ["B2", "C2", "D2", "E2", "F2", "J1", "J2", "J3", "J4", "D5", "D6", "D7",
                 "F7", "G7", "H7", "H9", "I9"]
    water = [f"{c}10" for c in "ABCDEFGHIJ"] + [f"{c}8" for c in "ABCDEFG"]
    moves = [cell for pair in zip(red_cells, water, strict=True) for cell in pair][:-1]
    state = shots(*moves)
    assert GAME.result(state) == Outcome(
        frozenset({BLUE}),
        "Blue sank all five of Red's ships, the last the Destroyer at I9 on move 35.")
    assert GAME.to_move(state) == frozenset()
    assert refusal(state, RED, "A1") == "This game is over."
    # At the end both fleets are shown to everyone.
    for viewer in (BLUE, RED, None):
        text = GAME.render(state, viewer)
        assert BLUE_FLEET in text and RED_FLEET in text


def test_ships_may_touch_side_by_side_and_end_to_end():
    # The instructions forbid overlaps, diagonals and the grid's edge, never touching.
    state = GAME.start({}, 0)
    fleet = GAME.parse(state, BLUE, "A1-E1 A2-D2 E2-G2 A3-C3 D3-E3")
    assert GAME.notation(fleet) == "A1-E1 A2-D2 E2-G2 A3-C3 D3-E3"


# ----- refusals of a fleet ---------------------------------------------------------------


FLEET_HELP = ("Send your whole fleet in one move, each ship as its two end cells joined by "
              "'-': Carrier 5, Battleship 4, Cruiser 3, Submarine 3, Destroyer 2 cells long, "
              "e.g. A1-A5 C3-F3 H1-H3 J5-J7 E9-F9.")


@pytest.mark.parametrize(("text", "message"), [
    ("A1-A5 C3-F3 H1-H3 J5-J7 E9-F9 K1-K2",
     "K1 (in K1-K2) is off the board: the board runs from A1 to J10 (columns A to J, rows 1 "
     "to 10)."),
    ("A1-A5 C3-F3 H1-H3 J5-J7 E10-E11",
     "E11 (in E10-E11) is off the board: the board runs from A1 to J10 (columns A to J, rows "
     "1 to 10)."),
    ("A1-A5 C3-F6 H1-H3 J5-J7 E9-F9",
     "C3-F6 is not straight: a ship lies along a row or down a column, never diagonally."),
    ("A1-A6 C3-F3 H1-H3 J5-J7 E9-F9",
     "A1-A6 is 6 cells long; the ships are 5 (Carrier), 4 (Battleship), 3 (Cruiser and "
     "Submarine) and 2 (Destroyer) cells long."),
    ("A1-A5 C3-F3 H1-H3 J5-J7 E9-G9",
     "You sent three ships 3 cells long (H1-H3, J5-J7 and E9-G9); the fleet has two: the "
     "Cruiser and the Submarine."),
    ("A1-A5 C3-F3 H1-H3 J5-J7", "Your fleet lacks the Destroyer (2 cells). " + FLEET_HELP),
    ("A1-A5 H1-H3", "Your fleet lacks the Battleship (4 cells), the Submarine (3 cells) and "
     "the Destroyer (2 cells). " + FLEET_HELP),
    ("A1-A5 C3-F3 H1-H3 J5-J7 A5-B5",
     "Your Carrier A1-A5 and Destroyer A5-B5 overlap at A5: ships may touch but never share "
     "a cell."),
    ("carrier A1-A4 C3-F3 H1-H3 J5-J7 E9-F9",
     "Your Carrier A1-A4 is 4 cells long; a Carrier is 5."),
    ("cruiser H1-H3 C3-F3 A1-A5 cruiser J5-J7 E9-F9",
     "You placed the Cruiser twice (H1-H3 and J5-J7); a fleet has one of each ship."),
    ("A1-A1 C3-F3 H1-H3 J5-J7 E9-F9",
     "A1-A1 is 1 cell long; the ships are 5 (Carrier), 4 (Battleship), 3 (Cruiser and "
     "Submarine) and 2 (Destroyer) cells long."),
])
def test_a_refused_fleet_says_exactly_what_is_wrong(text, message):
    assert refusal(GAME.start({}, 0), BLUE, text) == message


@pytest.mark.parametrize(("text", "words"), [
    ("", FLEET_HELP),
    ("A1 A5 C3-F3", "Write each ship as its two end cells joined by '-', e.g. A1-A5 (at "
     "'A1 A5 C3')"),
    ("frigate A1-A3", "'frigate' is no ship of the fleet: the ships are Carrier, Battleship, "
     "Cruiser, Submarine and Destroyer."),
    ("A1-A5 C3-F3 * H1-H3", "Cannot read '*' in your fleet."),
    ("carrier", "Write your Carrier as its two end cells joined by '-', e.g. A1-A5."),
    ("A1-" + "9" * 5000, "That is too long for a fleet."),
    ("A123456-A5", "Cannot read 'A123456-A5' in your fleet."),
])
def test_an_unreadable_fleet_says_how_to_write_one(text, words):
    message = refusal(GAME.start({}, 0), BLUE, text, InvalidMove)
    assert words in message and len(message) < 600
    assert "e.g. A1-A5 C3-F3 H1-H3 J5-J7 E9-F9" in message or words == FLEET_HELP


def test_a_shot_before_both_fleets_and_a_second_fleet_are_refused():
    start = GAME.start({}, 0)
    assert refusal(start, BLUE, "E5") == "Shots start once both fleets are placed. " + \
        FLEET_HELP
    half = GAME.play(start, BLUE, GAME.parse(start, BLUE, BLUE_FLEET))
    assert refusal(half, BLUE, RED_FLEET) == (
        "You have already placed your fleet; it cannot be moved. Shots start once both "
        "fleets are in.")
    assert refusal(placed(), BLUE, RED_FLEET) == (
        "Your fleet is placed and cannot be moved; now shoot at one cell, e.g. E5.")


# ----- refusals of a shot ----------------------------------------------------------------


def test_a_cell_shot_before_is_refused_with_when_and_what_it_was():
    state = shots("E5", "A1", "B2", "C3")
    assert refusal(state, BLUE, "e5") == (
        "You shot at E5 on move 3: a miss. Shoot at a cell you have not shot at yet (98 "
        "cells left), such as E4, D5 or F5.")
    assert refusal(state, BLUE, "B2").startswith("You shot at B2 on move 5: a hit. ")
    sunk = shots("H9", "A1", "I9", "B1")
    assert refusal(sunk, BLUE, "I9").startswith(
        "You shot at I9 on move 5: a hit that sank Red's Destroyer. ")
    # A hit that did not sink says only "a hit": which ship it struck is not told.
    assert "Carrier" not in refusal(state, BLUE, "B2")


@pytest.mark.parametrize(("text", "message", "kind"), [
    ("K5", "K5 is off the board: the board runs from A1 to J10 (columns A to J, rows 1 to "
     "10).", IllegalMove),
    ("A0", "A0 is off the board", IllegalMove),
    ("A11", "A11 is off the board", IllegalMove),
    ("fire!", "'fire!' is not a shot. A shot is one cell: a column letter A to J and a row "
     "number 1 to 10, e.g. E5.", InvalidMove),
    ("E5 F6", "'E5 F6' is not a shot.", InvalidMove),
    ("E" + "5" * 4000, "is not a shot", InvalidMove),
])
def test_an_impossible_shot_says_why(text, message, kind):
    assert message in refusal(placed(), BLUE, text, kind)


def test_shooting_out_of_turn_is_refused():
    assert refusal(placed(), RED, "A1") == "It is Blue's turn to shoot, not yours."


# ----- notation ------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    BLUE_FLEET,
    "a1-a5 c3-f3 h1-h3 j5-j7 e9-f9",
    "  A1 - A5 ,C3-F3;H1-H3  J5-J7,E9-F9  ",
    "A5-A1 F3-C3 H3-H1 J7-J5 F9-E9",  # either end first
    "E9-F9 C3-F3 A1-A5 H1-H3 J5-J7",  # any order: ships are known by length
    "destroyer E9-F9, sub J5-J7, cruiser H1-H3, battleship C3-F3, aircraft carrier A1-A5",
    "a 1-a 5 c3-f3 h1-h3 j5-j7 e9-f9",
])
def test_a_fleet_is_read_forgivingly_and_written_canonically(text):
    move = GAME.parse(GAME.start({}, 0), BLUE, text)
    assert GAME.notation(move) == BLUE_FLEET


def test_the_first_three_cell_ship_written_is_the_cruiser():
    move = GAME.parse(GAME.start({}, 0), BLUE, "A1-A5 C3-F3 J5-J7 H1-H3 E9-F9")
    assert isinstance(move, PlaceFleet)
    assert GAME.notation(move) == "A1-A5 C3-F3 J5-J7 H1-H3 E9-F9"
    assert [p.notation() for p in move.fleet.ships][2] == "J5-J7"  # the Cruiser


@pytest.mark.parametrize("text", ["E5", "e5", " e 5 ", "E-5", "e - 5"])
def test_a_shot_is_read_forgivingly(text):
    move = GAME.parse(placed(), BLUE, text)
    assert move == Shot(44) and GAME.notation(move) == "E5"


def test_every_notation_round_trips():
    rng = random.Random(2)
    for _ in range(50):
        move = GAME.random_move(GAME.start({}, 0), BLUE, rng)
        assert GAME.parse(GAME.start({}, 0), BLUE, GAME.notation(move)) == move
    state = placed()
    for move in GAME.legal_moves(state, BLUE):
        assert GAME.parse(state, BLUE, GAME.notation(move)) == move


# ----- moves for bots and playouts ---------------------------------------------------------


def test_legal_moves_are_every_fleet_lazily_and_every_new_cell():
    first = next(iter(GAME.legal_moves(GAME.start({}, 0), BLUE)))
    assert GAME.notation(first) == "A1-E1 F1-I1 A2-C2 D2-F2 G2-H2"
    assert len(list(GAME.legal_moves(shots("E5", "A1"), BLUE))) == 99
    assert list(GAME.legal_moves(shots("E5"), BLUE)) == []


def test_ship_options_are_all_placements_that_leave_room_for_the_rest():
    # With the longest ship first, every non-overlapping prefix can be completed.
    assert len(ship_options(())) == 120
    carrier = next(iter(all_fleets())).ships[0]
    # A Battleship has 140 placements; on A1-E1 lie 5 across row 1 and 5 down A to E.
    assert carrier.notation() == "A1-E1"
    assert len(ship_options((carrier,))) == 140 - 5 - 5


def test_random_moves_are_legal_and_fleets_look_uniform():
    rng = random.Random(4)
    across = 0
    for _ in range(400):
        move = GAME.random_move(GAME.start({}, 0), BLUE, rng)
        assert isinstance(move, PlaceFleet)
        GAME.parse(GAME.start({}, 0), BLUE, GAME.notation(move))
        across += move.fleet.ships[0].across
    assert 150 < across < 250  # a Carrier lies across or down alike
    state = shots("E5", "A1")
    for _ in range(200):
        assert GAME.random_move(state, BLUE, rng).cell not in state.shots[::2]


def test_random_playouts_end_with_a_sunk_fleet_and_replay():
    for seed in range(6):
        playout = random_playout(GAME, seed)
        assert playout.outcome is not None and len(playout.outcome.winners) == 1
        assert replay(GAME, playout.log) == playout.state
        for viewer in (BLUE, RED, None):
            text = GAME.render(playout.state, viewer)
            assert max(len(line) for line in text.splitlines()) <= 76


def test_encode_decode_round_trip_through_json():
    for state in (GAME.start({}, 0), replay_texts(help_example()[:1]), placed(),
                  replay_texts(help_example()), GAME.conclude(placed(), Outcome(frozenset()))):
        data = json.loads(json.dumps(GAME.encode(state)))
        restored = GAME.decode(data)
        assert restored == state and restored.fired == state.fired
    assert GAME.encode(shots("E5", "J10")) == {
        "fleets": [BLUE_FLEET, RED_FLEET], "shots": "E5 J10", "concluded": False}


# ----- what each viewer sees ----------------------------------------------------------------


def test_renders_fit_76_columns_at_every_step():
    rng = random.Random(9)
    state = GAME.start({}, 9)
    while GAME.to_move(state):
        for viewer in (BLUE, RED, None):
            assert max(map(len, GAME.render(state, viewer).splitlines())) <= 76
        seat = min(GAME.to_move(state))
        state = GAME.play(state, seat, GAME.random_move(state, seat, rng))


def test_the_board_shows_the_last_shot_and_the_tally():
    state = shots("H9", "A1", "I9")
    text = GAME.render(state, BLUE)
    assert "Last shot: by you at I9 (move 5): a hit." in text
    assert "  9  .  .  .  .  .  .  . (X) X  ." not in text  # the last shot is I9, not H9
    assert "  9  .  .  .  .  .  .  .  X (X) ." in text
    assert "Blue: 2 shots, 2 hits; 4 of Red's ships afloat." in text
    assert "Red: 1 shot, 1 hit; 5 of Blue's ships afloat." in text
    assert "Hits on your fleet: Carrier 1 of 5." in text
    assert "Last shot: by Blue at I9 (move 5): a hit." in GAME.render(state, RED)


def test_resignation_reveals_both_fleets():
    state = GAME.conclude(shots("E5"), Outcome(frozenset({RED}), "Blue resigned."))
    assert GAME.to_move(state) == frozenset()
    for viewer in (BLUE, RED, None):
        text = GAME.render(state, viewer)
        assert BLUE_FLEET in text and RED_FLEET in text
        assert "secret" not in text


def fleet_texts(fleet: Fleet) -> list[str]:
    """Every way a text could give a fleet away: its notation, each ship's span (both ways)."""
    found = [fleet.notation()]
    for ship in fleet.ships:
        a, b = ship.notation().split("-")
        found += [f"{a}-{b}", f"{b}-{a}"]
    return found


def seen_by(state: BattleshipState, seat: int | None, made: list) -> list[str]:
    """Everything the rules let `seat` read: the board, the move list, the prompt, and the
    refusals of a few moves (one of them the opponent's own fleet)."""
    texts = [GAME.render(state, seat), *(GAME.move_text(b, s, m, seat) for b, s, m in made)]
    if seat is None or seat not in GAME.to_move(state):
        return texts
    texts.append(GAME.prompt(state, seat) or "")
    other = state.fleets[1 - seat]
    tries = ["A1", "J10", "E5", "K1", "A1-A5 C3-F3 H1-H3 J5-J7 E9-F9"]
    if other is not None:
        tries.append(other.notation())
    for text in tries:
        try:
            GAME.parse(state, seat, text)
        except (IllegalMove, InvalidMove) as refused:
            texts.append(str(refused))
    return texts


def test_no_view_move_text_prompt_or_refusal_shows_a_fleet_before_the_end():
    rng = random.Random(11)
    for game in range(6):
        state = GAME.start({}, game)
        made: list = []
        while GAME.to_move(state):
            seat = rng.choice(sorted(GAME.to_move(state)))
            move = GAME.random_move(state, seat, rng)
            made.append((state, seat, move))
            state = GAME.play(state, seat, move)
            if GAME.result(state) is not None:
                break
            for viewer in (BLUE, RED, None):
                hidden = [state.fleets[s] for s in (BLUE, RED) if s != viewer]
                for text in seen_by(state, viewer, made):
                    for fleet in hidden:
                        if fleet is not None:
                            assert fleet.notation() not in text
                            # Spans of ships can be named by a player's own guesses (the
                            # refusals quote what was sent): test on the board alone.
                            # (not those the viewer's own fleet has too).
                            own = state.fleets[viewer] if viewer is not None else None
                            mine = {s.notation() for s in own.ships} if own else set()
                            if text.startswith(("Your", "Blue", "Red")) and "\n" in text:
                                assert not any(ship.notation() in text
                                               for ship in fleet.ships
                                               if ship.notation() not in mine)


def twin(state: BattleshipState, seat: int, rng: random.Random) -> BattleshipState | None:
    """The same game with another opponent fleet that every report agrees with."""
    other = 1 - seat
    real = state.fleets[other]
    assert real is not None
    told = reports(state.fleets, state.shots)
    for _ in range(20):
        fleet = consistent_fleet(evidence(state.shots, told, seat), rng)
        assert fleet is not None
        if fleet != real:
            fleets = (state.fleets[0], fleet) if other == 1 else (fleet, state.fleets[1])
            changed = GAME.decode({**GAME.encode(state), "fleets": [
                None if f is None else f.notation() for f in fleets]})
            assert reports(changed.fleets, changed.shots) == told
            return changed
    return None


def test_a_seat_cannot_tell_two_enemy_fleets_that_every_report_agrees_with():
    rng = random.Random(12)
    compared = 0
    for game in range(4):
        state = GAME.start({}, game)
        while GAME.result(state) is None:
            seat = min(GAME.to_move(state))
            state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
            if not state.placed or len(state.shots) % 9:
                continue
            for viewer in (BLUE, RED):
                other = twin(state, viewer, rng)
                if other is None or GAME.result(other) is not None:
                    continue
                compared += 1
                assert GAME.seat_view(other, viewer) == GAME.seat_view(state, viewer)
                assert GAME.render(other, viewer) == GAME.render(state, viewer)
                if viewer in GAME.to_move(state):
                    assert GAME.prompt(other, viewer) == GAME.prompt(state, viewer)
                    for text in ("A1", "E5", "J10", "B7"):
                        assert _answer(other, viewer, text) == _answer(state, viewer, text)
                    for strength in ("easy", "good", "best")[:1 + compared % 3]:
                        assert think(GAME, other, viewer, strength, 5, 5.0) == think(
                            GAME, state, viewer, strength, 5, 5.0)
    assert compared > 12


def _answer(state: BattleshipState, seat: int, text: str) -> str:
    try:
        return GAME.notation(GAME.parse(state, seat, text))
    except (IllegalMove, InvalidMove) as refused:
        return str(refused)


# ----- bots ------------------------------------------------------------------------------


def test_sampled_states_agree_with_the_view_they_come_from():
    rng = random.Random(13)
    for game in range(5):
        state = GAME.start({}, game)
        while GAME.result(state) is None:
            for seat in (BLUE, RED):
                view = GAME.seat_view(state, seat)
                hash(view)
                sample = GAME.sample_state(view, seat, rng)
                assert GAME.seat_view(sample, seat) == view
                assert GAME.to_move(sample) == GAME.to_move(state)
            seat = min(GAME.to_move(state))
            state = GAME.play(state, seat, GAME.random_move(state, seat, rng))


def test_the_sampler_honours_every_kind_of_report():
    # Blue has hit B2 and C2 (Red's Carrier, afloat), missed E5, and sunk the Destroyer
    # with H9 then I9: every sample has a ship over B2 and C2, water on E5, and the
    # Destroyer exactly on H9-I9.
    state = shots("B2", "A1", "C2", "A2", "E5", "A3", "H9", "A4", "I9")
    found = evidence(state.shots, reports(state.fleets, state.shots), BLUE)
    rng = random.Random(1)
    for _ in range(100):
        fleet = consistent_fleet(found, rng)
        assert fleet is not None
        assert fleet.ships[4].notation() == "H9-I9"
        assert fleet.ship_at(11) is not None and fleet.ship_at(12) is not None
        assert fleet.ship_at(44) is None
        # No ship but the Destroyer lies wholly on shot cells: none other was reported sunk.
        for index, mask in enumerate(fleet.masks[:4]):
            assert mask & ~found.fired, index
    assert unaccounted_hits(found) == (1 << 11) | (1 << 12)


def test_the_own_bots_play_legal_moves_and_beat_random_shooting():
    assert {name: bot.strength for name, bot in BOTS.items()} == {"good": "good", "best": "best"}
    lengths = {}
    for strength in ("easy", "good", "best"):
        state = replay(GAME, [(BLUE, BLUE_FLEET), (RED, RED_FLEET)])
        count = 0
        while GAME.result(state) is None:
            (seat,) = GAME.to_move(state)
            if seat == BLUE:
                move = think(GAME, state, BLUE, strength, count, 5.0)
                count += 1
            else:
                move = Shot(next(c for c in range(100) if not state.fired[RED] >> c & 1))
            text = GAME.notation(move)
            state = GAME.play(state, seat, GAME.parse(state, seat, text))
            if count > 100:
                break
        lengths[strength] = count
    # Red's shots in reading order sink Blue's fleet by its 79th; the bots must be faster.
    assert lengths["best"] < lengths["good"] < 79, lengths
    assert lengths["best"] < 60


def test_bots_place_a_fleet_and_monte_carlo_search_works_on_the_views():
    start = GAME.start({}, 0)
    for strength in ("easy", "good", "best"):
        move = think(GAME, start, RED, strength, 1, 5.0)
        assert isinstance(move, PlaceFleet)
    state = shots("E5", "A1", "B2")
    move = MCTSBot(strength="test", playouts=30).choose(
        GAME, GAME.seat_view(state, RED), RED, random.Random(1), 10.0)
    assert isinstance(move, Shot) and move.cell not in state.shots[1::2]


# ----- the golden playthrough and the help page ---------------------------------------------


SCRIPT = [
    (RED, "destroyer h9-i9, carrier b2-f2, battleship j1-j4, cruiser d5-d7, sub f7-h7"),
    (BLUE, " a1-a5 , c3-f3 , h1-h3 , j5-j7 , e9-f9 "),
    (BLUE, "e5"), (RED, "A1"), (BLUE, "e 6"), (RED, "A2"), (BLUE, "H9"), (RED, "A3"),
    (BLUE, "I9"), (RED, "A4"), (BLUE, "B2"), (RED, "A5"),
]


def test_golden_playthrough(golden):
    state = GAME.start({}, 0)
    made = []
    out = []
    for number, (seat, text) in enumerate(SCRIPT, start=1):
        move = GAME.parse(state, seat, text)
        made.append((state, seat, move))
        state = GAME.play(state, seat, move)
        out.append(f"===== move {number}: {GAME.info.seats[seat]} sends {text} =====")
        for viewer, name in ((BLUE, "Blue"), (RED, "Red"), (None, "a spectator")):
            out.append(f"----- as {name} sees it -----")
            moves = [GAME.move_text(b, s, m, viewer) for b, s, m in made]
            out.append("moves: " + "  ".join(f"{i}. {t}" for i, t in enumerate(moves, 1)))
            if viewer in GAME.to_move(state):
                out.append(f"prompt: {GAME.prompt(state, viewer)}")
            out.append(GAME.render(state, viewer))
    golden("battleship_playthrough", "\n".join(out) + "\n")


def test_help_page_draws_the_worked_example():
    page = GAME.help_page()
    assert page.splitlines()[0] == "Help For Battleship"
    assert "battleship challenge userid1 userid2" in page
    assert "    Your fleet: A1-A5 C3-F3 H1-H3 J5-J7 E9-F9" in page
    assert "    You sank Red's Destroyer!" not in page  # Red shot last: B6, a miss
    assert "      Blue sank Red's Destroyer." in page
    for ship in FLEET:
        assert f"{ship.name}" in page
