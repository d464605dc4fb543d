"""Lines of Action: the published rules' examples, each rule and refusal, renders and playouts.

Sources of the examples: the Lines of Action rules of Richard's PBeM Server (pbmserv's help
page, and the copy "adapted from the rules on Richard's PBeM server" at
webdocs.cs.ualberta.ca/~darse/LOA/rules.html), Board Game Arena's rules page
(en.doc.boardgamearena.com, Gamehelplinesofaction), and the Mind Sports Olympiad rules as
M. Winands' page gives them (dke.maastrichtuniversity.nl/m.winands/loa/rules.html).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.loa.board import at, connected, name
from pbm.games.loa.game import (
    GAME,
    SHORT_GAME,
    START,
    LoaState,
    from_rows,
    new_state,
    row_five_example,
    short_game,
)
from pbm.games.loa.moves import PASS, Step
from tests.games.playout import random_playout, replay

BLACK, WHITE = 0, 1
EMPTY_ROW = ". . . . . . . ."


def sq(text: str) -> int:
    square = at(text[0], int(text[1:]))
    assert square is not None
    return square


def play_all(moves: list[str] | tuple[str, ...], state: LoaState = START) -> LoaState:
    """Play notations in turn from `state`, each by the seat to move, as the server would."""
    for text in moves:
        (seat,) = GAME.to_move(state)
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
    return state


def legal(state: LoaState, seat: int | None = None) -> set[str]:
    return {GAME.notation(m) for m in GAME.legal_moves(state, state.mover if seat is None
                                                        else seat)}


def error_of(state: LoaState, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(state, state.mover if seat is None else seat, text)
    return str(caught.value)


def names_of(pieces: int) -> set[str]:
    return {name(s) for s in range(64) if pieces >> s & 1}


# ----- the game contract ---------------------------------------------------------------------


def test_registered_under_its_name_and_aliases():
    for word in ("loa", "LOA", "lines-of-action", "LinesOfAction"):
        assert registry.lookup(word) is GAME
    assert GAME.info.title == "Lines of Action"
    assert GAME.info.seats == ("Black", "White")
    assert set(GAME.info.aliases) == {"lines-of-action", "linesofaction"}
    assert GAME.parse_options([]) == {}


def test_start_black_on_the_top_and_bottom_rows_white_on_the_sides_black_first():
    state = GAME.start({}, 99)
    assert state == GAME.start({}, 0)  # no randomness
    assert names_of(state.black) == {f"{c}{r}" for c in "BCDEFG" for r in (1, 8)}
    assert names_of(state.white) == {f"{c}{r}" for c in "AH" for r in range(2, 8)}
    assert GAME.to_move(state) == frozenset({BLACK})
    assert GAME.result(state) is None
    assert len(legal(state)) == 36


def test_play_does_not_mutate_and_the_players_alternate():
    before = GAME.encode(START)
    after = play_all(["B1-B3"])
    assert GAME.encode(START) == before
    assert after.at(sq("B3")) == BLACK and after.at(sq("B1")) is None
    assert GAME.to_move(after) == frozenset({WHITE})


# ----- the published examples -------------------------------------------------------------------


def test_pbmserv_example_the_three_moves_of_b1_and_a_capture_on_the_first_move():
    # "From the initial position, the three legal moves for the piece on b1 are b1-b3,
    # b1-d3, and b1-h1. Black can play a capture move like f8:h6 on the first move."
    assert {m for m in legal(START) if m.startswith("B1")} == {"B1-B3", "B1-D3", "B1-H1"}
    capture = GAME.parse(START, BLACK, "f8:h6")
    assert capture == Step(sq("F8"), sq("H6"), capture=True)
    assert GAME.notation(capture) == "F8xH6"


def test_pbmserv_example_four_pieces_on_the_fifth_row():
    # W a5, B d5, B f5, W h5: "each piece must move four spaces ... Neither White piece can
    # move horizontally, being blocked by the opponent's pieces. The Black piece on f5 can
    # move to b5. The Black piece on d5 can capture the White piece on h5."
    state = row_five_example()
    black = legal(state, BLACK)
    assert "F5-B5" in black and "D5xH5" in black
    assert not any(m.startswith(("D5", "F5")) and m[3] == "5" and m not in ("F5-B5", "D5xH5")
                   for m in black)
    white = legal(new_state(state.black, state.white, WHITE), WHITE)
    assert not any(m[1] == "5" and m[4] == "5" for m in white)  # nothing along the row
    assert error_of(new_state(state.black, state.white, WHITE), "A5-E5") == (
        "The piece on A5 cannot jump Black's piece on D5: a piece jumps only pieces of its"
        " own colour. The piece on A5 can move A5-A6, A5-B6, A5-B4 or A5-A4.")


def test_pbmserv_figure_one_connected_group_and_not_one():
    # "This is a winning position; this one is not a single group." (corner connections count)
    winning = from_rows((". . x x . . . .", ". x x . x . . .", "x . . . x . . .",
                         "x . . . . x . .", *[EMPTY_ROW] * 4))
    split = from_rows((". . x x . . . .", ". x x . . . . .", "x . . . x . . .",
                       "x . . . . x . .", *[EMPTY_ROW] * 4))
    assert connected(winning.black)
    assert not connected(split.black)


def test_board_game_arena_examples_blocked_diagonal_jump_and_capture():
    # After 1. c8-c6 (Black, "Red" there): "White cannot play a6-d6, even though there are
    # three pieces in row 6. White might instead play a6-c4, moving two spaces because there
    # are two pieces in the diagonal (a6-f1)." Then "e8-b5, jumping their own piece. It moves
    # three spaces because there are three pieces in the diagonal (a4-e8)." Then "White may
    # play h3-f1, capturing the red piece on f1."
    state = play_all(["C8-C6"])
    assert error_of(state, "a6-d6").startswith(
        "The piece on A6 cannot jump Black's piece on C6: a piece jumps only pieces of its"
        " own colour.")
    state = play_all(["A6-C4"], state)
    assert "E8-B5" in legal(state)
    state = play_all(["E8-B5"], state)
    assert "H3xF1" in legal(state)
    state = play_all(["h3-f1"], state)
    assert state.at(sq("F1")) == WHITE and state.black.bit_count() == 11
    assert GAME.notation(state.last) == "H3xF1"


def test_brainking_example_two_pieces_in_column_c_move_two():
    # "a black piece moving 2 spaces vertically because there were 2 pieces in this
    # direction - C1 and C8", and "the first black's move from C1 to A3, capturing".
    assert {"C1-C3", "C1xA3"} <= legal(START)


# ----- the end of the game -------------------------------------------------------------------


def test_the_mover_connecting_wins():
    state = short_game()
    assert GAME.result(state).winners == frozenset({BLACK})
    assert GAME.result(state).reason == "Black's 10 pieces form one connected group."
    assert GAME.to_move(state) == frozenset()
    assert GAME.legal_moves(state, WHITE) == []
    assert error_of(state, "A2-A3", WHITE) == (
        "The game is over: Black's 10 pieces form one connected group.")


# White's H6 and H7 are joined; Black's A1 takes White's stray C3 along the long diagonal.
CAPTURE_CONNECTS_WHITE = ("x . . . . . . .", ". . . . . . . o", ". . . . . . . o",
                          "x . . . . . . .", EMPTY_ROW, ". . o . . . . .", EMPTY_ROW,
                          "x . . . . . . .")


def test_a_capture_can_make_the_opponent_win():
    state = from_rows(CAPTURE_CONNECTS_WHITE)
    # A1's diagonal to H8 holds A1 and C3: two pieces, so A1 moves two squares, onto C3.
    after = play_all(["A1xC3"], state)
    assert not connected(after.black)
    assert GAME.result(after).winners == frozenset({WHITE})
    assert GAME.result(after).reason == (
        "Black's capture on C3 leaves White's 2 pieces in one connected group.")


def test_a_player_reduced_to_one_piece_has_won():
    state = from_rows((EMPTY_ROW, ". . . . . . . o", EMPTY_ROW, "x . . . . . . .", EMPTY_ROW,
                       ". . o . . . . .", EMPTY_ROW, "x . . . . . . ."))
    after = play_all(["A1xC3"], state)
    assert GAME.result(after).winners == frozenset({WHITE})
    assert GAME.result(after).reason == (
        "Black's capture on C3 leaves White a single piece, which is a connected group by"
        " itself.")


# Black's A1 takes White's stray C3 and joins B4 and C4; White's G5 and H5 are left joined.
DOUBLE_CONNECTION = (EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ". . . . . . o o", ". x x . . . . .",
                     ". . o . . . . .", EMPTY_ROW, "x . . . . . . .")


def test_a_capture_that_connects_both_sides_is_a_draw():
    # Mind Sports Olympiad rule 8: "If a move simultaneously creates a single connected
    # unit for both players, it is a draw." (OpenSpiel gives the mover the win instead:
    # tests/games/openspiel/test_loa.py shows it.)
    state = from_rows(DOUBLE_CONNECTION)
    assert not connected(state.black) and not connected(state.white)
    after = play_all(["A1xC3"], state)
    outcome = GAME.result(after)
    assert outcome.is_draw
    assert outcome.reason == (
        "Black's capture on C3 leaves both sides in one connected group each (Black's 3"
        " pieces, White's 2): a draw.")


# White's pieces in the corners A1 and H8, each hemmed in by Black on all three sides.
WHITE_STUCK = (". . . . . . x o", ". . . . . . x x", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
               EMPTY_ROW, "x x . . . . . .", "o x . . . . . .")


def test_a_player_with_no_legal_move_passes():
    # MSO rule 9: "If a player cannot move, this player has to pass." (OpenSpiel: it loses.)
    state = from_rows(WHITE_STUCK, mover=WHITE)
    assert GAME.result(state) is None
    assert GAME.legal_moves(state, WHITE) == [PASS]
    assert GAME.prompt(state, WHITE) == "None of your pieces can move: send pass."
    assert error_of(state, "A1-A3") == (
        "The piece on A1 cannot jump Black's piece on A2: a piece jumps only pieces of its"
        " own colour. None of your pieces can move: send pass.")
    move = GAME.parse(state, WHITE, " PASS ")
    assert move is PASS and GAME.notation(move) == "pass"
    after = GAME.play(state, WHITE, move)
    assert GAME.to_move(after) == frozenset({BLACK})
    assert (after.black, after.white) == (state.black, state.white)
    assert "Last move: White passed (none of its pieces could move)." in GAME.render(after, None)


def test_pass_is_refused_while_a_move_is_legal():
    assert error_of(START, "pass") == (
        "You cannot pass while you have a legal move: you have 36, e.g. B1-B3, F1-F3 or"
        " D8-F6.")
    assert GAME.prompt(START, BLACK) is None


# Black's D1 and White's A4 go out and back: the start recurs with Black to move.
SHUTTLE = ("D1-D3", "A4-C4", "D3-D1", "C4-A4")


def test_a_third_repetition_with_the_same_player_to_move_is_a_draw():
    # MSO rule 10: "If a position with the same player to move occurs for the third time,
    # the game is drawn." (OpenSpiel draws at the second time a board recurs.)
    twice = play_all(SHUTTLE)
    assert (twice.black, twice.white, twice.mover) == (START.black, START.white, BLACK)
    assert GAME.result(twice) is None and twice.repeats == 2
    assert ("This position with Black to move has occurred twice; a third time is a draw."
            in GAME.render(twice, None))
    thrice = play_all(SHUTTLE, twice)
    assert GAME.result(thrice).is_draw
    assert GAME.result(thrice).reason == (
        "The same position with Black to move has occurred three times: a draw.")


def test_the_same_board_with_the_other_player_to_move_is_another_position():
    # A pass leaves the board as it is: with the other player to move, it counts apart.
    state = from_rows(WHITE_STUCK, mover=WHITE)
    after = GAME.play(state, WHITE, PASS)
    assert after.repeats == 1 and state.repeats == 1


def test_a_capture_clears_the_repetition_history():
    # No position before a capture can come back: there are fewer pieces.
    state = play_all(["C1xA3"])
    assert state.history == (state.history[-1],)


# ----- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "D1", "D1-", "1D-3D", "D1-D3-D5", "move it", "pass D1",
                                  "D1--D3", "D" + "1" * 5000])
def test_unreadable_moves_say_how_to_write_one(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(START, BLACK, text)
    assert str(caught.value) == (
        f"Cannot read '{text.strip()[:20]}' as a Lines of Action move: write the square of"
        " your piece and the square it goes to, e.g. D1-D3 (or C1xA3 for a capture); write"
        " pass only when none of your pieces can move.")


@pytest.mark.parametrize(("text", "square"), [("I1-I3", "I1"), ("D1-D9", "D9"),
                                              ("D0-D2", "D0"), ("z99-a1", "Z99")])
def test_squares_off_the_board(text, square):
    assert error_of(START, text) == (
        f"There is no square {square}: the board has columns A to H and rows 1 to 8.")


def test_no_piece_there_lists_the_players_pieces():
    assert error_of(START, "D4-D6") == (
        "There is no piece on D4; your pieces are on B1 C1 D1 E1 F1 G1 B8 C8 D8 E8 F8 G8."
        " You have 36 legal moves, e.g. B1-B3, F1-F3 or D8-F6.")


def test_the_opponents_piece():
    assert error_of(START, "A2-C2") == (
        "The piece on A2 is White's; you play Black. You have 36 legal moves, e.g. B1-B3,"
        " F1-F3 or D8-F6.")


def test_not_on_one_line_and_not_moving_at_all():
    assert error_of(START, "D1-E3") == (
        "D1 and E3 are not on one line: a piece moves along its row, its column or a"
        " diagonal. The piece on D1 can move D1-D3, D1-F3 or D1-B3.")
    assert error_of(START, "D1-D1").startswith("A move goes somewhere: D1 to D1 stays put.")


def test_wrong_distance_says_how_many_pieces_the_line_holds():
    assert error_of(START, "D1-D5") == (
        "The column through D1 holds 2 pieces (of both colours, this one included), so the"
        " piece moves exactly 2 squares along it, not 4: that way it would reach D3. The"
        " piece on D1 can move D1-D3, D1-F3 or D1-B3.")
    assert error_of(START, "B1-C1") == (
        "The row through B1 holds 6 pieces (of both colours, this one included), so the"
        " piece moves exactly 6 squares along it, not 1: that way it would reach H1. The"
        " piece on B1 can move B1-B3, B1-D3 or B1-H1.")
    assert error_of(START, "G1-H2").startswith(
        "The diagonal through G1 holds 2 pieces (of both colours, this one included), so the"
        " piece moves exactly 2 squares along it, not 1: that way it would leave the board.")


def test_landing_on_your_own_piece():
    assert error_of(START, "C1-E1") == (
        "The row through C1 holds 6 pieces (of both colours, this one included), so the"
        " piece moves exactly 6 squares along it, not 2: that way it would leave the"
        " board. The piece on C1 can move C1-C3, C1-E3 or C1xA3.")
    state = from_rows((EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                       EMPTY_ROW, ". o . . . . . o", "x . x . . . . ."))
    assert error_of(state, "A1-C1") == (
        "C1 holds one of your own pieces: a piece lands on an empty square or on an"
        " opponent's piece (capturing it), never on its own. The piece on A1 can move"
        " A1-A2.")


def test_a_piece_with_no_move_names_the_players_other_moves():
    # White's A1 is hemmed in by Black's A3 (beyond its own A2), B2 and B1.
    state = from_rows((EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                       "x . . . . . . .", "o x . . . . . o", "o x . . . . . ."),
                      mover=WHITE)
    assert not any(move.startswith("A1") for move in legal(state))
    assert error_of(state, "A1-A4") == (
        "The piece on A1 cannot jump Black's piece on A3: a piece jumps only pieces of its"
        " own colour. The piece on A1 cannot move at all; you have 6 legal moves, e.g."
        " A2-B3, H2-H1 or H2-E2.")


def test_out_of_turn_is_refused():
    assert error_of(START, "A2-C2", WHITE) == "It is Black's turn, not White's."


# ----- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["D1-D3", "d1-d3", " d1 - d3 ", "D1D3", "d1 d3", "D1:D3",
                                  "d1 to d3", "D1xD3", "d 1 - d 3"])
def test_notation_forgives_case_spaces_and_the_sign(text):
    move = GAME.parse(START, BLACK, text)
    assert move == Step(sq("D1"), sq("D3"))
    assert GAME.notation(move) == "D1-D3"


@pytest.mark.parametrize("text", ["C1xA3", "c1-a3", "c1a3", "C1 X A3"])
def test_a_capture_is_recorded_with_x_however_written(text):
    assert GAME.notation(GAME.parse(START, BLACK, text)) == "C1xA3"


def test_notation_round_trips_for_every_legal_move():
    state = play_all(SHORT_GAME[:6])
    for move in GAME.legal_moves(state, state.mover):
        assert GAME.parse(state, state.mover, GAME.notation(move)) == move


# ----- legal moves against a plain reading of the rules -------------------------------------------


STEPS8 = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def reference_moves(state: LoaState) -> set[str]:
    """The rules read plainly: count the line square by square, walk the move."""
    seat = state.mover

    def piece(file: int, rank: int) -> int | None:
        return state.at(rank * 8 + file) if 0 <= file < 8 and 0 <= rank < 8 else -1

    found = set()
    for origin in range(64):
        if state.at(origin) != seat:
            continue
        file, rank = origin % 8, origin // 8
        for df, dr in STEPS8:
            count = 1
            for sign in (1, -1):
                f, r = file + sign * df, rank + sign * dr
                while 0 <= f < 8 and 0 <= r < 8:
                    count += piece(f, r) is not None
                    f, r = f + sign * df, r + sign * dr
            tf, tr = file + count * df, rank + count * dr
            if not (0 <= tf < 8 and 0 <= tr < 8) or piece(tf, tr) == seat:
                continue
            if any(piece(file + k * df, rank + k * dr) == 1 - seat for k in range(1, count)):
                continue
            sign = "x" if piece(tf, tr) == 1 - seat else "-"
            found.add(f"{name(origin)}{sign}{name(tr * 8 + tf)}")
    return found


@pytest.mark.parametrize("seed", range(12))
def test_legal_moves_and_parse_agree_with_the_plain_reading(seed):
    rng = random.Random(seed)
    state = START
    while GAME.result(state) is None:
        expected = reference_moves(state)
        assert legal(state) == (expected or {"pass"})
        if rng.random() < 0.1:  # parse accepts exactly these, and refuses the rest with a why
            accepted = set()
            for origin in range(64):
                if state.at(origin) != state.mover:
                    continue
                for target in range(64):
                    try:
                        move = GAME.parse(state, state.mover, f"{name(origin)}{name(target)}")
                    except IllegalMove as refusal:
                        assert str(refusal)
                    else:
                        accepted.add(GAME.notation(move))
            assert accepted == expected
        state = GAME.play(state, state.mover, GAME.random_move(state, state.mover, rng))


def test_random_move_is_uniform_over_the_legal_moves():
    rng = random.Random(7)
    counts = Counter(GAME.notation(GAME.random_move(START, BLACK, rng)) for _ in range(36_000))
    assert set(counts) == legal(START)
    assert min(counts.values()) > 800 and max(counts.values()) < 1200  # 1000 each expected


def test_random_move_passes_when_nothing_else_is_legal():
    state = from_rows(WHITE_STUCK, mover=WHITE)
    assert GAME.random_move(state, WHITE, random.Random(1)) is PASS


# ----- random play ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_random_playouts_end_and_replay(seed):
    playout = random_playout(GAME, seed)
    assert playout.outcome is not None
    assert replay(GAME, playout.log) == playout.state
    for seat, _ in playout.log[:2]:
        assert seat in (BLACK, WHITE)


# ----- storing and showing -----------------------------------------------------------------------


@pytest.mark.parametrize("state", [START, play_all(SHORT_GAME[:5]), short_game(),
                                   play_all(SHUTTLE), from_rows(WHITE_STUCK, WHITE)],
                         ids=["start", "opening", "won", "repeated", "stuck"])
def test_encode_decode_round_trip(state):
    data = json.loads(json.dumps(GAME.encode(state)))
    back = GAME.decode(data)
    assert back == state
    assert back.last == state.last and back.end == state.end
    assert GAME.render(back, None) == GAME.render(state, None)
    assert len(json.dumps(data)) < 400


def test_decode_refuses_what_is_no_position():
    data = GAME.encode(START)
    with pytest.raises(ValueError):
        GAME.decode({**data, "white": data["black"]})


def test_render_of_a_running_game():
    state = play_all(["C1xA3", "H4-F2"])
    assert GAME.render(state, None) == (
        "     A  B  C  D  E  F  G  H\n"
        "  8  .  x  x  x  x  x  x  .   8\n"
        "  7  o  .  .  .  .  .  .  o   7\n"
        "  6  o  .  .  .  .  .  .  o   6\n"
        "  5  o  .  .  .  .  .  .  o   5\n"
        "  4  o  .  .  .  .  .  .  +   4\n"
        "  3  x  .  .  .  .  .  .  o   3\n"
        "  2  o  .  .  .  . [o] .  o   2\n"
        "  1  .  x  .  x  x  x  x  .   1\n"
        "     A  B  C  D  E  F  G  H\n"
        "\n"
        "Black (x): 12 pieces in 4 groups; has captured 1.\n"
        "White (o): 11 pieces in 5 groups; has captured 0.\n"
        "Last move: White H4-F2, from + to [ ].\n"
    )


@pytest.mark.parametrize("seed", range(5))
def test_every_viewer_sees_the_same_board_within_76_columns(seed):
    playout = random_playout(GAME, 100 + seed)
    state = START
    for seat, text in playout.log:
        state = GAME.play(state, seat, GAME.parse(state, seat, text))
        boards = {GAME.render(state, viewer) for viewer in (None, BLACK, WHITE)}
        assert len(boards) == 1
        assert all(len(line) <= 76 for line in boards.pop().splitlines())


def test_golden_playthrough(golden):
    # The help page's short game, every board as every viewer sees it (all alike).
    state = START
    parts = ["=== start", GAME.render(state, None)]
    for number, text in enumerate(SHORT_GAME, 1):
        (seat,) = GAME.to_move(state)
        state = GAME.play(state, seat, GAME.parse(state, seat, text.lower()))
        played = GAME.notation(state.last)
        parts.append(f"=== move {number}: {GAME.info.seats[seat]} plays {played}")
        parts.append(GAME.render(state, None))
    outcome = GAME.result(state)
    assert outcome is not None
    parts.append(f"=== over: {outcome.reason}")
    golden("loa_playthrough", "\n".join(parts) + "\n")
