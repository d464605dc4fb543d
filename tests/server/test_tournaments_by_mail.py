"""The three formats played to their end by real mail against a real `pbm serve`: a round
robin of 6, a Swiss of 12 in 4 rounds and a knockout of 8. Every sign-up, join, move,
resignation and draw is a mail over SMTP, each answered by exactly the replies it causes:
the board to both players per move, the next round's new boards to their players when the
last board of a round ends, and the final table to every player when the tournament ends.
The final tables are checked against tables worked out by hand."""

from __future__ import annotations

import pytest

from tests.server.harness import PbmServer, Received, by_recipient
from tests.server.tournaments import Rule, address, boards_in_play, play_board, send, sign_up

pytestmark = pytest.mark.server

FIELD = tuple(f"p{n:02}" for n in range(1, 13))  # all rated 1600: seeded by userid


def open_tournament(server: PbmServer, name: str, players: tuple[str, ...],
                    options: str = "") -> list[Received]:
    """Sign-ups, the tournament created by the first player, joined by all and started:
    the start's replies (the organiser's answer and the first round's new boards)."""
    sign_up(server, players)
    organiser = players[0]
    created = send(server, organiser, f"trou tournament create {name} {organiser} PW "
                                      f"{options}".strip(), 1)[0]
    assert created.subject == f"Tournament {name} created", created.body
    for userid in players:
        joined = send(server, userid, f"trou tournament join {name} {userid} PW", 1)
        assert f"{userid} has joined the tournament {name}" in joined[0].body
    boards = len(players) // 2
    started = send(server, organiser, f"trou tournament start {name} {organiser} PW",
                   1 + 2 * boards)
    new = [r for r in started if r.subject.startswith("New Trou Board")]
    assert sorted(r.to for r in new) == sorted(address(u) for u in players)
    return started


def play_out(server: PbmServer, rule: Rule, waves: list[int], players: tuple[str, ...]
             ) -> tuple[list[list[tuple[str, str, str]]], list[Received]]:
    """Play the boards as `rule` says, wave by wave: each wave is the boards in play at
    once (a round, or a knockout's replays), `waves` their numbers. The last board of a
    wave brings the next wave's new boards, each to its two players once; the last of all
    the final table to every player. The boards of each wave and the last replies."""
    played: list[list[tuple[str, str, str]]] = []
    last: list[Received] = []
    for number, size in enumerate(waves):
        boards = boards_in_play(server)
        assert len(boards) == size, (number, boards)
        assert not {label for label, _, _ in boards} & {b[0] for w in played for b in w}
        played.append(boards)
        for label, white, black in boards[:-1]:
            play_board(server, label, white, black, rule(white, black), 0)
        label, white, black = boards[-1]
        following = waves[number + 1] if number + 1 < len(waves) else None
        extra = len(players) if following is None else 2 * following
        last = play_board(server, label, white, black, rule(white, black), extra)
        if following is not None:
            new = [r for r in last if r.subject.startswith("New Trou Board")]
            assert len(new) == 2 * following
            assert len({(r.to, r.subject) for r in new}) == len(new)  # once each
    assert boards_in_play(server) == []
    assert server.collect(0) == []
    return played, last


def final_table(replies: list[Received], name: str, players: tuple[str, ...]) -> str:
    """The tournament's end mail, the same to every player: its body."""
    ended = by_recipient([r for r in replies if r.subject == f"Tournament {name} has ended"])
    assert set(ended) == {address(u) for u in players}
    bodies = {r.body for r in ended.values()}
    assert len(bodies) == 1
    return bodies.pop()


def rows(body: str, heading: str) -> list[list[str]]:
    table = body[body.index(heading):].split("\n\n")[0].splitlines()
    return [line.split() for line in table]


def games(body: str) -> list[tuple[str, str, str, str]]:
    """The game lines of a final table: (label, seat 0, seat 1, result)."""
    found = []
    for line in body.splitlines():
        words = line.split()
        if len(words) >= 5 and words[2] == "-" and line.startswith("  "):
            found.append((words[0], words[1], words[3], " ".join(words[4:])))
    return found


def check_games(body: str, rule: Rule, count: int) -> None:
    """Every game of the table is there once, with the result the rule gave it."""
    listed = games(body)
    assert len(listed) == count and len({g[0] for g in listed}) == count
    for label, white, black, result in listed:
        winner = rule(white, black)
        assert result == ("draw" if winner is None else f"{winner} won"), label


