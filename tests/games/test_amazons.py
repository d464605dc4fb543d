"""Amazons: the published rules and their examples, every refusal, notation, the board as
text, random playouts, the uniform random move and a golden playthrough.

Sources: Walter Zamkauskas's rules (1988) as the World of Abstract Games gives them
(jpneto.github.io/world_abstract_games/amazons.htm), with its example "White moves
1. g1-b6,c7"; Wikipedia's "Game of the Amazons" (the start; an arrow may fly "even
backwards along the same path the amazon just traveled, into or across the starting
square"); and the game record on Ludicum's page (after Theodore Tegos, "The Game of
Amazons"): "1.d1-d5,g8; g10-d7,h3;", written there with an en dash.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games import registry
from pbm.games.amazons.board import ARROW, BY_NAME, NAME, SQUARES
from pbm.games.amazons.game import GAME, HELP_EXAMPLE_MOVES
from pbm.games.amazons.moves import AmazonMove, count_moves
from pbm.games.amazons.state import AmazonsState
from pbm.games.base import IllegalMove, InvalidMove
from tests.games.playout import random_playout, replay

WHITE, BLACK = 0, 1
VIEWERS = (None, WHITE, BLACK)


def play_all(moves: list[str] | tuple[str, ...]) -> AmazonsState:
    """Play the texts in turn from the start (White first), as the server would."""
    return replay(GAME, [(i % 2, text) for i, text in enumerate(moves)])


def position(rows: str) -> AmazonsState:
    """A position from its picture: ten rows, rank 10 first, W B # or . per square (spaces
    ignored). The number of arrows says who is to move (White after an even number)."""
    lines = [line.replace(" ", "") for line in rows.strip().splitlines()]
    assert len(lines) == 10 and all(len(line) == 10 for line in lines)
    stored = "".join(lines[10 - rank][file] for rank in range(1, 11) for file in range(10))
    return GAME.decode({"board": stored, "last": None})


def move(text: str) -> AmazonMove:
    origin, rest = text.split("-")
    destination, arrow = rest.split("/")
    return AmazonMove(BY_NAME[origin], BY_NAME[destination], BY_NAME[arrow])


def refusal(state: AmazonsState, seat: int, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(state, seat, text)
    return str(caught.value)


def legal_texts(state: AmazonsState, seat: int) -> set[str]:
    return {GAME.notation(m) for m in GAME.legal_moves(state, seat)}


def square_at(state: AmazonsState, name: str) -> str:
    """What stands on a square: 'W', 'B', '#' or '.'."""
    return GAME.encode(state)["board"][SQUARES.index(BY_NAME[name])]


# ----- the game contract -------------------------------------------------------------------


def test_registered_with_its_info():
    assert registry.lookup("AMAZONS") is GAME
    assert GAME.info.name == "amazons" and GAME.info.title == "Amazons"
    assert GAME.info.seats == ("White", "Black")
    assert GAME.info.rules_version == 1 and not GAME.info.hidden
    assert GAME.parse_options([]) == {}
    assert len(GAME.info.summary) < 76


def test_the_published_start_white_first():
    # Zamkauskas: "White moves first"; Wikipedia's diagram: White on a4 d1 g1 j4, Black on
    # a7 d10 g10 j7.
    state = GAME.start({}, 12345)
    assert state == GAME.start({}, 0)  # nothing random in Amazons
    board = GAME.encode(state)["board"]
    white = {NAME[sq] for sq, mark in zip(SQUARES, board) if mark == "W"}
    black = {NAME[sq] for sq, mark in zip(SQUARES, board) if mark == "B"}
    assert white == {"A4", "D1", "G1", "J4"} and black == {"A7", "D10", "G10", "J7"}
    assert set(board) == {".", "W", "B"}
    assert GAME.to_move(state) == frozenset({WHITE})
    assert GAME.result(state) is None


def test_white_has_2176_first_moves():
    # The number the Amazons literature gives for the first move (OpenSpiel counts the
    # same: tests/games/openspiel/test_amazons.py).
    state = GAME.start({}, 0)
    moves = list(GAME.legal_moves(state, WHITE))
    assert len(moves) == len(set(moves)) == 2176
    assert count_moves(state.board, state.amazons[WHITE]) == 2176
    assert list(GAME.legal_moves(state, BLACK)) == []  # not Black's turn


def test_play_alternates_and_does_not_mutate():
    state = GAME.start({}, 0)
    before = GAME.encode(state)
    after = GAME.play(state, WHITE, GAME.parse(state, WHITE, "D1-D6/G3"))
    assert GAME.encode(state) == before
    assert square_at(after, "D1") == "." and square_at(after, "D6") == "W"
    assert square_at(after, "G3") == "#"
    assert GAME.to_move(after) == frozenset({BLACK})
    assert after.last == move("D1-D6/G3")


# ----- the published examples ----------------------------------------------------------------


def test_zamkauskas_example_g1_b6_c7():
    # "An example White moves 1. g1-b6,c7. The arrow landed on c7, so neither player can
    # cross that intersection."
    state = play_all(["g1-b6,c7"])
    assert state.last == move("G1-B6/C7")
    assert square_at(state, "G1") == "." and square_at(state, "B6") == "W"
    assert square_at(state, "C7") == "#"
    # Neither player can cross it: Black's A7 no longer reaches past it along rank 7 ...
    assert refusal(state, BLACK, "A7-D7/D8") == (
        "The way from A7 to D7 is blocked at C7 by an arrow: an amazon cannot pass over"
        " anything. From A7 it can reach A5, A6, B7, A8, B8, A9, C9 and A10.")
    # ... nor shoot through it, and White's B6 cannot step onto it.
    assert "blocked at C7 by an arrow" in refusal(state, BLACK, "J7-E7/B7")
    assert "C7 holds an arrow" in refusal(play_all(["g1-b6,c7", "j7-i7/i8"]), WHITE, "B6-C7/C8")


def test_ludicum_record_as_written():
    # "1.d1–d5,g8; g10–d7,h3;" (en dashes, commas, semicolons; the move number left out).
    state = play_all(["d1\u2013d5,g8;", "g10\u2013d7,h3;"])
    assert [GAME.notation(m) for m in (move("D1-D5/G8"), state.last)] == [
        "D1-D5/G8", "G10-D7/H3"]
    for name, mark in (("D5", "W"), ("G8", "#"), ("D7", "B"), ("H3", "#"), ("D1", "."),
                       ("G10", ".")):
        assert square_at(state, name) == mark, name
    assert play_all(HELP_EXAMPLE_MOVES) == state


def test_an_arrow_may_land_on_the_square_its_amazon_left():
    # Wikipedia: "even backwards along the same path the amazon just traveled, into ... the
    # starting square".
    state = play_all(["D1-D5/D1"])
    assert square_at(state, "D1") == "#" and square_at(state, "D5") == "W"


def test_an_arrow_may_fly_across_the_square_its_amazon_left():
    # "... or across the starting square": J4 up to J6, the arrow back down over J4 to J2.
    state = play_all(["J4-J6/J2"])
    assert square_at(state, "J4") == "." and square_at(state, "J2") == "#"
    assert "J2" in {NAME[m.arrow] for m in GAME.legal_moves(GAME.start({}, 0), WHITE)
                    if m.origin == BY_NAME["J4"] and m.destination == BY_NAME["J6"]}


def test_an_amazon_never_captures_or_jumps():
    state = GAME.start({}, 0)
    assert refusal(state, WHITE, "D1-D10/D9").startswith(
        "D10 holds Black's amazon: an amazon moves only to an empty square.")
    assert refusal(state, WHITE, "D1-A4/A5").startswith(
        "A4 holds White's amazon: an amazon moves only to an empty square.")
    blocked = play_all(["D1-D5/D8", "A7-B7/B8"])
    assert refusal(blocked, WHITE, "D5-D9/D10").startswith(
        "The way from D5 to D9 is blocked at D8 by an arrow: an amazon cannot pass over"
        " anything. From D5 it can reach")


# ----- refusals ------------------------------------------------------------------------------

START_REACH_D1 = ("From D1 it can reach A1, B1, C1, E1, F1, C2, D2, E2, B3, D3, F3, D4, G4,"
                  " D5, H5, D6, I6, D7, D8 and D9.")


@pytest.mark.parametrize(("text", "message"), [
    ("E5-E6/E7", "There is no amazon on E5: your amazons are on D1, G1, A4 and J4."),
    ("D10-D9/D8", "The amazon on D10 is Black's: your amazons are on D1, G1, A4 and J4."),
    ("D1-D1/D2", f"The amazon must move: D1 to D1 leaves it where it is. {START_REACH_D1}"),
    ("D1-E3/E4", "D1 to E3 is not a straight line: an amazon moves like a chess queen, along"
                 f" a row, a column or a diagonal. {START_REACH_D1}"),
    ("K4-K5/K6", "There is no square K4: the board has columns A to J and rows 1 to 10."),
    ("A11-A5/A6", "There is no square A11: the board has columns A to J and rows 1 to 10."),
    ("A4-A5/A0", "There is no square A0: the board has columns A to J and rows 1 to 10."),
])
def test_refusals_of_the_amazon_and_its_move(text, message):
    assert refusal(GAME.start({}, 0), WHITE, text) == message


G5_ARROWS = ("From G5 it can reach C1, G1, D2, G2, J2, E3, G3, I3, F4, G4, H4, A5, B5, C5,"
             " D5, E5, F5, H5, I5, J5, F6, G6, H6, E7, G7, I7, D8, G8, J8, C9, G9 and B10.")


@pytest.mark.parametrize(("text", "message"), [
    ("G1-G5/G5", "The arrow cannot land on G5, where the amazon that shoots it stands: it"
                 f" flies like a queen from there. {G5_ARROWS}"),
    ("G1-G5/H7", "G5 to H7 is not a straight line: the arrow flies like a chess queen from"
                 f" where the amazon lands. {G5_ARROWS}"),
    ("G1-G5/G10", "G10 holds Black's amazon: the arrow must land on an empty square (the"
                  f" square the amazon left, G1, counts as empty). {G5_ARROWS}"),
    ("G1-G5/A5", "A5 is fine"),
])
def test_refusals_of_the_arrow(text, message):
    state = GAME.start({}, 0)
    if message.endswith("is fine"):
        assert GAME.notation(GAME.parse(state, WHITE, text)) == text
        return
    assert refusal(state, WHITE, text) == message


def test_an_arrow_cannot_pass_over_anything():
    state = play_all(["D1-D5/D8", "A7-B7/B8"])
    assert refusal(state, WHITE, "D5-E6/B8") == (
        "E6 to B8 is not a straight line: the arrow flies like a chess queen from where the"
        " amazon lands. " + reach_words(state, "D5", "E6"))
    assert refusal(state, WHITE, "G1-G7/A7").startswith(
        "The arrow's way from G7 to A7 is blocked at B7 by Black's amazon: an arrow cannot"
        " pass over anything. From G7 it can reach")


def reach_words(state: AmazonsState, origin: str, destination: str) -> str:
    arrows = sorted(m.arrow for m in GAME.legal_moves(state, state.turn)
                    if NAME[m.origin] == origin and NAME[m.destination] == destination)
    names = [NAME[sq] for sq in arrows]
    return f"From {destination} it can reach {', '.join(names[:-1])} and {names[-1]}."


TRAPPED = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . B . . . . .
    # # . . . . . . . B
    W # . . . . . . B .
    # # . . . . . . . .
    W # . W W . . . . B
"""


