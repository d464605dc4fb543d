"""The drawn board in mails, through the real command layer: every board mail, `show`,
`showas`, nag and preview carries an HTML part when the game draws one and its reader takes
HTML; `set USERID PASSWORD html off` makes a user's mails plain text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from html import unescape

import pytest

from pbm.config import Config
from pbm.context import Reply
from pbm.games import kit, registry
from pbm.mail.compose import compose
from pbm.mail.housekeeping import tick
from pbm.mail.replies import consolidate
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    Runner,
    Tally,
    TallyState,
    error,
    one,
)
from tests.games.pictures import assert_document_safe, looks
from tests.mail.test_compose import SERVER, parse

T0 = datetime(2026, 12, 1, 12, 0)


def hilo_move(run: Runner, userid: str, text: str, now: datetime | None = None) -> list[Reply]:
    address = {"alice": ALICE, "bob": BOB}[userid]
    return run(address, f"hilo move 101 {userid} {PW[userid]} {text}", now=now)


def visible(html: str) -> str:
    """What a reader of the HTML part reads: the text without its tags."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def pre(html: str) -> str:
    """The text of the document's <pre> (the move list and the ASCII board)."""
    found = re.search(r"<pre[^>]*>(.*?)</pre>", html, re.S)
    assert found, html
    return unescape(found.group(1))


def assert_mail_document(reply: Reply) -> str:
    """The reply's HTML part is a whole, self-contained document made of its text part's
    lines and a picture, its looks in one <style> block of class rules in its head, every
    class it uses declared there; returns it."""
    html = reply.html
    assert html is not None, reply
    assert html.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert_document_safe(html)
    for banned in ("<script", "<img", "<link", "url(", "http:", "https:", "@import",
                   "<iframe", "<object", "@font-face", "src="):
        assert banned not in html.lower(), banned
    # Looks are class rules; only what a client might not read stays inline (min()).
    assert set(re.findall(r' style="([^"]*)"', html)) <= {"font-size:min(12px,2vw)"}
    declared = set(re.findall(r"^\.([a-z][a-z0-9]*)\{", html, re.M))
    used = {name for quoted, word in re.findall(r' class=(?:"([^"]*)"|([a-z][a-z0-9]*))', html)
            for name in (quoted or word).split()}
    assert used <= declared, f"classes its <style> block does not declare: {used - declared}"
    # Every line of the text part is in the HTML part, in order; nothing but the picture's
    # words is added.
    words = visible(html)
    at = 0
    for line in reply.body.splitlines():
        if line.strip():
            at = words.index(line.strip(), at)
    assert pre(html).rstrip() in reply.body
    return html


def test_every_board_mail_carries_the_board_drawn_for_its_reader(players: Runner, hilo: str):
    replies = players(STRANGER, "hilo challenge alice bob")
    assert {r.to for r in replies} == {(ALICE,), (BOB,), (STRANGER,)}
    for reply in replies:
        html = assert_mail_document(reply)
        assert html.count("data-cell=") == 9
        assert "A new Hilo board (101) has been started" in visible(html)
    replies = hilo_move(players, "alice", "6")
    mine, bobs = one(replies, ALICE), one(replies, BOB)
    assert "Hidden number: 6" in pre(assert_mail_document(mine))
    assert "Hidden number: ?" in pre(assert_mail_document(bobs))
    # The hidden number is drawn (a light disc, ringed as the last move) for alice alone.
    cell = re.compile(r'<td data-cell="6"[^>]*>(.*?)</td>')
    assert kit.LIGHT in cell.search(drawing(mine)).group(1)  # type: ignore[union-attr]
    assert cell.search(drawing(bobs)).group(1) == "6"  # type: ignore[union-attr]
    assert kit.LAST not in drawing(bobs)
    replies = hilo_move(players, "bob", "3")
    for reply in replies:
        assert_mail_document(reply)
        found = re.search(r'<td data-cell="3"[^>]*>(.*?)</td>', drawing(reply))
        assert found is not None and kit.LAST in found.group(1)


def drawing(reply: Reply) -> str:
    """The body of the reply's HTML part, its classes written out as inline styles (the
    rules of its <style> block), so that a test can read what colour a cell is."""
    assert reply.html is not None, reply
    return looks(reply.html[reply.html.index("<body"):])


def test_the_mail_on_the_wire_is_multipart_with_the_text_part_unchanged(players: Runner,
                                                                      hilo: str):
    players(STRANGER, "hilo challenge alice bob")
    reply = one(hilo_move(players, "alice", "6"), BOB)
    message = parse(compose(reply, BOB, SERVER))
    assert message.get_content_type() == "multipart/alternative"
    text, html = message.iter_parts()
    assert text.get_content().replace("\r\n", "\n") == reply.body
    assert html.get_content().replace("\r\n", "\n") == reply.html


