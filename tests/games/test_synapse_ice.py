"""Synapse-Ice: the source's sample play, the pointing rules, errors, playouts and the help page."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games.base import IllegalMove, InvalidMove, UserError
from pbm.games.synapse_ice.game import (
    ALL_SQUARES,
    GAME,
    GRID,
    MAX_PLACEMENTS,
    SAMPLE_OPENING,
    SAMPLE_PLAY,
    STASH,
    Cell,
    SynapseState,
)
from tests.games.playout import random_playout, replay

RED, GREEN = 0, 1

# ----- the source's sample play, reconstructed ---------------------------------------------
#
# The source describes a sample play but its diagrams are lost. Its statements, with X the
# square Red's last piece points at:
#   (a) Red has just laid a 1-pointer pointing up at X;
#   (b) Green's only options on X are 1-left and 2-right; 3-right would also do, but Green has
#       no 3-pointer left (so it is the only 3-pointer move that points at an empty square);
#   (c) after 1-left Red could win at once with 2-down;
#   (d) after 2-right Red has exactly 3-left, 2-up, 1-right and 1-down, and plays 1-right;
#   (e) Green then has exactly 2-up, 1-up and 1-down, and plays 1-up;
#   (f) Red's only move is 2-down, then Green's only move is 1-left, then Red's only move is
#       3-up, after which Green has no legal move and Red wins;
#   (g) Green could have forced a win in the third diagram (at (e)), and Red could have forced
#       a win in the second (at (d)).
# Working backwards from (a)-(f) on a 6x5 board pins X to C3 (column C or B, row 3; we take C):
# the later moves land on E3, F3, F2, F4, E4 and E1, and the squares the refused moves point
# at must be full (C2, C1, D3, A3, C5, E2, E5, F5, D2, B4, A5, D5) while those the allowed
# moves point at stay empty. The stash statements fix the counts: Green has placed all five
# 3-pointers and three 1-pointers (he needs exactly the two 1-pointers he plays, since from E1
# a 1-pointer east would point at empty F1), and Red has one 1-pointer left (1-up from F2
# would point at empty F1). A search for a legal chain of placements through those squares
# from the empty board gave OPENING: 19 placements, Red's last being C4:1N. Statement (g) was
# then checked by exhaustive search below: Red wins at (d) with E3:1S, Green at (e) with
# F3:1S or F3:2N.
OPENING = [
    "D5:1N", "D4:1N", "D3:1N", "D2:1N", "D1:3W", "A1:2S", "A3:2S", "A5:3N", "A2:2E", "C2:3S",
    "C5:3E", "F5:1W", "E5:3N", "E2:3W", "B2:2S", "B4:3N", "B1:1E", "C1:3S", "C4:1N",
]  # fmt: skip
# Each step of the sample: the move played and the options the source lists before it.
SAMPLE = [
    ("C3:2E", {"C3:1W", "C3:2E"}),
    ("E3:1E", {"E3:3W", "E3:2N", "E3:1E", "E3:1S"}),
    ("F3:1N", {"F3:2N", "F3:1N", "F3:1S"}),
    ("F2:2S", {"F2:2S"}),
    ("F4:1W", {"F4:1W"}),
    ("E4:3N", {"E4:3N"}),
]


def log_of(texts: list[str]) -> list[tuple[int, str]]:
    """A move log with seats alternating from Red."""
    return [(i % 2, text) for i, text in enumerate(texts)]


def position(texts: list[str]) -> SynapseState:
    return replay(GAME, log_of(texts))


def legal(state: SynapseState) -> set[str]:
    return {GAME.notation(m) for m in GAME.legal_moves(state, state.turn)}


def listed_moves(state: SynapseState) -> set[str]:
    """The legal moves as render() lists them after 'legal moves (n):'."""
    text = GAME.render(state, None)
    listing = text[text.index("legal moves (") :]
    count, _, moves = listing.partition("):")
    assert int(count[len("legal moves (") :]) == len(moves.split())
    return set(moves.split())


@cache
def mover_wins(state: SynapseState) -> bool:
    """Whether the player to move can force a win (exhaustive; fine for nearly full boards)."""
    if GAME.result(state) is not None:
        return False
    return any(
        not mover_wins(GAME.play(state, state.turn, m))
        for m in GAME.legal_moves(state, state.turn)
    )


def test_module_sample_matches_the_reconstruction() -> None:
    # The help page draws the module's copy; it must be this documented one.
    assert list(SAMPLE_OPENING) == OPENING
    assert list(SAMPLE_PLAY) == [move for move, _ in SAMPLE]


def test_sample_first_position() -> None:
    state = position(OPENING)
    assert state.placements == 19 and state.turn == GREEN
    red_last = state.at(GRID.named("C4"))
    assert red_last is not None and (red_last.owner, red_last.size) == (RED, 1)
    assert red_last.direction.value == "N" and state.forced == GRID.named("C3")
    assert state.stashes[GREEN] == (2, 4, 0)  # no 3-pointer left
    assert legal(state) == {"C3:1W", "C3:2E"} == listed_moves(state)
    # With a 3-pointer Green could also point east, and only east.
    armed = replace(state, stashes=(state.stashes[RED], (2, 4, 1)))
    assert {t for t in legal(armed) if ":3" in t} == {"C3:3E"}


def test_sample_pointing_left_loses_at_once() -> None:
    state = position([*OPENING, "C3:1W"])
    assert "B3:2S" in legal(state)
    after = GAME.play(state, RED, GAME.parse(state, RED, "2S"))
    outcome = GAME.result(after)
    assert outcome is not None and outcome.winners == {RED}
    assert outcome.reason == "Green has no piece that can point from B5 at an empty square."


def test_sample_options_at_every_step() -> None:
    state = position(OPENING)
    for move, options in SAMPLE:
        assert GAME.result(state) is None
        assert legal(state) == options == listed_moves(state)
        state = GAME.play(state, state.turn, GAME.parse(state, state.turn, move))
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winners == {RED}
    assert outcome.reason == "Green has no piece that can point from E1 at an empty square."
    assert GAME.to_move(state) == frozenset()


def test_sample_final_position_is_stuck_by_the_stash() -> None:
    # From E1 a 1-pointer east would point at empty F1: Green is stuck because his
    # 1-pointers (and 3-pointers) are used up; 2-pointers only reach full squares.
    state = position([*OPENING, *(move for move, _ in SAMPLE)])
    assert state.at(GRID.named("F1")) is None
    assert state.stashes[GREEN][0] == 0 and state.stashes[GREEN][2] == 0
    assert state.stashes[GREEN][1] > 0
    assert list(GAME.legal_moves(state, GREEN)) == []


def winning_moves(texts: list[str]) -> set[str]:
    """The moves after which the player who made them can force a win."""
    state = position(texts)
    return {t for t in legal(state) if not mover_wins(position([*texts, t]))}


def test_sample_forced_wins_exist() -> None:
    # The source's second diagram (Red to move on E3) and third (Green to move on F3).
    assert winning_moves([*OPENING, "C3:2E"]) == {"E3:1S"}
    assert winning_moves([*OPENING, "C3:2E", "E3:1E"]) == {"F3:1S", "F3:2N"}


# ----- help page ---------------------------------------------------------------------------


def test_help_page_draws_the_sample_with_the_renderer() -> None:
    page = GAME.help_page()
    assert page.startswith("Help For Synapse-Ice\n")
    for section in ("Introduction", "Rules", "Move notation", "References"):
        assert f"\n{section}\n" in page
    assert "synapse-ice challenge userid1 userid2" in page
    assert "[[" not in page
    steps = [move for move, _ in SAMPLE]
    for played in (0, 1, 2, 6):
        diagram = GAME.render(position([*OPENING, *steps[:played]]), None).rstrip("\n")
        assert diagram in page
    assert all(len(line) < 78 for line in page.splitlines())


# ----- pointing ----------------------------------------------------------------------------


def test_first_move_anywhere_but_pointing_on_the_board() -> None:
    start = GAME.start({}, 0)
    assert GAME.result(start) is None and GAME.to_move(start) == {RED}
    corner = {t for t in legal(start) if t.startswith("A1:")}
    assert corner == {"A1:1E", "A1:2E", "A1:3E", "A1:1S", "A1:2S", "A1:3S"}
    # 30 squares x 3 sizes x 4 directions, less the moves pointing off the board.
    off_board = sum(
        1
        for col in range(6)
        for row in range(5)
        for size in (1, 2, 3)
        for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0))
        if Cell(col + size * dc, row + size * dr) not in GRID
    )
    assert len(legal(start)) == 30 * 12 - off_board
    assert "Red lays the first piece on any square, e.g. C3:2E." in GAME.render(start, None)


def test_pointing_jumps_over_occupied_squares() -> None:
    state = position(["B1:1E", "C1:1E"])  # pieces on B1 and C1; Red must play on D1
    move = GAME.parse(state, RED, "3W")  # points at A1 over C1 and B1
    assert GAME.notation(move) == "D1:3W"
    after = GAME.play(state, RED, move)
    assert after.forced == GRID.named("A1") and GAME.result(after) is None
    piece = after.at(GRID.named("D1"))
    assert piece is not None and piece.code == "R3<"


def test_every_later_move_goes_on_the_pointed_square() -> None:
    state = position(["B2:2S"])
    assert state.forced == GRID.named("B4")
    assert {m.square for m in GAME.legal_moves(state, GREEN)} == {GRID.named("B4")}
    assert list(GAME.legal_moves(state, RED)) == []  # not Red's turn


RUN_OUT = ["A1:3E", "D1:1E", "E1:3S", "E4:1N", "E3:3W", "B3:1N", "B2:3E", "E2:1E", "F2:3S",
           "F5:1N"]  # fmt: skip


def test_pieces_run_out() -> None:
    # Red has laid all five 3-pointers; from F4 a 3-pointer north (F1) or west (C4) would
    # point at an empty square, but Red has none left.
    state = position(RUN_OUT)
    assert state.stashes[RED] == (5, 5, 0) and state.forced == GRID.named("F4")
    for square in ("F1", "C4"):
        assert state.at(GRID.named(square)) is None
    assert all(m.size != 3 for m in GAME.legal_moves(state, RED))
    assert legal(state)  # Red can still move with smaller pieces
    with pytest.raises(IllegalMove) as err:
        GAME.parse(state, RED, "3N")
    assert str(err.value) == (
        "You have no 3-pointer (large piece) left; your stash holds "
        "5 small (1), 5 medium (2), 0 large (3)."
    )


def test_game_ends_as_soon_as_the_mover_is_stuck() -> None:
    state = position([*OPENING, "C3:1W"])
    after = GAME.play(state, RED, GAME.parse(state, RED, "B3:2S"))
    assert GAME.to_move(after) == frozenset()
    assert GAME.render(after, GREEN).rstrip().endswith(
        "Green has no piece that can point from B5 at an empty square."
    )


# ----- reading moves -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["2E", "2e", "C3:2E", "c3:2e", "C3 2E", "c3-2e", "C32E", "MR", "m r", "2 R", " 2E "]
)
def test_spellings_of_one_move(text: str) -> None:
    state = position(OPENING)
    assert GAME.notation(GAME.parse(state, GREEN, text)) == "C3:2E"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("A1:SS", "A1:1S"), ("a1:lr", "A1:3E"), ("E5:3U", "E5:3N"), ("F5:1L", "F5:1W"),
     ("b2:md", "B2:2S"), ("B12E", "B1:2E")],
)  # fmt: skip
def test_sizes_and_directions(text: str, canonical: str) -> None:
    assert GAME.notation(GAME.parse(GAME.start({}, 0), RED, text)) == canonical


@pytest.mark.parametrize(
    ("moves", "seat", "text", "error", "message"),
    [
        ([], RED, "hello", InvalidMove,
         ("Cannot read 'hello' as a move. Write the size (1-3 or S/M/L) and the direction "
         "(N/E/S/W or U/R/D/L), e.g. 2E; the first move also names its square, e.g. C3:2E.")),
        ([], RED, "4E", InvalidMove, "Cannot read '4E' as a move."),
        ([], RED, "2E", InvalidMove,
         "The first piece may go on any square, so name it, e.g. C3:2E."),
        ([], RED, "G3:1W", InvalidMove,
         "There is no square G3: the board has columns A-F and rows 1-5 (e.g. C3:2E)."),
        ([], RED, "A6:1N", InvalidMove, "There is no square A6:"),
        ([], RED, "A1:1N", IllegalMove,
         "A 1-pointer on A1 pointing north would point off the board."),
        ([], RED, "F3:2E", IllegalMove,
         "A 2-pointer on F3 pointing east would point off the board."),
        (OPENING, GREEN, "D3:2E", IllegalMove,
         "Your piece must go on C3, the square the last piece points at, not on D3."),
        (OPENING, GREEN, "3E", IllegalMove,
         ("You have no 3-pointer (large piece) left; your stash holds 2 small (1), "
         "4 medium (2), 0 large (3).")),
        (OPENING, GREEN, "1N", IllegalMove,
         ("A 1-pointer on C3 pointing north would point at C2, which holds Green's "
         "3-pointer; it must point at an empty square.")),
        (OPENING, GREEN, "C3:2S", IllegalMove,
         ("A 2-pointer on C3 pointing south would point at C5, which holds Red's 3-pointer; "
         "it must point at an empty square.")),
    ],
)  # fmt: skip
def test_errors(moves, seat, text, error, message) -> None:
    state = position(moves)
    with pytest.raises(error) as err:
        GAME.parse(state, seat, text)
    assert str(err.value).startswith(message)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ABCFGZ0123679:- SMLNESWURDLx", max_size=8))
def test_any_text_parses_or_gives_a_user_error(text: str) -> None:
    state = position(OPENING)
    try:
        move = GAME.parse(state, GREEN, text)
    except UserError as err:
        assert str(err)
    else:
        assert GAME.notation(move) in {"C3:1W", "C3:2E"}


# ----- whole games -------------------------------------------------------------------------


@pytest.mark.slow  # exhaustive or many random games
def test_random_playouts_end_within_29_placements() -> None:
    # After k placements k squares are full and the last piece points at another, empty,
    # one: k + 1 <= 30, so k <= 29 (the stashes, 15 pieces each, do not bind first: Red lays
    # at most 15, Green at most 14). 29 itself cannot happen (test_29_placements_are_
    # impossible), so the module's MAX_PLACEMENTS is 28, which random games do reach.
    lengths = set()
    for seed in range(300):
        play = random_playout(GAME, seed, max_moves=40)
        assert play.outcome is not None, f"seed {seed} did not end"
        state = play.state
        lengths.add(len(play.log))
        assert len(play.log) == state.placements <= MAX_PLACEMENTS < 29
        assert play.outcome.winners == {1 - state.turn}
        assert list(GAME.legal_moves(state, state.turn)) == []
        assert all(n >= 0 for stash in state.stashes for n in stash)
    assert min(lengths) < 16 and max(lengths) == MAX_PLACEMENTS == 28


def test_29_placements_are_impossible() -> None:
    # A 29th placement needs all 30 squares on the path p0 -> p1 -> ... -> p29, and Red (who
    # lays placements 1, 3, ..., 29) must have laid all 15 pieces, each pairing p(2i) with
    # p(2i+1): the 30 squares split into 15 Red pairs. A 1- or 3-pointer's pair has one light
    # and one dark square of the checkerboard, a 2-pointer's pair two of one colour; ten mixed
    # pairs hold 10 light squares, and the five 2-pointer pairs can only add an even number,
    # never the 5 more the board has.
    assert len(ALL_SQUARES) == 30 == 2 * 3 * STASH  # both stashes together fill the board
    light = sum((s.col + s.row) % 2 == 0 for s in ALL_SQUARES)
    assert light == 15
    mixed_pairs = 2 * STASH  # Red's 1-pointers and 3-pointers
    assert all(mixed_pairs + 2 * light_pairs != light for light_pairs in range(STASH + 1))


LONGEST = [
    "D3:2S", "D5:1W", "C5:1W", "B5:1N", "B4:3E", "E4:1E", "F4:1N", "F3:2N", "F1:1W", "E1:1S",
    "E2:3S", "E5:1E", "F5:3N", "F2:3W", "C2:1E", "D2:2W", "B2:1S", "B3:3E", "E3:2W", "C3:2W",
    "A3:2S", "A5:3N", "A2:2S", "A4:2E", "C4:3N", "C1:2W", "A1:3E", "D1:3S",
]  # fmt: skip


def test_a_game_of_28_placements() -> None:
    state = position(LONGEST)  # random_playout seed 16
    empty = [s.name for s in ALL_SQUARES if state.at(s) is None]
    assert state.placements == 28 and empty == ["B1", "D4"]
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winners == {GREEN}
    # Red's last piece is a 2-pointer; D2, F4 and B4 are full, and B1 is not in line with D4.
    assert state.stashes[RED] == (0, 1, 0)
    assert outcome.reason == "Red has no piece that can point from D4 at an empty square."


def test_at_most_twelve_moves_after_the_first() -> None:
    for seed in range(40):
        log = random_playout(GAME, 1000 + seed).log
        for n in range(1, len(log)):
            state = replay(GAME, log[:n])
            assert len(legal(state)) <= 12


def test_state_is_immutable_and_round_trips() -> None:
    state = position(OPENING)
    snapshot = GAME.encode(state)
    GAME.play(state, GREEN, GAME.parse(state, GREEN, "2E"))
    assert GAME.encode(state) == snapshot
    assert GAME.decode(json.loads(json.dumps(snapshot))) == state


def test_prompt_names_the_square() -> None:
    assert GAME.prompt(GAME.start({}, 0), RED) == (
        "Lay your first piece on any square, e.g. C3:2E."
    )
    assert GAME.prompt(position(OPENING), GREEN) == (
        "Your piece goes on C3: send its size and direction, e.g. 2E."
    )


def example_in(prompt: str) -> str:
    found = re.fullmatch(r".*, e\.g\. (\S+)\.", prompt)
    assert found, prompt
    return found.group(1)


def test_the_prompts_example_is_always_a_legal_move() -> None:
    """Over random games: parse() accepts the example for the seat to move, and where 2E
    would be refused the prompt offers another move."""
    others = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.start({}, 0)
        while GAME.result(state) is None:
            (seat,) = GAME.to_move(state)
            prompt = GAME.prompt(state, seat)
            assert prompt is not None
            example = example_in(prompt)
            GAME.parse(state, seat, example)  # raises if the example is refused
            others += example not in ("2E", "C3:2E")
            state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
    assert others > 0  # the case the example once got wrong did come up


def test_info() -> None:
    assert GAME.info.name == "synapse-ice" and GAME.info.aliases == ("synapse",)
    assert GAME.info.seats == ("Red", "Green") and GAME.info.title == "Synapse-Ice"


def test_golden_sample_game(golden) -> None:
    """Every view after every move of the sample game played from the empty board."""
    state = GAME.start({}, 0)
    parts = []
    texts = [*OPENING, *(move for move, _ in SAMPLE)]
    for number, text in enumerate(texts, 1):
        seat = state.turn
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
        views = [GAME.render(state, viewer) for viewer in (None, RED, GREEN)]
        assert views[0] == views[1] == views[2]  # nothing is hidden in Synapse-Ice
        for name, view in zip(("spectator", "Red", "Green"), views, strict=True):
            parts.append(f"=== move {number}: {GAME.info.seats[seat]} {text}; "
                         f"seen by {name} ===\n{view}")
            assert all(len(line) < 78 for line in view.splitlines())
    golden("synapse_ice_sample_game", "\n".join(parts))