def test_a_trapped_amazon_cannot_move_and_the_refusal_names_the_free_ones():
    state = position(TRAPPED)
    assert state.turn == WHITE  # six arrows
    assert refusal(state, WHITE, "A1-A2/A3") == (
        "Your amazon on A1 cannot move: every square beside it is taken. Move one on D1 or"
        " E1.")
    assert refusal(state, WHITE, "A3-B4/C5").startswith("Your amazon on A3 cannot move")
    text = GAME.render(state, None)
    assert "White (W): amazons on A1, D1, E1 and A3; trapped: A1 and A3." in text


def test_someone_elses_turn_an_arrow_and_the_end():
    state = play_all(["D1-D6/G3"])
    assert refusal(state, WHITE, "G1-G2/H2") == "It is Black's turn, not White's."
    assert refusal(state, BLACK, "G3-G4/G5") == (
        "G3 holds an arrow, not an amazon: your amazons are on A7, J7, D10 and G10.")
    over = position(ENDED)
    assert GAME.result(over) is not None
    assert list(GAME.legal_moves(over, over.turn)) == []
    assert refusal(over, over.turn, "A1-B1/C1") == "The game is over: Black has no legal move."


@pytest.mark.parametrize("text", [
    "", "D1", "D1-D6", "D1 D6", "hello", "D1-D6/G3/X", "D1-D6/", "1-D6/G3", "D-D6/G3",
    "D1-D6-G3-", "D1--D6/G3", "D1-D6//G3", "D²-D6/G3", "D1-D6/G3 please", "x" * 50,
    "D1-D6/G" + "3" * 5000,
])
def test_unreadable_moves_say_how_to_write_one(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(GAME.start({}, 0), WHITE, text)
    message = str(caught.value)
    assert "e.g. D1-D6/G3 (from D1 to D6, then an arrow to G3)." in message
    assert len(message) < 400


def test_a_move_without_its_arrow_is_told_so():
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(GAME.start({}, 0), WHITE, "d1-d6")
    assert str(caught.value).startswith(
        "'d1-d6' moves an amazon but shoots no arrow: every move ends with an arrow;")


# ----- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "D1-D6/G3", "d1-d6/g3", "d1d6g3", "D1-D6 G3", " d1 - d6 / g3 ", "D1D6/G3", "d1-d6,g3",
    "d1\u2013d6,g3;", "D 1 - D 6 / G 3", "d1 d6 g3", "D1\u2014D6/G3",
])
def test_notation_forgives_case_spaces_and_record_spellings(text):
    parsed = GAME.parse(GAME.start({}, 0), WHITE, text)
    assert parsed == move("D1-D6/G3")
    assert GAME.notation(parsed) == "D1-D6/G3"


