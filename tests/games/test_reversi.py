"""Reversi: the published rules' own examples, every rule and refusal, the pass, the end and
its score, notation, the board's text, a golden game, random games and storage."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.reversi import GAME, PASS, ReversiState
from pbm.games.reversi.board import COLUMNS, SIZE, bit, legal_squares, name, square
from pbm.games.reversi.words import WIDTH, score_reason
from tests.games.playout import random_playout, replay

BLACK, WHITE = 0, 1
SEATS = ("Black", "White")
ALL_SQUARES = [f"{c}{r}" for r in range(1, 9) for c in COLUMNS]

# A game found by the differential tests' biased player (seed 19554): White has to pass
# twice, and the game ends with 23 squares empty.
PASSING_GAME = ("F5 D6 C7 D7 C6 B8 C8 D8 E8 F8 D3 E6 F7 B7 A8 A7 A6 G6 H7 H5 G8 F6 H6 H8"
                " B6 B5 A4 C2 G4 F3 B1 pass H3 pass E2 D1 G2 B3 F1").split()
# One where Black turns every White disc over at the eleventh move (seed 11826).
WIPEOUT_GAME = "E6 F6 C4 D6 D7 C7 G7 E7 D8 C6 B6".split()


def sq(text: str) -> int:
    return square(COLUMNS.index(text[0]), int(text[1:]) - 1)


def play_all(moves: list[str] | tuple[str, ...]) -> ReversiState:
    """The position after `moves`, each by the seat to move then (passes included)."""
    state = GAME.start({}, 0)
    for text in moves:
        (seat,) = GAME.to_move(state)
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    return state


def position(rows: str, mover: int = BLACK) -> ReversiState:
    """A position from eight rows of '#' (Black), 'O' (White) and '.', row 1 first."""
    lines = rows.split()
    assert len(lines) == SIZE and all(len(line) == SIZE for line in lines)
    black = white = 0
    for row, line in enumerate(lines):
        for col, mark in enumerate(line):
            if mark == "#":
                black |= bit(square(col, row))
            elif mark == "O":
                white |= bit(square(col, row))
    return ReversiState(black, white, mover)


def legal(state: ReversiState, seat: int | None = None) -> set[str]:
    seat = state.mover if seat is None else seat
    return {GAME.notation(m) for m in GAME.legal_moves(state, seat)}


def discs_of(state: ReversiState, seat: int) -> set[str]:
    return {name(s) for s in range(64) if state.at(s) == seat}


def refusal(state: ReversiState, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(state, state.mover if seat is None else seat, text)
    return str(caught.value)


# ----- the game contract ------------------------------------------------------------------


def test_registered_under_its_own_name_only():
    assert registry.lookup("REVERSI") is GAME
    assert GAME.info.name == "reversi" and GAME.info.title == "Reversi"
    assert GAME.info.seats == SEATS
    assert GAME.info.aliases == () and registry.canonical("othello") is None
    assert GAME.parse_options([]) == {}
    assert not GAME.info.hidden


def test_play_does_not_change_the_state_it_is_given():
    start = GAME.start({}, 0)
    before = GAME.encode(start)
    after = GAME.play(start, BLACK, sq("D3"))
    assert GAME.encode(start) == before
    assert start.at(sq("D3")) is None and after.at(sq("D3")) == BLACK


# ----- the World Othello Federation's examples ---------------------------------------------


def test_start_is_the_federations_with_black_to_move():
    # WOF, "Othello rules": two discs of each colour in the centre, White on d4 and e5,
    # Black on d5 and e4 (A1 the top left corner, rows numbered downwards); Black first.
    start = GAME.start({}, 12345)
    assert start == GAME.start({}, 0)  # no randomness in Reversi
    assert discs_of(start, WHITE) == {"D4", "E5"}
    assert discs_of(start, BLACK) == {"E4", "D5"}
    assert GAME.to_move(start) == frozenset({BLACK})
    assert GAME.result(start) is None


def test_blacks_four_first_moves():
    # WOF: "In the starting position, Black has the following options": d3, c4, f5, e6.
    assert legal(GAME.start({}, 0)) == {"D3", "C4", "F5", "E6"}


def test_d3_turns_over_d4_and_white_may_answer_c3_e3_or_c5():
    # WOF: "If Black decides to play d3, one white disc gets flipped"; White's options
    # then are c3, e3 and c5.
    state = play_all(["D3"])
    assert discs_of(state, BLACK) == {"D3", "D4", "E4", "D5"}
    assert discs_of(state, WHITE) == {"E5"}
    assert legal(state) == {"C3", "E3", "C5"}
    assert GAME.to_move(state) == frozenset({WHITE})


def test_f5_turns_over_e5_and_white_may_answer_d6_f4_or_f6():
    # Othello Academy's rules page (the same rules): Black's F5 flips the White disc on E5;
    # White then has three choices, D6, F4 and F6.
    state = play_all(["F5"])
    assert discs_of(state, WHITE) == {"D4"}
    assert legal(state) == {"D6", "F4", "F6"}


# ----- outflanking ---------------------------------------------------------------------------


def test_one_disc_turns_over_lines_in_several_directions_at_once():
    state = position("""
        ........
        .#.#.#..
        ..OOO...
        .#O.OO#.
        ..OOO...
        .#.O.#..
        ...#....
        ........""")
    after = GAME.play(state, BLACK, GAME.parse(state, BLACK, "D4"))
    # Every line from D4 through White discs to a Black disc, all eight directions...
    assert discs_of(after, WHITE) == set()
    assert after.turned == sum(bit(sq(s)) for s in
                               ("C3", "D3", "E3", "C4", "E4", "F4", "C5", "D5", "E5", "D6"))
    assert after.last == sq("D4")


def test_a_gap_or_the_edge_ends_a_line_without_turning_it():
    # Left of D4: C4 White then an empty B4 (a gap). Right: E4..H4 White up to the edge.
    # Above: D3 White, then D2 Black: only D3 turns.
    state = position("""
        ........
        ...#....
        ...O....
        ..O.OOOO
        ........
        ........
        ........
        ........""")
    after = GAME.play(state, BLACK, GAME.parse(state, BLACK, "D4"))
    assert discs_of(after, BLACK) == {"D2", "D3", "D4"}
    assert discs_of(after, WHITE) == {"C4", "E4", "F4", "G4", "H4"}


def test_discs_turned_over_turn_nothing_over_in_their_turn():
    # D3 turns D4 over (between D3 and D5). D4 then closes a line D4-E4-F4-G4 with Black at
    # both ends, but only lines from the new disc count: E4 and F4 stay White.
    state = position("""
        ........
        ........
        ........
        ...OOO#.
        ...#....
        ........
        ........
        ........""")
    after = GAME.play(state, BLACK, GAME.parse(state, BLACK, "D3"))
    assert discs_of(after, WHITE) == {"E4", "F4"}
    assert after.turned == bit(sq("D4"))


def test_legal_squares_agree_with_a_square_by_square_scan():
    def slow(own: int, other: int) -> int:
        found = 0
        for s in range(64):
            if (own | other) >> s & 1:
                continue
            col, row = s % 8, s // 8
            for dc, dr in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1),
                           (-1, -1)]:
                c, r, seen = col + dc, row + dr, 0
                while 0 <= c < 8 and 0 <= r < 8 and other >> (r * 8 + c) & 1:
                    c, r, seen = c + dc, r + dr, seen + 1
                if seen and 0 <= c < 8 and 0 <= r < 8 and own >> (r * 8 + c) & 1:
                    found |= 1 << s
                    break
        return found

    rng = random.Random(7)
    for _ in range(300):
        black = white = 0
        for s in range(64):
            roll = rng.random()
            black |= (roll < 0.35) << s
            white |= (0.35 <= roll < 0.7) << s
        assert legal_squares(black, white) == slow(black, white)
        assert legal_squares(white, black) == slow(white, black)


# ----- passing -----------------------------------------------------------------------------

# White to move and no move for White: every line from a White disc through Black discs
# runs to the edge. Black could play C1 or C2 (turning B2 over).
MUST_PASS = """
    O.......
    #O......
    #.......
    #.......
    #.......
    #.......
    #.......
    #......."""


