"""A player's turn list (`games`), `all show`, `next` selectors, and archiving from listings."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from pbm.views import listings
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    error,
    flat,
    one,
)

ENDED = datetime(2031, 3, 1, 12, 0)  # when board 104 is won; the injected clock of the setup


def mail(run: Runner, userid: str, line: str, now: datetime = ENDED) -> None:
    """`line` from the player's address, which must be carried out."""
    replies = run(ACCOUNTS[userid][1], line, now=now)
    assert not any(r.subject.lower().endswith("error") for r in replies), replies


def challenge(run: Runner, game: str, first: str, second: str) -> int:
    reply = one(run(STRANGER, f"{game} challenge {first} {second}", now=ENDED),
                ACCOUNTS[first][1])
    return int(reply.subject.split()[3])


def play(run: Runner, game: str, number: int, seats: tuple[str, str],
         moves: tuple[str, ...]) -> None:
    for i, move in enumerate(moves):
        userid = seats[i % 2]
        mail(run, userid, f"{game} move {number} {userid} {PW[userid]} {move}")


@pytest.fixture
def boards(players: Runner) -> Runner:
    """Boards of two games, all set up at ENDED:
    101 trou alice-bob, alice to start; 102 pipeline alice-carol, both to send a pipeline;
    103 trou bob-alice, alice's turn; 104 trou alice-bob, won by alice (ends at ENDED);
    105 trou carol-alice, declined by alice; 106 trou bob-carol, alice not on it.
    Boards are numbered per game, so pipeline 101 and trou 102 are made and declined (by
    bob, who plays neither) to give these numbers."""
    run = players
    assert challenge(run, "trou", "alice", "bob") == 101
    assert challenge(run, "pipeline", "bob", "carol") == 101  # its own numbers
    mail(run, "bob", f"pipeline resign 101 bob {PW['bob']}")
    assert challenge(run, "pipeline", "alice", "carol") == 102
    play(run, "pipeline", 102, ("alice", "carol"), ("B2", "C4"))  # the coins: then both move
    assert challenge(run, "trou", "bob", "carol") == 102
    mail(run, "bob", f"trou resign 102 bob {PW['bob']}")
    assert challenge(run, "trou", "bob", "alice") == 103
    play(run, "trou", 103, ("bob", "alice"), ("1B2",))
    assert challenge(run, "trou", "alice", "bob") == 104
    play(run, "trou", 104, ("alice", "bob"), TROU_GAME)
    assert challenge(run, "trou", "carol", "alice") == 105
    play(run, "trou", 105, ("carol", "alice"), ("1B2",))
    mail(run, "alice", f"trou resign 105 alice {PW['alice']}")
    assert challenge(run, "trou", "bob", "carol") == 106
    return run


LINE_101 = "* trou          101  alice (Red), bob (Black)  Please start the game alice."
# Too long for a mail's 76 columns: the row goes on under its players.
LINE_102 = ("* pipeline      102  alice (Head), carol (Tail)  It is alice's and carol's\n"
            + " " * 21 + "turn.")
LINE_103 = "* trou          103  bob (Red), alice (Black)  It is alice's turn."
LINE_104 = "  trou          104  alice (Red), bob (Black)  Game won by alice."
KEY = "(*: alice's turn; finished boards stay listed 14 days)"


def rows(lines: list[str]) -> list[str]:
    """The board rows of listing lines, without the lines a long row goes on in."""
    return [line for line in lines if not line.startswith(" " * 3)]


def listing(run: Runner, line: str, days: float, sender: str = STRANGER) -> str:
    """The answer to `line` `days` after board 104 ended."""
    reply = one(run(sender, line, now=ENDED + timedelta(days=days)))
    assert reply.to == (sender,) and reply.kind == "answer"
    assert not reply.subject.lower().endswith("error"), reply.body
    return reply.body


# ----- the turn list ----------------------------------------------------------------------
def test_games_lists_every_board_of_the_sender_in_every_game_marking_their_turn(boards):
    reply = one(boards(ALICE, "games", now=ENDED + timedelta(days=1)))
    assert reply.subject == "Boards of alice"
    assert reply.body == "\n".join([
        "Boards of alice in every game:", KEY, "",
        LINE_101, LINE_102, LINE_103, LINE_104, ""])  # never 105, declined; 106 is not hers


