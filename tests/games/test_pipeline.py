"""Pipeline: setup, liquid flow, probes, guesses and their cooldown, views and secrets."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from itertools import product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.pipeline import GAME
from pbm.games.pipeline.flow import (
    CELLS,
    Colour,
    Pipe,
    Reading,
    all_paths,
    liquid,
    random_pipe,
    readings,
)
from pbm.games.pipeline.state import Phase, Probe, State, SubmitPipe
from pbm.games.pipeline.view import EXAMPLE_PAWNS, EXAMPLE_PIPE
from tests.games.playout import random_playout, replay

B, Y, W = Colour.BLUE, Colour.YELLOW, Colour.WHITE
MISS, EMPTY = Reading.MISS, Reading.EMPTY
BLUE, YELLOW, GREEN = Reading.BLUE, Reading.YELLOW, Reading.GREEN

# The issue's own example: head B2, tail C4.
HEAD_PIPE = "B2-B3*-C3*-D3-D4*-C4"
TAIL_PIPE = "B2-A2-A3*-A4-B4*-B3-C3*-C4"


def pipe(text: str) -> Pipe:
    """A pipe from its notation, unchecked: for flow tests."""
    tokens = text.split("-")
    return Pipe(
        tuple(t.rstrip("*") for t in tokens),
        frozenset(t.rstrip("*") for t in tokens if t.endswith("*")),
    )


def play(state: State, seat: int, text: str) -> State:
    assert seat in GAME.to_move(state)
    return GAME.play(state, seat, GAME.parse(state, seat, text))


def play_turn(state: State, text: str) -> State:
    (seat,) = GAME.to_move(state)
    return play(state, seat, text)


def started(head_pipe: str = HEAD_PIPE, tail_pipe: str = TAIL_PIPE) -> State:
    """Coins on B2 and C4 and both pipelines in: Head to probe or guess."""
    state = GAME.start({}, 0)
    state = play(state, 0, "B2")
    state = play(state, 1, "C4")
    state = play(state, 1, tail_pipe)
    return play(state, 0, head_pipe)


def refused(state: State, text: str, error: type[Exception] = IllegalMove) -> str:
    """The message refusing `text` from the only seat to move."""
    (seat,) = GAME.to_move(state)
    with pytest.raises(error) as caught:
        GAME.parse(state, seat, text)
    return str(caught.value)


# ----- liquid flow ---------------------------------------------------------------------------

# Head A1, tail D4; the three holes sit together near the end.
LONG = pipe("A1-B1-C1-D1-D2-C2-B2-A2-A3-B3*-C3*-D3*-D4")


def colours(p: Pipe, pawns: dict[str, Colour]) -> list[str]:
    found = liquid(p, pawns)
    return [found[cell].value for cell in p.path]


def test_blue_upstream_of_yellow_turns_green_only_from_the_meeting_point():
    got = colours(LONG, {"B1": B, "D2": Y})
    assert got == [
        "empty", "blue", "blue", "blue",  # A1 (head), B1 the source, C1, D1
        "green", "green", "green", "green", "green",  # D2 (yellow joins) .. A3
        "green",  # B3, the first hole, coloured itself
        "empty", "empty", "empty",  # C3, D3, D4: nothing gets past B3
    ]


def test_yellow_upstream_of_blue_is_the_mirror_case():
    got = colours(LONG, {"B1": Y, "D2": B})
    assert got[1:4] == ["yellow"] * 3
    assert got[4:10] == ["green"] * 6


def test_a_downstream_source_never_colours_what_lies_upstream():
    got = colours(LONG, {"A2": B, "C1": Y})
    assert got[0:2] == ["empty", "empty"]  # A1, B1 above both sources
    assert got[2:7] == ["yellow"] * 5  # C1 .. B2: yellow alone
    assert got[7:10] == ["green"] * 3  # A2, where blue joins, A3, the hole B3


def test_a_hole_stops_the_flow_and_is_coloured_itself():
    p = pipe("A1-A2-A3*-A4-B4*-B3-C3*-C4")
    got = liquid(p, {"A2": B})
    assert got["A2"] is BLUE and got["A3"] is BLUE
    assert all(got[cell] is EMPTY for cell in ("A4", "B4", "B3", "C3", "C4"))


def test_a_source_on_a_hole_colours_only_that_hole():
    got = liquid(LONG, {"C3": Y})
    assert got["C3"] is YELLOW
    assert [cell for cell, r in got.items() if r is not EMPTY] == ["C3"]


def test_the_head_never_reads_miss_and_holds_liquid_only_from_a_source_on_it():
    assert readings(LONG, {"A1": W, "B1": B}) == (("A1", EMPTY),)
    assert readings(LONG, {"A1": B, "B1": W}) == (("B1", BLUE),)
    on_head = liquid(LONG, {"A1": Y})
    assert on_head["A1"] is YELLOW and on_head["B3"] is YELLOW


def test_the_tail_reads_the_colour_that_reaches_it():
    p = pipe("A1-B1*-C1*-D1*-D2-D3-D4")
    assert readings(p, {"D2": B, "D4": W}) == (("D4", BLUE),)
    assert readings(p, {"D2": B, "D3": Y, "D4": W}) == (("D4", GREEN),)
    assert readings(p, {"A1": B, "D4": W}) == (("D4", EMPTY),)  # held back by the hole B1


def test_two_sources_of_one_colour_never_make_green():
    got = colours(LONG, {"B1": B, "D2": B})
    assert set(got) == {"empty", "blue"}
    assert got[1:10] == ["blue"] * 9


def test_a_source_off_the_pipe_does_nothing_and_a_white_there_reads_miss():
    p = pipe("A1-A2-A3*-A4-B4*-B3-C3*-C4")
    assert set(liquid(p, {"D1": B, "D2": Y}).values()) == {EMPTY}
    assert readings(p, {"D1": B, "D3": W, "A2": W}) == (("A2", EMPTY), ("D3", MISS))


def test_the_help_pages_worked_example():
    got = liquid(EXAMPLE_PIPE, EXAMPLE_PAWNS)
    assert got["A1"] is EMPTY and got["A2"] is BLUE
    assert got["A3"] is GREEN and got["B3"] is GREEN and got["B2"] is GREEN
    assert {got[c] for c in ("C2", "C3", "D3", "D2", "D1")} == {EMPTY}
    assert readings(EXAMPLE_PIPE, EXAMPLE_PAWNS) == (
        ("A1", EMPTY),
        ("A4", MISS),
        ("B2", GREEN),
        ("C2", EMPTY),
    )


def simulated(p: Pipe, pawns: dict[str, Colour]) -> dict[str, Reading]:
    """Liquid found the slow way: pour, then let it trickle one square per tick."""
    wet: list[set[Colour]] = [set() for _ in p.path]
    for i, cell in enumerate(p.path):
        if pawns.get(cell) in (B, Y):
            wet[i].add(pawns[cell])
    for _ in p.path:
        for i in range(len(p.path) - 1):
            if p.path[i] not in p.holes:
                wet[i + 1] |= wet[i]
    names = {frozenset(): EMPTY, frozenset({B}): BLUE, frozenset({Y}): YELLOW}
    return {cell: names.get(frozenset(w), GREEN) for cell, w in zip(p.path, wet)}


@st.composite
def probe_positions(draw):
    head, tail = draw(st.lists(st.sampled_from(CELLS), min_size=2, max_size=2, unique=True))
    p = random_pipe(head, tail, random.Random(draw(st.integers(0, 2**32))))
    squares = draw(st.lists(st.sampled_from(CELLS), max_size=8, unique=True))
    kinds = [B, B, Y, Y, W, W, W, W]
    draw(st.randoms()).shuffle(kinds)
    return p, dict(zip(squares, kinds))


@settings(max_examples=300, deadline=None)
@given(probe_positions())
def test_flow_matches_a_tick_by_tick_simulation(position):
    p, pawns = position
    assert liquid(p, pawns) == simulated(p, pawns)
    for cell, reading in readings(p, pawns):
        assert (reading is MISS) == (cell not in p.path)
    assert all(r is not MISS for c, r in readings(p, pawns) if c in (p.head, p.tail))


# ----- setup ---------------------------------------------------------------------------------


def test_setup_order_and_simultaneous_pipelines():
    state = GAME.start({}, 7)
    assert GAME.to_move(state) == {0}
    state = play(state, 0, "b2")
    assert state.head == "B2" and GAME.to_move(state) == {1}
    state = play(state, 1, "c4")
    assert GAME.to_move(state) == {0, 1}
    after_tail = play(state, 1, TAIL_PIPE)
    assert GAME.to_move(after_tail) == {0}
    after_head = play(state, 0, HEAD_PIPE)
    assert GAME.to_move(after_head) == {1}
    for both in (play(after_tail, 0, HEAD_PIPE), play(after_head, 1, TAIL_PIPE)):
        assert both.phase is Phase.PLAY and GAME.to_move(both) == {0}
    assert play(after_tail, 0, HEAD_PIPE) == play(after_head, 1, TAIL_PIPE)


def test_coin_errors():
    state = GAME.start({}, 0)
    assert "A1 to D4" in refused(state, "E5", InvalidMove)
    assert "head coin" in refused(state, "", InvalidMove)
    assert len(list(GAME.legal_moves(state, 0))) == 16
    state = play(state, 0, "B2")
    with pytest.raises(IllegalMove, match="head coin is already on B2"):
        GAME.parse(state, 1, "b2")
    assert "B2" not in {GAME.notation(m) for m in GAME.legal_moves(state, 1)}
    assert len(list(GAME.legal_moves(state, 1))) == 15


@pytest.fixture
def coins() -> State:
    return play(play(GAME.start({}, 0), 0, "B2"), 1, "C4")


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("B2", InvalidMove, "not a single square"),
        ("", InvalidMove, "Write your pipeline as every square from the head coin"),
        ("B2,B3*,C3*,D3,D4*,C4", InvalidMove, "with '-', not ','"),
        ("B2-E3-C4", InvalidMove, "'E3' is not a square"),
        ("B2--B3*-C3*-D3-D4*-C4", InvalidMove, "empty step"),
        ("A2-B3*-C3*-D3-D4*-C4", IllegalMove, "starts at A2, but it must start at the head coin"),
        ("B2-B3*-C3*-D3-D4*", IllegalMove, "ends at D4, but it must end at the tail coin on C4"),
        ("B2-C3*-B3*-B4*-C4", IllegalMove, "from B2 to C3 is diagonal"),
        ("B2-B4*-A4*-A3*-B3-C3-C4", IllegalMove, "B2 and B4 are not next to each other"),
        ("B2-B2-B3*-C3*-D3-D4*-C4", IllegalMove, "lists B2 twice in a row"),
        ("B2-B3-A3*-A4-B4*-B3*-C3-C4", IllegalMove, "visits B3 twice"),
        ("B2-B3*-C3*-C4", IllegalMove, "only 2 squares between the head and the tail"),
        ("B2-C2-C3-C4", IllegalMove, "only 2 squares"),
        ("B2-B3*-C3*-D3-D4-C4", IllegalMove, "marks 2 holes; mark exactly 3"),
        ("B2-B3*-C3*-D3*-D4*-C4", IllegalMove, "marks 4 holes"),
        ("B2-B3-C3-D3-D4-C4", IllegalMove, "marks 0 holes"),
        ("B2*-B3*-C3*-D3-D4*-C4", IllegalMove, "head square B2 cannot be a hole"),
        ("B2-B3*-C3*-D3-D4*-C4*", IllegalMove, "tail square C4 cannot be a hole"),
        ("B@C3,W@A1", IllegalMove, "first send your own"),
        ("guess A2,B3,D4", IllegalMove, "first send your own"),
    ],
)
def test_pipeline_errors_say_exactly_what_is_wrong(coins, text, error, words):
    tail_sent = play(coins, 1, TAIL_PIPE)
    with pytest.raises(error) as caught:
        GAME.parse(tail_sent, 0, text)
    message = str(caught.value)
    assert words in message
    # The author's error never carries the other player's pipeline.
    assert TAIL_PIPE not in message and "A3, B4" not in message


def test_pipeline_is_read_case_insensitively_and_echoed_upper_case(coins):
    move = GAME.parse(coins, 0, " b2 - b3* - c3 * - d3 - d4* - c4 ")
    assert GAME.notation(move) == HEAD_PIPE
    assert GAME.parse(coins, 0, GAME.notation(move)) == move


def test_a_pipe_may_touch_itself_and_head_and_tail_may_be_neighbours():
    state = play(play(GAME.start({}, 0), 0, "A1"), 1, "A2")
    state = play(state, 0, "A1-B1-B2*-B3*-A3*-A2")  # B2 lies beside both A1 and A2
    (mine,) = [p for p in state.pipes if p is not None]
    assert mine.tail == "A2"
    # Only the order of the path counts: nothing leaks from A1 or B2 into A2 beside them.
    assert readings(mine, {"A1": B, "A2": W, "B1": W}) == (("A2", EMPTY), ("B1", BLUE))


def test_a_pipeline_cannot_be_sent_twice(coins):
    state = play(coins, 0, HEAD_PIPE)
    with pytest.raises(IllegalMove, match="already sent"):
        GAME.parse(state, 0, HEAD_PIPE)


def test_every_legal_pipeline_move_is_accepted_by_parse(coins):
    moves = list(GAME.legal_moves(coins, 0))
    texts = {GAME.notation(move) for move in moves}
    assert len(texts) == len(moves)
    assert len(moves) == sum(comb(len(p) - 2, 3) for p in all_paths("B2", "C4"))
    for move in moves[:: max(1, len(moves) // 300)]:
        assert GAME.parse(coins, 0, GAME.notation(move)) == move


# ----- probes --------------------------------------------------------------------------------


@pytest.fixture
def probed() -> State:
    """Head has put a blue pawn on C3 and a white one on A1; Tail to move."""
    return play_turn(started(), "B@C3,W@A1")


def test_a_probe_reads_every_white_pawn_on_both_pipelines():
    state = play_turn(started(), "y@a2, w@a4")
    assert state.board == {"A2": Y, "A4": W}
    (entry,) = state.log
    # Head's pipe misses A4; on Tail's the yellow from A2 stops in the hole A3.
    assert entry.readings == ((("A4", MISS),), (("A4", EMPTY),))
    # Blue on B3: a hole on Head's pipe, so Head's C3 stays empty; on Tail's it runs to C3.
    state = play_turn(state, "B@B3,W@C3")
    head_pipe, tail_pipe = state.pipes
    assert state.log[-1].readings == (
        readings(head_pipe, state.board),
        readings(tail_pipe, state.board),
    )
    assert state.log[-1].readings == (
        (("A4", MISS), ("C3", EMPTY)),
        (("A4", EMPTY), ("C3", BLUE)),
    )
    assert GAME.to_move(state) == {0}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("B@C3", "exactly two pawns"),
        ("B@D3,W@A4,Y@A2", "exactly two pawns"),
        ("G@D3,W@A4", "'G' is no pawn colour"),
        ("B@E3,W@A4", "'E3' is not a square"),
        ("hello,W@A4", "'hello' is not a pawn move"),
        ("", "exactly two pawns"),
    ],
)
def test_unreadable_probes(probed, text, words):
    assert words in refused(probed, text, InvalidMove)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("B@D3,B@D1", "Only one blue pawn is off the board, so you cannot place two"),
        ("A2-B1,W@C1", "There is no pawn on A2 to move"),
        ("C3-D3,C3-A4", "Both moves take the pawn on C3"),
        ("C3-C3,W@A4", "The pawn on C3 would end where it started"),
        ("B@D1,W@D1", "Both pawns would end on D1"),
        ("Y@C3,W@A4", "C3 already holds a blue pawn"),
        ("A1-C3,W@D1", "C3 already holds a blue pawn"),
    ],
)
def test_illegal_probes(probed, text, words):
    assert words in refused(probed, text)


def test_a_pawn_that_is_not_in_the_supply_cannot_be_placed(probed):
    state = play_turn(probed, "B@D3,W@A3")
    assert "Both blue pawns are already on the board" in refused(state, "B@A4,W@B1")
    state = play_turn(state, "W@A4,Y@D1")
    state = play_turn(state, "W@B4,Y@D2")
    assert state.supply()[W] == 0
    assert "All four white pawns are already on the board" in refused(state, "W@B1,C3-C2")


def test_swaps_same_colour_refused_different_colours_allowed(probed):
    state = play_turn(probed, "W@A3,Y@D1")
    message = refused(state, "A1-A3,A3-A1")
    assert "Swapping the two white pawns on A1 and A3 leaves the board as it was" in message
    swapped = play_turn(state, "A1-C3,C3-A1")
    assert swapped.board == {"A1": B, "C3": W, "A3": W, "D1": Y}


def test_pawns_move_at_once_onto_squares_just_left(probed):
    chained = play_turn(probed, "C3-D3,A1-C3")
    assert chained.board == {"D3": B, "C3": W}
    refilled = play_turn(probed, "C3-D3,W@C3")
    assert refilled.board == {"D3": B, "C3": W, "A1": W}


def test_probe_moves_match_a_brute_force_over_every_text(probed):
    state = play_turn(play_turn(probed, "Y@D1,W@A3"), "B@B1,W@C2")
    (seat,) = GAME.to_move(state)
    parts = [f"{c}@{cell}" for c in "BYW" for cell in CELLS]
    parts += [f"{a}-{b}" for a, b in product(CELLS, CELLS)]
    accepted = set()
    for i, first in enumerate(parts):
        for second in parts[i:]:
            try:
                move = GAME.parse(state, seat, f"{first},{second}")
            except (IllegalMove, InvalidMove):
                continue
            accepted.add(frozenset(GAME.notation(move).split(",")))
    listed = [m for m in GAME.legal_moves(state, seat) if not GAME.notation(m).startswith("g")]
    keys = [frozenset(GAME.notation(m).split(",")) for m in listed]
    assert len(keys) == len(set(keys)) and set(keys) == accepted


# ----- guesses -------------------------------------------------------------------------------


def any_probe(state: State) -> State:
    (seat,) = GAME.to_move(state)
    move = next(iter(GAME.legal_moves(state, seat)))
    return GAME.play(state, seat, move)


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("guess A2,B3", InvalidMove, "names three squares"),
        ("guess A2,B3,C1,D1", InvalidMove, "names three squares"),
        ("guess A2,B3,E9", InvalidMove, "'E9' is not a square"),
        ("guess A2,a2,B3", IllegalMove, "You named A2 twice"),
        ("guess B2,A3,B4", IllegalMove, "B2 holds the head coin"),
        ("guess A3,B4,C4", IllegalMove, "C4 holds the tail coin"),
    ],
)
def test_guess_errors(text, error, words):
    assert words in refused(started(), text, error)


def test_a_right_guess_wins_in_any_order():
    state = play_turn(started(), "GUESS c3 b4, a3")
    assert GAME.notation(state.log[-1].guess) == "guess A3,B4,C3"
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winners == {0}
    assert outcome.reason == "Head found Tail's holes at A3, B4 and C3."
    assert GAME.to_move(state) == frozenset()
    with pytest.raises(IllegalMove, match="over"):
        GAME.parse(state, 1, "guess B3,C3,D4")


def test_the_guess_cooldown_grows_with_every_wrong_guess():
    state = play_turn(started(), "guess A2,A4,B3")
    assert (state.wrong, state.owed) == ((1, 0), (1, 0))
    assert GAME.result(state) is None and GAME.to_move(state) == {1}
    state = any_probe(state)  # Tail's probes pay nothing off for Head
    assert "You still owe 1 probe since" in refused(state, "guess A3,B4,C3")
    state = any_probe(any_probe(state))
    assert state.owed == (0, 0)
    state = play_turn(state, "guess A1,A2,A4")
    assert (state.wrong, state.owed) == ((2, 0), (2, 0))
    state = any_probe(state)
    assert "You still owe 2 probes" in refused(state, "guess A3,B4,C3")
    state = any_probe(any_probe(state))
    assert "You still owe 1 probe" in refused(state, "guess A3,B4,C3")
    state = any_probe(any_probe(state))
    state = play_turn(state, "guess A1,A2,A3")
    assert (state.wrong, state.owed) == ((3, 0), (3, 0))
    for owed in (3, 2, 1):
        state = any_probe(state)
        assert f"You still owe {owed} probe" in refused(state, "guess A3,B4,C3")
        assert GAME.prompt(state, 0).count(f"{owed} probe") == 1
        state = any_probe(state)
    state = any_probe(state)
    assert state.owed == (0, 0) and GAME.to_move(state) == {0}
    state = play_turn(state, "guess A3,B4,C3")
    assert GAME.result(state).winners == {0}


def test_it_is_refused_to_move_out_of_turn():
    with pytest.raises(IllegalMove, match="Head's turn"):
        GAME.parse(started(), 1, "B@C3,W@A1")


# ----- views ---------------------------------------------------------------------------------


def test_move_list_hides_a_pipeline_from_all_but_its_author(coins):
    move = GAME.parse(coins, 1, TAIL_PIPE)
    assert GAME.move_text(coins, 1, move, 1) == TAIL_PIPE
    assert GAME.move_text(coins, 1, move, 0) == "..."
    assert GAME.move_text(coins, 1, move, None) == "..."
    state = started()
    for text in ("B@C3,W@A1", "guess A1,A2,A3"):
        move = GAME.parse(state, 0, text)
        assert {GAME.move_text(state, 0, move, v) for v in (0, 1, None)} == {text}


def test_each_reader_sees_only_their_own_pipeline_until_the_end():
    state = play_turn(play_turn(started(), "Y@A2,W@A4"), "B@B3,W@C3")
    head, tail, spectator = (GAME.render(state, v) for v in (0, 1, None))
    assert f"Your pipeline (Head): {HEAD_PIPE}" in head and TAIL_PIPE not in head
    assert f"Your pipeline (Tail): {TAIL_PIPE}" in tail and HEAD_PIPE not in tail
    assert HEAD_PIPE not in spectator and TAIL_PIPE not in spectator
    assert "Tail's pipeline: secret until the game ends." in head
    for text in (head, tail, spectator):
        assert "on Head's pipeline    miss    empty" in text
        assert "on Tail's pipeline    empty   blue" in text
        assert "   2. Tail  B@B3,W@C3   Head's: A4 miss    C3 empty" in text
    over = play_turn(state, "guess A3,B4,C3")
    for viewer in (0, 1, None):
        text = GAME.render(over, viewer)
        assert HEAD_PIPE in text and TAIL_PIPE in text
        assert "with its holes on A3, B4 and C3." in text


def test_setup_views_say_who_has_sent_a_pipeline(coins):
    state = play(coins, 1, TAIL_PIPE)
    assert "Tail's pipeline: sent." in GAME.render(state, 0)
    assert "Your pipeline (Head): not sent yet." in GAME.render(state, 0)
    assert "Head's pipeline: not sent yet." in GAME.render(state, None)
    assert "pipeline" in GAME.prompt(state, 0) and "B2 to C4" in GAME.prompt(state, 0)


def test_state_survives_json_and_play_never_mutates():
    state = play_turn(play_turn(started(), "guess A1,A2,A4"), "Y@A2,W@A4")
    before = json.dumps(GAME.encode(state), sort_keys=True)
    GAME.play(state, 0, GAME.parse(state, 0, "B@B3,W@C3"))
    assert json.dumps(GAME.encode(state), sort_keys=True) == before
    assert GAME.decode(json.loads(before)) == state
    assert GAME.decode(json.loads(json.dumps(GAME.encode(GAME.start({}, 0))))) == GAME.start({}, 0)


# ----- secrets -------------------------------------------------------------------------------


def hidden_forms(p: Pipe) -> list[str]:
    holes = p.sorted_holes()
    return [
        p.notation(),
        "-".join(p.path),
        f"{holes[0]}, {holes[1]} and {holes[2]}",
        ",".join(holes),
        " ".join(holes),
    ]


def scrubbed(state: State, seat: int, rng: random.Random) -> State:
    """The same game with `seat`'s pipeline swapped for another one."""
    real = state.pipes[seat]
    while True:
        other = random_pipe(state.head, state.tail, rng)
        if other != real:
            pipes = (other, state.pipes[1]) if seat == 0 else (state.pipes[0], other)
            return replace(state, pipes=pipes)