def test_a_player_without_a_legal_move_must_pass_and_mails_it():
    state = position(MUST_PASS, WHITE)
    assert state.must_pass and not state.finished
    assert GAME.to_move(state) == frozenset({WHITE})
    assert list(GAME.legal_moves(state, WHITE)) == [PASS]
    assert GAME.prompt(state, WHITE) == "You have no legal move: send pass."
    assert "White has no legal move and must pass." in GAME.render(state, None)
    for text in ("pass", "PASS", " Pass "):
        assert GAME.parse(state, WHITE, text) == PASS
    after = GAME.play(state, WHITE, PASS)
    assert (after.black, after.white) == (state.black, state.white)
    assert GAME.to_move(after) == frozenset({BLACK}) and after.legal
    assert "Last move: White passed, having no legal move." in GAME.render(after, None)


def test_a_square_is_refused_to_a_player_who_must_pass():
    state = position(MUST_PASS, WHITE)
    assert refusal(state, "H8") == (
        "You have no legal move: no empty square lets a White disc outflank a Black disc."
        " You must pass: send pass.")
    assert refusal(state, "A1") == refusal(state, "H8")  # occupied or not: pass first


def test_pass_is_refused_while_there_is_a_legal_move_and_the_moves_are_listed():
    assert refusal(GAME.start({}, 0), "pass") == (
        "You cannot pass while you have a legal move: only a player who has none passes."
        " Your legal moves: C4, D3, E6 and F5.")


