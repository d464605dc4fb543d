"""`help tutorial`: its commands, played in its order, do what the page says they do."""

from __future__ import annotations

from pbm.help import load_page
from pbm.mail.inbound import InboundMail, commands
from pbm.width import WIDTH
from tests.commands.conftest import ALICE, BOB, Runner, error, flat, one

PAGE = load_page("tutorial")
ALICE_PW, BOB_PW = "mypassword", "hispassword"

# The commands the page tells alice to send, in its order.
STEPS = [
    "signup alice mypassword",
    "trou challenge alice bob",
    "trou challenge alice easybot",
    "trou move 101 alice mypassword 1B2",
    "trou move 101 alice mypassword 2B1#3",
    "trou move 101 alice mypassword 4A2",
    "trou move 101 alice mypassword propose",
    "trou resign 102 alice mypassword",
]


def page_commands(page: str) -> list[str]:
    """The page's command lines: those indented by five spaces, under the prose's three."""
    return [line.strip() for line in page.splitlines()
            if line.startswith(" " * 5) and not line.startswith(" " * 6)]


def test_the_page_holds_the_commands_this_test_plays_and_fits_a_mail():
    assert page_commands(PAGE) == STEPS
    text = flat(PAGE)
    assert "(he sends trou move 101 bob hispassword 4C2)" in text
    assert "(bob has played 2B3)" in text
    assert max(map(len, PAGE.splitlines())) <= WIDTH


def sent(run: Runner, line: str, sender: str = ALICE):
    replies = run(sender, line)
    assert not any(r.subject.lower().endswith("error") for r in replies), replies
    return replies


def test_the_tutorial_played_through_the_command_layer(run: Runner):
    steps = iter(STEPS)
    # 1. Sign up; the friend too.
    welcome = one(sent(run, next(steps)))
    assert (welcome.subject, welcome.to) == ("Welcome to pbm, alice", (ALICE,))
    assert [a.address for a in run.user("alice").addresses] == [ALICE]
    sent(run, f"signup bob {BOB_PW}", BOB)

    # 2. A friend, or a computer player.
    replies = sent(run, next(steps))
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}
    assert {r.subject for r in replies} == {"New Trou Board 101 alice"}
    assert [s.user.userid for s in run.board(101).seats] == ["alice", "bob"]
    board_mail = one(replies, ALICE).body
    replies = sent(run, next(steps))  # a bot gets no mail
    assert {(r.to, r.subject) for r in replies if r.to} == {((ALICE,), "New Trou Board 102 alice")}
    assert [s.user.userid for s in run.board(102).seats] == ["alice", "easybot"]
    assert one(run(ALICE, "help bots")).subject == "Help: bots"

    # 3. The board mail: whose turn, what you may play, the moves, the board.
    assert "Please start the game alice.\nPlace any of your pawns on any cell" in board_mail
    assert "Red: alice          Black: bob\n  (no moves yet)" in board_mail
    assert "     A   B   C" in board_mail
    rules = one(run(ALICE, "trou help"))
    assert rules.subject == "Trou Help"
    assert "\n\nRules\n" in rules.body and "\nMove notation\n\nA move is " in rules.body

    # 4. A move: the new board to both, headed with bob's turn; then bob's, alice's turn.
    replies = sent(run, next(steps))
    assert {(r.to, r.subject) for r in replies} == \
        {((ALICE,), "Trou Board 101 bob"), ((BOB,), "Trou Board 101 bob")}
    assert "  2  .   R1  ." in one(replies, ALICE).body  # pawn 1 on B2
    back = one(sent(run, f"trou move 101 bob {BOB_PW} 4C2", BOB), ALICE)
    assert back.subject == "Trou Board 101 alice" and "It is alice's turn." in back.body

    # 5. #3: played as move 3; a stale #n plays nothing and sends the board again.
    sent(run, next(steps))
    assert [m.notation for m in run.moves(101)] == ["1B2", "4C2", "2B1"]
    sent(run, f"trou move 101 bob {BOB_PW} 2B3", BOB)
    before = run.snapshot()
    stale = error(run(ALICE, f"trou move 101 alice {ALICE_PW} 4A2#4"))
    assert "nothing was played" in flat(stale.body)
    assert "Summary of Trou Board 101" in stale.body
    assert run.snapshot() == before

    # 6. A reply to the board mail: the first line is the command, the quote is ignored.
    reply = InboundMail(
        message_id="<r1@example.org>", sender=ALICE, subject="Re: Trou Board 101 alice",
        body=f"{next(steps)}\n\nOn Sunday, pbm wrote:\n> Summary of Trou Board 101\n"
             f"> trou move 101 alice {ALICE_PW} 3A3\n", auto=False, references="")
    lines = commands(reply).lines
    assert lines == [f"trou move 101 alice {ALICE_PW} 4A2"]
    sent(run, lines[0])
    assert [m.notation for m in run.moves(101)][-1] == "4A2"

    # 7. A draw offered, answered in the place of a move; a bot declines; resigning.
    offer = one(sent(run, next(steps)), BOB)
    assert "alice proposes a draw; bob has not answered." in offer.body
    sent(run, f"trou move 101 bob {BOB_PW} reject", BOB)
    assert run.board(101).proposal["closed"] == "rejected"
    assert run.board(101).status == "active"
    declined = error(run(ALICE, f"trou move 102 alice {ALICE_PW} propose"))
    assert "easybot is a bot and declines a draw" in flat(declined.body)
    sent(run, next(steps))  # before alice's first move on 102: declined, removed
    assert run.board(102).status == "declined"
    sent(run, f"trou resign 101 bob {BOB_PW}", BOB)  # after bob's first move: he loses
    listing = one(run(ALICE, "trou games all")).body
    assert "  101     5  alice  bob    alice Won" in listing and "102" not in listing
    assert next(steps, None) is None  # every step of the page was played

    # What next.
    assert one(run(ALICE, "games")).subject == "Boards of alice"
    assert one(run(ALICE, "help commands")).subject == "Help: commands"
    assert one(run(ALICE, "list")).subject == "List of games"
