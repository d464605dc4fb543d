"""A board's record (pbm/views/record.py) and the `GAME record BOARD` command.

The record is built from real games played through the command layer on a real database.
Secrets: seeded random Pipeline and Outguess games (test_secrets' playouts) are played move
by move; after every move before the end, the record (its JSON and its text, and the
`record` command's answer) holds none of a player's secret notations nor the seed, and the
same game played again with one player's secret changed gives byte-identical records; once
the game is over, every secret and the seed are in them.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from pbm.db.models import Board
from pbm.games.outguess.notation import cell_name
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.pipeline.state import SubmitPipe
from pbm.views.record import NoRecord, record, record_text
from pbm.width import WIDTH
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    error,
    one,
    start_trou,
)
from tests.commands.test_secrets import (
    outguess_log,
    outguess_twin,
    pipe_forms,
    pipeline_log,
    pipeline_twin,
)
from tests.commands.test_secrets import second_db as _second_db_fixture

START = datetime(2024, 5, 1, 9, 30, 15, 123456)  # microseconds: the record keeps seconds
SITE = "https://pbm.example.org/"
USERS = ("alice", "bob")
SEEDS = 3  # random games of each game with secrets (test_secrets plays many more)
second_db = _second_db_fixture  # more databases like `players` (the twins' games)


def at(step: int) -> datetime:
    """When step `step` of a game happens: a minute apart, so times tell moves apart."""
    return START + timedelta(minutes=step)


def play(run: Runner, word: str, moves: list[tuple[int, str]],
         comments: dict[int, str] | None = None,
         after: Callable[[int], None] | None = None) -> None:
    """Challenge alice and bob at step 0, then move i at step i (with comments[i], if
    any); `after(i)` is called after each step."""
    run(STRANGER, f"{word} challenge alice bob", now=at(0))
    if after is not None:
        after(0)
    for number, (seat, text) in enumerate(moves, start=1):
        userid = USERS[seat]
        replies = run(ACCOUNTS[userid][1], f"{word} move 101 {userid} {PW[userid]} {text}",
                      comment=(comments or {}).get(number), now=at(number))
        assert {r.kind for r in replies} == {"board"}, replies
        if after is not None:
            after(number)


def trou_moves(moves: tuple[str, ...] = TROU_GAME) -> list[tuple[int, str]]:
    return [(i % 2, move) for i, move in enumerate(moves)]


def records(run: Runner, board_id: int = 101, site: str = "") -> tuple[dict[str, Any], str]:
    """The board's record as JSON data (through json, as the web view sends it) and as
    text."""
    with run.session() as session:
        board = session.get(Board, board_id)
        assert board is not None
        return json.loads(json.dumps(record(board, site=site))), record_text(board)


def board(run: Runner, board_id: int = 101) -> Board:
    found = run.board(board_id)
    assert found is not None
    return found


ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


# ===== a finished Trou game ===================================================================
def test_a_finished_trou_games_record_has_its_header_moves_and_result(players):
    play(players, "trou", trou_moves(), comments={4: "Well played!"})
    data, _ = records(players, site=SITE)
    finished = board(players)
    assert finished.status == "finished" and finished.winners == [0]
    head = data["header"]
    assert head["game"] == {"name": "trou", "title": "Trou", "rules-version": 1, "options": {}}
    assert head["board"] == "101"
    assert head["site"] == {"name": SITE, "gameid": "trou/101",
                            "url": "https://pbm.example.org/trou/101"}
    assert (head["date-start"], head["date-last-move"], head["date-end"]) == (
        "2024-05-01T09:30:15Z", "2024-05-01T09:38:15Z", "2024-05-01T09:38:15Z")
    assert head["status"] == "finished" and head["to-move"] == []
    changes = finished.rating_changes
    assert changes is not None
    assert head["players"] == [
        {"userid": "alice", "seat": "Red", "is_ai": False, "result": "win",
         "rating": dict(zip(("before", "after", "games-before"), changes[0]))},
        {"userid": "bob", "seat": "Black", "is_ai": False, "result": "loss",
         "rating": dict(zip(("before", "after", "games-before"), changes[1]))},
    ]
    assert head["result"] == {"winners": ["alice"], "draw": False,
                              "reason": finished.result_reason}
    assert head["seed"] == finished.seed
    assert [(m["number"], m["seat"], m["player"], m["move"], m["auto"]) for m in data["moves"]] \
        == [(i + 1, ("Red", "Black")[i % 2], USERS[i % 2], move, False)
            for i, move in enumerate(TROU_GAME)]
    assert [m["time"] for m in data["moves"]] == \
        [f"2024-05-01T09:{30 + i:02d}:15Z" for i in range(1, 9)]
    assert [m.get("comment") for m in data["moves"]] == [None] * 3 + ["Well played!"] + [None] * 4
    assert all("takeback" not in m for m in data["moves"])


def test_a_finished_trou_games_text_record_is_pgn_like(players):
    play(players, "trou", trou_moves(), comments={4: "Well {played}!\n\nReally."})
    finished = board(players)
    (before_a, after_a, _), (before_b, after_b, _) = finished.rating_changes
    _, text = records(players)
    assert text == (
        '[Game "Trou"]\n'
        '[Board "101"]\n'
        '[Date "2024.05.01"]\n'
        '[Red "alice"]\n'
        '[Black "bob"]\n'
        '[Result "1-0"]\n'
        '[Rules "1"]\n'
        '[Status "finished"]\n'
        '[Started "2024-05-01T09:30:15Z"]\n'
        '[LastMove "2024-05-01T09:38:15Z"]\n'
        '[Ended "2024-05-01T09:38:15Z"]\n'
        f'[RedRating "{before_a} -> {after_a}"]\n'
        f'[BlackRating "{before_b} -> {after_b}"]\n'
        f'[Seed "{finished.seed}"]\n'
        '\n'
        # A comment's braces would end it early: they become parentheses.
        '1. 1B2 2. 4C2 3. 2B1 4. 2B3 {Well (played)! Really.} 5. 4A2 6. 3C3 7. 3A3\n'
        "8. 1A1 {Both have 1 pawn beside the hole and Red's sum is smaller (2 against\n"
        '4).} 1-0\n')
    assert finished.result_reason == \
        "Both have 1 pawn beside the hole and Red's sum is smaller (2 against 4)."


def test_the_site_is_a_tag_of_the_text_when_given(players):
    play(players, "trou", trou_moves(TROU_GAME[:2]))
    with players.session() as session:
        text = record_text(session.get(Board, 101), site=SITE)
    assert '[Site "https://pbm.example.org/trou/101"]\n[Date "2024.05.01"]' in text


def test_a_running_games_record_has_no_result_and_no_seed(players):
    play(players, "trou", trou_moves(TROU_GAME[:3]))
    data, text = records(players)
    head = data["header"]
    assert head["status"] == "active" and head["to-move"] == ["bob"]
    assert head["result"] is None and head["date-end"] is None and "seed" not in head
    assert all("result" not in p and "rating" not in p for p in head["players"])
    assert '[Result "*"]' in text and "[Seed" not in text and "[Ended" not in text
    assert text.endswith("\n\n1. 1B2 2. 4C2 3. 2B1 *\n")


def test_a_new_boards_record_has_no_moves(players):
    start_trou(players)
    data, text = records(players)
    assert data["moves"] == [] and data["header"]["date-last-move"] is None
    assert data["header"]["to-move"] == ["alice"]
    assert text.endswith('[Started "' + data["header"]["date-start"] + '"]\n\n*\n')
    assert ISO.fullmatch(data["header"]["date-start"])


def test_a_resignation_and_a_draw(players):
    play(players, "trou", trou_moves(TROU_GAME[:4]))
    players(ALICE, f"trou resign 101 alice {PW['alice']}", now=at(5))
    data, text = records(players)
    assert data["header"]["result"] == {"winners": ["bob"], "draw": False,
                                        "reason": "alice resigned."}
    assert [p["result"] for p in data["header"]["players"]] == ["loss", "win"]
    assert data["header"]["date-end"] == "2024-05-01T09:35:15Z"
    assert '[Result "0-1"]' in text and text.endswith("4. 2B3 {alice resigned.} 0-1\n")

    # Equal counts and sums beside the hole: no winner.
    drawn = ("1C1", "2C2", "2B1", "3B2", "3A1", "1C3", "4B3", "4A2")
    start = len(TROU_GAME) + 10
    players(STRANGER, "trou challenge alice bob", now=at(start))
    for i, move in enumerate(drawn, start=1):
        userid = USERS[(i - 1) % 2]
        players(ACCOUNTS[userid][1], f"trou move 102 {userid} {PW[userid]} {move}",
                now=at(start + i))
    assert board(players, 102).winners == []
    data, text = records(players, 102)
    assert data["header"]["result"] == {
        "winners": [], "draw": True,
        "reason": "Both have 1 pawn beside the hole with the same sum (4): no winner."}
    assert [p["result"] for p in data["header"]["players"]] == ["draw", "draw"]
    assert '[Result "1/2-1/2"]' in text and text.endswith(" no winner.} 1/2-1/2\n")


def test_takebacks_and_queued_moves_are_shown_as_such(players):
    play(players, "trou", trou_moves(TROU_GAME[:3]))
    players(BOB, f"trou move 101 bob {PW['bob']} undo", now=at(4))
    players(ALICE, f"trou move 101 alice {PW['alice']} accept", now=at(5))
    players(BOB, f"trou queue 101 bob {PW['bob']} 2B3", now=at(6))
    players(ALICE, f"trou move 101 alice {PW['alice']} 2B1", now=at(7))
    data, text = records(players)
    assert [(m["number"], m["move"], m.get("takeback"), m["auto"]) for m in data["moves"]] == [
        (1, "1B2", None, False), (2, "4C2", None, False), (3, "2B1", None, False),
        (4, "(move 3 taken back)", 3, False), (5, "2B1", None, False),
        (6, "2B3", None, True)]
    assert "3. 2B1 4. (move 3 taken back) 5. 2B1 6. 2B3 (Auto) *" in text


def test_a_declined_board_has_no_record(players):
    start_trou(players)
    players(ALICE, f"trou resign 101 alice {PW['alice']}")
    assert board(players).status == "declined"
    with players.session() as session, pytest.raises(NoRecord):
        record(session.get(Board, 101))


# ===== the text stays within 76 columns =========================================================
def test_the_text_stays_within_76_columns(players):
    long_words = "x" * 200
    comment = " ".join(["A comment that goes on and on"] * 12 + [long_words, "{end}"])
    play(players, "trou", trou_moves(), comments={n: comment for n in (1, 5, 8)})
    _, text = records(players)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert "{A comment that" in text and "(end)}" in text
    assert "x" * WIDTH in text  # a word longer than a line is cut, not dropped
    reply = one(players(STRANGER, "trou record 101"))
    assert reply.body == text


@pytest.mark.parametrize("seed", range(SEEDS))
def test_a_pipeline_record_stays_within_76_columns(players, seed):
    moves, _ = pipeline_log(seed)
    play(players, "pipeline", [(seat, PIPELINE.notation(m)) for seat, m in moves],
         comments={2: "Here goes " * 30})
    _, text = records(players)
    assert max(len(line) for line in text.splitlines()) <= WIDTH, text
    # Each move on a line of its own, naming its seat; a long one goes on under its text.
    assert re.search(r"^1\. \S.* \((Head|Tail)\)$", text, re.M), text
    assert re.search(r"^   \S", text, re.M), text


# ===== the command ==============================================================================
def test_anyone_may_ask_for_a_record_by_mail(players):
    play(players, "trou", trou_moves(TROU_GAME[:5]))
    _, text = records(players)
    for sender in (STRANGER, ALICE):
        reply = one(players(sender, "trou record 101"))
        assert (reply.to, reply.kind, reply.subject) == ((sender,), "answer",
                                                         "Trou Board 101 Record")
        assert reply.body == text
    assert one(players(BOB, "TROU RECORD 0101")).body == text


@pytest.mark.parametrize("line, subject, says", [
    ("trou record", "Trou error", "Too few words: the board number is missing."),
    ("trou record 999", "Trou Board 999 Error", "There is no Trou board 999."),
    ("trou record x1x", "Trou error", "'x1x' is not a board number"),
    ("trou record 101 102", "Trou Board 101 Error", "Too many words"),
])
def test_a_record_of_no_board_is_refused_clearly(players, line, subject, says):
    start_trou(players)
    reply = error(players(STRANGER, line))
    assert reply.subject == subject and reply.to == (STRANGER,)
    assert says in reply.body, reply.body


def test_a_declined_board_is_no_board_to_the_command(players):
    start_trou(players)
    players(ALICE, f"trou resign 101 alice {PW['alice']}")
    reply = error(players(STRANGER, "trou record 101"))
    assert reply.subject == "Trou Board 101 Error"
    assert "There is no Trou board 101." in reply.body


def test_the_other_games_board_is_pointed_to(players):
    play(players, "pipeline", [])
    reply = error(players(STRANGER, "trou record 101"))
    assert "101 is a Pipeline board: send 'pipeline ...' for it." in " ".join(reply.body.split())


def test_help_names_the_command(players):
    page = one(players(STRANGER, "help commands")).body
    assert "  game record board\n" in page
    assert "GAME record 101" in one(players(STRANGER, "help")).body


# ===== secrets ==================================================================================
def everything(run: Runner) -> str:
    """All a reader gets of the record: its JSON, its text and the command's answer."""
    data, text = records(run)
    answer = one(run(STRANGER, f"{data['header']['game']['name']} record 101"))
    assert answer.body == text
    return "\n".join([json.dumps(data), text, answer.subject, answer.body])