def test_games_userid_gives_the_same_list_to_anyone(boards):
    run = boards
    expected = listing(run, "games", 1, sender=ALICE)
    for line in ("games alice", "Games ALICE all", "GAMES Alice active"):
        assert listing(run, line, 1) == expected, line
    assert listing(run, "games alice next", 1) == "\n".join([
        "Boards where it is alice's turn, in every game:", KEY, "",
        LINE_101, LINE_102, LINE_103, ""])
    assert listing(run, "games alice inactive", 1) == "\n".join([
        "Finished boards of alice in every game:", KEY, "", LINE_104, ""])


# ----- all show: the boards themselves ----------------------------------------------------
def subjects(run: Runner, line: str, sender: str = STRANGER) -> list[str]:
    return [r.subject for r in run(sender, line, now=ENDED + timedelta(days=1))]


def test_all_show_mails_each_board_of_every_game_as_show_does(boards):
    """pbmserv's `all show userid`: the boards, not a list of them (it was the turn list)."""
    run = boards
    replies = run(STRANGER, "all show alice", now=ENDED)
    assert [r.subject for r in replies] == ["Trou Board 101", "Pipeline Board 102",
                                            "Trou Board 103"]  # in play: not 104, 105, 106
    for reply in replies:  # each the public view, as `GAME show NUMBER` mails it
        game, _, number = reply.subject.split()
        assert reply.kind == "answer" and reply.to == (STRANGER,)
        assert reply.body == one(run(STRANGER, f"{game.lower()} show {number}", now=ENDED)).body
    assert subjects(run, "ALL SHOW Alice active") == \
        ["Trou Board 101", "Pipeline Board 102", "Trou Board 103"]
    assert subjects(run, "all show alice next") == \
        ["Trou Board 101", "Pipeline Board 102", "Trou Board 103"]
    assert subjects(run, "all show bob next") == ["Trou Board 106"]
    assert subjects(run, "all show alice inactive") == ["Trou Board 104"]
    assert subjects(run, "all show alice all") == \
        ["Trou Board 101", "Pipeline Board 102", "Trou Board 103", "Trou Board 104"]
    # Finished boards stay for show, as for `GAME show`: archiving is for the lists.
    assert [r.subject for r in run(STRANGER, "all show alice inactive",
                                   now=ENDED + timedelta(days=400))] == ["Trou Board 104"]
    assert one(run(STRANGER, "all show carol inactive", now=ENDED)).body == \
        "carol has no such boards.\n"


def test_all_show_stops_at_the_boards_one_command_may_show_and_names_the_rest(boards):
    from dataclasses import replace

    run = boards
    run.limits = replace(run.limits, boards_per_command=2)
    replies = run(STRANGER, "all show alice all", now=ENDED)
    assert [r.subject for r in replies] == ["Trou Board 101", "Pipeline Board 102",
                                            "Boards of alice"]
    assert replies[-1].body == (
        "alice has more such boards than one command shows: the first 2 are shown.\n"
        "Send these commands for the next ones:\n"
        "  trou show 103 104\n")
    run.limits = replace(run.limits, boards_per_command=1)
    replies = run(STRANGER, "all show alice all", now=ENDED)
    assert [r.subject for r in replies] == ["Trou Board 101", "Boards of alice"]
    assert replies[-1].body.endswith(
        "for the next ones:\n  pipeline show 102\nAnd there are more: 'games alice' lists "
        "them.\n")


def test_the_boards_all_show_leaves_out_are_named_in_commands_that_fit(players):
    from dataclasses import replace

    run = players
    run.limits = replace(run.limits, boards_per_command=20, challenges_per_sender_per_day=100,
                         challenges_per_player_per_day=100)
    for _ in range(41):
        challenge(run, "trou", "alice", "bob")
    replies = run(STRANGER, "all show bob", now=ENDED)
    assert len(replies) == 21 and replies[19].subject == "Trou Board 120"
    lines = replies[-1].body.splitlines()
    assert lines[2:] == [
        "  trou show " + " ".join(map(str, range(121, 137))),
        "  trou show " + " ".join(map(str, range(137, 141))),
        "And there are more: 'games bob' lists them."]
    assert max(map(len, lines)) <= 76
    # Each is a command that shows its boards.
    shown = run(STRANGER, lines[2].strip(), now=ENDED)
    assert [r.subject for r in shown] == [f"Trou Board {n}" for n in range(121, 137)]


def test_the_marker_follows_the_player_asked_about(boards):
    bob = listing(boards, "games bob", 1).splitlines()
    assert bob[1].startswith("(*: bob's turn;")
    marked = [line.split()[2] for line in bob[3:] if line.startswith("*")]
    unmarked = [line.split()[1] for line in bob[3:] if line.startswith(" ")]
    assert (marked, unmarked) == (["106"], ["101", "103", "104"])
    assert listing(boards, "games bob next", 1).splitlines()[3:] == \
        ["* trou          106  bob (Red), carol (Black)  Please start the game bob."]


