"""`GAME games` and `list GAME` in pbmserv's columns: exact rows, long userids, the bound and
how to ask for more, `next`, and nothing of a secret."""

from __future__ import annotations

import random

import pytest

from pbm.db.models import Address, User
from pbm.games import registry
from pbm.views import listings
from pbm.width import WIDTH
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    Runner,
    error,
    flat,
    one,
    start_trou,
)

# The longest userids the store holds (users.userid is 32 characters), and signup gives.
LONG = ("long-userid-number-one-of-32-ch1", "long-userid-number-two-of-32-ch2")
SIXTEEN = ("sixteen-letters1", "sixteen-letters2")
assert [len(userid) for userid in LONG + SIXTEEN] == [32, 32, 16, 16]


def body(run: Runner, line: str, sender: str = STRANGER) -> str:
    reply = one(run(sender, line))
    assert reply.subject.startswith("List of "), reply.body
    return reply.body


def test_a_tie_and_a_win_by_resignation_in_pbmservs_words(players):
    run = players
    start_trou(run, "alice", "bob", ("1B2",))
    run(ALICE, f"trou move 101 alice {PW['alice']} propose")
    run(BOB, f"trou move 101 bob {PW['bob']} accept")
    start_trou(run, "carol", "bob", ("1B2", "4C2"))
    run(CAROL, f"trou resign 102 carol {PW['carol']}")
    assert body(run, "trou games all") == (
        "All Trou boards:\n\n"
        "Board  Move  Red    Black  Board Status\n"
        "  101     1  alice  bob    game was a tie\n"
        "  102     2  carol  bob    bob Won\n")
    assert "Active Trou boards:\n\n  (none)\n\n" in body(run, "trou games")


@pytest.fixture
def long_names(players: Runner) -> Runner:
    """Two players with 32-character userids (the most the store holds; signup gives 16),
    with alice's password."""
    with players.session() as session:
        password_hash = session.query(User).filter_by(userid="alice").one().password_hash
        for n, userid in enumerate(LONG + SIXTEEN):
            user = User(userid=userid, password_hash=password_hash)
            user.addresses = [Address(position=0, address=f"long{n}@example.org")]
            session.add(user)
    return players


def test_rows_of_32_character_userids_go_tall_and_every_line_fits(long_names):
    run = long_names
    one_, two = LONG
    start_trou(run, "alice", "bob", ("1B2",))
    run(STRANGER, f"trou challenge {one_} {two}")
    run(STRANGER, f"trou challenge {one_} bob")
    text = body(run, "trou games")
    # The short names keep their columns; a row that cannot fit them is written tall, a
    # cell a line, under the first player's column.
    assert text == (
        "Active Trou boards:\n\n"
        "Board  Move  Red    Black  Board Status\n"
        "  101     1  alice  bob    bob's turn\n"
        f"  102     0  {one_}\n"
        f"             {two}\n"
        f"             {one_} to start\n"
        f"  103     0  {one_}\n"
        "             bob\n"
        f"             {one_} to start\n")
    assert max(map(len, text.splitlines())) <= WIDTH


def test_both_long_players_to_move_at_once_wrap_their_status(long_names):
    run = long_names
    one_, two = LONG
    run(STRANGER, f"pipeline challenge {one_} {two}")
    run("long0@example.org", f"pipeline move 101 {one_} {PW['alice']} B2")
    run("long1@example.org", f"pipeline move 101 {two} {PW['alice']} C4")
    text = body(run, "pipeline games")
    assert text == (
        "Active Pipeline boards:\n\n"
        "Board  Move  Head  Tail  Board Status\n"
        f"  101     2  {one_}\n"
        f"             {two}\n"
        f"             {one_}'s and\n"
        f"             {two}'s turn\n")
    assert max(map(len, text.splitlines())) <= WIDTH