def reply(state: State, seat: int, text: str) -> str:
    try:
        return GAME.notation(GAME.parse(state, seat, text))
    except (IllegalMove, InvalidMove) as error:
        return f"error: {error}"


def check_secrets(state: State, rng: random.Random) -> None:
    for owner, p in enumerate(state.pipes):
        if p is None:
            continue
        fake = scrubbed(state, owner, rng)
        for viewer in (1 - owner, None):
            text = GAME.render(state, viewer)
            assert max(len(line) for line in text.splitlines()) < 78
            # Nothing in the view is even a function of the hidden pipeline.
            assert GAME.render(fake, viewer) == text
            # Guesses are public words of their author, who may well name their own holes.
            text = "\n".join(line for line in text.splitlines() if " guess " not in line)
            mine = state.pipes[viewer] if viewer is not None else None
            for form in hidden_forms(p):
                if mine is None or form not in hidden_forms(mine):
                    assert form not in text
        for seat in GAME.to_move(state) - {owner}:
            assert len(GAME.prompt(state, seat)) < 78
            assert GAME.prompt(fake, seat) == GAME.prompt(state, seat)
            guess = "guess " + ",".join(rng.sample(CELLS, 3))
            a, b, c = (rng.choice(CELLS) for _ in range(3))
            probe = f"{rng.choice('BYW')}@{a},{b}-{c}"
            for text in (guess, probe, p.notation()):
                assert reply(fake, seat, text) == reply(state, seat, text)