def test_a_round_robin_of_six_by_mail(server: PbmServer):
    players = FIELD[:6]
    open_tournament(server, "spring", players)

    # p01 and p02 draw; p03 beats p02; otherwise the lower userid wins.
    def rule(white: str, black: str) -> str | None:
        pair = {white, black}
        if pair == {"p01", "p02"}:
            return None
        if pair == {"p02", "p03"}:
            return "p03"
        return min(pair)

    played, last = play_out(server, rule, [3] * 5, players)
    pairs = [frozenset((w, b)) for wave in played for _, w, b in wave]
    assert len(pairs) == 15 and len(set(pairs)) == 15  # every pair once
    body = final_table(last, "spring", players)
    # By hand, 2 a win and 1 a tie: p01 4W 1T = 9; p03 4W 1L = 8; p02 3W 1L 1T = 7;
    # p04 2W = 4; p05 1W = 2; p06 0. Sonneborn-Berger (the points of the opponents beaten,
    # half those of one drawn): p01 p03 8 + p04 4 + p05 2 + p06 0 + p02 7/2 = 17.5;
    # p03 p02 7 + p04 4 + p05 2 + p06 0 = 13; p02 p04 4 + p05 2 + p06 0 + p01 9/2 = 10.5;
    # p04 p05 2 + p06 0 = 2; p05 p06 0 = 0; p06 0.
    assert rows(body, "Pool") == [
        ["Pool", "Name", "W", "L", "T", "SB"],
        ["A1", "p01", "4", "0", "1", "17.5"],
        ["A1", "p03", "4", "1", "0", "13"],
        ["A1", "p02", "3", "1", "1", "10.5"],
        ["A1", "p04", "2", "3", "0", "2"],
        ["A1", "p05", "1", "4", "0", "0"],
        ["A1", "p06", "0", "5", "0", "0"],
    ]
    check_games(body, rule, 15)


def test_a_swiss_of_twelve_in_four_rounds_by_mail(server: PbmServer):
    open_tournament(server, "autumn", FIELD, "-format=swiss -rounds=4")

    # The lower userid wins, but p12 beats everyone it meets, and p03 v p09 (round 1) is
    # drawn.
    def rule(white: str, black: str) -> str | None:
        pair = {white, black}
        if "p12" in pair:
            return "p12"
        if pair == {"p03", "p09"}:
            return None
        return min(pair)

    played, last = play_out(server, rule, [6] * 4, FIELD)
    for boards in played:  # everyone plays once a round (twelve: no bye)
        assert sorted(u for _, w, b in boards for u in (w, b)) == list(FIELD)
    pairs = [frozenset((w, b)) for boards in played for _, w, b in boards]
    assert len(pairs) == len(set(pairs)) == 24  # nobody met twice
    # The pairings as played (the Swiss pairs by score, then seed):
    # R1 p01>p07 p02>p08 p03=p09 p04>p10 p05>p11 p12>p06
    # R2 p01>p04 p02>p05 p12>p09 p03>p11 p06>p08 p07>p10
    # R3 p01>p02 p12>p03 p04>p06 p05>p07 p09>p10 p08>p11
    # R4 p12>p01 p02>p04 p03>p05 p08>p09 p06>p07 p10>p11
    # By hand, 2 a win and 1 a tie: p12 8; p01 6; p02 6; p03 5; p04 p05 p06 p08 4; p09 3;
    # p07 p10 2; p11 0 (48 in all: 24 games). Buchholz (the opponents' points):
    # p12 p06 4 + p09 3 + p03 5 + p01 6 = 18; p01 p07 2 + p04 4 + p02 6 + p12 8 = 20;
    # p02 p08 4 + p05 4 + p01 6 + p04 4 = 18; p03 p09 3 + p11 0 + p12 8 + p05 4 = 15;
    # p04 p10 2 + p01 6 + p06 4 + p02 6 = 18; p06 p12 8 + p08 4 + p04 4 + p07 2 = 18;
    # p05 p11 0 + p02 6 + p07 2 + p03 5 = 13; p08 p02 6 + p06 4 + p11 0 + p09 3 = 13;
    # p09 p03 5 + p12 8 + p10 2 + p08 4 = 19; p07 p01 6 + p10 2 + p05 4 + p06 4 = 16;
    # p10 p04 4 + p07 2 + p09 3 + p11 0 = 9; p11 p05 4 + p03 5 + p08 4 + p10 2 = 15.
    # Ranked by points, then Buchholz, then userid.
    body = final_table(last, "autumn", FIELD)
    assert rows(body, "Pool") == [
        ["Pool", "Name", "W", "L", "T", "Buch"],
        ["A1", "p12", "4", "0", "0", "18"],
        ["A1", "p01", "3", "1", "0", "20"],
        ["A1", "p02", "3", "1", "0", "18"],
        ["A1", "p03", "2", "1", "1", "15"],
        ["A1", "p04", "2", "2", "0", "18"],
        ["A1", "p06", "2", "2", "0", "18"],
        ["A1", "p05", "2", "2", "0", "13"],
        ["A1", "p08", "2", "2", "0", "13"],
        ["A1", "p09", "1", "2", "1", "19"],
        ["A1", "p07", "1", "3", "0", "16"],
        ["A1", "p10", "1", "3", "0", "9"],
        ["A1", "p11", "0", "4", "0", "15"],
    ]
    check_games(body, rule, 24)
    assert [(w, b) for _, w, b, _ in games(body)][:6] == [
        ("p01", "p07"), ("p08", "p02"), ("p03", "p09"), ("p10", "p04"), ("p05", "p11"),
        ("p12", "p06")]