def test_ten_reads_as_a_rank_after_a_letter():
    state = play_all(["D1-D6/G3"])
    assert GAME.notation(GAME.parse(state, BLACK, "d10d7a10")) == "D10-D7/A10"
    assert GAME.notation(GAME.parse(state, BLACK, "G10-H9/J9")) == "G10-H9/J9"


# ----- the end ---------------------------------------------------------------------------------

ENDED = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . W
    . . . . . . . . . .
    # # # . . . . . W .
    # B # . . . . . . W
    # # # # # # . . . .
    B # B # B # # . . W
"""


def test_the_player_who_cannot_move_loses():
    state = position(ENDED)
    assert state.turn == BLACK  # fifteen arrows
    assert GAME.to_move(state) == frozenset()
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winners == frozenset({WHITE})
    assert outcome.reason == ("Black has no legal move: none of its amazons can move, so"
                              " White, the last to move, wins.")
    text = GAME.render(state, None)
    assert "Black (B): amazons on A1, C1, E1 and B3; trapped: A1, C1, E1 and B3." in text
    assert text.rstrip().endswith("Black to move has no legal move: White wins.")
    assert GAME.prompt(state, BLACK) is None


def test_trapped_amazons_lose_only_when_it_is_their_turn():
    # All Black's amazons are trapped, but White is to move (one arrow more, on A10): the
    # game goes on until Black has to move.
    state = position("# . . . . . . . . ." + ENDED.strip()[19:])
    assert state.turn == WHITE and GAME.result(state) is None
    assert GAME.to_move(state) == frozenset({WHITE})
    after = GAME.play(state, WHITE, GAME.random_move(state, WHITE, random.Random(1)))
    assert GAME.result(after).winners == frozenset({WHITE})


def test_a_game_ends_within_92_moves_and_replays():
    for seed in range(6):
        playout = random_playout(GAME, seed)
        assert playout.outcome is not None
        assert len(playout.log) <= 92
        assert replay(GAME, playout.log) == playout.state
        loser = playout.state.turn
        assert playout.outcome.winners == frozenset({1 - loser})
        assert [seat for seat, _ in playout.log] == [i % 2 for i in range(len(playout.log))]


# ----- the random move -------------------------------------------------------------------------


def late_position() -> AmazonsState:
    """The first position of a seeded random game with fewer than 60 moves to choose from."""
    rng = random.Random(11)
    state = GAME.start({}, 0)
    while count_moves(state.board, state.amazons[state.turn]) >= 60:
        state = GAME.play(state, state.turn, GAME.random_move(state, state.turn, rng))
    return state


def test_random_move_is_uniform_over_the_legal_moves():
    # Few enough moves to see each often: 20,000 draws, each move's count against its
    # expectation (a chi-square far below what a biased draw gives; seeded, so it never
    # flakes). The position has amazons with very different numbers of moves, so a draw
    # weighted by amazon or by destination would show at once.
    state = late_position()
    legal = list(GAME.legal_moves(state, state.turn))
    assert 5 < len(legal) < 60
    rng = random.Random(2024)
    draws = 20_000
    counts = Counter(GAME.random_move(state, state.turn, rng) for _ in range(draws))
    assert set(counts) == set(legal)
    expected = draws / len(legal)
    chi_square = sum((counts[m] - expected) ** 2 / expected for m in legal)
    assert chi_square < 2.5 * len(legal)  # a uniform draw gives about len(legal)


def test_random_move_from_the_start_weighs_each_amazon_by_its_moves():
    state = GAME.start({}, 0)
    per_amazon = Counter(m.origin for m in GAME.legal_moves(state, WHITE))
    rng = random.Random(7)
    drawn = Counter(GAME.random_move(state, WHITE, rng).origin for _ in range(8000))
    for origin, count in per_amazon.items():
        assert abs(drawn[origin] / 8000 - count / 2176) < 0.02, NAME[origin]


# ----- reachable positions ---------------------------------------------------------------------


@st.composite
def reachable_states(draw) -> AmazonsState:
    rng = random.Random(draw(st.integers(0, 10_000)))
    state = GAME.start({}, 0)
    for _ in range(draw(st.integers(0, 80))):
        if GAME.result(state) is not None:
            break
        state = GAME.play(state, state.turn, GAME.random_move(state, state.turn, rng))
    return state


@settings(max_examples=20, deadline=None)
@given(reachable_states(), st.randoms(use_true_random=False))
def test_parse_accepts_exactly_the_legal_moves(state, rng):
    seat = state.turn
    legal = legal_texts(state, seat)
    assert len(legal) == count_moves(state.board, state.amazons[seat])
    for text in legal:
        assert GAME.notation(GAME.parse(state, seat, text.lower())) == text
    names = list(NAME.values())
    for _ in range(300):
        text = "-".join(rng.sample(names, 2)) + "/" + rng.choice(names)
        try:
            accepted = GAME.notation(GAME.parse(state, seat, text))
        except IllegalMove as error:
            assert text not in legal and str(error)
        else:
            assert accepted == text and text in legal


@settings(max_examples=60, deadline=None)
@given(reachable_states())
def test_every_state_survives_encode_and_renders_the_same_for_all(state):
    data = json.loads(json.dumps(GAME.encode(state)))
    restored = GAME.decode(data)
    assert restored == state and restored.last == state.last
    assert len(data["board"]) == 100
    text = GAME.render(state, None)
    assert all(len(line) <= 76 for line in text.splitlines())
    assert all(GAME.render(state, viewer) == text for viewer in VIEWERS)
    arrows = sum(1 for sq in SQUARES if state.board[sq] == ARROW)
    assert arrows == state.plies
    assert f"Arrows shot: {arrows}; empty squares left: {92 - arrows}." in text


# ----- showing ---------------------------------------------------------------------------------


def test_render_marks_the_last_move():
    state = play_all(["D1-D6/G3"])
    lines = GAME.render(state, BLACK).splitlines()
    assert lines[0] == "     A  B  C  D  E  F  G  H  I  J"
    assert lines[5] == "  6  .  .  . [W] .  .  .  .  .  .  6"
    assert lines[8] == "  3  .  .  .  .  .  . [#] .  .  .  3"
    assert lines[10] == "  1  .  .  . (.) .  .  W  .  .  .  1"
    assert "Last move: White D1-D6/G3: [W] moved, [#] its arrow, (.) where it was." in lines
    assert "Black to move: 1,828 legal moves." in lines


def test_render_of_an_arrow_shot_back_where_the_amazon_was():
    lines = GAME.render(play_all(["D1-D5/D1"]), None).splitlines()
    assert lines[10] == "  1  .  .  . [#] .  .  W  .  .  .  1"
    assert "Last move: White D1-D5/D1: [W] moved, [#] its arrow shot where it was." in lines


def test_prompt_gives_a_legal_example_to_the_seat_to_move_only():
    state = GAME.start({}, 0)
    prompt = GAME.prompt(state, WHITE)
    assert prompt == "Move an amazon, then shoot its arrow, e.g. D1-D2/D3."
    example = prompt.rsplit("e.g. ", 1)[1].rstrip(".")
    assert example in legal_texts(state, WHITE)
    assert GAME.prompt(state, BLACK) is None


def test_nothing_is_hidden_from_anyone():
    state = play_all(["D1-D6/G3", "G10-G4/D4"])
    for viewer in VIEWERS:
        assert GAME.render(state, viewer) == GAME.render(state, None)
        assert GAME.move_text(state, BLACK, move("A7-A8/A9"), viewer) == "A7-A8/A9"
    assert GAME.seat_view(state, WHITE) == state


GOLDEN_SEED = 3


def test_golden_playthrough(golden):
    """A whole random game (seed 3), the board after every move; every viewer sees the
    same board (checked), so it is written once per move."""
    rng = random.Random(GOLDEN_SEED)
    state = GAME.start({}, 0)
    parts = ["=== start", f"prompt for White: {GAME.prompt(state, WHITE)}",
             GAME.render(state, None)]
    number = 0
    while GAME.result(state) is None:
        (seat,) = GAME.to_move(state)
        text = GAME.notation(GAME.random_move(state, seat, rng))
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
        number += 1
        parts.append(f"=== move {number}: {GAME.info.seats[seat]} plays {text}")
        boards = {GAME.render(state, viewer) for viewer in VIEWERS}
        assert len(boards) == 1
        parts.append(boards.pop())
    outcome = GAME.result(state)
    parts.append(f"=== result: winners {sorted(outcome.winners)}; {outcome.reason}")
    golden("amazons_playthrough", "\n".join(parts) + "\n")


# ----- help ------------------------------------------------------------------------------------


def test_help_page_shows_the_start_and_the_published_opening():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Amazons"
    for heading in ("Introduction", "Rules", "Move notation", "References"):
        assert heading in lines
    assert "    amazons challenge userid1 userid2" in lines
    assert "[[" not in page
    assert GAME.help_figures() == {"start": GAME.render(GAME.start({}, 0), None),
                                   "two moves": GAME.render(play_all(HELP_EXAMPLE_MOVES), None)}
    for line in GAME.render(play_all(HELP_EXAMPLE_MOVES), None).splitlines():
        assert ("    " + line).rstrip() in lines
    assert all(len(line) <= 76 for line in lines)