def test_a_simultaneous_step_is_the_turn_of_both_until_one_has_moved(boards):
    run = boards
    carol_next = rows(listing(run, "games carol next", 1).splitlines()[3:])
    assert [line.split()[2] for line in carol_next] == ["102"]
    mail(run, "alice", f"pipeline move 102 alice {PW['alice']} B2-B3*-C3*-D3-D4*-C4")
    line_102 = "  pipeline      102  alice (Head), carol (Tail)  It is carol's turn."
    assert line_102 in listing(run, "games alice", 1).splitlines()
    alice_next = rows(listing(run, "games alice next", 1).splitlines()[3:])
    assert [line.split()[2] for line in alice_next] == ["101", "103"]
    assert listing(run, "games carol next", 1).splitlines()[3:] == ["*" + line_102[1:]]


def test_a_player_with_no_boards_gets_an_empty_list(players):
    body = listing(players, "games carol next", 0)
    assert body.endswith("\n\n  (none)\n")


def test_a_long_list_is_cut_with_a_note(boards, monkeypatch):
    monkeypatch.setattr(listings, "LISTED_LINES", 2)
    lines = listing(boards, "games alice", 1).splitlines()
    assert lines[3:6] == [LINE_101, *LINE_102.splitlines()] and lines[6] == ""
    assert " ".join(lines[7:]) == \
        "More than 2 boards: the first 2 are listed. Ask for fewer, for example with 'next'."
    assert "More than 2 boards" in listing(boards, "trou games", 1)


# ----- errors -----------------------------------------------------------------------------
def test_games_without_a_userid_from_an_unknown_address_says_how_to_write_it(boards):
    err = error(boards(STRANGER, "games"))
    assert err.subject == "pbm error"
    assert f"No player receives mail at {STRANGER}, so name the player." in err.body
    assert "Write: games [userid] [next|active|inactive|all]" in flat(err.body)


def test_games_from_an_address_of_two_accounts_asks_which(players):
    run = players
    assert one(run(ALICE, "signup alice2 Another1")).subject == "Welcome to pbm, alice2"
    err = error(run(ALICE, "games next"))
    assert "Your address belongs to alice and alice2: name the player." in err.body
    assert listing(run, "games alice2 next", 0, sender=ALICE).endswith("  (none)\n")


def test_turn_list_errors(boards):
    run = boards
    for line in ("games zed", "all show zed next"):
        err = error(run(STRANGER, line))
        assert "There is no user 'zed'" in err.body, line
    for line in ("all show", "all show next", "all show all"):  # pbmserv's refusal
        err = error(run(STRANGER, line))
        assert "This would generate too much mail -- please refine request. Name the player. " \
               "Write: all show userid [next|active|inactive|all]" in flat(err.body), line
    err = error(run(STRANGER, "all show alice bob"))
    assert "Name one player." in err.body
    err = error(run(STRANGER, "all games alice"))
    assert "Write 'all show userid [next|active|inactive|all]'." in err.body
    err = error(run(STRANGER, "games alice bob"))
    assert "Name one player." in err.body
    err = error(run(STRANGER, "games alice next carol"))
    assert "Too many words" in err.body


def test_help_commands_shows_the_turn_list_commands(run):
    lines = one(run(STRANGER, "help commands")).body.splitlines()
    assert "  games [userid] [next|active|inactive|all]" in lines
    assert "  all show userid [next|active|inactive|all]" in lines
    assert "  games [alice] [next]     your boards" in one(run(STRANGER, "help")).body


# ----- next selectors of one game ---------------------------------------------------------
def shown(run: Runner, sender: str, line: str) -> list[str]:
    """Subjects of the boards a show/showas command mailed."""
    return [r.subject for r in run(sender, line, now=ENDED) if "Board" in r.subject]