def test_a_knockout_of_eight_with_a_drawn_game_replayed_by_mail(server: PbmServer):
    players = FIELD[:8]
    open_tournament(server, "cup", players, "-format=knockout")
    draws = {frozenset(("p01", "p08")): 1}  # their first game is drawn, the replay not

    def rule(white: str, black: str) -> str | None:
        pair = frozenset((white, black))
        if draws.get(pair):
            draws[pair] -= 1
            return None
        return "p07" if pair == {"p02", "p07"} else min(pair)

    played, last = play_out(server, rule, [4, 1, 2, 1], players)
    # Seeds by rating (all 1600), then userid: 1 v 8, 4 v 5, 2 v 7, 3 v 6; p01 v p08 drawn
    # and replayed with the seats swapped once the round's other games are decided.
    assert [[(w, b) for _, w, b in boards] for boards in played] == [
        [("p01", "p08"), ("p04", "p05"), ("p02", "p07"), ("p03", "p06")],
        [("p08", "p01")],
        [("p01", "p04"), ("p03", "p07")],
        [("p01", "p03")],
    ]
    body = final_table(last, "cup", players)
    assert "Winner: p01" in body
    # By hand, 2 a win and 1 a tie: p01 3W 1T = 7; p03 2W 1L = 4; p04 2; p07 2; p08 1T = 1;
    # p02 p05 p06 0. Buchholz (the opponents' points, each game): p01 p08 1 + 1 + p04 2 +
    # p03 4 = 8; p03 p06 0 + p07 2 + p01 7 = 9; p04 p05 0 + p01 7 = 7; p07 p02 0 + p03 4
    # = 4; p08 p01 7 + 7 = 14; p06 p03 4; p02 p07 2; p05 p04 2.
    assert rows(body, "Pool") == [
        ["Pool", "Name", "W", "L", "T", "Buch"],
        ["A1", "p01", "3", "0", "1", "8"],
        ["A1", "p03", "2", "1", "0", "9"],
        ["A1", "p04", "1", "1", "0", "7"],
        ["A1", "p07", "1", "1", "0", "4"],
        ["A1", "p08", "0", "1", "1", "14"],
        ["A1", "p06", "0", "1", "0", "4"],
        ["A1", "p02", "0", "1", "0", "2"],
        ["A1", "p05", "0", "1", "0", "2"],
    ]
    assert games(body) == [
        ("a101", "p01", "p08", "draw"), ("a102", "p04", "p05", "p04 won"),
        ("a103", "p02", "p07", "p07 won"), ("a104", "p03", "p06", "p03 won"),
        ("a105", "p08", "p01", "p01 won (replay)"), ("a106", "p01", "p04", "p01 won"),
        ("a107", "p03", "p07", "p03 won"), ("a108", "p01", "p03", "p01 won")]
