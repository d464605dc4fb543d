"""Listings, help, and what every refused command answers: subject, message, masked line."""

from __future__ import annotations

import pytest

from pbm.commands.dispatch import run_lines
from pbm.commands.grammar import ACCOUNT_COMMANDS, GAME_COMMANDS, Command, parse
from pbm.context import CommandError, Context
from pbm.db.models import User
from pbm.games import registry
from pbm.help import load_page
from pbm.width import WIDTH
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
)


# ----- list and games ---------------------------------------------------------------------
def test_list_names_every_game_on_offer(run):
    reply = one(run(STRANGER, "list"))
    assert reply.subject == "List of games"
    assert reply.to == (STRANGER,) and reply.kind == "answer"
    assert reply.body.startswith("Games on offer:\n")
    for name in registry.names():
        info = registry.get(name).info
        lines = reply.body.splitlines()
        at = next(i for i, x in enumerate(lines) if x.startswith(f"  {name} "))
        entry = " ".join(x.strip() for x in lines[at:at + 3])  # wrapped to fit a mail
        assert info.title in entry and " / ".join(info.seats) in entry
    assert all(len(line) <= WIDTH for line in reply.body.splitlines())
    assert "Place pawns 1-4 on a 3x3 grid" in reply.body  # Trou's summary


@pytest.fixture
def boards(players):
    """101 alice-bob running; 102 bob-carol won by carol; 103 declined; 104 carol-alice."""
    run = players
    start_trou(run, "alice", "bob")
    start_trou(run, "bob", "carol", ("1B2", "4C2"))
    run(BOB, "trou resign 102 bob Hunter22")
    start_trou(run, "alice", "carol")
    run(CAROL, "trou resign 103 carol Carol333")
    start_trou(run, "carol", "alice", ("1B2",))
    return run


# pbmserv's columns; each listing's seat columns are as wide as its widest name.
HEAD = "Board  Move  Red    Black  Board Status"
ROW_101 = "  101     0  alice  bob    alice to start"
ROW_102 = "  102     2  bob    carol  carol Won"
ROW_104 = "  104     1  carol  alice  alice's turn"
FINISHED = "Trou boards finished in the last 14 days:"


def test_list_game_and_games_show_boards(boards):
    run = boards
    # 102 ended just now: it stays listed until it is archived, but not as an active board.
    expected = (f"Active Trou boards:\n\n{HEAD}\n{ROW_101}\n{ROW_104}\n\n"
                f"{FINISHED}\n\n{HEAD}\n{ROW_102}\n")
    for line in ("list trou", "list TROU", "trou games", "Trou GAMES active"):
        reply = one(run(STRANGER, line))
        assert (reply.subject, reply.body) == ("List of Trou games", expected), line

    assert one(run(STRANGER, "trou games all")).body == \
        f"All Trou boards:\n\n{HEAD}\n{ROW_101}\n{ROW_102}\n{ROW_104}\n"  # never 103, declined
    assert one(run(STRANGER, "trou games inactive")).body == \
        "Inactive Trou boards:\n\nBoard  Move  Red  Black  Board Status\n" \
        "  102     2  bob  carol  carol Won\n"  # the columns fit the names listed
    assert one(run(STRANGER, "trou games alice")).body == \
        f"Active Trou boards of alice:\n\n{HEAD}\n{ROW_101}\n{ROW_104}\n"
    assert one(run(STRANGER, "trou games alice next")).body == \
        f"Next Trou boards of alice:\n\n{HEAD}\n{ROW_101}\n{ROW_104}\n"
    assert one(run(STRANGER, "trou games bob next")).body == \
        "Next Trou boards of bob:\n\n  (none)\n"
    assert one(run(STRANGER, "trou games bob carol all")).body == \
        f"All Trou boards of bob, carol:\n\n{HEAD}\n{ROW_101}\n{ROW_102}\n{ROW_104}\n"
    assert one(run(STRANGER, "trou games bob inactive")).body == \
        "Inactive Trou boards of bob:\n\nBoard  Move  Red  Black  Board Status\n" \
        "  102     2  bob  carol  carol Won\n"
    assert one(run(STRANGER, "trou games carol next")).body == \
        "Next Trou boards of carol:\n\n  (none)\n"
    assert one(run(STRANGER, "trou games carol")).body == \
        f"Active Trou boards of carol:\n\n{HEAD}\n{ROW_104}\n\n" \
        f"Trou boards of carol finished in the last 14 days:\n\n{HEAD}\n{ROW_102}\n"

    err = error(run(STRANGER, "trou games zed"))
    assert err.subject == "Trou error"
    assert "There is no user 'zed'" in err.body


