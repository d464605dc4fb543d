"""The Atom feeds of boards and players (pbm/web/feeds.py), read back with ElementTree from
boards played by real mail commands on a real migrated SQLite file.

A feed is public: whatever it says of a hidden move must be what a spectator's mail says,
until the board is finished."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest
from sqlalchemy import event, select

from pbm.db.models import Board, BoardStatus, Move, User
from pbm.games.pipeline import GAME as PIPELINE
from pbm.web import feeds
from pbm.web.feeds import board_feed, player_feed
from tests.commands.conftest import (  # noqa: F401  (account_rows, players, run, tally)
    ACCOUNTS,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    Tally,
    account_rows,
    one,
    players,
    run,
    start_tournament_board,
    tally,
)
from tests.commands.test_secrets import outguess_log, pipeline_log

A = "{http://www.w3.org/2005/Atom}"
SITE = "https://pbm.example.org/"
T0 = datetime(2026, 12, 1, 9, 0)


@pytest.fixture
def mail(players: Runner) -> Runner:  # noqa: F811  (imported above, with what it needs)
    """The command layer as mail reaches it, with alice, bob and carol signed up."""
    return players


def minute(n: int) -> datetime:
    return T0 + timedelta(minutes=n)


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def challenge(mail: Runner, word: str = "trou", first: str = "alice", second: str = "bob",
              at: datetime = T0) -> str:
    """A new board of `word` between `first` and `second`; its label."""
    replies = mail(STRANGER, f"{word} challenge {first} {second}", now=at)
    return one(replies, ACCOUNTS[first][1]).subject.split()[3]


def move(mail: Runner, word: str, label: str, userid: str, text: str, at: datetime,
         comment: str | None = None) -> None:
    replies = mail(ACCOUNTS[userid][1], f"{word} move {label} {userid} {PW[userid]} {text}",
                  comment=comment, now=at)
    assert not any(r.subject.endswith("Error") for r in replies), replies


def play(mail: Runner, word: str, label: str, moves: tuple[str, ...], seats=("alice", "bob"),
         start: int = 1) -> None:
    """`moves` alternately by `seats`, a minute apart from minute `start`."""
    for i, text in enumerate(moves):
        move(mail, word, label, seats[i % 2], text, minute(start + i))


def the_board(session, word: str, label: str = "101") -> Board:
    prefix, number = label.rstrip("0123456789"), int(label.lstrip("abcdefghijklmnopqrstuvwxyz"))
    return session.scalars(select(Board).where(
        Board.game == word, Board.prefix == prefix, Board.number == number)).one()


def the_user(session, userid: str) -> User:
    return session.scalars(select(User).where(User.userid == userid)).one()


def read_board(mail: Runner, word: str, label: str = "101", base: str = SITE) -> bytes:
    with mail.session() as session:
        return board_feed(session, the_board(session, word, label), base, minute(999))


def read_player(mail: Runner, userid: str, base: str = SITE) -> bytes:
    with mail.session() as session:
        return player_feed(session, the_user(session, userid), base, minute(999))


def parsed(feed: bytes) -> ET.Element:
    root = ET.fromstring(feed)
    assert root.tag == f"{A}feed"
    return root


def entries(feed: bytes) -> list[ET.Element]:
    return parsed(feed).findall(f"{A}entry")


def field(element: ET.Element, tag: str) -> str:
    found = element.find(f"{A}{tag}")
    assert found is not None, tag
    return found.text or ""


def links(element: ET.Element) -> dict[str, str]:
    return {link.get("rel", ""): link.get("href", "") for link in element.findall(f"{A}link")}


# ----- shape ------------------------------------------------------------------------------
def test_a_board_feed_has_its_moves_newest_first(mail):
    challenge(mail)
    play(mail, "trou", "101", TROU_GAME[:3])
    feed = parsed(read_board(mail, "trou"))
    assert field(feed, "id") == "https://pbm.example.org/trou/101.atom"
    assert field(feed, "title") == "Trou Board 101: alice vs bob"
    assert field(feed, "updated") == stamp(minute(3))
    assert links(feed) == {"self": "https://pbm.example.org/trou/101.atom",
                           "alternate": "https://pbm.example.org/trou/101"}
    assert field(feed.find(f"{A}author"), "name") == "pbm"

    items = feed.findall(f"{A}entry")
    assert [field(e, "id") for e in items] == [
        f"https://pbm.example.org/trou/101?move={n}" for n in (3, 2, 1)]
    assert [field(e, "title") for e in items] == ["3. alice: 2B1", "2. bob: 4C2",
                                                  "1. alice: 1B2"]
    assert [field(e, "updated") for e in items] == [stamp(minute(n)) for n in (3, 2, 1)]
    assert [field(e, "published") for e in items] == [stamp(minute(n)) for n in (3, 2, 1)]
    assert [links(e)["alternate"] for e in items] == [field(e, "id") for e in items]
    assert [field(e, "content") for e in items] == ["2B1", "4C2", "1B2"]
    assert {e.find(f"{A}content").get("type") for e in items} == {"text"}


def test_a_new_board_has_a_feed_without_entries(mail):
    challenge(mail)
    feed = parsed(read_board(mail, "trou"))
    assert feed.findall(f"{A}entry") == []
    assert field(feed, "updated") == stamp(T0)


def test_a_finished_board_ends_with_its_result(mail):
    challenge(mail)
    play(mail, "trou", "101", TROU_GAME)
    with mail.session() as session:
        board = the_board(session, "trou")
        assert board.status == BoardStatus.FINISHED
        reason = board.result_reason
    assert reason
    items = entries(read_board(mail, "trou"))
    assert len(items) == len(TROU_GAME) + 1
    result = items[0]
    assert field(result, "id") == "https://pbm.example.org/trou/101#result"
    assert field(result, "title") == "Game won by alice."
    assert field(result, "content") == f"Game won by alice.\n{reason}"
    assert field(result, "updated") == stamp(minute(len(TROU_GAME)))
    assert links(result)["alternate"] == "https://pbm.example.org/trou/101"
    assert [field(e, "title").split(".")[0] for e in items[1:]] == \
        [str(n) for n in range(len(TROU_GAME), 0, -1)]


def test_a_tournament_board_on_a_site_below_a_path(mail):
    start_tournament_board(mail)
    move(mail, "trou", "a101", "alice", TROU_GAME[0], minute(1))
    feed = parsed(read_board(mail, "trou", "a101", base="https://example.org/pbm/"))
    assert field(feed, "id") == "https://example.org/pbm/trou/a101.atom"
    assert links(feed)["alternate"] == "https://example.org/pbm/trou/a101"
    assert [field(e, "id") for e in feed.findall(f"{A}entry")] == \
        ["https://example.org/pbm/trou/a101?move=1"]


def test_a_feed_needs_the_sites_address(mail):
    challenge(mail)
    for base in ("", "/", "pbm.example.org"):
        with pytest.raises(ValueError):
            read_board(mail, "trou", base=base)
        with pytest.raises(ValueError):
            read_player(mail, "alice", base=base)


def test_a_player_feed_has_every_board_they_sit_on(mail):
    challenge(mail, at=minute(0))  # trou 101: alice vs bob, finished below
    challenge(mail, first="bob", second="carol", at=minute(0))  # 102: alice is not on it
    challenge(mail, first="carol", second="alice", at=minute(0))  # 103
    play(mail, "trou", "101", TROU_GAME, start=1)  # minutes 1-8
    move(mail, "trou", "102", "bob", "1B2", minute(20))
    move(mail, "trou", "103", "carol", "1B2", minute(30))
    move(mail, "trou", "103", "alice", "4C2", minute(31))

    feed = parsed(read_player(mail, "alice"))
    assert field(feed, "id") == "https://pbm.example.org/players/alice.atom"
    assert field(feed, "title") == "alice's boards"
    assert links(feed) == {"self": "https://pbm.example.org/players/alice.atom",
                           "alternate": "https://pbm.example.org/players/alice"}
    assert field(feed, "updated") == stamp(minute(31))
    items = feed.findall(f"{A}entry")
    assert [field(e, "title") for e in items[:4]] == [
        "Trou Board 103: 2. alice: 4C2",
        "Trou Board 103: 1. carol: 1B2",
        "Trou Board 101: Game won by alice.",
        f"Trou Board 101: 8. bob: {TROU_GAME[7]}",
    ]
    assert len(items) == 2 + 1 + len(TROU_GAME)
    assert not any("/trou/102" in field(e, "id") for e in items)
    published = [field(e, "published") for e in items]
    assert published == sorted(published, reverse=True)


def test_a_player_without_boards_has_an_empty_feed(mail):
    feed = parsed(read_player(mail, "carol"))
    assert feed.findall(f"{A}entry") == []
    with mail.session() as session:
        assert field(feed, "updated") == stamp(the_user(session, "carol").created_at)


def test_feeds_hold_at_most_fifty_entries(mail, tally, monkeypatch):  # noqa: F811
    monkeypatch.setattr(Tally, "LENGTH", 100)
    challenge(mail, "tally")
    moves = 60
    play(mail, "tally", "101", tuple(str(n) for n in range(1, moves + 1)))
    for feed in (read_board(mail, "tally"), read_player(mail, "alice")):
        items = entries(feed)
        assert len(items) == feeds.FEED_ENTRIES == 50
        assert [field(e, "id").rsplit("=", 1)[1] for e in items] == \
            [str(n) for n in range(moves, moves - 50, -1)]


def test_declined_boards_never_appear(mail):
    challenge(mail)  # 101: alice moves, then bob leaves before his first move
    move(mail, "trou", "101", "alice", "1B2", minute(1))
    mail(ACCOUNTS["bob"][1], f"trou resign 101 bob {PW['bob']}", now=minute(2))
    challenge(mail, first="alice", second="carol", at=minute(3))  # 102 plays on
    move(mail, "trou", "102", "alice", "1B2", minute(4))
    with mail.session() as session:
        assert the_board(session, "trou", "101").status == BoardStatus.DECLINED
    with pytest.raises(LookupError):
        read_board(mail, "trou", "101")
    for userid in ("alice", "bob"):
        ids = [field(e, "id") for e in entries(read_player(mail, userid))]
        assert not any("/trou/101" in i for i in ids), ids
    assert [field(e, "id") for e in entries(read_player(mail, "alice"))] == \
        ["https://pbm.example.org/trou/102?move=1"]


# ----- hostile text -----------------------------------------------------------------------
def test_a_comment_is_escaped_and_cleaned(mail):
    challenge(mail)
    hostile = "<script>alert('x')</script> & <b>bold</b>\x01\x0b\x1f ]]> done"
    move(mail, "trou", "101", "alice", "1B2", minute(1), comment=hostile)
    for feed in (read_board(mail, "trou"), read_player(mail, "alice")):
        assert b"<script>" not in feed and b"<b>" not in feed
        assert b"&lt;script&gt;" in feed and b"&amp;" in feed
        assert not re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", feed)
        (item,) = entries(feed)
        assert field(item, "content") == \
            "1B2\n\nalice writes:\n<script>alert('x')</script> & <b>bold</b> ]]> done"


def test_xml_text_drops_what_xml_forbids():
    assert feeds.xml_text("a\x00b\x08c\td\ne\rf\ufffe\uffffg\ud800h\U0001f600") == \
        "abc\td\ne\rfgh\U0001f600"


# ----- hidden information -----------------------------------------------------------------
def hidden_moves(mail: Runner, word: str) -> list[Move]:
    """The moves of board 101 whose text a spectator does not see while it runs."""
    with mail.session() as session:
        key = the_board(session, word).id
    return [m for m in mail.moves(key) if "none" in m.shown]


SECRET_FORMS = {
    "pipeline": re.compile(r"[A-Z]\d\*"),  # a pipeline's hole, in its notation
    "outguess": re.compile(r"guess [A-Z]\d"),  # a guessed square
}


def public_logs(word: str, seed: int) -> list[tuple[int, str]]:
    if word == "pipeline":
        moves, _ = pipeline_log(seed)
        return [(seat, PIPELINE.notation(m)) for seat, m in moves]
    moves, _ = outguess_log(seed)
    return [(seat, str(m)) for seat, m in moves]


def feed_texts(mail: Runner, word: str) -> dict[str, str]:
    return {name: feed.decode() for name, feed in (
        ("board", read_board(mail, word)), ("alice", read_player(mail, "alice")),
        ("bob", read_player(mail, "bob")))}


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("word", ["pipeline", "outguess"])
def test_feeds_never_show_a_hidden_move_of_a_running_board(mail, word, seed):
    challenge(mail, word)
    log = public_logs(word, seed)
    checked = 0
    for number, (seat, text) in enumerate(log, start=1):
        move(mail, word, "101", ("alice", "bob")[seat], text, minute(number))
        with mail.session() as session:
            running = the_board(session, word).status == BoardStatus.ACTIVE
        if not running:
            assert number == len(log)
            break
        secrets = [m.notation for m in hidden_moves(mail, word)]
        for name, text_of_feed in feed_texts(mail, word).items():
            for secret in secrets:
                assert secret not in text_of_feed, (name, number, secret)
            assert not SECRET_FORMS[word].search(text_of_feed), (name, number)
            checked += 1
    assert checked and hidden_moves(mail, word)

    # Finished: every secret is everyone's, as in the final board mail.
    with mail.session() as session:
        finished_at = the_board(session, word).finished_at
    assert finished_at is not None
    shown = {field(e, "id"): e for e in entries(read_board(mail, word))}
    revealed = 0
    for secret in hidden_moves(mail, word):
        item = shown.get(f"https://pbm.example.org/{word}/101?move={secret.number}")
        if item is None:  # older than the feed's last fifty
            continue
        assert field(item, "content").startswith(secret.notation)
        assert field(item, "title").endswith(f": {secret.notation}")
        assert field(item, "published") == stamp(secret.created_at)
        assert field(item, "updated") == stamp(finished_at)  # the text changed then
        revealed += 1
    assert revealed
    assert SECRET_FORMS[word].search(feed_texts(mail, word)["alice"])


# ----- bounded queries --------------------------------------------------------------------
@contextmanager
def statements(mail: Runner) -> Iterator[list[str]]:
    """The SQL statements sent while the block runs."""
    sent: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        sent.append(statement)

    event.listen(mail.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(mail.engine, "before_cursor_execute", count)


def feed_statements(mail: Runner, label: str) -> tuple[int, int]:
    """How many statements alice's board `label` and her player feed cost."""
    with mail.session() as session:
        board, user = the_board(session, "trou", label), the_user(session, "alice")
        with statements(mail) as sent:
            board_feed(session, board, SITE, minute(999))
        on_board = len(sent)
        with statements(mail) as sent:
            player_feed(session, user, SITE, minute(999))
        return on_board, len(sent)


def test_a_feed_costs_the_same_few_statements_however_many_boards(mail):
    challenge(mail)
    play(mail, "trou", "101", TROU_GAME[:2])
    challenge(mail, first="bob", second="alice", at=minute(10))
    play(mail, "trou", "102", TROU_GAME, seats=("bob", "alice"), start=11)
    few = feed_statements(mail, "101")

    for n in range(6):  # more boards, finished and running, and more moves
        label = challenge(mail, first=("alice", "carol")[n % 2],
                          second=("carol", "alice")[n % 2], at=minute(100 + 20 * n))
        seats = ("alice", "carol") if n % 2 == 0 else ("carol", "alice")
        play(mail, "trou", label, TROU_GAME[: 8 if n < 3 else 5], seats=seats,
             start=101 + 20 * n)
    play(mail, "trou", "101", TROU_GAME[2:6], start=300)
    many = feed_statements(mail, "101")
    assert len(entries(read_player(mail, "alice"))) > 40

    assert few == many
    assert many[0] == 1 and many[1] <= 3, many