def assert_no_seed(run: Runner) -> None:
    data, text = records(run)
    assert "seed" not in data["header"] and "[Seed" not in text
    assert "seed" not in json.dumps(data).lower()


def pipeline_secrets(moves: list[tuple[int, Any]], upto: int) -> set[str]:
    """The pipelines sent in moves 1..upto, in every way a text could spell them."""
    return {form for _, move in moves[:upto] if isinstance(move, SubmitPipe)
            for form in {PIPELINE.notation(move).lower(), *pipe_forms(move.pipe)}}


def outguess_secrets(moves: list[tuple[int, Any]], upto: int) -> set[str]:
    """The guesses named in moves 1..upto: the whole turn's text, and the guess alone."""
    return {form for _, move in moves[:upto] if move.guess is not None
            for form in (str(move).lower(), f"guess {cell_name(move.guess)}".lower())}


def assert_revealed(run: Runner, secrets: set[str]) -> None:
    """Once over: every secret notation is in the record's moves, JSON and text, nothing
    is hidden any more, and the seed is there."""
    finished = board(run)
    assert finished.status == "finished"
    data, text = records(run)
    moves = " ".join(m["move"].lower() for m in data["moves"])
    flat = " ".join(text.lower().split())  # however its lines are wrapped
    for secret in secrets:
        assert secret in moves and secret in flat, (secret, text)
    assert "..." not in moves and "..." not in flat
    assert data["header"]["seed"] == finished.seed
    assert f'[Seed "{finished.seed}"]' in text