def test_list_of_an_unknown_game_is_a_clear_error(run):
    offered = ", ".join(registry.names())
    err = error(run(STRANGER, "list nosuch"))
    assert err.subject == "pbm error"
    assert f"There is no game called 'nosuch'. Games on offer: {offered}." in flat(err.body)
    assert "Your command was:\n  list nosuch" in err.body
    # The listing already made for trou is dropped with the failed command.
    err = error(run(STRANGER, "list trou nosuch"))
    assert "List of Trou games" not in err.body


# ----- help -------------------------------------------------------------------------------
def test_help_general(run):
    reply = one(run(STRANGER, "help"))
    assert reply.to == (STRANGER,)
    # The page, then the topics (generated: see the next tests).
    assert reply.body.startswith(load_page("general") + "\nHelp topics\n")
    assert reply.body.startswith("Help For pbm\n")
    assert one(run(STRANGER, "HELP")).body == reply.body
    assert one(run(STRANGER, "help general")).body == reply.body


def shipped_pages() -> list[str]:
    """The help pages in pbm/help/, read from the folder itself."""
    import pbm.help

    folder = __import__("pathlib").Path(pbm.help.__file__).parent
    return sorted(path.stem for path in folder.glob("*.txt"))


def test_every_help_page_is_in_both_topic_lists(run):
    """`votes` was a page nobody could find: the lists were written by hand."""
    pages = shipped_pages()
    assert {"general", "bots", "votes", "tutorial"} <= set(pages)
    general = flat(one(run(STRANGER, "help")).body).split("Help topics ", 1)[1]
    assert general.startswith("Send 'help TOPIC' for any of: ")
    listed = general.split(": ", 1)[1].rstrip(".").split(", ")
    unknown = flat(error(run(STRANGER, "help nosuch")).body).split("Topics: ", 1)[1]
    assert unknown.split(". ", 1)[0].split(", ") == listed
    for page in pages:
        assert page in listed, page
        assert one(run(STRANGER, f"help {page}")).kind == "answer", page
    assert listed == ["general", "commands", *sorted(set(pages) - {"general"}),
                      *registry.names()]


def test_help_commands_lists_every_command_with_its_syntax(run):
    reply = one(run(STRANGER, "help commands"))
    assert reply.subject == "Help: commands"
    lines = reply.body.splitlines()
    words = " ".join(reply.body.split())  # descriptions are wrapped to fit (test_widths.py)
    assert len(ACCOUNT_COMMANDS) >= 7 and len(GAME_COMMANDS) >= 7
    for command in ACCOUNT_COMMANDS.values():
        assert f"  {command.name} {command.syntax}".rstrip() in lines, command.name
        assert f" {command.description} " in words, command.name
    for command in GAME_COMMANDS.values():
        assert f"  game {command.name} {command.syntax}".rstrip() in lines, command.name
        assert f" {command.description} " in words, command.name
    for line in ("  signup userid password [address ...]",
                 "  change password userid oldpassword newpassword",
                 "  game move board userid password move[#n]",
                 "  game resign board userid password"):
        assert line in lines
    joined = " ".join(line.strip() for line in lines)
    assert "Game commands (game = " + ", ".join(registry.names()) + "):" in joined
    assert one(run(STRANGER, "help COMMANDS")).body == reply.body


def test_help_for_a_game(run):
    page = registry.get("trou").help_page()
    assert page.startswith("Help For Trou\n")
    assert "[[finished board]]" not in page  # the example board is filled in
    for line in ("help trou", "HELP Trou", "trou help", "TROU HELP"):
        reply = one(run(STRANGER, line))
        assert (reply.subject, reply.body) == ("Trou Help", page), line


def test_help_on_an_unknown_topic_lists_the_topics(run):
    err = error(run(STRANGER, "help nosuch"))
    assert err.subject == "pbm error"
    assert "There is no help on 'nosuch'." in err.body
    topics = flat(err.body).split("Topics: ", 1)[1].split(". ", 1)[0].split(", ")
    assert topics == ["general", "commands", "bots", "tutorial", "votes", *registry.names()]
    for topic in topics:  # every topic offered works
        assert one(run(STRANGER, f"help {topic}")).kind == "answer"


