"""Bots as players: challenged like people, refusing what they do not take, moving through
the same command and log as a person (mail/botmoves.py), rated and marked in the standings."""

from __future__ import annotations

from sqlalchemy import select

from pbm.config import BotSettings, Config
from pbm.db.models import Move, utcnow
from pbm.games import registry
from pbm.games.trou.game import GAME as TROU
from pbm.mail import botmoves
from pbm.width import WIDTH
from tests.commands.conftest import ALICE, BOB, PW, Runner, error, flat, one

CONFIG = Config()


def bot_turns(run: Runner) -> list[botmoves.Turn]:
    with run.factory() as session:
        return botmoves.Watch().due(session)


def play_bots(run: Runner) -> list[str]:
    """Every bot move due, as `pbm serve`'s bot worker plays them; their texts."""
    played = []
    while turns := bot_turns(run):
        for turn in turns:
            text = botmoves.think(turn, 5.0)
            assert botmoves.play(run.factory, CONFIG, turn, text, utcnow()) is not None
            played.append(text)
    return played


def test_a_bot_is_challenged_like_a_person_and_gets_no_mail(players):
    replies = players(ALICE, "trou challenge alice easybot")
    board = one(replies, ALICE)
    assert board.subject == "New Trou Board 101 alice"
    assert {address for reply in replies for address in reply.to} == {ALICE}  # a bot: none
    assert [seat.user.userid for seat in players.board(101).seats] == ["alice", "easybot"]
    assert bot_turns(players) == []  # alice moves first


def test_a_bot_moves_through_the_move_log_and_the_player_is_mailed(players):
    players(ALICE, "trou challenge easybot alice")
    (turn,) = bot_turns(players)
    assert (turn.userid, turn.seat, turn.move_count) == ("easybot", 0, 0)
    text = botmoves.think(turn, 5.0)
    ids = botmoves.play(players.factory, CONFIG, turn, text, utcnow())
    assert len(ids) == 1  # alice's board mail; the bot has no address
    (logged,) = players.moves(101)
    assert (logged.seat, logged.notation) == (0, text)
    assert bot_turns(players) == []  # now alice's turn


def test_a_stale_turn_plays_nothing_so_a_bot_never_moves_twice(players):
    players(ALICE, "trou challenge easybot alice")
    (turn,) = bot_turns(players)
    text = botmoves.think(turn, 5.0)
    # Two nodes thought of the same turn: the second to reach the database finds it gone.
    assert botmoves.play(players.factory, CONFIG, turn, text, utcnow())
    assert botmoves.play(players.factory, CONFIG, turn, text, utcnow()) == []
    assert len(players.moves(101)) == 1


def test_the_same_board_gets_the_same_bot_move(players):
    players(ALICE, "trou challenge bestbot alice")
    (first,) = bot_turns(players)
    assert {botmoves.think(first, 5.0) for _ in range(3)} == {botmoves.think(first, 5.0)}
    assert first.seed == botmoves.turn_seed(players.board(101).seed, 101, 0, 0)


def test_a_whole_game_against_a_bot_is_rated_and_the_standings_mark_it(players):
    players(ALICE, "trou challenge alice easybot")
    while (board := players.board(101)).status.value == "active":
        play_bots(players)
        board = players.board(101)
        if board.status.value != "active":
            break
        state = TROU.decode(board.state)
        move = sorted(TROU.legal_moves(state, 0), key=TROU.notation)[0]
        replies = players(ALICE, f"trou move 101 alice {PW['alice']} {TROU.notation(move)}")
        assert replies and "Error" not in replies[0].subject
    standings = one(players(ALICE, "trou standings")).body
    assert "easybot*" in standings
    assert "* A bot, a computer player: 'help bots' says how it plays." in standings
    with players.session() as session:
        seats = session.scalars(select(Move).where(Move.board_id == 101)).all()
        assert {m.seat for m in seats} == {0, 1}


