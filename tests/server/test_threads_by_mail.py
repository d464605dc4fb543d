"""A whole game by mail, read as a mail client threads it: one root per board, every mail
of the board under it, for each player."""

from __future__ import annotations

import re

import pytest

from tests.server.harness import PbmServer, Received
from tests.server.test_trou_by_mail import ALICE, BOB, PLAYERS, a_game, signup_both

pytestmark = [pytest.mark.server, pytest.mark.slow]

ROOT = re.compile(r"<board\.trou\.101\.\d+@games\.test>")


def refs(mail: Received) -> list[str]:
    return str(mail.message["References"] or "").split()


def answering(mail: Received) -> dict[str, str]:
    """The headers a mail client puts on a reply to `mail`."""
    return {"In-Reply-To": str(mail.message["Message-ID"]),
            "References": " ".join([*refs(mail), str(mail.message["Message-ID"])])}


def test_every_mail_of_a_board_threads_under_one_root(server: PbmServer):
    signup_both(server)
    server.send(ALICE, "trou challenge alice bob", "Good luck!")
    got: dict[str, list[Received]] = {ALICE: [], BOB: []}
    for mail in server.collect(2):
        got[mail.to].append(mail)
    server.send(BOB, "trou chat 101 bob hunter2", "Hello alice",
                headers=answering(got[BOB][-1]))
    for mail in server.collect(2):  # the chat to alice, the answer to bob
        got[mail.to].append(mail)
    sent: dict[str, str] = {}  # Message-ID of each move mail -> who sent it
    for number, (seat, text) in enumerate(a_game(), 1):
        userid, password, address = PLAYERS[seat]
        # Each player answers the last board mail they got, as a client's Reply does.
        sent[server.send(address, f"trou move 101 {userid} {password} {text}#{number}",
                         headers=answering(got[address][-1]))] = address
        for mail in server.collect(2):
            got[mail.to].append(mail)

    ids = [str(m.message["Message-ID"]) for mails in got.values() for m in mails]
    assert len(ids) == len(set(ids)), "a Message-ID given twice"
    roots = set()
    for address, mails in got.items():
        opening = mails[0]
        assert opening.subject == "New Trou Board 101 alice **"
        root = refs(opening)[0]
        # The root, then the challenge mail it answers (alice's; bob's copy names it too).
        assert ROOT.fullmatch(root) and len(refs(opening)) == 2
        anchor = str(opening.message["Message-ID"])
        assert anchor.startswith(root[:-len("@games.test>")] + ".")
        roots.add(root)
        board_mails = [m for m in mails if "Trou Board 101" in m.subject]
        assert len(board_mails) >= len(a_game()) + 1
        for mail in board_mails[1:]:
            chain = refs(mail)
            if mail.subject == "Trou Board 101 chat":
                # The answer to bob's chat: an answer, threaded by the mail it answers.
                assert chain[0] == root and anchor in chain
            else:
                # The root first, then this player's own opening mail: reachable from both.
                assert chain[:2] == [root, anchor], (mail.subject, chain)
            assert len(chain) <= 10
            assert len(chain) == len(set(chain))
            assert chain[-1] == mail.message["In-Reply-To"]
        # Each board mail after a move answers that move's mail: its parent.
        parents = [str(m.message["In-Reply-To"]) for m in board_mails[1:]
                   if "chat" not in m.subject]
        assert parents == list(sent)
    # The last move's mails: long chains of answers were cut, root and anchor kept.
    assert max(len(refs(m)) for mails in got.values() for m in mails) == 10
    assert len(roots) == 1
    # The chat answer to bob is an answer (not board mail); the chat itself to alice is in
    # the thread.
    chat = [m for m in got[ALICE] if "chat from bob" in m.subject]
    assert len(chat) == 1 and refs(chat[0])[0] in roots