@pytest.fixture
def planted(tmp_path):
    """A .txt file outside the help pages, as an attacker would hope to read."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET operator notes\n", encoding="utf-8")
    return secret


def test_help_never_reads_a_file_outside_the_help_pages(run, planted):
    """`help TOPIC` once joined the topic into a path: any .txt file was mailed out."""
    import pbm.help

    pages = __import__("pathlib").Path(pbm.help.__file__).parent
    relative = __import__("os").path.relpath(planted.with_suffix(""), pages)
    for topic in (relative, str(planted.with_suffix("")), "../help/general", "./general",
                  "general/../general", "/etc/passwd", "..", "", "GENERAL/."):
        replies = run(STRANGER, f"help {topic}")
        body = one(replies).body
        assert "TOP SECRET" not in body, topic
        if topic and topic.lower() not in ("general",):
            assert "There is no help on" in body, topic


def test_help_with_a_huge_topic_is_a_clear_error(run):
    """A 100 KB word raised OSError (file name too long); now it names no page."""
    word = "x" * 100_000
    err = error(run(STRANGER, f"help {word}"))
    assert "There is no help on 'xxxxxxxx" in err.body
    assert len(err.body) < 2000  # the word is not echoed whole
    assert err.subject == "pbm error"


def test_pbm_help_cli_reads_no_file_either(planted):
    from click.testing import CliRunner

    from pbm.cli import main

    result = CliRunner().invoke(main, ["help", str(planted.with_suffix(""))])
    assert result.exit_code == 1
    assert "TOP SECRET" not in result.output


# ----- error replies ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "subject"),
    [
        ("trou move 101 alice Secret1 9Z9", "Trou Board 101 Error"),
        ("trou move 101#1 alice Secret1 3B2", "Trou Board 101 Error"),
        ("trou resign 101 carol Carol333", "Trou Board 101 Error"),
        ("trou resign 555 alice Secret1", "Trou Board 555 Error"),
        ("trou show 999", "Trou error"),
        ("trou challenge alice", "Trou error"),
        ("trou showas alice Secret1 999", "Trou error"),
        ("trou frobnicate 101", "Trou error"),
        ("trou", "Trou error"),
        ("signoff zed Secret1", "pbm error"),
        ("change address zed Secret1", "pbm error"),
        ("change colour alice Secret1", "pbm error"),
        ("frobnicate alice Secret1", "pbm error"),
        ("multiple", "pbm error"),
    ],
)
def test_error_subjects(players, line, subject):
    run = players
    start_trou(run)
    before = run.snapshot()
    replies = run(ALICE, line)
    err = error(replies)
    assert err.subject == subject
    assert err.to == (ALICE,)
    assert_never_echoed(replies, "Secret1", "Carol333")
    assert run.snapshot() == before


def test_a_line_that_is_no_command_quotes_only_its_first_word(run):
    replies = run(STRANGER, "frobnicate alice Secret1")
    err = error(replies)
    assert "'frobnicate' is not a command." in err.body
    assert "Your command began with: frobnicate\n" in err.body
    assert_never_echoed(replies, "Secret1")
    replies = run(STRANGER, "trou mvoee 101 alice Secret1 3B2")
    err = error(replies)
    assert err.subject == "Trou error"
    assert "'mvoee' is not a Trou command; did you mean move?" in err.body
    assert_never_echoed(replies, "Secret1")


# Every command that takes a password, refused in a way that quotes the line back.
MASKED = [
    ("signup alice Zq9secret", "signup alice ********", ["Zq9secret"]),
    ("change password alice Wr0ngOld N3wSecret", "change password alice ******** ********",
     ["Wr0ngOld", "N3wSecret"]),
    ("change password alice Secret1 abc", "change password alice ******** ********",
     ["Secret1"]),
    ("change address alice Secret1 nowhere", "change address alice ******** nowhere",
     ["Secret1"]),
    ("signoff alice Wr0ngPass", "signoff alice ********", ["Wr0ngPass"]),
    ("trou move 101 alice Secret1 9Z9", "trou move 101 alice ******** 9Z9", ["Secret1"]),
    ("trou mvoe 101 alice Secret1 3B2#5", "trou move 101 alice ******** 3B2#5", ["Secret1"]),
    # A word missing: which one is worked out from the words given (Secret1 is no Trou
    # move, alice is no board number), so only the password is hidden, not the move.
    ("trou move 101 alice Secret1", "trou move 101 alice ********", ["Secret1"]),
    ("trou move alice Secret1 1B2", "trou move alice ******** 1B2", ["Secret1"]),
    ("trou move 101 alice 3B2", "trou move 101 alice 3B2", []),
    # Secret1 names nobody: the userid is what is missing, and Secret1 the password.
    ("trou move 101 Secret1 3B2", "trou move 101 ******** 3B2", ["Secret1"]),
    # Nothing fits (no such user, no board number): every word may be the password.
    ("trou move nobody Secret1", "trou move ******** ********", ["Secret1"]),
    ("trou resign 999 alice Secret1", "trou resign 999 alice ********", ["Secret1"]),
    ("trou showas alice Secret1 999", "trou showas alice ******** 999", ["Secret1"]),
    ("trou showas alice Wr0ngPass", "trou showas alice ********", ["Wr0ngPass"]),
]


@pytest.mark.parametrize(("line", "masked", "secrets"), MASKED, ids=[m[0] for m in MASKED])
def test_refused_commands_quote_the_line_with_passwords_masked(players, line, masked, secrets):
    run = players
    start_trou(run)
    before = run.snapshot()
    replies = run(ALICE, line)
    err = error(replies)
    assert err.body.endswith(f"\nYour command was:\n  {masked}\n")
    assert_never_echoed(replies, *secrets)
    assert run.snapshot() == before


def test_the_masking_cases_cover_every_password_command():
    required = {"signup", "change password", "change address", "signoff", "move", "resign",
                "showas"}
    with_passwords = {
        c.name for c in [*ACCOUNT_COMMANDS.values(), *GAME_COMMANDS.values()] if c.secret_args
    }
    assert required <= with_passwords
    assert {parse(line).command.name for line, _, _ in MASKED} >= required


@pytest.mark.parametrize(
    "command",
    [c for c in [*ACCOUNT_COMMANDS.values(), *GAME_COMMANDS.values()] if c.secret_args],
    ids=lambda c: c.name,
)
def test_no_command_ever_echoes_a_password_word(players, command):
    """Whatever the command makes of them, the words in password positions never come back."""
    run = players
    start_trou(run)
    size = max(command.secret_args) + 2
    secrets = {i: f"Pw{i}x{command.name[:3]}Q" for i in command.secret_args}
    args = [secrets.get(i, "zed") for i in range(size)]
    words = command.name if command in ACCOUNT_COMMANDS.values() else f"trou {command.name}"
    replies = run(ALICE, " ".join([words, *args]))
    assert replies
    assert_never_echoed(replies, *secrets.values())


def test_successful_commands_never_echo_passwords(players):
    run = players
    replies = []
    replies += run(STRANGER, "trou challenge alice bob")
    replies += run(ALICE, "trou move 101 alice Secret1 3B2#1")
    replies += run(ALICE, "trou showas alice Secret1 all")
    replies += run(BOB, "trou move 101 bob Hunter22 4C2")
    replies += run(BOB, "trou resign 101 bob Hunter22")  # queued, then taken back
    replies += run(BOB, "trou resign 101 bob Hunter22")
    replies += run(ALICE, "change address alice Secret1 alice@example.org")
    replies += run(CAROL, "change password carol Carol333 Carol444")
    replies += run(CAROL, "signoff carol Carol444")
    assert len(replies) >= 12
    assert not any(r.subject.endswith("rror") for r in replies), replies
    assert_never_echoed(replies, PW["alice"], PW["bob"], "Carol333", "Carol444")


# ----- a failing command changes nothing ----------------------------------------------------
def test_a_failing_command_drops_its_replies(players):
    run = players
    start_trou(run)
    replies = run(STRANGER, "trou show 101 999")
    err = error(replies)
    assert "There is no Trou board 999." in err.body
    assert "Summary of Trou Board 101" not in err.body


@pytest.fixture
def boom(monkeypatch):
    """An account command that writes a user and a reply, then is refused."""

    def handler(ctx, inv):
        ctx.session.add(User(userid="ghost", password_hash="x"))
        ctx.session.flush()
        ctx.answer("Ghost", "a reply that must not be sent\n")
        raise CommandError("Boom: refused after writing.")

    monkeypatch.setitem(ACCOUNT_COMMANDS, "boom", Command("boom", "", "test only", handler))


def test_a_failing_command_leaves_the_database_unchanged(players, boom):
    run = players
    start_trou(run)
    before = run.snapshot()
    err = error(run(ALICE, "boom now"))
    assert err.subject == "pbm error"
    assert err.body.startswith("Boom: refused after writing.\n")
    assert run.user("ghost") is None
    assert run.snapshot() == before


def test_commands_before_a_failure_in_the_same_mail_stand(players, boom):
    run = players
    with run.session() as session:
        ctx = Context(session, STRANGER)
        run_lines(ctx, ["trou challenge alice bob", "boom", "trou challenge bob carol"])
        assert ctx.failures == 1
        subjects = [r.subject for r in ctx.replies]
    assert subjects == ["New Trou Board 101 alice"] * 3 + ["pbm error"] + \
        ["New Trou Board 102 bob"] * 3
    assert run.user("ghost") is None
    assert run.board(101) is not None and run.board(102) is not None


def test_a_huge_board_number_stays_out_of_the_error_subject(players):
    """The Subject is a header: a word from the mail must not make it unbounded."""
    err = error(players(ALICE, "trou move " + "1" * 100_000 + " alice Secret1 1B2"))
    assert err.subject == "Trou error"
    assert len(err.body) < 3000