@pytest.mark.slow  # exhaustive or many random games
def test_no_view_or_reply_before_the_end_shows_the_other_pipeline():
    for seed in range(200):
        rng = random.Random(seed)
        state = GAME.start({}, seed)
        made = []
        while GAME.result(state) is None:
            seat = rng.choice(sorted(GAME.to_move(state)))
            move = GAME.random_move(state, seat, rng)
            made.append((state, seat, move))
            state = GAME.play(state, seat, move)
            if GAME.result(state) is None:
                check_secrets(state, rng)
        for before, seat, move in made:
            assert GAME.move_text(before, seat, move, seat) == GAME.notation(move)
            for viewer in (1 - seat, None):
                shown = GAME.move_text(before, seat, move, viewer)
                # Probes and guesses are public; a pipeline is only ever "...".
                secret = isinstance(move, SubmitPipe)
                assert shown == ("..." if secret else GAME.notation(move))


# ----- whole games ---------------------------------------------------------------------------


@pytest.mark.slow  # exhaustive or many random games
def test_random_playouts_end_and_replay():
    wrong_guesses = 0
    for seed in range(60):
        playout = random_playout(GAME, seed)
        assert playout.outcome is not None and len(playout.outcome.winners) == 1
        assert replay(GAME, playout.log) == playout.state
        wrong_guesses += sum(playout.state.wrong)
        for viewer in (0, 1, None):
            text = GAME.render(playout.state, viewer)
            assert max(len(line) for line in text.splitlines()) < 78
    assert wrong_guesses > 60  # the playouts do exercise the cooldown