def test_the_passing_game_passes_where_white_has_no_move():
    state = GAME.start({}, 0)
    for text in PASSING_GAME:
        (seat,) = GAME.to_move(state)
        assert (text == "pass") == state.must_pass, text
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    assert [i for i, t in enumerate(PASSING_GAME) if t == "pass"] == [31, 33]


# ----- the end and the score ---------------------------------------------------------------


def test_a_full_board_ends_the_game_and_more_discs_win():
    state = position("""
        ########
        ########
        ########
        ########
        #OOOOOOO
        OOOOOOOO
        OOOOOOOO
        OOOOOOOO""", WHITE)
    assert state.finished and GAME.to_move(state) == frozenset()
    assert list(GAME.legal_moves(state, WHITE)) == []
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({BLACK})
    assert outcome.reason == "The board is full: Black has more discs, 33 to 31."
    assert refusal(state, "pass") == "The game is over: neither player can move."


def test_a_full_board_of_equal_counts_is_a_draw():
    state = position("########\n" * 4 + "OOOOOOOO\n" * 4)
    outcome = GAME.result(state)
    assert outcome.is_draw
    assert outcome.reason == "The board is full: both have 32 discs, a draw."


def test_the_game_ends_when_neither_can_move_and_the_empty_squares_go_to_the_winner():
    # A1 is empty, and every line from it runs through Black discs to the edge: neither
    # colour can play there. WOF scoring: the empty square is the winner's, 63 to 1.
    state = position("""
        .#######
        ##O#####
        ########
        ########
        ########
        ########
        ########
        ########""", WHITE)
    assert state.finished and not state.must_pass
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({BLACK})
    assert outcome.reason == (
        "Neither player can move, with 1 square empty: Black has more discs, 62 to 1, and"
        " scores 63 to 1 with the empty squares, which go to the winner.")
    assert "Neither player can move: the game is over." in GAME.render(state, None)