def test_set_html_off_and_on_by_mail(players: Runner, hilo: str):
    players(STRANGER, "hilo challenge alice bob")
    answer = one(players(ALICE, f"set alice {PW['alice']} html off"))
    assert answer.subject == "Setting changed" and answer.to == (ALICE,)
    assert answer.body == "html off: board mails to alice are plain text only.\n"
    assert PW["alice"] not in answer.body
    user = players.user("alice")
    assert user is not None and user.html is False

    replies = hilo_move(players, "alice", "6")
    assert one(replies, ALICE).html is None and one(replies, BOB).html is not None
    plain = parse(compose(one(replies, ALICE), ALICE, SERVER))
    assert plain.get_content_type() == "text/plain"
    shown = one(players(ALICE, "hilo show 101"))  # anyone's show, from alice's address
    assert shown.html is None
    assert one(players(ALICE, f"hilo showas alice {PW['alice']} 101")).html is None
    assert one(players(BOB, "hilo show 101")).html is not None

    answer = one(players(ALICE, f"SET alice {PW['alice']} HTML On"))
    assert answer.body == ("html on: board mails to alice carry the board drawn, as well as "
                           "the text.\n")
    replies = hilo_move(players, "bob", "3")
    sent = parse(compose(one(replies, ALICE), ALICE, SERVER))
    assert sent.get_content_type() == "multipart/alternative"


@pytest.mark.parametrize("line, says", [
    ("set alice {pw} colour off", "There is no setting 'colour'. Settings: html (on or off)."),
    ("set alice {pw} html maybe", "The setting html is on or off, not 'maybe'."),
    ("set alice {pw} html", "Too few words: the word on or off is missing. Write: set userid "
                            "password html on|off"),
    ("set alice Wrong-Pass1 html off", "password"),
])
def test_set_refuses_what_it_cannot_do(players: Runner, line: str, says: str):
    refused = error(players(ALICE, line.format(pw=PW["alice"])))
    assert says in " ".join(refused.body.split())
    assert PW["alice"] not in refused.body and "Wrong-Pass1" not in refused.body
    user = players.user("alice")
    assert user is not None and user.html is True


def test_the_setting_is_in_the_command_reference(run: Runner):
    page = one(run(STRANGER, "help commands")).body
    assert "  set userid password html on|off\n" in page
    general = one(run(STRANGER, "help")).body
    assert "set alice pw html off" in general


def test_show_and_showas_answer_with_the_drawn_board(players: Runner, hilo: str):
    players(STRANGER, "hilo challenge alice bob")
    hilo_move(players, "alice", "6")
    public = one(players(STRANGER, "hilo show 101"))
    assert "Hidden number: ?" in pre(assert_mail_document(public))
    own = one(players(ALICE, f"hilo showas alice {PW['alice']} 101"))
    assert "Hidden number: 6" in pre(assert_mail_document(own))
    earlier = one(players(STRANGER, "hilo show 101#0"))
    assert "Summary of Hilo Board 101 after move 0" in visible(assert_mail_document(earlier))


def test_several_shows_in_one_mail_keep_their_pictures(players: Runner, hilo: str):
    players(STRANGER, "hilo challenge alice bob")
    players(STRANGER, "hilo challenge bob alice")
    (merged,) = consolidate(players(STRANGER, "hilo show 101 102"))
    assert merged.subject == "Replies to your commands"
    html = merged.html
    assert html is not None and html.count("<!DOCTYPE") == 1
    assert html.count('data-cell="5"') == 2
    for line in merged.body.splitlines():
        assert line.strip() in visible(html)


def test_answers_of_two_games_in_one_mail_carry_the_rules_of_both(players: Runner):
    """Several documents made one (a mail's answers merged): its one <style> block holds
    each rule either picture uses, once; every class of the document is declared there."""
    players(STRANGER, "loophole challenge alice bob")
    players(STRANGER, "trou challenge alice bob")
    replies = players(STRANGER, "loophole show 101") + players(STRANGER, "trou show 101")
    (merged,) = consolidate(replies)
    html = merged.html
    assert html is not None and html.count("<!DOCTYPE") == 1
    assert_document_safe(html)
    rules = re.findall(r"^\.([a-z][a-z0-9]*)\{", html, re.M)
    assert len(rules) == len(set(rules)), "a rule written twice"
    used = {name for quoted, word in re.findall(r' class=(?:"([^"]*)"|([a-z][a-z0-9]*))', html)
            for name in (quoted or word).split()}
    assert used == set(rules), (used ^ set(rules))  # all it uses, and nothing it does not
    assert {"le", "kf"} <= used and any(name.startswith("t") for name in used)
    for reply in replies:  # each part's looks are those it had alone
        assert reply.html is not None
        alone = set(re.findall(r"^\.([a-z][a-z0-9]*)\{", reply.html, re.M))
        assert alone <= set(rules)