def test_next_selects_exactly_the_boards_where_it_is_the_players_turn(boards):
    run = boards
    assert shown(run, ALICE, f"trou showas alice {PW['alice']} next") == \
        ["Trou Board 101", "Trou Board 103"]
    assert shown(run, STRANGER, "trou show alice next") == ["Trou Board 101", "Trou Board 103"]
    assert shown(run, BOB, f"trou showas bob {PW['bob']} next") == ["Trou Board 106"]
    assert shown(run, STRANGER, "trou show bob next") == ["Trou Board 106"]
    # Both seats move at once in Pipeline's second step: the board is next for both.
    for userid in ("alice", "carol"):
        assert shown(run, ACCOUNTS[userid][1], f"pipeline showas {userid} {PW[userid]} next") \
            == ["Pipeline Board 102"]
        assert shown(run, STRANGER, f"pipeline show {userid} next") == ["Pipeline Board 102"]
    # The listings' rows, below their column headers.
    assert [line.split()[0] for line in listing(run, "trou games alice next", 1).splitlines()[3:]] \
        == ["101", "103"]
    for userid in ("alice", "carol"):
        assert [line.split()[0] for line in
                listing(run, f"pipeline games {userid} next", 1).splitlines()[3:]] == ["102"]
    # carol is not on move on 106 (bob starts) nor anywhere in Trou.
    assert one(run(STRANGER, "trou show carol next", now=ENDED)).body == \
        "carol has no such boards.\n"
    assert listing(run, "trou games carol next", 1).endswith("  (none)\n")


def test_active_in_show_keeps_meaning_boards_in_play(boards):
    run = boards
    # Board 104 ended a day ago: still in the lists, but not a board in play.
    assert "104" in listing(run, "trou games alice", 1)
    replies = run(ALICE, f"trou showas alice {PW['alice']} active", now=ENDED + timedelta(1))
    assert [r.subject for r in replies] == ["Trou Board 101", "Trou Board 103"]
    replies = run(STRANGER, "trou show alice inactive", now=ENDED + timedelta(days=400))
    assert [r.subject for r in replies] == ["Trou Board 104"]


# ----- archiving finished boards from the lists --------------------------------------------
BOARD_LINE = re.compile(r"^[* ] +(?:[a-z-]+ +)?(\d+)  ")


def numbers(body: str) -> list[int]:
    """The board numbers a listing or turn list holds, in order."""
    return [int(found.group(1)) for found in map(BOARD_LINE.match, body.splitlines()) if found]


@pytest.mark.parametrize("line", ["games alice", "games alice all", "games alice inactive",
                                  "trou games", "trou games all", "trou games inactive",
                                  "trou games alice", "trou games bob all", "list trou"])
def test_a_finished_board_leaves_the_lists_archive_days_after_it_ended(boards, line):
    run = boards
    day_13, day_15 = listing(run, line, 13), listing(run, line, 15)
    row = "  104     8  alice  bob    alice Won" if "trou" in line else \
        "  104  alice (Red), bob (Black)  Game won by alice."  # pbmserv's columns, or ours
    assert row in day_13
    assert "104" not in day_15
    # (In a game's active list, the boards that ended come after those in play.)
    assert sorted(numbers(day_13)) == sorted([*numbers(day_15), 104])
    assert 105 not in numbers(day_13)  # declined boards never show


def test_the_boundary_is_archive_days_to_the_second(boards):
    run = boards
    assert "104" in listing(run, "trou games", 14)
    assert "104" not in listing(run, "trou games", 14 + 1 / 86400)


def test_archived_boards_stay_readable(boards):
    run = boards
    later = ENDED + timedelta(days=400)
    reply = one(run(STRANGER, "trou show 104", now=later))
    assert reply.subject == "Trou Board 104"
    assert "Game won by alice." in reply.body
    assert "104" not in listing(run, "games alice all", 400)


def test_archive_days_comes_from_the_time_settings(boards):
    from dataclasses import replace

    run = boards
    run.time = replace(run.time, archive_days=30)
    assert "104" in listing(run, "games alice", 29)
    assert "finished boards stay listed 30 days)" in listing(run, "games alice", 29)
    assert "104" not in listing(run, "games alice", 31)


# ----- the grammar: new first words break nothing -----------------------------------------
def test_games_and_all_show_are_account_commands_and_game_games_stays_a_game_command():
    from pbm.commands.grammar import is_command, parse

    assert (parse("games").command.name, parse("games").game) == ("games", None)
    assert parse("GAMES alice next").args == ("alice", "next")
    assert (parse("all show alice").command.name, parse("All Show alice").words) == \
        ("all show", ("all", "show"))
    assert (parse("trou games alice").command.name, parse("trou games").game) == \
        ("games", "trou")
    for line in ("games", "all show alice", "change password a b c", "trou games"):
        assert is_command(line), line
    # A Subject that merely starts with such a word is chatter, not a command.
    for line in ("All done, thanks", "all", "Change of plans", "Gamesmanship"):
        assert not is_command(line), line