def check_running(run: Runner, secrets: Callable[[int], set[str]], end: int,
                  seen: list[str]) -> Callable[[int], None]:
    """After each step before the end: nothing secret, no seed; the record is kept."""

    def look(step: int) -> None:
        if step >= end:
            return
        shown = everything(run).lower()
        for secret in secrets(step):
            assert secret not in shown, (step, secret, shown)
        assert_no_seed(run)
        seen.append(shown)

    return look


@pytest.mark.parametrize("seed", range(SEEDS))
def test_a_running_pipeline_records_no_pipeline_and_the_end_reveals_them(players, second_db,
                                                                      seed):
    moves, states = pipeline_log(seed)
    log = [(seat, PIPELINE.notation(m)) for seat, m in moves]
    end = len(moves)
    seen: list[str] = []
    play(players, "pipeline", log,
         after=check_running(players, lambda step: pipeline_secrets(moves, step), end, seen))
    assert len(seen) == end and any("..." in shown for shown in seen)
    assert_revealed(players, {PIPELINE.notation(m).lower() for _, m in moves
                              if isinstance(m, SubmitPipe)})

    # The same public game with one player's pipeline changed: the same records throughout.
    owner = seed % 2
    twin_pipe, parted = pipeline_twin(moves, states, owner, random.Random(seed))
    twin_log = [(seat, PIPELINE.notation(SubmitPipe(twin_pipe))
                 if isinstance(m, SubmitPipe) and seat == owner else PIPELINE.notation(m))
                for seat, m in moves]
    last = min(parted, end)
    twin = second_db("twin")
    twin_seen: list[str] = []
    play(twin, "pipeline", twin_log[:last],
         after=check_running(twin, lambda step: set(), last, twin_seen))
    assert twin_seen == seen[:last]


