"""Queued and conditional moves through the command layer (issue 10): `GAME queue`, the
(Auto) moves a move sets off, the notices of dropped queues, and what each player sees."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from pbm.context import Reply
from pbm.db.models import Board
from pbm.games import registry
from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
    to,
)

ADDRESS = {userid: address for userid, (_, address) in ACCOUNTS.items()}
USERS = ("alice", "bob")


def queue(run: Runner, userid: str, rest: str, game: str = "trou") -> list[Reply]:
    return run(ADDRESS[userid], f"{game} queue {rest.split()[0]} {userid} {PW[userid]} "
                                f"{' '.join(rest.split()[1:])}")


def move(run: Runner, userid: str, rest: str, game: str = "trou") -> list[Reply]:
    number, text = rest.split(maxsplit=1)
    return run(ADDRESS[userid], f"{game} move {number} {userid} {PW[userid]} {text}")


def boards(replies: list[Reply]) -> dict[str, Reply]:
    """The board mails by address, checking each player gets exactly one."""
    found = [r for r in replies if r.kind == "board"]
    by_address = {r.to[0]: r for r in found}
    assert len(by_address) == len(found), found
    return by_address


def notices(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if r.kind == "notice"]


def queued(run: Runner, number: int = 101) -> list[Any]:
    return [seat.queued for seat in run.board(number).seats]


# ----- Trou, by hand -----------------------------------------------------------------------
def test_a_queued_move_is_played_when_the_turn_comes(players):
    run = players
    start_trou(run)  # alice to move
    reply = one(queue(run, "bob", "101 4c2"))
    assert_never_echoed([reply], PW["bob"])
    assert (reply.to, reply.kind, reply.subject) == ((BOB,), "answer", "Trou Board 101")
    assert "Queued on Trou board 101: 4c2." in reply.body
    assert "trou queue 101 bob PASSWORD clear" in reply.body
    assert queued(run) == [None, {"move": "4c2"}]

    # Only bob's own view says what he queued.
    bob_view = one(run(BOB, f"trou showas bob {PW['bob']} 101")).body
    assert "Your queued move: 4c2." in bob_view
    alice_view = one(run(ALICE, f"trou showas alice {PW['alice']} 101")).body
    public = one(run(STRANGER, "trou show 101")).body
    assert "queued" not in alice_view and "4c2" not in alice_view
    assert "queued" not in public

    replies = move(run, "alice", "101 1B2")
    mails = boards(replies)
    assert set(mails) == {ALICE, BOB} and len(replies) == 2
    for mail in mails.values():
        assert mail.subject == "Trou Board 101 alice"
        assert "  1. 1B2" in mail.body and "  2. 4C2 (Auto)" in mail.body
        assert "It is alice's turn." in mail.body
        assert "queued" not in mail.body
    log = run.moves(101)
    assert [(m.notation, m.auto, m.seat) for m in log] == [("1B2", False, 0), ("4C2", True, 1)]
    assert queued(run) == [None, None]  # used once


def test_a_queued_move_is_replaced_cleared_and_refused_on_your_turn(players):
    run = players
    start_trou(run)
    queue(run, "bob", "101 4C2")
    reply = one(queue(run, "bob", "101 2B1"))
    assert "Queued on Trou board 101: 2B1." in reply.body
    assert "This replaces 4C2, queued before." in reply.body
    assert queued(run) == [None, {"move": "2B1"}]
    reply = one(queue(run, "bob", "101 CLEAR"))
    assert "Your queue on board 101 is cleared (it held 2B1)." in reply.body
    assert queued(run) == [None, None]
    assert "Nothing was queued on board 101." in one(queue(run, "bob", "101 clear")).body

    # On your own turn a move is sent with `move`: nothing is queued.
    before = run.snapshot()
    err = error(queue(run, "alice", "101 1B2"))
    assert err.subject == "Trou Board 101 Error"
    assert "It is your turn on board 101 now, so there is nothing to queue" in err.body
    assert "trou move 101 alice PASSWORD MOVE" in err.body
    assert_never_echoed([err], PW["alice"])
    assert run.snapshot() == before


def test_an_illegal_queued_move_is_dropped_and_its_owner_told_why(players):
    run = players
    start_trou(run)
    queue(run, "bob", "101 4B2")
    replies = move(run, "alice", "101 1B2")  # B2 is taken now... by a different value
    dropped = one(notices(replies))
    assert dropped.to == (BOB,)
    assert dropped.subject == "Trou Board 101: queued move dropped"
    direct = flat(error(move(run, "bob", "101 4B2")).body.split("\n\n")[0])
    assert flat(dropped.body).startswith("Your queued move 4B2 on Trou board 101 was dropped: "
                                         "it is not legal now. ")
    assert direct in flat(dropped.body)  # the reason the rules give a move sent by hand
    mails = boards(replies)
    assert set(mails) == {ALICE, BOB}
    assert "It is bob's turn." in mails[BOB].body and "(Auto)" not in mails[BOB].body
    assert [m.notation for m in run.moves(101)] == ["1B2"]
    assert queued(run) == [None, None]


def test_conditional_replies_answer_the_move_played(players):
    run = players
    start_trou(run)
    # Conditions are read as alice's moves and kept as the game writes them.
    reply = one(queue(run, "bob", "101 4c2 if 1b2, 4A2 if 2B1"))
    assert "Queued on Trou board 101: 4C2 if 1B2, 4A2 if 2B1." in reply.body
    assert "If alice plays 1B2, 4C2 will be played for you" in reply.body
    assert "If alice plays anything else, the queue is cleared" in reply.body
    assert queued(run) == [None, {"when": [["1B2", "4C2"], ["2B1", "4A2"]]}]
    assert "Your queued replies: 4C2 if 1B2, 4A2 if 2B1." in \
        one(run(BOB, f"trou showas bob {PW['bob']} 101")).body
    assert "queued" not in one(run(ALICE, f"trou showas alice {PW['alice']} 101")).body

    replies = move(run, "alice", "101 2b1")
    assert not notices(replies)
    for mail in boards(replies).values():
        assert "  1. 2B1" in mail.body and "  2. 4A2 (Auto)" in mail.body
        assert "queued" not in mail.body
    assert queued(run) == [None, None]


def test_conditional_replies_are_cleared_by_any_other_move(players):
    run = players
    start_trou(run, moves=TROU_GAME[:2])
    queue(run, "bob", "101 2B3 if 2B1, 1A1 if 3C3")
    replies = move(run, "alice", "101 3A1")
    dropped = one(notices(replies))
    assert dropped.to == (BOB,)
    assert dropped.body == ("Your queued move on Trou board 101 was dropped: alice played 3A1, "
                            "not 2B1 or\n3C3.\n")  # fitted to 76 columns
    mails = boards(replies)
    assert "(Auto)" not in mails[ALICE].body + mails[BOB].body
    assert "It is bob's turn." in mails[BOB].body
    assert queued(run) == [None, None]


def test_a_move_by_hand_drops_its_own_stale_queue(players):
    # A turn that comes without a move (a takeback) finds no queue played: if one is left,
    # the player's own move replaces it rather than letting it fire a turn later.
    run = players
    start_trou(run)
    with run.session() as session:
        session.get(Board, 101).seats[0].queued = {"move": "2B1"}
    replies = move(run, "alice", "101 1B2")
    assert not notices(replies)
    assert queued(run) == [None, None]
    move(run, "bob", "101 4C2")
    assert [m.auto for m in run.moves(101)] == [False, False]


def test_a_queued_resignation_comes_before_a_queued_move(players):
    run = players
    start_trou(run, moves=TROU_GAME[:2])
    queue(run, "bob", "101 2B3")
    run(BOB, f"trou resign 101 bob {PW['bob']}")
    reply = one(queue(run, "bob", "101 2B3"))
    assert "Your resignation is queued too, and it comes first" in reply.body
    replies = move(run, "alice", "101 2B1")
    for mail in boards(replies).values():
        assert "Game won by alice.\nbob resigned." in mail.body
        assert "(Auto)" not in mail.body
    assert queued(run) == [None, None]  # the end clears every queue
    assert len(run.moves(101)) == 3


def test_the_end_of_the_game_clears_the_queue(players):
    run = players
    start_trou(run, moves=TROU_GAME[:-1])  # bob's last pawn, and alice wins
    queue(run, "alice", "101 4B1")
    replies = move(run, "bob", f"101 {TROU_GAME[-1]}")
    assert not notices(replies)
    assert all("Game won by alice." in m.body for m in boards(replies).values())
    assert queued(run) == [None, None]
    before = run.snapshot()
    err = error(queue(run, "alice", "101 4B1"))
    assert "Board 101 is over; nothing can be queued on it." in err.body
    err = error(queue(run, "alice", "101 clear"))
    assert "Board 101 is over" in err.body
    assert run.snapshot() == before


def test_loophole_by_hand(players):
    run = players
    run(STRANGER, "loophole challenge alice bob")
    reply = one(queue(run, "bob", "101 l11 if k10, M2 if j9", "loophole"))
    assert "Queued on Loophole board 101: L11 if K10, M2 if J9." in reply.body
    replies = move(run, "alice", "101 K10", "loophole")
    for mail in boards(replies).values():
        assert "  1. K10" in mail.body and "  2. L11 (Auto)" in mail.body
    move(run, "alice", "101 M3", "loophole")
    queue(run, "alice", "101 l11", "loophole")  # taken by bob's reply
    replies = move(run, "bob", "101 A1", "loophole")
    dropped = one(notices(replies))
    assert dropped.to == (ALICE,)
    assert "Your queued move l11 on Loophole board 101 was dropped: it is not legal now." \
        in dropped.body
    assert set(boards(replies)) == {ALICE, BOB}


# ----- what is refused ---------------------------------------------------------------------
BAD_LISTS = {
    "4C2 if 1B2,, 4A2 if 2B1": "An empty reply in the list",
    "4C2 if 1B2, 4A2": "'4A2' is not a reply and its condition",
    "if 1B2 then 4C2": "cannot be queued yet",
    "4C2 if 1B2 then 4A2 if 2B1": "cannot be queued yet",
    "4C2 if": "is not a reply and its condition",
    "if 1B2": "is not a reply and its condition",
    "4C2 if 9Z9": "'9Z9' is not a move alice can make now",
    "4C2 if 1B2, 4A2 if 1b2": "1B2 is named twice as a condition",
    "4C2 if 1D9": "'1D9' is not a move alice can make now: There is no cell D9",
    "4C2 if 2B1, 4B2 if 1B2": "'4B2' would not be a legal reply if alice plays 1B2: B2 is "
                              "already occupied",
    ", ".join(f"4C2 if 1B{n}" for n in range(31)): "At most 30 replies may be queued at once",
}


@pytest.mark.parametrize("text", list(BAD_LISTS))
def test_a_malformed_or_impossible_list_is_refused_and_changes_nothing(players, text):
    run = players
    start_trou(run)
    queue(run, "bob", "101 4C2")
    before = run.snapshot()
    err = error(queue(run, "bob", f"101 {text}"))
    assert err.subject == "Trou Board 101 Error"
    assert BAD_LISTS[text] in err.body, err.body
    assert_never_echoed([err], PW["bob"])
    assert run.snapshot() == before


def test_a_condition_the_game_would_end_on_is_refused(players):
    run = players
    start_trou(run, moves=TROU_GAME[:-1])
    before = run.snapshot()
    err = error(queue(run, "alice", f"101 4B1 if {TROU_GAME[-1]}"))
    assert f"If bob plays {TROU_GAME[-1]} the game is over" in err.body
    assert run.snapshot() == before


def test_who_may_queue(players):
    run = players
    start_trou(run)
    before = run.snapshot()
    err = error(run(CAROL, f"trou queue 101 carol {PW['carol']} 4C2"))
    assert "carol does not play on board 101 (alice and bob do)." in err.body
    err = error(run(BOB, "trou queue 101 bob Wrong-pw 4C2"))
    assert "Wrong-pw" not in err.body and "password" in err.body.lower()
    err = error(run(BOB, f"trou queue 102 bob {PW['bob']} 4C2"))
    assert "There is no Trou board 102." in err.body
    err = error(run(BOB, f"trou queue 101 bob {PW['bob']}"))
    assert "Too few words" in err.body
    assert_never_echoed([err], PW["bob"])
    err = error(run(BOB, f"trou queue 101 bob {PW['bob']} {'4C2' * 400}"))
    assert "at most 1000 characters" in err.body
    assert run.snapshot() == before


def test_the_move_path_checks_queues_without_queries_when_there_are_none(players):
    # Guarded by tests/mail/test_statements.py on real mail; here only the behaviour: a move
    # with no queue anywhere plays no auto move and sends no notice.
    run = players
    start_trou(run)
    replies = move(run, "alice", "101 1B2")
    assert not notices(replies) and set(boards(replies)) == {ALICE, BOB}
    assert "(Auto)" not in replies[0].body


def test_help_describes_queue(players):
    body = one(players(STRANGER, "help commands")).body
    assert "queue board userid password move | reply if move, ... | clear" in body
    assert "GAME queue 101 alice pw 3B2" in one(players(STRANGER, "help")).body


# ----- every game --------------------------------------------------------------------------
def _state(run: Runner, game: Game, number: int = 101) -> Any:
    return game.decode(run.board(number).state)


def _challenge(run: Runner, word: str) -> int:
    replies = run(STRANGER, f"{word} challenge alice bob")
    return int(one(replies, ALICE).subject.split("Board ")[1].split()[0])


@pytest.mark.parametrize("word", registry.names())
def test_every_game_plays_queued_moves(players, word):
    """A seeded game in which every player who is about to get the turn has queued their
    move: each is played (Auto) by the move before it, shown to every player once, and a
    secret in it stays with its owner."""
    run, game = players, registry.get(word)
    number = _challenge(run, word)
    rng = random.Random(7)
    auto_played = 0
    for _step in range(12):
        state = _state(run, game, number)
        movers = sorted(game.to_move(state))
        if not movers:
            break
        seat = movers[0]
        first = game.random_move(state, seat, rng)
        after = game.play(state, seat, first)
        coming = sorted(game.to_move(after) - set(movers))
        reply = None
        if coming:
            queuer = coming[0]
            reply = game.random_move(after, queuer, rng)
            text = game.notation(reply)
            answer = one(queue(run, USERS[queuer], f"{number} {text}", word))
            assert answer.to == (ADDRESS[USERS[queuer]],)
            assert f"Queued on {game.info.title} board {number}: {text}." in answer.body
        replies = move(run, USERS[seat], f"{number} {game.notation(first)}", word)
        assert not notices(replies)
        mails = boards(replies)
        assert set(mails) == {ALICE, BOB}
        if reply is None:
            continue
        auto_played += 1
        log = run.moves(number)
        assert (log[-1].notation, log[-1].auto, log[-1].seat) == (text, True, queuer)
        over = game.result(game.play(after, queuer, reply)) is not None
        for viewer, userid in enumerate(USERS):
            seen = text if over else game.move_text(after, queuer, reply, viewer)
            body = mails[ADDRESS[userid]].body
            assert f"{seen} (Auto)" in body, body
            if seen != text:  # a secret of the queuer's: never in the other's mail
                assert text not in body
    assert auto_played >= 2


def _public_games() -> list[str]:
    return [name for name in registry.names() if not registry.get(name).info.hidden]


def _hidden_games() -> list[str]:
    return [name for name in registry.names() if registry.get(name).info.hidden]


# Battleship's one secret is each fleet, placed by both seats at once at the start: there is
# never a turn still to come when a secret could be queued (its shots are public).
SECRETS_ONLY_AT_THE_START = frozenset({"battleship"})


def _queueable_secret_games() -> list[str]:
    return [name for name in _hidden_games() if name not in SECRETS_ONLY_AT_THE_START]


def _written(game: Game, state: Any, seat: int, notation: str) -> str:
    """The notation in lower case where the game reads that too: conditions are matched
    as the game writes them, not as typed."""
    lower = notation.lower()
    try:
        return lower if game.notation(game.parse(state, seat, lower)) == notation else notation
    except Exception:
        return notation


@pytest.mark.parametrize("word", _public_games())
def test_every_public_game_answers_conditions(players, word):
    run, game = players, registry.get(word)
    rng = random.Random(11)
    for number, played in ((_challenge(run, word), 1), (_challenge(run, word), None)):
        state = _state(run, game, number)
        (seat,) = game.to_move(state)
        other = 1 - seat
        options = list(itertools.islice(game.legal_moves(state, seat), 200))
        rng.shuffle(options)
        chosen = options[:3]
        pairs = []
        for condition in chosen[:2]:
            after = game.play(state, seat, condition)
            pairs.append((game.notation(condition),
                          game.notation(game.random_move(after, other, rng))))
        text = ", ".join(f"{reply} if {_written(game, state, seat, condition)}"
                         for condition, reply in pairs)
        answer = one(queue(run, USERS[other], f"{number} {text}", word))
        listed = ", ".join(f"{reply} if {condition}" for condition, reply in pairs)
        assert f"Queued on {game.info.title} board {number}: {listed}." in answer.body
        if played is not None:
            condition, reply = pairs[played]
            replies = move(run, USERS[seat], f"{number} {condition}", word)
            assert not notices(replies)
            for mail in boards(replies).values():
                assert f"  2. {reply} (Auto)" in mail.body
            assert [m.auto for m in run.moves(number)] == [False, True]
        else:
            third = game.notation(chosen[2])
            replies = move(run, USERS[seat], f"{number} {third}", word)
            dropped = one(notices(replies))
            assert dropped.to == (ADDRESS[USERS[other]],)
            assert f"{USERS[seat]} played {third}, not {pairs[0][0]} or {pairs[1][0]}." \
                in flat(dropped.body)
            assert [m.auto for m in run.moves(number)] == [False]
        assert queued(run, number) == [None, None]


@pytest.mark.parametrize("word", _hidden_games())
def test_games_with_secret_moves_refuse_conditions(players, word):
    run, game = players, registry.get(word)
    number = _challenge(run, word)
    state = _state(run, game, number)
    rng = random.Random(1)
    while len(game.to_move(state)) > 1:  # a start of both seats at once (Battleship)
        seat = min(game.to_move(state))
        move(run, USERS[seat], f"{number} {game.notation(game.random_move(state, seat, rng))}",
             word)
        state = _state(run, game, number)
    seat = min(game.to_move(state))
    other = 1 - seat
    before = run.snapshot()
    err = error(queue(run, USERS[other], f"{number} X1 if Y2", word))
    assert f"{game.info.title} keeps moves secret while the game runs" in err.body
    assert "checking the condition would tell you what they played" in flat(err.body)
    assert run.snapshot() == before


@pytest.mark.parametrize("word", _hidden_games())
def test_a_dropped_queued_move_tells_no_secret(players, word):
    """In a game with secrets, the reason an illegal queued move was dropped is the one the
    rules give its owner for that move sent by hand, and only its owner is told."""
    run, game = players, registry.get(word)
    number = _challenge(run, word)
    rng = random.Random(5)
    told = 0
    for step in range(16):
        state = _state(run, game, number)
        movers = sorted(game.to_move(state))
        if not movers:
            break
        seat = movers[0]
        first = game.random_move(state, seat, rng)
        coming = sorted(game.to_move(game.play(state, seat, first)) - set(movers))
        text = "nonsense-move"
        if coming and step % 2:
            # A move that was legal had the other player moved otherwise: it may fail on
            # what the rules keep secret.
            other = game.play(state, seat, game.random_move(state, seat, rng))
            if coming[0] in game.to_move(other):
                text = game.notation(game.random_move(other, coming[0], rng))
        if coming:
            queue(run, USERS[coming[0]], f"{number} {text}", word)
        replies = move(run, USERS[seat], f"{number} {game.notation(first)}", word)
        for notice in notices(replies):
            told += 1
            assert notice.to == (ADDRESS[USERS[coming[0]]],)
            reason = flat(notice.body).split("it is not legal now. ", 1)[1]
            direct = error(move(run, USERS[coming[0]], f"{number} {text}", word))
            assert flat(direct.body).startswith(reason)
        if coming:  # the turn goes on with a legal move, so the game moves forward
            state = _state(run, game, number)
            if coming[0] in game.to_move(state):
                queuer = coming[0]
                move(run, USERS[queuer],
                     f"{number} {game.notation(game.random_move(state, queuer, rng))}", word)
    assert told >= 2


@pytest.mark.parametrize("word", _queueable_secret_games())
def test_a_queued_secret_stays_with_its_owner(players, word):
    """A move holding a secret (a Pipeline pipeline, an Outguess guess), queued and played
    (Auto): the other player sees it only as the rules show it, in every mail and view."""
    run, game = players, registry.get(word)
    number = _challenge(run, word)
    rng = random.Random(3)
    for _step in range(40):
        state = _state(run, game, number)
        movers = sorted(game.to_move(state))
        seat = movers[0]
        first = game.random_move(state, seat, rng)
        after = game.play(state, seat, first)
        coming = sorted(game.to_move(after) - set(movers))
        if coming:
            queuer, other = coming[0], 1 - coming[0]
            reply = game.random_move(after, queuer, rng)
            secret = game.notation(reply)
            if game.move_text(after, queuer, reply, other) != secret:
                break
        move(run, USERS[seat], f"{number} {game.notation(first)}", word)
    else:
        pytest.fail("no secret move came up to queue")
    owner, looker = USERS[queuer], USERS[other]
    answer = one(queue(run, owner, f"{number} {secret}", word))
    assert answer.to == (ADDRESS[owner],)
    assert f"Your queued move: {secret}." in \
        one(run(ADDRESS[owner], f"{word} showas {owner} {PW[owner]} {number}")).body
    looks = [one(run(ADDRESS[looker], f"{word} showas {looker} {PW[looker]} {number}")),
             one(run(STRANGER, f"{word} show {number}"))]
    replies = move(run, USERS[seat], f"{number} {game.notation(first)}", word)
    mails = boards(replies)
    assert f"{secret} (Auto)" in mails[ADDRESS[owner]].body
    hidden = game.move_text(after, queuer, reply, other)
    assert f"{hidden} (Auto)" in mails[ADDRESS[looker]].body
    looks += [one(run(ADDRESS[looker], f"{word} showas {looker} {PW[looker]} {number}")),
              one(run(STRANGER, f"{word} show {number}"))]
    for reply_mail in [*to(replies, ADDRESS[looker]), *looks]:
        assert secret not in reply_mail.body
        assert "queued" not in reply_mail.body.lower()


# ----- a chain: three players, each queue set off by the one before ----------------------
@dataclass(frozen=True)
class RoundState:
    said: tuple[int, ...] = ()


class Round(Game[RoundState, int]):
    """Three players say a digit in turn; after nine digits the first seat wins."""

    info = GameInfo(name="round", title="Round", seats=("North", "East", "South"),
                    rules_version=1)

    def start(self, options, seed):
        return RoundState()

    def to_move(self, state):
        return frozenset() if len(state.said) >= 9 else frozenset({len(state.said) % 3})

    def parse(self, state, seat, text):
        if not text.strip().isdigit():
            raise InvalidMove(f"'{text}' is not a number.")
        if len(text.strip()) > 1:
            raise IllegalMove("Say one digit.")
        return int(text)

    def play(self, state, seat, move):
        return RoundState((*state.said, move))

    def notation(self, move):
        return str(move)

    def result(self, state):
        return Outcome(frozenset({0}), "North had the last word.") \
            if len(state.said) >= 9 else None

    def render(self, state, viewer):
        return f"Digits said: {len(state.said)}\n"

    def legal_moves(self, state, seat):
        return iter(range(10))

    def encode(self, state):
        return list(state.said)

    def decode(self, data):
        return RoundState(tuple(data))

    def help_template(self):
        return "Help For Round\n"


GAME = Round()


@pytest.fixture
def round_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(registry.BUILTIN, "round", __name__)
    registry.get.cache_clear()
    yield "round"
    monkeypatch.undo()
    registry.get.cache_clear()


def test_queued_moves_set_each_other_off_and_each_player_gets_one_board(players, round_game):
    run = players
    run(STRANGER, "round challenge alice bob carol")
    # A condition is on the next move, and after alice's it is bob's turn, not carol's.
    err = error(queue(run, "carol", "101 6 if 4", "round"))
    assert "If alice plays 4 it is still not your turn" in err.body

    # Two plain queues in a row: alice's move sets off bob's, bob's sets off carol's.
    queue(run, "bob", "101 5", "round")
    queue(run, "carol", "101 6", "round")
    replies = move(run, "alice", "101 1", "round")
    mails = boards(replies)
    assert set(mails) == {ALICE, BOB, CAROL} and len(replies) == 3
    for mail in mails.values():
        assert "  2. 5 (Auto)" in mail.body and "  3. 6 (Auto)" in mail.body
        assert "It is alice's turn." in mail.body
    assert [m.auto for m in run.moves(101)] == [False, True, True]
    assert queued(run) == [None, None, None]

    # A broken link drops only itself: bob's is illegal, so carol's waits for bob.
    queue(run, "bob", "101 55", "round")
    queue(run, "carol", "101 7", "round")
    replies = move(run, "alice", "101 2", "round")
    assert one(notices(replies)).to == (BOB,)
    assert "Say one digit." in flat(one(notices(replies)).body)
    assert set(boards(replies)) == {ALICE, BOB, CAROL}
    assert queued(run) == [None, None, {"move": "7"}]
    replies = move(run, "bob", "101 3", "round")
    assert [m.auto for m in run.moves(101)][-2:] == [False, True]


def test_a_takeback_clears_the_queues_written_for_the_position_it_undoes(players):
    run = players
    start_trou(run, moves=TROU_GAME[:1])  # alice moved; bob to move
    queued = queue(run, "alice", f"101 {TROU_GAME[2]}")
    assert run.board(101).seats[0].queued is not None, queued
    move(run, "alice", "101 undo")
    move(run, "bob", "101 accept")  # move 1 is taken back: alice to move
    assert run.board(101).seats[0].queued is None
    shown = one(run(ALICE, f"trou showas alice {PW['alice']} 101"))
    assert "Your queued" not in shown.body


@pytest.mark.parametrize("word", sorted(SECRETS_ONLY_AT_THE_START))
def test_a_game_whose_secrets_come_only_at_the_start_has_none_to_queue(word):
    """Why such a game is left out above: every secret move is a seat's first, made while it
    has been on turn since the start (so never queued for a turn to come); every later
    move is public to both."""
    game = registry.get(word)
    rng = random.Random(5)
    state = game.start(game.parse_options([]), 5)
    first_movers = game.to_move(state)
    assert first_movers == frozenset({0, 1})
    moved: set[int] = set()
    while game.result(state) is None:
        seat = min(game.to_move(state))
        chosen = game.random_move(state, seat, rng)
        if game.move_text(state, seat, chosen, 1 - seat) != game.notation(chosen):
            assert seat in first_movers and seat not in moved
        moved.add(seat)
        state = game.play(state, seat, chosen)
    assert moved == {0, 1}