def test_random_moves_are_legal_moves():
    def key(move) -> frozenset[str]:
        # A probe's two pawn moves may be written in either order.
        return frozenset(GAME.notation(move).split(","))

    rng = random.Random(5)
    state = started()
    for _ in range(6):
        (seat,) = GAME.to_move(state)
        legal = {key(m) for m in GAME.legal_moves(state, seat)}
        for _ in range(20):
            assert key(GAME.random_move(state, seat, rng)) in legal
        state = any_probe(state)


SCRIPT = [
    (0, "B2"),
    (1, "C4"),
    (1, TAIL_PIPE),
    (0, HEAD_PIPE),
    (0, "Y@A2,W@A4"),
    (1, "B@B3,W@C4"),
    (0, "guess A2,A4,B3"),
    (1, "W@D3,W@A3"),
    (0, "A4-B4,Y@D4"),
    (1, "guess B3,C3,D3"),
    (0, "B3-C3,A2-B3"),
    (1, "B@B2,D4-D2"),
    (0, "C4-A1,B2-A2"),
    (1, "guess b3 c3 d4"),
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
        for viewer, name in ((0, "Head"), (1, "Tail"), (None, "a spectator")):
            out.append(f"----- as {name} sees it -----")
            moves = [GAME.move_text(b, s, m, viewer) for b, s, m in made]
            out.append("moves: " + "  ".join(f"{i}. {t}" for i, t in enumerate(moves, 1)))
            if viewer in GAME.to_move(state):
                out.append(f"prompt: {GAME.prompt(state, viewer)}")
            out.append(GAME.render(state, viewer))
    outcome = GAME.result(state)
    out.append(f"result: {sorted(outcome.winners)} {outcome.reason}")
    golden("pipeline_playthrough", "\n".join(out) + "\n")


# ----- help ----------------------------------------------------------------------------------


def test_help_page_draws_the_worked_example():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Pipeline"
    for section in ("Introduction", "Rules", "Move notation", "References"):
        assert section in lines
    assert "[[" not in page and "]]" not in page
    assert "pipeline challenge userid1 userid2" in page
    assert EXAMPLE_PIPE.notation() in page
    assert "  1 | H W |     |     | T   |    1  H   .   .   T    1  o   .   .   o" in lines
    assert "    +-----+-----+-----+-----+       |   |   |   |       |   |   |   |" in lines
    assert "reads           empty   miss    green   empty" in lines
    assert max(len(line) for line in lines) < 78


# ----- the log in board mails and in `show` ----------------------------------------------------


def probes_only(state: State, count: int, rng: random.Random) -> State:
    """`count` random probes and no guess, so the game runs on."""
    for _ in range(count):
        (seat,) = GAME.to_move(state)
        move = GAME.random_move(state, seat, rng)
        while not isinstance(move, Probe):
            move = GAME.random_move(state, seat, rng)
        state = GAME.play(state, seat, move)
    return state


def log_numbers(text: str) -> list[int]:
    """The numbers of the log's entries, in order."""
    log = text.split("Probes and guesses, with what")[1]
    return [int(found) for found in re.findall(r"^ {1,3}(\d+)\. (?:Head|Tail) ", log, re.M)]


def test_a_board_mail_shows_the_last_ten_probes_and_show_the_whole_log():
    state = probes_only(started(), 14, random.Random(3))
    for viewer in (0, 1, None):
        short, full = GAME.render(state, viewer), GAME.render_full(state, viewer)
        assert log_numbers(short) == list(range(5, 15))
        assert ("  (1-4 not shown: 'pipeline show' with this board's number"
                " lists them all)") in short
        assert log_numbers(full) == list(range(1, 15)) and "not shown" not in full
        # Apart from the log's first four entries and the note, the two are the same.
        assert set(short.splitlines()) - set(full.splitlines()) == {
            ("  (1-4 not shown: 'pipeline show' with this board's number"
                " lists them all)")
        }


def test_guesses_among_the_last_ten_probes_are_kept():
    rng = random.Random(5)
    state = probes_only(started(), 11, rng)
    state = play_turn(state, "guess A1,A2,A3")  # Tail's, wrong: Head's holes are B3, C3, D4
    state = probes_only(state, 3, rng)
    short = GAME.render(state, None)
    assert log_numbers(short) == list(range(5, 16))
    assert "  12. Tail  guess A1,A2,A3  wrong" in short.splitlines()


def test_a_short_log_is_the_same_in_both():
    state = probes_only(started(), 10, random.Random(4))
    assert GAME.render(state, 0) == GAME.render_full(state, 0)
    assert "not shown" not in GAME.render(state, 0)


def test_the_prompts_examples_are_always_legal_moves() -> None:
    """Over random games: parse() accepts the prompt's example probe and guess for the seat
    to move, and where B@C3,W@A1 or A2,B3,C4 would be refused the prompt offers others."""
    others: set[str] = set()
    for seed in range(30):
        rng = random.Random(seed)
        state = GAME.start({}, seed)
        while GAME.result(state) is None:
            seat = min(GAME.to_move(state))
            prompt = GAME.prompt(state, seat)
            assert prompt is not None and len(prompt) <= 76, prompt
            if state.phase is Phase.PLAY:
                probe = re.search(r"\(e\.g\. (\S+)\)", prompt)
                assert probe, prompt
                GAME.parse(state, seat, probe.group(1))  # raises if the example is refused
                if probe.group(1) != "B@C3,W@A1":
                    others.add("probe")
                guess = re.search(r"\((guess \S+)\)", prompt)
                assert (guess is None) == bool(state.owed[seat]), prompt
                if guess:
                    GAME.parse(state, seat, guess.group(1))
                    if guess.group(1) != "guess A2,B3,C4":
                        others.add("guess")
            state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
    assert others == {"probe", "guess"}  # the cases the examples once got wrong came up
