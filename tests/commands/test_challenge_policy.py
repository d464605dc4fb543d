"""Who may challenge you: accept/reject, limit, seek, and what standings and `games seek` show."""

from __future__ import annotations

import pytest

from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
)
from tests.commands.social import rows, run_as, snapshot


def bob(run, line: str):
    """`trou <verb> bob PASSWORD <rest>` from bob: bob(run, 'limit 2')."""
    verb, _, rest = line.partition(" ")
    return run(BOB, f"trou {verb} bob {PW['bob']} {rest}".rstrip())


def challenged(replies) -> bool:
    return any(r.subject.startswith("New ") for r in replies)


# ----- accept / reject --------------------------------------------------------------------
def test_a_player_who_rejects_is_not_challenged_and_the_challenger_is_told(players):
    run = players
    answer = one(bob(run, "reject"))
    assert answer.subject == "Trou settings of bob"
    assert "Challenges naming bob are refused" in answer.body
    before = snapshot(run)
    replies = run(STRANGER, "trou challenge alice bob")
    refused = error(replies)
    assert refused.to == (STRANGER,)
    assert "bob does not accept Trou challenges (they sent 'trou reject'); this challenge " \
           "was not made." in flat(refused.body)
    assert snapshot(run) == before
    # Only Trou: other games are challenged as before.
    assert challenged(run(STRANGER, "loophole challenge alice bob"))


def test_a_player_who_rejects_may_still_start_boards(players):
    run = players
    bob(run, "reject")
    assert challenged(run(BOB, "trou challenge alice bob"))  # bob sent it


def test_accept_lifts_a_rejection(players):
    run = players
    bob(run, "reject")
    answer = one(bob(run, "accept"))
    assert "Challenges naming bob are accepted" in answer.body
    assert rows(run, "challenge_policies") == []  # nothing said: nothing stored
    assert challenged(run(STRANGER, "trou challenge alice bob"))


def test_the_operators_command_line_passes_a_rejection(players):
    run = players
    bob(run, "reject")
    assert challenged(run_as(run, "", "trou challenge alice bob", admin=True))


# ----- limit ------------------------------------------------------------------------------
def test_a_challenge_beyond_the_limit_is_refused_until_a_board_ends(players):
    run = players
    answer = one(bob(run, "limit 1"))
    assert "At most 1 active boards (0 now)" in answer.body
    start_trou(run, "alice", "bob")
    before = snapshot(run)
    refused = error(run(STRANGER, "trou challenge carol bob"))
    assert "bob plays 1 active Trou boards, the most they take at once ('trou limit 1')" \
        in refused.body
    assert snapshot(run) == before
    # Finished boards do not count.
    for i, text in enumerate(TROU_GAME):
        userid = ("alice", "bob")[i % 2]
        run((ALICE, BOB)[i % 2], f"trou move 101 {userid} {PW[userid]} {text}")
    assert challenged(run(STRANGER, "trou challenge carol bob"))
    # 'accept' (pbmserv's word; no number now says the limit instead): no limit.
    answer = one(bob(run, "limit accept"))
    assert answer.body.startswith("Your Trou limit: no limit.\n")
    assert "No limit of active boards (1 now)" in answer.body
    assert challenged(run(STRANGER, "trou challenge carol bob"))


def test_limit_alone_says_the_limit_and_changes_nothing(players):
    run = players
    start_trou(run, "alice", "bob")
    for setting, said in ((None, "no limit"), ("limit 3", "at most 3 active boards"),
                          ("limit 1", "at most 1 active board"),
                          ("reject", "you refuse challenges")):
        if setting:
            bob(run, setting)
        before = snapshot(run)
        replies = bob(run, "limit")
        answer = one(replies)
        assert answer.subject == "Trou settings of bob"
        assert answer.body.startswith(f"Your Trou limit: {said}.\nTo change it: ")
        assert "To change it: trou limit bob PASSWORD n (a number), accept (no limit) or " \
               "reject (no challenges)." in flat(answer.body)
        assert snapshot(run) == before
        assert_never_echoed(replies, PW["bob"])


@pytest.mark.parametrize("word", ["accept", "ALL", "inf"])
def test_limit_accept_all_inf_lift_the_limit_and_a_rejection(players, word):
    run = players
    bob(run, "limit 2")
    bob(run, "reject")
    assert one(bob(run, f"limit {word}")).body.startswith("Your Trou limit: no limit.\n")
    assert rows(run, "challenge_policies") == []  # nothing said: nothing stored
    assert challenged(run(STRANGER, "trou challenge alice bob"))