@pytest.mark.parametrize("seed", range(SEEDS))
def test_a_running_outguess_records_no_guess_and_the_end_reveals_them(players, second_db, seed):
    moves, states = outguess_log(seed)
    log = [(seat, str(m)) for seat, m in moves]
    end = len(moves)
    seen: list[str] = []
    play(players, "outguess", log,
         after=check_running(players, lambda step: outguess_secrets(moves, step), end, seen))
    assert len(seen) == end and any("guess ..." in shown for shown in seen)
    assert_revealed(players, {str(move).lower() for _, move in moves})

    # Every guess of one player changed where the public cannot tell: the same records.
    twin_moves, changed = outguess_twin(moves, states, seed % 2, random.Random(seed))
    assert changed > 0
    twin = second_db("twin")
    twin_seen: list[str] = []
    play(twin, "outguess", [(seat, str(m)) for seat, m in twin_moves],
         after=check_running(twin, lambda step: set(), end, twin_seen))
    assert twin_seen == seen


def test_an_outguess_resignation_mid_game_reveals_every_guess(players):
    moves, _ = outguess_log(0)
    half = [(seat, str(m)) for seat, m in moves[: len(moves) // 2]]
    play(players, "outguess", half)
    secrets = outguess_secrets(moves, len(half))
    assert secrets
    shown = everything(players).lower()
    assert not any(secret in shown for secret in secrets)
    players(ALICE, f"outguess resign 101 alice {PW['alice']}", now=at(len(half) + 1))
    data, text = records(players)
    assert data["header"]["result"]["reason"] == "alice resigned."
    assert data["header"]["result"]["winners"] == ["bob"]
    assert_revealed(players, secrets)


def test_bob_is_named_as_the_winner_by_userid(players):
    play(players, "trou", trou_moves(TROU_GAME[:2]))
    players(ALICE, f"trou resign 101 alice {PW['alice']}", now=at(3))
    data, _ = records(players)
    assert data["header"]["result"]["winners"] == ["bob"]
    assert BOB not in json.dumps(data)  # userids, never addresses
