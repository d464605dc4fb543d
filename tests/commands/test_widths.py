"""Every line of every mail, help page and listing fits in 76 columns (issue 14).

Mail clients wrap longer lines, which tears boards and tables apart. Checked: every help
page as `help`, `help TOPIC`, `GAME help` and `pbm help TOPIC` give it, and the mails of
random games of every game played through the command layer: every board mail to both
players and a spectator, `show` and each player's `showas` after every move (public and
own views, hidden moves included), and at the end the listings (`GAME games`,
`games USERID`, `list`), `history` and `standings`.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbm.cli import main
from pbm.context import Reply
from pbm.games import registry
from pbm.help import page_names
from pbm.views.width import WIDTH
from tests.commands.conftest import ACCOUNTS, ALICE, PW, STRANGER
from tests.commands.played import BOARD, USERS, Played, play_game

assert WIDTH == 76
GAMES = sorted(registry.BUILTIN)
TOPICS = sorted({"general", "commands", *page_names(), *GAMES})
# Random games run long (Outguess for hundreds of moves); this many moves show every kind
# of mail, and then the player to move resigns.
MOST_MOVES = 120
SEEDS = (1, 2)


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


def assert_fits(replies: list[tuple[str, Reply]]) -> None:
    wide = [f"after '{line}', '{reply.subject}':\n" + "\n".join(too_wide(reply.body))
            for line, reply in replies if too_wide(reply.body)]
    assert not wide, "\n".join(dict.fromkeys(wide))


@pytest.mark.parametrize("topic", TOPICS)
def test_every_help_page_fits(players, topic):
    replies = [("help", r) for r in players(STRANGER, "help")] if topic == "general" else []
    replies += [(f"help {topic}", r) for r in players(STRANGER, f"help {topic}")]
    if topic in GAMES:
        replies += [(f"{topic} help", r) for r in players(STRANGER, f"{topic} help")]
    assert replies and all(r.kind == "answer" for _, r in replies)
    assert_fits(replies)
    printed = CliRunner().invoke(main, ["help", topic])
    assert printed.exit_code == 0, printed.output
    assert not too_wide(printed.output), too_wide(printed.output)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("word", GAMES)
def test_every_mail_of_a_random_game_fits(players, word, seed):
    run = players

    def look(played: Played, number: int) -> None:
        played.send(STRANGER, f"{word} show {BOARD}")
        userid = USERS[number % 2]  # each player's own view, in turn
        played.send(ACCOUNTS[userid][1], f"{word} showas {userid} {PW[userid]} {BOARD}")

    played = play_game(run, word, seed, most=MOST_MOVES, looks=look)
    for line in (f"{word} show {BOARD}", f"{word} games", f"{word} games alice",
                 f"{word} games all", f"{word} history", f"{word} history bob",
                 f"{word} standings", f"{word} games seek", "games alice", "games bob all",
                 "list", f"list {word}"):
        played.send(STRANGER, line)
    played.send(ALICE, f"{word} showas alice {PW['alice']} {BOARD}")
    kinds = {reply.kind for _, reply in played.replies}
    assert {"board", "answer"} <= kinds, kinds
    assert_fits(played.replies)