def test_a_row_too_wide_for_its_status_goes_tall_too(long_names):
    """Names that fit their columns, but both to move: the status would pass 76 columns."""
    run = long_names
    one_, two = SIXTEEN
    run(STRANGER, f"pipeline challenge {one_} {two}")
    run("long2@example.org", f"pipeline move 101 {one_} {PW['alice']} B2")
    run("long3@example.org", f"pipeline move 101 {two} {PW['alice']} C4")
    start = one(run(STRANGER, "pipeline challenge alice bob"), ALICE)
    assert start.subject == "New Pipeline Board 102 alice"
    assert body(run, "pipeline games") == (
        "Active Pipeline boards:\n\n"
        "Board  Move  Head              Tail              Board Status\n"
        f"  101     2  {one_}\n"
        f"             {two}\n"
        f"             {one_}'s and {two}'s turn\n"
        "  102     0  alice             bob               alice to start\n")


def test_next_needs_a_userid(players):
    start_trou(players)
    err = error(players(STRANGER, "trou games next"))
    assert err.subject == "Trou error"
    assert "'next' lists the boards where it is a player's turn: name the player. " \
           "Write: trou games userid next" in flat(err.body)


@pytest.fixture
def four(players: Runner) -> Runner:
    """Trou boards 101 to 104, alice on each, with only two boards to a listing."""
    for first, second in (("alice", "bob"), ("carol", "alice"), ("alice", "carol"),
                          ("bob", "alice")):
        start_trou(players, first, second)
    return players


ROWS = {
    101: "  101     0  alice  bob    alice to start",
    102: "  102     0  carol  alice  carol to start",
    103: "  103     0  alice  carol  alice to start",
    104: "  104     0  bob    alice  bob to start",
}


def test_a_long_listing_is_bounded_and_says_how_to_ask_for_the_rest(four, monkeypatch):
    run = four
    monkeypatch.setattr(listings, "LISTED_LINES", 2)
    head = "Board  Move  Red    Black  Board Status"
    assert body(run, "trou games") == (
        f"Active Trou boards:\n\n{head}\n{ROWS[101]}\n{ROWS[102]}\n\n"
        "More than 2 boards: the first 2 are listed. For the next ones send:\n"
        "  trou games 103\n")
    # The command the note gives lists the rest, and nothing is left over.
    assert body(run, "trou games 103") == f"Active Trou boards:\n\n{head}\n{ROWS[103]}\n" \
        f"{ROWS[104]}\n"
    # It keeps the players and the selector asked for.
    assert body(run, "trou games alice all").endswith(
        "For the next ones send:\n  trou games alice all 103\n")
    assert body(run, "trou games all alice 0103") == \
        f"All Trou boards of alice:\n\n{head}\n{ROWS[103]}\n{ROWS[104]}\n"
    assert body(run, "trou games " + "9" * 100) == "Active Trou boards:\n\n  (none)\n"
    err = error(run(STRANGER, "trou games 101 103"))
    assert "Name one board to list from." in err.body


def test_the_listing_shows_nothing_of_a_secret(players):
    """Two Pipeline boards with the same public moves and different secret pipelines list
    alike, whoever asks: the listing holds what the public may see and no more."""
    run = players
    game = registry.get("pipeline")
    sent = []
    for number, seed in ((101, 1), (102, 2)):
        start = one(run(STRANGER, "pipeline challenge alice carol"), ALICE)
        assert start.subject.split()[3] == str(number)
        run(ALICE, f"pipeline move {number} alice {PW['alice']} B2")
        run(CAROL, f"pipeline move {number} carol {PW['carol']} C4")
        board = run.board(number)
        state = game.decode(board.state)
        pipe = game.notation(game.random_move(state, 0, random.Random(seed)))
        run(ALICE, f"pipeline move {number} alice {PW['alice']} {pipe}")
        sent.append(pipe)
    assert sent[0] != sent[1]
    texts = {sender: body(run, "pipeline games", sender) for sender in (STRANGER, ALICE, CAROL)}
    assert len(set(texts.values())) == 1
    text = texts[STRANGER]
    rows = [line for line in text.splitlines() if line[:5].strip().isdigit()]
    assert [row[5:] for row in rows] == ["     3  alice  carol  carol's turn"] * 2
    for pipe in sent:
        assert pipe not in text and pipe.split("-")[1] not in text