def test_a_draw_with_empty_squares_shares_them():
    # A4 and A5 empty: lines from them run through one colour to the edge or the other
    # empty square, so neither can play; 31 discs each.
    state = position("""
        ########
        ########
        ########
        .#######
        .OOOOOOO
        OOOOOOOO
        OOOOOOOO
        OOOOOOOO""")
    assert state.finished
    outcome = GAME.result(state)
    assert outcome.is_draw
    assert outcome.reason == (
        "Neither player can move, with 2 squares empty: both have 31 discs, a draw"
        " (32 to 32 with the empty squares shared).")


def test_the_help_pages_example_score():
    # help.txt, rule 7: 33 Black discs to 25 White with 6 squares empty scores 39-25.
    assert score_reason(SEATS, (33, 25)) == (
        "Neither player can move, with 6 squares empty: Black has more discs, 33 to 25, and"
        " scores 39 to 25 with the empty squares, which go to the winner.")


def test_a_colour_wiped_out_ends_the_game_at_once():
    state = play_all(WIPEOUT_GAME)
    assert state.white == 0 and state.finished
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({BLACK})
    assert outcome.reason == (
        "White has no disc left, with 49 squares empty: Black has more discs, 15 to 0, and"
        " scores 64 to 0 with the empty squares, which go to the winner.")


def test_the_passing_game_ends_early_and_black_wins():
    state = play_all(PASSING_GAME)
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({BLACK})
    assert outcome.reason == (
        "Neither player can move, with 23 squares empty: Black has more discs, 32 to 9, and"
        " scores 55 to 9 with the empty squares, which go to the winner.")


# ----- reading moves and refusing them ------------------------------------------------------


@pytest.mark.parametrize("text", ["d3", "D3", " d3 ", "d 3", " D  3\n"])
def test_a_square_is_read_in_either_case_and_with_spaces(text):
    move = GAME.parse(GAME.start({}, 0), BLACK, text)
    assert move == sq("D3") and GAME.notation(move) == "D3"


def test_notation_reads_back_for_every_square_and_pass():
    for text in ALL_SQUARES:
        assert GAME.notation(sq(text)) == text
    assert GAME.notation(PASS) == "pass"
    state = GAME.start({}, 0)
    for move in GAME.legal_moves(state, BLACK):
        assert GAME.parse(state, BLACK, GAME.notation(move)) == move


@pytest.mark.parametrize("text", ["", "3", "D", "DD3", "3D", "D-3", "pas", "pass D3",
                                  "D3 E4", "\u0661\u0662", "D\u0663", "D" + "9" * 5000])
