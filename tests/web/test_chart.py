"""A player's rating history (pbm/web/chart.py): read from boards rated by real mail commands
on a real migrated SQLite file, and drawn as an inline SVG that parses as XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import event, select

from pbm.db.models import Board, Rating, User
from pbm.web.chart import NO_RATINGS, Point, rating_chart, rating_history, y_ticks
from tests.commands.conftest import (  # noqa: F401  (account_rows, players, run)
    ACCOUNTS,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    account_rows,
    one,
    players,
    run,
    start_tournament_board,
)

S = "{http://www.w3.org/2000/svg}"
T0 = datetime(2026, 12, 1, 9, 0)


@pytest.fixture
def mail(players: Runner) -> Runner:  # noqa: F811  (imported above, with what it needs)
    """The command layer as mail reaches it, with alice, bob and carol signed up."""
    return players


def finish_trou(mail: Runner, first: str, second: str, day: int, label: str | None = None) -> str:
    """A Trou board `first` wins against `second` (TROU_GAME), played on day `day` of
    December 2026; its label. `label`: a board already started (a tournament's)."""
    at = T0 + timedelta(days=day)
    if label is None:
        replies = mail(STRANGER, f"trou challenge {first} {second}", now=at)
        label = one(replies, ACCOUNTS[first][1]).subject.split()[3]
    for i, text in enumerate(TROU_GAME):
        userid = (first, second)[i % 2]
        replies = mail(ACCOUNTS[userid][1], f"trou move {label} {userid} {PW[userid]} {text}",
                       now=at + timedelta(minutes=i))
        assert not any(r.subject.endswith("Error") for r in replies), replies
    return label


def history_of(mail: Runner, userid: str) -> dict[str, list[Point]]:
    with mail.session() as session:
        user = session.scalars(select(User).where(User.userid == userid)).one()
        return rating_history(session, user)


def svg_of(points: list[Point], title: str = "alice's Trou rating") -> ET.Element:
    root = ET.fromstring(rating_chart(points, title))
    assert root.tag == f"{S}svg"
    return root


def dots(root: ET.Element) -> list[ET.Element]:
    return root.findall(f".//{S}circle")


def tick_values(root: ET.Element) -> list[int]:
    texts = [t.text or "" for t in root.iter(f"{S}text")]
    return [int(t) for t in texts if re.fullmatch(r"-?\d+", t)]


def dates_shown(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{S}text")
            if re.fullmatch(r"\d{4}-\d\d-\d\d", t.text or "")]


# ----- the history ------------------------------------------------------------------------
def test_the_history_follows_the_rated_games_in_their_order(mail):
    finish_trou(mail, "alice", "bob", 1)  # trou 101: alice wins
    finish_trou(mail, "bob", "alice", 3)  # 102: bob wins
    finish_trou(mail, "carol", "bob", 4)  # 103: not alice's
    finish_trou(mail, "alice", "carol", 6)  # 104: alice wins
    history = history_of(mail, "alice")
    assert list(history) == ["trou"]
    points = history["trou"]
    assert [(p.when, p.game, p.label) for p in points] == [
        (date(2026, 12, 2), "trou", "101"), (date(2026, 12, 4), "trou", "102"),
        (date(2026, 12, 7), "trou", "104")]
    with mail.session() as session:
        boards = {b.number: b for b in session.scalars(select(Board))}
        alice = session.scalars(select(User).where(User.userid == "alice")).one()
        final = session.get(Rating, ("trou", alice.id))
        assert final is not None
        expected = [boards[101].rating_changes[0][1], boards[102].rating_changes[1][1],
                    boards[104].rating_changes[0][1]]
        assert [p.rating for p in points] == expected
        assert points[-1].rating == final.rating
    assert points[0].rating > points[1].rating < points[2].rating  # won, lost, won


def test_a_tournament_board_keeps_its_label(mail):
    start_tournament_board(mail)
    finish_trou(mail, "alice", "bob", 2, label="a101")
    assert [p.label for p in history_of(mail, "alice")["trou"]] == ["a101"]


def test_the_history_is_one_statement(mail):
    for day in range(4):
        finish_trou(mail, "alice", ("bob", "carol")[day % 2], day)
    with mail.session() as session:
        user = session.scalars(select(User).where(User.userid == "alice")).one()
        sent: list[str] = []

        def count(_conn, _cursor, statement, *_args) -> None:
            sent.append(statement)

        event.listen(mail.engine, "before_cursor_execute", count)
        try:
            history = rating_history(session, user)
        finally:
            event.remove(mail.engine, "before_cursor_execute", count)
    assert len(history["trou"]) == 4
    assert len(sent) == 1


def test_a_player_without_rated_games_has_no_history(mail):
    assert history_of(mail, "carol") == {}
    replies = mail(STRANGER, "trou challenge carol alice")  # running: not rated yet
    assert replies
    assert history_of(mail, "carol") == {}


# ----- the chart --------------------------------------------------------------------------
def test_the_chart_of_rated_games(mail):
    finish_trou(mail, "alice", "bob", 0)
    finish_trou(mail, "bob", "alice", 1)
    finish_trou(mail, "alice", "bob", 2)
    points = history_of(mail, "alice")["trou"]
    markup = rating_chart(points, "alice's Trou rating")
    assert "<script" not in markup and "href" not in markup and "url(" not in markup
    root = svg_of(points)
    assert root.get("width") == "100%" and root.get("role") == "img"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    assert root[0].tag == f"{S}title" and root[0].text == "alice's Trou rating"
    circles = dots(root)
    assert len(circles) == len(points) == 3
    assert [c.find(f"{S}title").text for c in circles] == \
        [f"2026-12-{day:02d} trou {label}: {p.rating}"
         for day, label, p in zip((1, 2, 3), ("101", "102", "103"), points)]
    (line,) = root.iter(f"{S}polyline")
    assert len(line.get("points", "").split()) == 3
    ticks = tick_values(root)
    assert ticks[0] <= min(p.rating for p in points)
    assert ticks[-1] >= max(p.rating for p in points)
    assert 2 <= len(ticks) <= 5 and ticks == sorted(ticks)
    step = ticks[1] - ticks[0]
    assert all(t % step == 0 for t in ticks) and {b - a for a, b in zip(ticks, ticks[1:])} \
        == {step}
    assert dates_shown(root) == ["2026-12-01", "2026-12-03"]
    # Higher ratings are drawn higher up.
    heights = [float(c.get("cy", "")) for c in circles]
    ratings = [p.rating for p in points]
    assert sorted(range(3), key=lambda i: heights[i]) == \
        sorted(range(3), key=lambda i: -ratings[i])


def test_one_point_is_a_dot(mail):
    finish_trou(mail, "alice", "bob", 0)
    points = history_of(mail, "alice")["trou"]
    root = svg_of(points)
    assert len(dots(root)) == 1
    assert list(root.iter(f"{S}polyline")) == []
    ticks = tick_values(root)
    assert ticks[0] < points[0].rating < ticks[-1]
    assert dates_shown(root) == ["2026-12-01"]


def test_no_points_draw_nothing():
    assert rating_chart([], "alice's Trou rating") == ""
    assert NO_RATINGS == "No rated games yet."


def test_hostile_text_is_escaped():
    evil = "<script>alert(1)</script>&\x01\"'"
    points = [Point(date(2026, 12, 1), evil, evil, 1500),
              Point(date(2026, 12, 2), "trou", "101", 1510)]
    markup = rating_chart(points, f"{evil} rating")
    assert "<script>" not in markup and "\x01" not in markup
    assert "&lt;script&gt;" in markup
    root = ET.fromstring(markup)
    assert root[0].text == "<script>alert(1)</script>&\"' rating"
    assert dots(root)[0].find(f"{S}title").text == \
        "2026-12-01 <script>alert(1)</script>&\"' <script>alert(1)</script>&\"': 1500"
    assert [e.tag for e in root.iter()].count(f"{S}script") == 0


@pytest.mark.parametrize(("low", "high"), [(1500, 1500), (1488, 1531), (1200, 1900),
                                           (1000, 1001), (-7, 12), (2399, 2401)])
def test_the_ticks_are_round_and_bracket_the_ratings(low, high):
    ticks = y_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high
    assert 2 <= len(ticks) <= 5
    steps = {b - a for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1
    (step,) = steps
    assert re.fullmatch(r"[125]0*", str(step))
    assert all(t % step == 0 for t in ticks)
