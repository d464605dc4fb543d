"""A player's rating history per game, and its chart as an inline SVG drawn on the server."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.db.models import Board, Seat, User
from pbm.web.feeds import sub_element

SVG = "http://www.w3.org/2000/svg"
# What a page says where rating_chart draws nothing: the page's words, outside the chart, so
# that the chart is always a picture and nothing else.
NO_RATINGS = "No rated games yet."

# The drawing's own units; width="100%" scales them to the page, a phone's too. Text is
# sized for a phone: 400 units across a 360-pixel screen keep 12 units near 11 pixels.
WIDTH, HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 26  # room for the tick labels and the dates
FONT = "12"
MOST_TICKS = 5
# The least span of the y axis: a flat run of ratings still gets an axis of round numbers
# around it, not ticks one point apart.
LEAST_SPAN = 40


@dataclass(frozen=True)
class Point:
    """A player's rating after one rated game."""

    when: date  # the day the game finished
    game: str
    label: str  # the board: 101, or a101 in a tournament
    rating: int

    def caption(self) -> str:
        return f"{self.when:%Y-%m-%d} {self.game} {self.label}: {self.rating}"


def rating_history(session: Session, user: User) -> dict[str, list[Point]]:
    """Per game, the user's rating after each of their rated games, in the order the games
    were rated (Board.rating_seq): one statement for all games. Games come in the order of
    the user's first rated game of each."""
    rows = session.execute(
        select(Board.game, Board.prefix, Board.number, Board.finished_at, Board.updated_at,
               Board.rating_changes, Seat.position)
        .join(Seat, Seat.board_id == Board.id)
        .where(Seat.user_id == user.id, Board.rating_seq.is_not(None),
               Board.rating_changes.is_not(None))
        .order_by(Board.rating_seq))
    history: dict[str, list[Point]] = {}
    for game, prefix, number, finished_at, updated_at, changes, seat in rows:
        if changes is None:  # not rated after all (the query leaves these out)
            continue
        _before, after, *_ = changes[seat]  # [rating before, after, finished games before]
        when = (finished_at or updated_at).date()
        history.setdefault(game, []).append(Point(when, game, f"{prefix}{number}", after))
    return history


def y_ticks(low: int, high: int) -> list[int]:
    """Round numbers from at or below `low` to at or above `high`, a round step apart, at
    most MOST_TICKS of them."""
    if high - low < LEAST_SPAN:
        middle = (low + high) / 2
        low, high = math.floor(middle - LEAST_SPAN / 2), math.ceil(middle + LEAST_SPAN / 2)
    step = 1
    while True:
        for factor in (1, 2, 5):
            size = step * factor
            bottom, top = math.floor(low / size), math.ceil(high / size)
            if top - bottom < MOST_TICKS:
                return [n * size for n in range(bottom, top + 1)]
        step *= 10


def rating_chart(points: Sequence[Point], title: str) -> str:
    """An inline <svg> of `points` in order: a line of the ratings, a dot per game with its
    tooltip, round ratings up the side and the first and last days along the bottom.

    "" for no points: the page then says NO_RATINGS in its own words and markup."""
    if not points:
        return ""
    ticks = y_ticks(min(p.rating for p in points), max(p.rating for p in points))
    low, high = ticks[0], ticks[-1]
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        # Games evenly spaced, not by date: a burst of games in one week would otherwise be
        # one smear; the dates at the ends say the span.
        if len(points) == 1:
            return LEFT + plot_width / 2
        return LEFT + plot_width * index / (len(points) - 1)

    def y(rating: float) -> float:
        return TOP + plot_height * (high - rating) / (high - low)

    # The namespace as a plain attribute (see feeds._feed): a standalone file too.
    svg = ET.Element("svg", {"xmlns": SVG, "viewBox": f"0 0 {WIDTH} {HEIGHT}",
                             "width": "100%", "role": "img", "class": "rating-chart",
                             "font-size": FONT, "font-family": "sans-serif"})
    sub_element(svg, "title", title)
    grid = sub_element(svg, "g", stroke="currentColor", **{"stroke-opacity": "0.2"})
    numbers = sub_element(svg, "g", fill="currentColor", **{"text-anchor": "end"})
    for tick in ticks:
        level = _n(y(tick))
        sub_element(grid, "line", x1=_n(LEFT), x2=_n(WIDTH - RIGHT), y1=level, y2=level)
        sub_element(numbers, "text", str(tick), x=_n(LEFT - 6), y=_n(y(tick) + 4))
    first, last = points[0].when, points[-1].when
    ends = [(first, LEFT + plot_width / 2, "middle")] if first == last else \
        [(first, LEFT, "start"), (last, WIDTH - RIGHT, "end")]
    days = sub_element(svg, "g", fill="currentColor")
    for day, across, anchor in ends:
        sub_element(days, "text", f"{day:%Y-%m-%d}", x=_n(across), y=_n(HEIGHT - 6),
                    **{"text-anchor": anchor})
    if len(points) > 1:  # one point is a dot alone
        line = " ".join(f"{_n(x(i))},{_n(y(p.rating))}" for i, p in enumerate(points))
        sub_element(svg, "polyline", points=line, fill="none", stroke="currentColor",
                    **{"stroke-width": "2"})
    dots = sub_element(svg, "g", fill="currentColor")
    for i, point in enumerate(points):
        dot = sub_element(dots, "circle", cx=_n(x(i)), cy=_n(y(point.rating)), r="3.5")
        sub_element(dot, "title", point.caption())
    return ET.tostring(svg, encoding="unicode")


def _n(value: float) -> str:
    """A coordinate, to a tenth of a unit: shorter markup, no visible difference."""
    return f"{value:.1f}".removesuffix(".0")