def test_unreadable_text_says_how_to_write_a_move(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(GAME.start({}, 0), BLACK, text)
    shown = " ".join(text.split())[:20]
    assert str(caught.value) == (
        f"Cannot read '{shown}' as a Reversi move: write the square for your disc, a column"
        " letter A to H and a row number 1 to 8, e.g. D3; or pass when you have no legal"
        " move.")


@pytest.mark.parametrize(("text", "named"), [("I1", "I1"), ("a9", "A9"), ("A0", "A0"),
                                             ("z123", "Z123"), ("h 10", "H10")])
def test_a_square_off_the_board(text, named):
    assert refusal(GAME.start({}, 0), text) == (
        f"There is no square {named}: the board has columns A to H and rows 1 to 8.")


def test_an_occupied_square_is_refused_with_the_legal_moves():
    assert refusal(GAME.start({}, 0), "d4") == (
        "D4 already holds a White disc. Your legal moves: C4, D3, E6 and F5.")
    assert refusal(play_all(["D3"]), "D3") == (
        "D3 already holds a Black disc. Your legal moves: C3, C5 and E3.")


def test_a_square_that_outflanks_nothing_is_refused_with_why_and_the_legal_moves():
    assert refusal(GAME.start({}, 0), "A1") == (
        "A disc on A1 would outflank no White disc: a move must turn over at least one, in a"
        " straight line from it to a Black disc. Your legal moves: C4, D3, E6 and F5.")
    # Next to a White disc is not enough: from C5 the line through White's D4 runs on to
    # an empty E3.
    assert refusal(GAME.start({}, 0), "C5").startswith("A disc on C5 would outflank no")
    assert refusal(play_all(["D3"]), "F4") == (
        "A disc on F4 would outflank no Black disc: a move must turn over at least one, in a"
        " straight line from it to a White disc. Your legal moves: C3, C5 and E3.")


def test_out_of_turn_is_refused():
    # The server checks turns first; the rule module still refuses rather than misplay.
    assert refusal(GAME.start({}, 0), "C4", WHITE) == "It is Black's turn, not White's."


@st.composite
def reachable(draw) -> ReversiState:
    state = GAME.start({}, 0)
    for _ in range(draw(st.integers(0, 70))):
        if state.finished:
            break
        moves = sorted(GAME.legal_moves(state, state.mover))
        state = GAME.play(state, state.mover, draw(st.sampled_from(moves)))
    return state


@settings(max_examples=150, deadline=None)
@given(reachable())
def test_parse_accepts_exactly_the_legal_moves(state):
    if state.finished:
        return
    accepted = set()
    for text in [*ALL_SQUARES, "pass"]:
        try:
            accepted.add(GAME.notation(GAME.parse(state, state.mover, text.lower())))
        except IllegalMove as error:
            assert str(error)
    assert accepted == legal(state) and accepted


# ----- showing -----------------------------------------------------------------------------


def test_a_long_prompt_is_wrapped_to_the_mail_width():
    # Seed 10's random game reaches a position with 21 legal moves (8 of 300 games do).
    rng = random.Random(10)
    state = GAME.start({}, 0)
    longest = ""
    while not state.finished:
        prompt = GAME.prompt(state, state.mover)
        if len(prompt) > len(longest):
            longest = prompt
        state = GAME.play(state, state.mover, GAME.random_move(state, state.mover, rng))
    lines = longest.splitlines()
    assert len(lines) == 2 and all(len(line) <= WIDTH for line in lines)
    assert lines[0].startswith("Your legal moves: ")


def test_render_of_the_start():
    assert GAME.render(GAME.start({}, 0), None) == (
        "     A   B   C   D   E   F   G   H\n"
        " 1   .   .   .   .   .   .   .   .  1\n"
        " 2   .   .   .   .   .   .   .   .  2\n"
        " 3   .   .   .   .   .   .   .   .  3\n"
        " 4   .   .   .   O   #   .   .   .  4\n"
        " 5   .   .   .   #   O   .   .   .  5\n"
        " 6   .   .   .   .   .   .   .   .  6\n"
        " 7   .   .   .   .   .   .   .   .  7\n"
        " 8   .   .   .   .   .   .   .   .  8\n"
        "     A   B   C   D   E   F   G   H\n"
        "\n"
        "Black (#): 2 discs    White (O): 2 discs    Empty: 60 squares\n"
        "No move yet: Black moves first.\n"
    )


def test_render_marks_the_last_disc_and_the_discs_it_turned_over():
    text = GAME.render(play_all(["D3", "C5"]), None)
    assert " 3   .   .   .   #   .   .   .   .  3\n" in text
    assert " 5   .   .  [O] (O)  O   .   .   .  5\n" in text
    assert "Last move: White C5 [O]; it turned over 1 disc, marked (O): D5." in text


def test_a_long_list_of_turned_discs_is_wrapped_to_the_mail_width():
    state = position("""
        ........
        .#.#.#..
        ..OOO...
        .#O.OO#.
        ..OOO...
        .#.O.#..
        ...#....
        ........""")
    text = GAME.render(GAME.play(state, BLACK, sq("D4")), None)
    assert "10 discs, marked (#): C3, C4, C5, D3, D5, D6, E3, E4, E5 and F4." in \
        " ".join(text.split())
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_every_viewer_sees_the_same_and_moves_show_in_full():
    # Reversi hides nothing: the same board for both seats and a spectator, every move's
    # text as its notation, and a prompt only for the seat to move.
    state = GAME.start({}, 0)
    for text in PASSING_GAME:
        (seat,) = GAME.to_move(state)
        renders = {GAME.render(state, viewer) for viewer in (None, BLACK, WHITE)}
        assert len(renders) == 1
        assert GAME.prompt(state, 1 - seat) is None and GAME.prompt(state, seat)
        move = GAME.parse(state, seat, text)
        assert {GAME.move_text(state, seat, move, v) for v in (None, BLACK, WHITE)} == {text}
        state = GAME.play(state, seat, move)


def test_golden_playthrough(golden):
    state = GAME.start({}, 0)
    parts = ["=== start"]
    for number, text in enumerate([None, *PASSING_GAME]):
        if text is not None:
            (seat,) = GAME.to_move(state)
            state = GAME.play(state, seat, GAME.parse(state, seat, text))
            parts.append(f"=== move {number}: {SEATS[seat]} plays {text}")
        parts.append("--- seen by everyone")
        for seat in sorted(GAME.to_move(state)):
            parts.append(f"prompt for {SEATS[seat]}: {GAME.prompt(state, seat)}")
        parts.append(GAME.render(state, None))
    outcome = GAME.result(state)
    parts.append(f"=== result: winners {sorted(outcome.winners)}; {outcome.reason}")
    golden("reversi_playthrough", "\n".join(parts) + "\n")


# ----- random games and storage --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_games_end_within_sixty_discs_and_replay(seed):
    playout = random_playout(GAME, seed)
    assert playout.outcome is not None
    placed = [text for _, text in playout.log if text != "pass"]
    assert len(placed) <= 60 and len(set(placed)) == len(placed)
    assert replay(GAME, playout.log) == playout.state
    for line in GAME.render(playout.state, None).splitlines():
        assert len(line) <= WIDTH


def test_random_move_is_uniform_over_the_legal_moves():
    state = play_all(["D3", "C5", "F6"])  # White to move
    moves = set(GAME.legal_moves(state, WHITE))
    rng = random.Random(1)
    drawn = Counter(GAME.random_move(state, WHITE, rng) for _ in range(6000))
    assert set(drawn) == moves
    expected = 6000 / len(moves)
    assert all(abs(n - expected) < 0.15 * expected for n in drawn.values()), drawn
    assert GAME.random_move(position(MUST_PASS, WHITE), WHITE, rng) == PASS


def test_encode_decode_round_trip_through_json():
    state = GAME.start({}, 0)
    for text in PASSING_GAME:
        data = json.loads(json.dumps(GAME.encode(state)))
        restored = GAME.decode(data)
        assert restored == state
        assert (restored.last, restored.turned) == (state.last, state.turned)
        assert GAME.render(restored, None) == GAME.render(state, None)
        (seat,) = GAME.to_move(state)
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    assert GAME.encode(GAME.start({}, 0)) == {"b": "810000000", "w": "1008000000", "m": 0}


def test_decode_refuses_what_is_no_position():
    with pytest.raises(ValueError):
        GAME.decode({"b": "1", "w": "1", "m": 0})  # one square, two discs
    with pytest.raises(ValueError):
        GAME.decode({"b": "1" + "0" * 16, "w": "0", "m": 0})  # a 65th square
    with pytest.raises(ValueError):
        GAME.decode({"b": "1", "w": "2", "m": 2})


# ----- help --------------------------------------------------------------------------------


def test_help_page_figures_are_drawn_by_the_rules():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Reversi"
    for heading in ("Introduction", "Rules", "Move notation", "References"):
        assert heading in lines
    assert "    reversi challenge userid1 userid2" in lines
    for line in GAME.render(play_all(["D3"]), None).splitlines():
        assert ("       " + line).rstrip() in lines
    assert all(len(line) <= WIDTH for line in lines)
    assert "Othello" in page and "trademark" in page
