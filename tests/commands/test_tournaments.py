"""Tournaments played to their end through the command layer: a round robin of 6, a Swiss of
12 in 4 rounds and a knockout of 8, every move, resignation and draw sent as a player's mail
command, with the standings checked against tables worked by hand."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import event, select

from pbm.context import Reply
from pbm.db.models import Address, Board, BoardStatus, Tournament, TournamentGame, User
from pbm.db.statuses import TournamentStatus
from pbm.tournaments.roundrobin import schedule
from pbm.width import WIDTH
from tests.commands.conftest import TROU_GAME, Runner, error, one
from tests.games.pictures import assert_document_safe

FIELD = [f"p{n:02}" for n in range(1, 13)]
PASSWORD = "Field1234"


def address(userid: str) -> str:
    return f"{userid}@example.org"


@pytest.fixture(scope="session")
def field_rows(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str]]:
    """Twelve players signed up once with the real command: (userid, password hash)."""
    runner = Runner(tmp_path_factory.mktemp("field") / "pbm.sqlite")
    try:
        for userid in FIELD:
            replies = runner(address(userid), f"signup {userid} {PASSWORD}")
            assert [r.subject for r in replies] == [f"Welcome to pbm, {userid}"], replies
        with runner.session() as session:
            return [(u.userid, u.password_hash) for u in session.scalars(
                select(User).where(User.bot.is_(None)).order_by(User.id))]
    finally:
        runner.engine.dispose()


@pytest.fixture
def field(tmp_path: Path, field_rows: list[tuple[str, str]]) -> Runner:
    runner = Runner(tmp_path / "pbm.sqlite")
    with runner.session() as session:
        for userid, password_hash in field_rows:
            user = User(userid=userid, password_hash=password_hash)
            user.addresses = [Address(position=0, address=address(userid))]
            session.add(user)
    yield runner
    runner.engine.dispose()


def send(run: Runner, userid: str, line: str) -> list[Reply]:
    return run(address(userid), line.replace("PW", PASSWORD))


# Who wins a board: a userid, or None for a draw.
Rule = Callable[[str, str], str | None]


def active_boards(run: Runner) -> list[tuple[str, str, str]]:
    """The tournament boards in play: (label, seat-0 userid, seat-1 userid)."""
    with run.session() as session:
        boards = session.scalars(select(Board).where(Board.prefix != "",
                                                     Board.status == BoardStatus.ACTIVE)
                                 .order_by(Board.number))
        return [(b.label, b.seats[0].user.userid, b.seats[1].user.userid) for b in boards]


def play_board(run: Runner, label: str, white: str, black: str,
               winner: str | None) -> list[Reply]:
    """Both players move once (so both took the board up), then the loser resigns on their
    turn, or the two agree a draw."""
    for userid, move in ((white, TROU_GAME[0]), (black, TROU_GAME[1])):
        replies = send(run, userid, f"trou move {label} {userid} PW {move}")
        assert not any(r.subject.endswith("Error") for r in replies), replies
    if winner is None:
        send(run, white, f"trou move {label} {white} PW propose")
        replies = send(run, black, f"trou move {label} {black} PW accept")
    else:
        loser = black if winner == white else white
        if loser == black:  # a resignation out of turn is queued: resign on one's turn
            send(run, white, f"trou move {label} {white} PW {TROU_GAME[2]}")
        replies = send(run, loser, f"trou resign {label} {loser} PW")
    assert not any(r.subject.endswith("Error") for r in replies), replies
    return replies


def play_out(run: Runner, rule: Rule, most: int = 200) -> list[Reply]:
    """Play every tournament board as `rule` says until none is left; the last replies."""
    last: list[Reply] = []
    for _ in range(most):
        boards = active_boards(run)
        if not boards:
            return last
        label, white, black = boards[0]
        last = play_board(run, label, white, black, rule(white, black))
    raise AssertionError("the tournament did not end")


def tournament(run: Runner, name: str) -> Tournament:
    with run.session() as session:
        t = session.scalar(select(Tournament).where(Tournament.name == name))
        assert t is not None
        session.expunge(t)
        return t


def games(run: Runner, name: str) -> list[tuple[int, str, str | None, str | None]]:
    """(round, seat-0 userid, seat-1 userid, outcome) of every game, in order."""
    with run.session() as session:
        t = session.scalar(select(Tournament).where(Tournament.name == name))
        assert t is not None
        names = {u.id: u.userid for u in session.scalars(select(User))}
        rows = session.scalars(select(TournamentGame).where(
            TournamentGame.tournament_id == t.id).order_by(TournamentGame.round,
                                                            TournamentGame.id))
        return [(g.round, names[g.seat0_id], names.get(g.seat1_id or -1), g.outcome)
                for g in rows]


def create_and_join(run: Runner, name: str, players: list[str], options: str = "") -> None:
    organiser = players[0]
    created = one(send(run, organiser, f"trou tournament create {name} {organiser} PW "
                                       f"{options}".strip()))
    assert created.subject == f"Tournament {name} created", created.body
    for userid in players:
        joined = one(send(run, userid, f"trou tournament join {name} {userid} PW"))
        assert f"{userid} has joined the tournament {name}" in joined.body


# ----- round robin ----------------------------------------------------------------------------
def test_a_round_robin_of_six_plays_to_its_end_and_its_table_is_the_hand_worked_one(field):
    players = FIELD[:6]  # p01 .. p06, all rated 1600: seeded by userid
    create_and_join(field, "spring", players)
    started = send(field, "p01", "trou tournament start spring p01 PW")
    assert any(r.subject == "Tournament spring started" for r in started)
    first = [r for r in started if r.subject.startswith("New Trou Board a10")]
    assert len(first) == 6  # three boards, a mail to each player
    assert all("Round 1 of the Trou tournament spring." in r.body for r in first)

    # p01 and p02 draw; p03 beats p02; otherwise the player listed first wins.
    def rule(white: str, black: str) -> str | None:
        pair = {white, black}
        if pair == {"p01", "p02"}:
            return None
        if pair == {"p02", "p03"}:
            return "p03"
        return min(pair)

    last = play_out(field, rule)
    t = tournament(field, "spring")
    assert t.status == TournamentStatus.FINISHED and t.round == 5
    played = games(field, "spring")
    assert len(played) == 15  # every pair once
    assert len({frozenset((w, b)) for _, w, b, _ in played}) == 15
    final = [r for r in last if r.subject == "Tournament spring has ended"]
    assert {r.to for r in final} == {(address(u),) for u in players}
    # By hand, 2 a win and 1 a tie: p01 4W 1T = 9; p03 4W 1L = 8; p02 3W 1L 1T = 7; p04 4;
    # p05 2; p06 0. Sonneborn-Berger (beaten opponents' points, half a drawn one's):
    # p01 8+4+2+0 + 7/2 = 17.5; p03 7+4+2+0 = 13; p02 4+2+0 + 9/2 = 10.5; p04 2+0 = 2;
    # p05 0; p06 0.
    body = final[0].body
    table = body[body.index("Pool"):].split("\n\n")[0].splitlines()
    assert [line.split() for line in table] == [
        ["Pool", "Name", "W", "L", "T", "SB"],
        ["A1", "p01", "4", "0", "1", "17.5"],
        ["A1", "p03", "4", "1", "0", "13"],
        ["A1", "p02", "3", "1", "1", "10.5"],
        ["A1", "p04", "2", "3", "0", "2"],
        ["A1", "p05", "1", "4", "0", "0"],
        ["A1", "p06", "0", "5", "0", "0"],
    ]
    assert max(len(line) for line in body.splitlines()) <= 76


# ----- Swiss ------------------------------------------------------------------------------------
def test_a_swiss_of_twelve_in_four_rounds(field):
    create_and_join(field, "autumn", FIELD, "-format=swiss -rounds=4")
    send(field, "p01", "trou tournament start autumn p01 PW")
    # The lower userid wins, but p12 beats everyone it meets, and p05 v p06 is drawn.
    def rule(white: str, black: str) -> str | None:
        pair = {white, black}
        if "p12" in pair:
            return "p12"
        if pair == {"p05", "p06"}:
            return None
        return min(pair)

    last = play_out(field, rule)
    t = tournament(field, "autumn")
    assert t.status == TournamentStatus.FINISHED and t.round == 4
    played = games(field, "autumn")
    assert {r for r, *_ in played} == {1, 2, 3, 4}
    for number in range(1, 5):
        boards = [(w, b) for r, w, b, _ in played if r == number]
        assert len(boards) == 6  # twelve players, no bye
        assert sorted(u for pair in boards for u in pair) == sorted(FIELD)
    pairs = [frozenset((w, b)) for _, w, b, _ in played]
    assert len(pairs) == len(set(pairs))  # nobody met twice
    body = next(r for r in last if r.subject == "Tournament autumn has ended").body
    rows = {line.split()[1]: line.split() for line in body.splitlines()
            if line.startswith("A1 ")}
    assert rows["p12"][2:4] == ["4", "0"]  # p12 won all four
    # Points add up: 24 games' worth of 2 each over the 4 rounds.
    assert sum(2 * int(r[2]) + (int(r[4]) if len(r) > 5 else 0) for r in rows.values()) \
        == 4 * 6 * 2


# ----- knockout --------------------------------------------------------------------------------
def test_a_knockout_of_eight_with_a_drawn_game_replayed(field):
    players = FIELD[:8]
    create_and_join(field, "cup", players, "-format=knockout")
    send(field, "p01", "trou tournament start cup p01 PW")
    draws = {"p01p08": 1}  # their first game is drawn, the replay is not

    def rule(white: str, black: str) -> str | None:
        key = "".join(sorted((white, black)))
        if draws.get(key):
            draws[key] -= 1
            return None
        return max((white, black)) if {white, black} == {"p02", "p07"} else min(white, black)

    last = play_out(field, rule)
    t = tournament(field, "cup")
    assert t.status == TournamentStatus.FINISHED and t.round == 3
    played = games(field, "cup")
    # Seeds by rating (all 1600), then userid: 1 v 8, 4 v 5, 2 v 7, 3 v 6; p01 v p08
    # drawn and replayed with the seats swapped.
    assert [(r, w, b) for r, w, b, _ in played if r == 1] == [
        (1, "p01", "p08"), (1, "p04", "p05"), (1, "p02", "p07"), (1, "p03", "p06"),
        (1, "p08", "p01")]
    assert [sorted((w, b)) for r, w, b, _ in played if r == 2] == [["p01", "p04"],
                                                                   ["p03", "p07"]]
    assert [sorted((w, b)) for r, w, b, _ in played if r == 3] == [["p01", "p03"]]
    body = next(r for r in last if r.subject == "Tournament cup has ended").body
    assert "Winner: p01" in body


# ----- bad input -------------------------------------------------------------------------------
def test_refusals_change_nothing(field):
    create_and_join(field, "open", FIELD[:2])
    snapshot = field.snapshot()
    cases = [
        ("p01", "trou tournament join open p01 PW", "has joined the tournament open already"),
        ("p03", "trou tournament join nosuch p03 PW", "There is no Trou tournament 'nosuch'"),
        ("p02", "trou tournament start open p02 PW", "Only the organiser"),
        ("p01", "trou tournament start open p01 PW", "needs 3 players at least"),
        ("p02", "trou tournament cancel open p02 PW", "Only the organiser"),
        ("p03", "trou tournament create open p03 PW", "already"),
        ("p03", "trou tournament create x p03 PW -format=ladder", "-format is one of"),
        ("p03", "trou tournament create y p03 PW -pool=1", "-pool takes a number from 3"),
        ("p03", "trou tournament create z p03 PW -rounds=3", "-rounds is for Swiss"),
        ("p03", "trou tournament play open p03 PW", "is not a tournament command"),
    ]
    for userid, line, message in cases:
        assert message in error(send(field, userid, line)).body, line
    assert "password" in error(send(field, "p03", "trou tournament join open p03 wrong")) \
        .body.lower()
    assert field.snapshot() == snapshot


def test_a_player_who_withdraws_mid_round_loses_what_is_left(field):
    create_and_join(field, "short", FIELD[:4])
    send(field, "p01", "trou tournament start short p01 PW")
    label, white, black = next(b for b in active_boards(field) if "p04" in b[1:])
    other = white if black == "p04" else black
    left = send(field, "p04", "trou tournament leave short p04 PW")
    assert any("p04 has withdrawn from the tournament short" in r.body for r in left)
    # The board in play, not yet moved on, is declined, and both its players are told.
    told = [r for r in left if r.subject == f"Trou Board {label}"]
    assert {r.to for r in told} == {(address("p04"),), (address(other),)}
    assert all("p04 declined Trou board" in r.body for r in told)
    rule: Rule = lambda white, black: min(white, black)  # noqa: E731
    play_out(field, rule)
    played = games(field, "short")
    theirs = [(w, b, o) for _, w, b, o in played if "p04" in (w, b)]
    assert len(theirs) == 3  # one a round, every one lost
    for w, b, outcome in theirs:
        assert outcome is not None and outcome.endswith("w")
        assert (w, b)[int(outcome[0])] != "p04"
    assert tournament(field, "short").status == TournamentStatus.FINISHED


def test_the_standings_end_with_the_pools_of_running_tournaments(field):
    create_and_join(field, "summer", FIELD[:3])
    before = one(send(field, "p01", "trou standings")).body
    assert "tournament summer" not in before
    send(field, "p01", "trou tournament start summer p01 PW")
    label, white, black = active_boards(field)[0]
    play_board(field, label, white, black, white)
    body = one(send(field, "p01", "trou standings")).body
    tail = body[body.index("Trou tournament summer (round robin"):]
    lines = tail.splitlines()
    assert lines[2].split() == ["Pool", "Name", "W", "L", "SB"]
    assert lines[3].split()[:4] == ["A1", white, "1", "0"]


def test_the_tables_are_drawn_for_a_reader_who_takes_html(field):
    create_and_join(field, "drawn", FIELD[:3])
    send(field, "p01", "trou tournament start drawn p01 PW")
    shown = one(send(field, "p02", "trou tournament show drawn"))
    assert shown.html is not None
    assert_document_safe(shown.html)
    assert "<table" in shown.html and "<th class=\"mc mh\">Pool</th>" in shown.html
    # The HTML shows the text part's figures and no more: every player's row is in both.
    for userid in FIELD[:3]:
        assert userid in shown.body and f">{userid}</td>" in shown.html
    send(field, "p02", "set p02 PW html off")
    assert one(send(field, "p02", "trou tournament show drawn")).html is None


def test_the_list_of_tournaments_is_a_table_within_76_columns_and_drawn_in_html(field):
    longest = "a" * 32  # the longest name a tournament may have
    create_and_join(field, longest, FIELD[:3], "-format=knockout")
    create_and_join(field, "swiss-open", FIELD[3:8], "-format=swiss")
    create_and_join(field, "spring", FIELD[8:11])
    send(field, "p04", "trou tournament start swiss-open p04 PW")
    send(field, "p01", f"trou tournament start {longest} p01 PW")
    listed = one(send(field, "p12", "trou tournaments"))
    lines = listed.body.splitlines()
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    rows = {line.split()[0]: line.split()[1:] for line in lines[3:6]}
    assert rows == {"spring": ["round", "robin", "c101", "open", "3"],
                    "swiss-open": ["Swiss", "b101", "round", "1/3", "5"],
                    longest: ["knockout", "a101", "round", "1", "3"]}, listed.body
    assert listed.html is not None
    assert_document_safe(listed.html)
    # The same cells as the text part, and no more.
    drawn = [re.findall(r"<td[^>]*>([^<]*)</td>", row)
             for row in re.findall(r"<tr>(.*?)</tr>", listed.html)]
    assert drawn[1:] == [["spring", "round robin", "c101", "open", "3"],
                         ["swiss-open", "Swiss", "b101", "round 1/3", "5"],
                         [longest, "knockout", "a101", "round 1", "3"]]
    send(field, "p12", "set p12 PW html off")
    assert one(send(field, "p12", "trou tournaments")).html is None


def test_no_tournaments_says_how_to_create_one_and_draws_nothing(field):
    listed = one(send(field, "p01", "trou tournaments"))
    assert listed.body.startswith("No Trou tournaments yet.")
    assert listed.html is None


def test_the_last_two_games_of_a_round_decided_at_once_start_the_next_round_once(field):
    """Two players leave their boards at the same moment before moving (the boards are
    declined, unrated: no rating lock is taken), each in its own transaction (on
    PostgreSQL, as two nodes would): the tournament's row lock makes the second wait and
    see the first, so round 2 is started exactly once."""
    create_and_join(field, "race", FIELD[:4])
    send(field, "p01", "trou tournament start race p01 PW")
    boards = active_boards(field)
    assert len(boards) == 2
    losers = [(label, white) for label, white, _ in boards]  # to move, never moved
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    # Each transaction, having read the round's games, waits a moment before it commits:
    # without the lock both would read before either committed, and neither would start
    # round 2 (each sees the other's game undecided).
    def linger(conn, cursor, statement, *args) -> None:  # noqa: ANN001
        if "FROM tournament_games" in statement and \
                "ORDER BY tournament_games.round" in statement:
            time.sleep(0.5)

    event.listen(field.engine, "after_cursor_execute", linger)

    def resign(label: str, userid: str) -> None:
        try:
            barrier.wait(timeout=10)
            send(field, userid, f"trou resign {label} {userid} PW")
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=resign, args=pair) for pair in losers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    event.remove(field.engine, "after_cursor_execute", linger)
    assert not failures, failures
    played = games(field, "race")
    assert [r for r, *_ in played].count(2) == 2  # round 2: two games, once
    assert all(outcome is not None for r, _, _, outcome in played if r == 1)
    assert len(active_boards(field)) == 2


def test_a_player_who_withdraws_from_a_board_moved_on_loses_it_and_both_see_why(field):
    create_and_join(field, "brief", FIELD[:4])
    send(field, "p01", "trou tournament start brief p01 PW")
    label, white, black = next(b for b in active_boards(field) if "p04" in b[1:])
    send(field, white, f"trou move {label} {white} PW {TROU_GAME[0]}")
    send(field, black, f"trou move {label} {black} PW {TROU_GAME[1]}")
    left = send(field, "p04", "trou tournament leave brief p04 PW")
    final = [r for r in left if r.subject == f"Trou Board {label}"]
    assert {r.to for r in final} == {(address(white),), (address(black),)}
    for reply in final:
        assert "p04 withdrew from the tournament brief." in reply.body
        assert f"Game won by {white if black == 'p04' else black}." in reply.body


def test_two_withdrawn_players_game_is_lost_by_both(field):
    # The two who meet in the last round leave at once; their games before it are lost
    # on the board, and their own game, when its round comes, has no board and no winner.
    meeting = schedule(FIELD[:4])[2][0]
    gone = (meeting.white, meeting.black)
    create_and_join(field, "thin", FIELD[:4])
    send(field, "p01", "trou tournament start thin p01 PW")
    for userid in gone:
        send(field, userid, f"trou tournament leave thin {userid} PW")
    last = play_out(field, lambda white, black: min(white, black))
    mutual = [(r, o) for r, w, b, o in games(field, "thin") if {w, b} == set(gone)]
    assert mutual == [(3, "lost")]
    body = next(r for r in last if r.subject == "Tournament thin has ended").body
    rows = {line.split()[1]: line.split()[2:4] for line in body.splitlines()
            if line.startswith("A1 ")}
    for userid in gone:
        assert rows[userid] == ["0", "3"]  # W, L: no points
    assert "lost by both (withdrawn)" in body


def test_the_standings_are_drawn_with_the_pools_for_a_reader_who_takes_html(field):
    create_and_join(field, "winter", FIELD[:3])
    send(field, "p01", "trou tournament start winter p01 PW")
    label, white, black = active_boards(field)[0]
    play_board(field, label, white, black, white)
    shown = one(send(field, "p02", "trou standings"))
    assert shown.html is not None
    assert_document_safe(shown.html)
    assert shown.html.count("<table") == 2  # the ratings, then the tournament's pool
    assert "Trou tournament winter (round robin" in shown.html
    for userid in (white, black):
        assert userid in shown.body and f">{userid}</td>" in shown.html
    send(field, "p02", "set p02 PW html off")
    assert one(send(field, "p02", "trou standings")).html is None
