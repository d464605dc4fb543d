"""Whole board mails in a real browser: for every game, a few moves through the real command
layer, the HTML part of a spectator's board mail as it would be delivered (composed, then
read back from the wire form), rendered by headless Chromium at a phone's width.

One screenshot per game is kept under artefacts/screenshots/<game>-mail.png."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbm.games import registry
from pbm.mail.compose import compose
from tests.browser.harness import PHONE_WIDTH, Browser
from tests.browser.pages import shot_of
from tests.commands.conftest import (  # noqa: F401  (account_rows, hilo, players, run)
    ACCOUNTS,
    CAROL,
    PW,
    STRANGER,
    Runner,
    account_rows,
    hilo,
    one,
    players,
    run,
)
from tests.mail.test_compose import SERVER, parse

BACKGROUND = (255, 255, 255)  # the mail's page (views/boardhtml.py)


@dataclass(frozen=True)
class Sample:
    """Moves to play (each by the seat the rules say is to move) and what the picture must
    then show."""

    moves: tuple[str, ...]
    cells: int  # how many cells the board has
    stones: tuple[str, ...]  # cells the moves put something on


SAMPLES = {
    "hilo": Sample(("6", "3", "8"), 9, ("3", "8")),
    "trou": Sample(("1B2", "4C2", "2B1"), 9, ("B2", "C2", "B1")),
    "loa": Sample(("C8-C6", "A6-C4", "E8-B5"), 8 * 8, ("C6", "C4", "B5")),
    # 19 by 19 but for the 18 cells of its two windows, which are not cells at all
    "loophole": Sample(("J10", "C3", "K11"), 19 * 19 - 18, ("J10", "C3", "K11")),
    "synapse-ice": Sample(("E1:3S", "E4:2N", "E2:1E"), 6 * 5, ("E1", "E4", "E2")),
    "pipeline": Sample(("A2", "C3"), 4 * 4, ("A2", "C3")),
    "hex": Sample(("F6", "swap", "C3"), 11 * 11, ("F6", "C3")),  # F6 swaps to itself
    "battleship": Sample(("A1-A5 C3-F3 H1-H3 J5-J7 E9-F9", "B2-F2 J1-J4 D5-D7 F7-H7 H9-I9",
                          "E5"), 2 * 100, ("Red:E5",)),
    "outguess": Sample(("guess C8", "F8xE8, guess B1", "C1xD1, guess A8"), 8 * 8,
                       ("E8", "D1", "A1", "H8")),
    "reversi": Sample(("D3", "C5", "E6"), 8 * 8, ("D3", "C5", "E6")),
    "breakthrough": Sample(("D2-D3", "E7-E6", "D3-D4"), 8 * 8, ("D4", "E6")),
    "amazons": Sample(("D1-D6/G3", "G10-G4/D4"), 10 * 10, ("D6", "G3", "G4", "D4")),
}
class NoPicture(AssertionError):
    """A board mail went out without an HTML part: its game draws nothing."""


def games() -> list[object]:
    names = ["hilo", *registry.names()]
    assert set(names) == set(SAMPLES), "every registered game needs a sample here"
    return names


def delivered_html(runner: Runner, game: str, moves: tuple[str, ...]) -> str:
    """The HTML part of carol's (a spectator's) mail after `moves`, as it goes on the wire."""
    runner(STRANGER, f"{game} challenge alice bob")
    runner(CAROL, f"{game} subscribe 101 carol {PW['carol']}")
    rules = registry.get(game)
    state, replies = rules.start(rules.parse_options([]), 0), []
    for text in moves:
        seat = min(rules.to_move(state))  # who moves next, by the rules (Outguess: Black)
        state = rules.play(state, seat, rules.parse(state, seat, text))
        userid = ("alice", "bob")[seat]
        replies = runner(ACCOUNTS[userid][1], f"{game} move 101 {userid} {PW[userid]} {text}")
        assert all(reply.kind == "board" for reply in replies), replies
    message = parse(compose(one(replies, CAROL), CAROL, SERVER))
    if message.get_content_type() != "multipart/alternative":
        raise NoPicture(f"{game}'s board mail has no HTML part: its game draws no picture")
    html_part = list(message.iter_parts())[1]
    assert html_part.get_content_type() == "text/html"
    return str(html_part.get_content())


@pytest.mark.parametrize("game", games())
@pytest.mark.usefixtures("hilo")
def test_a_board_mail_renders_on_a_phone(browser: Browser, players: Runner,  # noqa: F811
                                         game: str):
    sample = SAMPLES[game]
    html = delivered_html(players, game, sample.moves)
    shot = shot_of(browser, game, html, f"{game}-mail")
    browser.keep(shot, f"{game}-mail")
    assert shot.page_width <= PHONE_WIDTH, f"{shot.page_width}px wide: wider than a phone"
    # Every cell of the board was laid out, on the page and inside the phone's width.
    assert len(shot.boxes) == sample.cells, sorted(shot.boxes)
    for name, box in shot.boxes.items():
        assert box.width > 0 and box.height > 0, name
        assert 0 <= box.x and box.x + box.width <= PHONE_WIDTH, (name, box)
    # Not blank: where the board is, most of it is drawn, in more than a few colours.
    left = min(box.x for box in shot.boxes.values())
    top = min(box.y for box in shot.boxes.values())
    right = max(box.x + box.width for box in shot.boxes.values())
    bottom = max(box.y + box.height for box in shot.boxes.values())
    board = shot.image.crop((int(left), int(top), int(right), int(bottom)))
    assert board.width >= 100 and board.height >= 30, (board.width, board.height)
    colours = board.getcolors(maxcolors=board.width * board.height)  # (count, colour)s
    area = board.width * board.height
    inked = area - sum(count for count, colour in colours if colour == BACKGROUND)
    assert inked > 0.5 * area, f"the board is nearly blank ({inked} of {area} pixels)"
    assert len(colours) > 8, "the board is drawn in too few colours to show anything"
    # Where the moves put something, something is drawn.
    for cell in sample.stones:
        assert shot.pixel(cell) != BACKGROUND, cell
