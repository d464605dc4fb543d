"""Loophole by mail: board mails and `show` carry the hex rhombus, within 76 columns."""

from __future__ import annotations

from tests.commands.conftest import ALICE, BOB, PW, STRANGER, one

# Rows 9 to 11 after K10 (Black) and L11 (White): each row one character right of the one
# above, the last stone in brackets.
AFTER_L11 = [
    " 9          O . . . . . . . . . . . . . . . . . . . O  9",
    "10           O . . . . . . . . . . # . . . . . . . . O  10",
    "11            O . . . . . . . . . . .[O]. . . . . . . O  11",
]


def test_board_mails_and_show_draw_the_rhombus(players):
    run = players
    replies = run(STRANGER, "loophole challenge alice bob")
    assert " 2   O . . . . . . . . . . . . . . . . . . . O  2" in one(replies, ALICE).body
    run(ALICE, f"loophole move 101 alice {PW['alice']} K10")
    replies = run(BOB, f"loophole move 101 bob {PW['bob']} L11")
    mails = [r for r in replies if r.kind == "board"]
    assert {r.to[0] for r in mails} == {ALICE, BOB}
    shown = one(run(STRANGER, "loophole show 101"))
    for reply in [*mails, shown]:
        lines = reply.body.splitlines()
        at = lines.index(AFTER_L11[0])
        assert lines[at : at + 3] == AFTER_L11
        assert "Last stone: White L11, shown as [O]." in lines
        assert all(len(line) <= 76 for line in lines), reply.body