def test_bots_play_only_the_games_the_operator_chose(players):
    players.bots = BotSettings(games=("trou",))
    before = players.snapshot()
    message = flat(error(players(ALICE, "loophole challenge alice bestbot")).body)
    assert ("bestbot does not play Loophole on this server (they play Trou; see 'help bots'); "
            "this challenge was not made.") in message
    assert players.snapshot() == before
    assert one(players(ALICE, "trou challenge alice bestbot"), ALICE).subject.startswith("New")


def test_bots_are_not_set_on_each_other_by_mail(players):
    before = players.snapshot()
    message = flat(error(players(ALICE, "trou challenge easybot bestbot")).body)
    assert "A board needs a person on it" in message
    assert players.snapshot() == before


def test_a_bot_takes_a_few_boards_with_each_player(players):
    for _ in range(3):
        players(ALICE, "trou challenge alice goodbot")
    message = flat(error(players(ALICE, "trou challenge goodbot alice")).body)
    assert ("alice already plays 3 active Trou boards against goodbot, the most a bot takes "
            "on with one player at a time") in message
    # Another player, another bot or another game is not held back by it.
    assert one(players(BOB, "trou challenge bob goodbot"), BOB).subject.startswith("New Trou")
    assert one(players(ALICE, "trou challenge alice easybot"), ALICE).subject.startswith("New")


def test_a_bot_declines_draws_and_takebacks_at_once(players):
    players(ALICE, "trou challenge alice easybot")
    players(ALICE, f"trou move 101 alice {PW['alice']} 1B2")
    play_bots(players)
    before = players.snapshot()
    for word, asked in (("propose", "a draw"), ("undo", "a takeback")):
        message = flat(error(players(ALICE, f"trou move 101 alice {PW['alice']} {word}")).body)
        assert f"easybot is a bot and declines {asked}" in message
    assert players.snapshot() == before
    assert players.board(101).proposal is None


def test_nobody_logs_in_as_a_bot(players):
    players(ALICE, "trou challenge easybot alice")
    for password in ("!", "", "easybot"):
        replies = players(ALICE, f"trou move 101 easybot {password or 'x'} 1B2")
        assert "Error" in error(replies).subject
    assert players.moves(101) == []
    taken = error(players(BOB, "signup easybot hunter22")).body
    assert taken.startswith("The userid 'easybot' is taken; choose another.")
    # A bot nobody has challenged yet has no account, but its name is not free either.
    reserved = flat(error(players(BOB, "signup bestbot hunter22")).body)
    assert reserved.startswith("The userid 'bestbot' is taken by a computer player (see 'help "
                               "bots'); choose another.")


def test_help_bots_says_where_they_play_and_how(players):
    page = one(players(ALICE, "help bots")).body
    assert page.startswith("Help: bots")
    for name in registry.names():
        assert f"  {registry.get(name).info.title}\n    easybot  a random legal move" in page
    assert "Each bot takes on at most 3 active boards of a game" in flat(page)
    assert all(len(line) <= WIDTH for line in page.splitlines())
    listing = flat(one(players(ALICE, "list")).body)
    played = listing.split("The computer players easybot, goodbot and bestbot play ", 1)[1]
    played = played.split(": 'help bots'", 1)[0]
    for name in registry.names():
        assert registry.get(name).info.title in played, played


def test_with_the_bots_off_the_list_does_not_offer_them(tmp_path):
    run = Runner(tmp_path / "pbm.sqlite", bots=BotSettings(games=()))
    assert "easybot" not in one(run(ALICE, "list")).body
    assert "The bots play no game on this server now." in one(run(ALICE, "help bots")).body
    run.engine.dispose()


def test_a_board_waiting_for_a_person_is_looked_at_again_once_it_changes(players):
    players(ALICE, "trou challenge alice easybot")
    watch = botmoves.Watch()
    with players.factory() as session:
        assert watch.due(session) == []
    assert watch.waiting_for_people == {101: 0}  # remembered: not read again while so
    players(ALICE, f"trou move 101 alice {PW['alice']} 1B2")
    with players.factory() as session:
        (turn,) = watch.due(session)
    assert (turn.userid, turn.move_count) == ("easybot", 1)
    assert watch.waiting_for_people == {}
