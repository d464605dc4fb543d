"""No page, feed or record of the web view shows a secret of a running Pipeline or Outguess
board, nor its seed; once the game is over, all of them do.

Seeded random games (tests/commands/test_secrets.py's) are played by the real mail
commands; at every move of them each page of the board, each of its positions, its
records and feeds, both players' pages and feeds, the game page and the front page are
fetched over HTTP. A secret is every part of a move's full notation that the public text
of the move (what a spectator's mail shows) leaves out: a Pipeline pipeline, an Outguess
guess."""

from __future__ import annotations

import html
import json

import pytest

from pbm.db.models import Board, Move
from pbm.games.pipeline import GAME as PIPELINE
from pbm.games.registry import get
from tests.commands.conftest import ACCOUNTS, PW, STRANGER
from tests.commands.test_secrets import outguess_log, pipeline_log

GAMES = 2  # of each kind


def secrets_of(players, number: int) -> set[str]:
    """The parts of the moves' notations the public does not see, as stored."""
    found = set()
    with players.session() as session:
        for move in session.query(Move).filter(Move.board_id == number):
            public = move.shown.get("none", move.notation)
            if public == move.notation:
                continue
            shown = {part.strip().lower() for part in public.split(",")}
            found |= {part.strip() for part in move.notation.split(",")
                      if part.strip().lower() not in shown}
    return found


def pages_of(site, game: str, number: int, moves: int) -> dict[str, str]:
    """Everything the web view says about the board and its players."""
    paths = [f"/{game}/{number}", f"/{game}/{number}.json", f"/{game}/{number}.txt",
             f"/{game}/{number}.atom", "/players/alice", "/players/bob",
             "/players/alice.atom", "/players/bob.atom", "/", f"/{game}",
             *(f"/{game}/{number}?move={n}" for n in range(moves + 1))]
    found = {}
    for path in paths:
        page = site.get(path)
        assert page.status == 200, (path, page.status)
        text = html.unescape(page.text)
        if path == f"/{game}":  # the rules' examples are no board's secret
            text = text.replace(get(game).help_page(), "")
        found[path] = text
    return found


def assert_none_shown(pages: dict[str, str], secrets: set[str], where: str) -> None:
    for path, text in pages.items():
        lowered = text.lower()
        for secret in secrets:
            assert secret.lower() not in lowered, f"{secret!r} in {path} {where}"


def play(players, site, game: str, log: list[tuple[int, str]]) -> None:
    players(STRANGER, f"{game} challenge alice bob")
    number = 101
    checked = 0  # secrets looked for while the board ran
    players(ACCOUNTS["carol"][1], f"{game} subscribe {number} carol {PW['carol']}")
    for step, (seat, text) in enumerate(log, start=1):
        userid = ("alice", "bob")[seat]
        replies = players(ACCOUNTS[userid][1], f"{game} move {number} {userid} {PW[userid]} "
                          f"{text}")
        assert not any(r.subject.endswith("Error") for r in replies), replies
        with players.session() as session:
            over = session.get(Board, number).status.value != "active"
        secrets = secrets_of(players, number)
        pages = pages_of(site, game, number, step)
        if not over:
            assert_none_shown(pages, secrets, f"after move {step}")
            checked += len(secrets)
            record = json.loads(pages[f"/{game}/{number}.json"])
            assert "seed" not in record["header"] and "[Seed " not in pages[
                f"/{game}/{number}.txt"]
            continue
        assert step == len(log) and secrets and checked, \
            "the game hid nothing: the test proves nothing"
        for secret in secrets:
            for path in (f"/{game}/{number}", f"/{game}/{number}.json",
                         f"/{game}/{number}.txt", f"/{game}/{number}.atom"):
                assert secret.lower() in pages[path].lower(), (secret, path)
        record = json.loads(pages[f"/{game}/{number}.json"])
        assert record["header"]["seed"] == number
        assert f'[Seed "{number}"]' in pages[f"/{game}/{number}.txt"]


@pytest.mark.parametrize("seed", range(GAMES))
def test_no_page_shows_a_pipeline_before_the_end(site, players, seed):
    moves, _ = pipeline_log(seed)
    play(players, site, "pipeline", [(seat, PIPELINE.notation(move)) for seat, move in moves])


@pytest.mark.parametrize("seed", range(GAMES))
def test_no_page_shows_an_outguess_guess_before_the_end(site, players, seed):
    moves, _ = outguess_log(seed)
    play(players, site, "outguess", [(seat, str(move)) for seat, move in moves])