@pytest.mark.parametrize("word", ["reject", "0"])
def test_limit_reject_or_0_refuses_challenges(players, word):
    run = players
    answer = one(bob(run, f"limit {word}"))
    assert answer.body.startswith("Your Trou limit: you refuse challenges.\n")
    assert "Challenges naming bob are refused" in answer.body
    assert "bob does not accept Trou challenges" in error(
        run(STRANGER, "trou challenge alice bob")).body
    assert challenged(run(BOB, "trou challenge bob alice"))  # bob's own still start


def test_a_number_takes_challenges_again_up_to_it(players):
    run = players
    bob(run, "reject")
    answer = one(bob(run, "limit 1"))
    assert answer.body.startswith("Your Trou limit: at most 1 active board.\n")
    assert challenged(run(STRANGER, "trou challenge alice bob"))
    assert "the most they take at once" in error(run(STRANGER, "trou challenge carol bob")).body


def test_a_limit_does_not_stop_the_player_challenging(players):
    run = players
    bob(run, "limit 1")
    start_trou(run, "alice", "bob")
    assert challenged(run(BOB, "trou challenge bob carol"))


# ----- seek -------------------------------------------------------------------------------
def test_seekers_are_listed_and_each_challenge_counts_one(players):
    run = players
    assert "Nobody is seeking Trou games now" in one(run(STRANGER, "trou games seek")).body
    # Their last board was against each other: the two seekers are not paired again.
    start_trou(run, "bob", "carol")
    assert "Seeking 2 more games" in one(bob(run, "seek 2")).body
    one(run(CAROL, f"trou seek carol {PW['carol']}"))  # 1 by default
    listing = one(run(STRANGER, "trou games SEEK"))
    assert listing.subject == "Trou Seekers"
    assert listing.body.startswith("Players seeking Trou games\n\n"
                                   "Name   Seeking\n"
                                   "bob          2\n"
                                   "carol        1\n")
    assert challenged(run(STRANGER, "trou challenge alice bob"))
    assert "bob          1\n" in one(run(STRANGER, "trou games seek")).body
    assert challenged(run(BOB, "trou challenge bob alice"))  # bob's own: not one sought
    assert "bob          1\n" in one(run(STRANGER, "trou games seek")).body
    assert challenged(run(STRANGER, "trou challenge bob carol"))
    body = one(run(STRANGER, "trou games seek")).body
    assert "bob" not in body and "carol        0" not in body
    assert rows(run, "challenge_policies") == []  # both done: nothing left to say


def test_seek_0_stops_seeking(players):
    run = players
    bob(run, "seek 3")
    assert "Not seeking games." in one(bob(run, "seek 0")).body
    assert rows(run, "challenge_policies") == []


# ----- bad input --------------------------------------------------------------------------
@pytest.mark.parametrize("line, message", [
    ("trou limit bob {bob} many", "The last word must be a number from 0 to 999"),
    ("trou limit bob {bob} 1000", "The last word must be a number from 0 to 999"),
    ("trou limit bob {bob} none", "The last word must be a number from 0 to 999, accept "
                                  "(no limit) or reject (no challenges)"),
    ("trou seek bob {bob} 100", "The last word must be a number from 0 to 99"),
    ("trou seek bob {bob} -1", "The last word must be a number from 0 to 99"),
    ("trou seek bob {bob} 1 2", "Too many words"),
    ("trou reject bob Wrong-pass-9", "password"),
    ("trou accept bob", "Too few words"),
])
def test_bad_settings_change_nothing(players, line, message):
    run = players
    bob(run, "limit 2")
    before = snapshot(run)
    replies = run(BOB, line.format(**PW))
    assert message in flat(error(replies).body)
    assert snapshot(run) == before
    assert_never_echoed(replies, PW["bob"], "Wrong-pass-9")


# ----- standings --------------------------------------------------------------------------
def finish_one(run) -> None:
    number = start_trou(run, "alice", "bob", TROU_GAME)
    assert number == 101


def test_standings_keep_their_layout_while_nobody_limits_or_seeks(players):
    run = players
    finish_one(run)
    body = one(run(STRANGER, "trou standings")).body
    assert "Rank  Name   Rating   Won  Lost  Active\n" in body
    assert "Seeking" not in body


def test_standings_show_active_limit_and_seeking(players):
    run = players
    finish_one(run)
    start_trou(run, "alice", "bob")
    bob(run, "reject")
    run(ALICE, f"trou limit alice {PW['alice']} 3")
    run(ALICE, f"trou seek alice {PW['alice']} 2")
    body = one(run(STRANGER, "trou standings")).body
    assert ("Rank  Name   Rating   Won  Lost  Active/Limit   Seeking\n"
            "   1  alice    1824     1     0       1/ 3            2\n"
            "   2  bob      1424     0     1       1/reject\n") in body