def test_a_spectator_who_wants_plain_text_gets_it(players: Runner, hilo: str):
    players(STRANGER, "hilo challenge alice bob")
    players(CAROL, f"hilo subscribe 101 carol {PW['carol']}")
    replies = hilo_move(players, "alice", "6")
    carols = one(replies, CAROL)
    assert "Hidden number: ?" in pre(assert_mail_document(carols))
    players(CAROL, f"set carol {PW['carol']} html off")
    replies = hilo_move(players, "bob", "3")
    assert one(replies, CAROL).html is None
    assert one(replies, ALICE).html is not None and one(replies, BOB).html is not None


def test_a_nag_carries_the_board_drawn(players: Runner, hilo: str):
    players(STRANGER, "hilo challenge alice bob", now=T0)
    hilo_move(players, "alice", "6", now=T0)
    report, _ids = tick(players.factory, Config(time=players.time), T0 + timedelta(days=7))
    nag = one(report.replies)
    assert nag.subject == "Nag: Hilo Board 101 bob"
    html = assert_mail_document(nag)
    assert "bob has not moved for 7 days." in visible(html)
    assert "Hidden number: ?" in pre(html)


# ----- a game without secrets, drawn once for every reader --------------------------------
@dataclass
class Drawings:
    count: int = 0


DRAWN = Drawings()


def draw(state: TallyState, viewer: int | None) -> str:
    """conftest's Tally's picture (this module is its registry.PICTURES entry): one cell per
    number said."""
    DRAWN.count += 1
    cells = [kit.cell(f"N{i}", kit.disc(kit.classes(SAID, kit.OUTLINED)), NUMBER)
             for i, _ in enumerate(state.said, start=1)]
    return kit.frame(kit.table([f"<tr>{''.join(cells) or '<td></td>'}</tr>"]))


SHEET = kit.Sheet("y")  # the picture's looks, as registry.picture_style() finds them
NUMBER = SHEET.rule("n", kit.css(background=kit.BOARD))
SAID = SHEET.disc("d", 20, kit.DARK)
GAME = Tally()


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(registry.BUILTIN, "tally", __name__)
    monkeypatch.setitem(registry.PICTURES, "tally", __name__)
    registry.get.cache_clear()
    registry.picture.cache_clear()
    registry.picture_style.cache_clear()
    yield "tally"
    monkeypatch.undo()
    registry.get.cache_clear()
    registry.picture.cache_clear()
    registry.picture_style.cache_clear()


def test_a_game_without_secrets_is_drawn_once_per_move(players: Runner, tally: str):
    players(STRANGER, "tally challenge alice bob")
    players(CAROL, f"tally subscribe 101 carol {PW['carol']}")
    DRAWN.count = 0
    replies = players(ALICE, f"tally move 101 alice {PW['alice']} 1")
    assert {r.to for r in replies} == {(ALICE,), (BOB,), (CAROL,)}
    assert DRAWN.count == 1
    for reply in replies:
        assert assert_mail_document(reply).count('data-cell="N1"') == 1


def test_a_preview_answers_with_the_board_drawn(players: Runner, tally: str):
    players(STRANGER, "tally challenge alice bob")
    answer = one(players(ALICE, f"tally preview 101 alice {PW['alice']} 1 1 1"))
    assert answer.subject == "Tally Board 101 Preview"
    html = assert_mail_document(answer)
    assert html.count("data-cell=") == 3
    assert "It would be bob's turn." in visible(html)


def test_golden_board_mails(players: Runner, hilo: str, golden):
    """The whole mail of each reader, text part and HTML part, after the Seeker's first
    guess: review these files (the .html opens in a browser) when they change."""
    players(STRANGER, "hilo challenge alice bob")
    hilo_move(players, "alice", "6")
    players(CAROL, f"hilo subscribe 101 carol {PW['carol']}")
    replies = hilo_move(players, "bob", "3")
    for name, address in (("hider", ALICE), ("seeker", BOB), ("spectator", CAROL)):
        reply = one(replies, address)
        golden(f"hilo_mail_{name}", reply.body)
        golden(f"hilo_mail_{name}", assert_mail_document(reply), ".html")
