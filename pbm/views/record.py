"""The record of a board: its header and moves as plain data (JSON) or a PGN-like text.

Shaped after Abstract Play's game records (a `header` with the game, site, dates and
players, then the `moves`) and, for the text, after PGN's tag pairs and movetext. Both
forms come from `record()`, so the rule on hidden information lives in one place: while a
game runs a record holds only what a spectator sees (the public text of each move, no
seed); once it is over, every move's full notation and the seed.
"""

from __future__ import annotations

import textwrap
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import object_session

from pbm.boards.position import TAKEBACK, LoggedMove, Position, move_seen, position
from pbm.db.models import Board, BoardStatus, Move
from pbm.games import registry
from pbm.views.urls import absolute, board_path
from pbm.width import WIDTH

Record = dict[str, Any]  # json.dumps-able: dicts, lists, str, int, bool, None only


class NoRecord(LookupError):
    """A declined board is gone for everyone: it has no record."""


class Entry(NamedTuple):
    """One entry of the move log with what the record adds to a LoggedMove."""

    move: LoggedMove
    comment: str | None
    time: datetime


def is_over(board: Board) -> bool:
    """Whether the game has ended with an outcome: only then are its secrets the public's."""
    return board.status == BoardStatus.FINISHED and board.winners is not None


def record(board: Board, site: str = "") -> Record:
    """The board's record as plain data; `site`: the web view's address, when it has one."""
    if board.status == BoardStatus.DECLINED:
        raise NoRecord(f"{board.game} board {board.label} was declined: it has no record.")
    pos, entries = position(board), log_entries(board)
    return {"header": header(pos, site, entries), "moves": moves(pos, entries)}


def log_entries(board: Board) -> list[Entry]:
    """The whole move log, with each entry's comment and time (LoggedMove has neither)."""
    session = object_session(board)
    assert session is not None
    rows = session.execute(
        select(Move.number, Move.seat, Move.notation, Move.shown, Move.kind, Move.auto,
               Move.comment, Move.created_at)
        .where(Move.board_id == board.id, Move.number <= board.move_count)
        .order_by(Move.number))
    return [Entry(LoggedMove(*row[:6]), row.comment, row.created_at) for row in rows]


def header(pos: Position, site: str, entries: list[Entry]) -> Record:
    """The game, board, site, dates, players and result; the seed once the game is over."""
    board, over = pos.board, is_over(pos.board)
    found: Record = {"game": game_of(pos), "board": board.label}
    if site:
        found["site"] = {"name": site, "gameid": f"{board.game}/{board.label}",
                         "url": absolute(site, board_path(board.game, board.label))}
    found.update({
        "date-start": iso(board.created_at),
        "date-end": iso(board.finished_at) if over else None,
        "date-last-move": iso(entries[-1].time) if entries else None,
        "status": str(board.status),
        "players": players(pos),
        # Who is to move, as every board mail's Subject says.
        "to-move": [] if over else [pos.userid(seat) for seat in sorted(pos.to_move())],
        "result": result(board) if over else None,
    })
    if over:  # the seed would let anyone work out what the game drew in secret
        found["seed"] = board.seed
    return found


def game_of(pos: Position) -> Record:
    info, board = pos.game.info, pos.board
    return {"name": info.name, "title": info.title, "rules-version": board.rules_version,
            "options": dict(board.options or {})}


def players(pos: Position) -> list[Record]:
    """Each seat in order: who plays it, and once over their result and rating change."""
    board, over = pos.board, is_over(pos.board)
    changes = board.rating_changes if over else None
    found = []
    for seat in board.seats:
        player: Record = {"userid": seat.user.userid, "seat": pos.game.info.seats[seat.position],
                          "is_ai": seat.user.bot is not None}
        if over:
            player["result"] = seat_result(board, seat.position)
        if changes is not None:
            before, after, games = changes[seat.position]
            player["rating"] = {"before": before, "after": after, "games-before": games}
        found.append(player)
    return found


def seat_result(board: Board, seat: int) -> str:
    winners = board.winners or []
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def result(board: Board) -> Record:
    winners = board.winners or []
    return {"winners": [board.seats[seat].user.userid for seat in sorted(winners)],
            "draw": not winners, "reason": board.result_reason or ""}


def moves(pos: Position, entries: list[Entry]) -> list[Record]:
    seats, revealed = pos.game.info.seats, is_over(pos.board)
    return [move_entry(entry, seats[entry.move.seat], pos.userid(entry.move.seat), revealed)
            for entry in entries]


def move_entry(entry: Entry, seat: str, player: str, revealed: bool) -> Record:
    """One move as the record gives it: the public text unless the game is over."""
    move = entry.move
    found: Record = {"number": move.number, "seat": seat, "player": player,
                     # (Auto) is the `auto` flag's to say, not part of the move's text
                     "move": move_seen(move._replace(auto=False), None, revealed),
                     "time": iso(entry.time), "auto": move.auto}
    if move.kind == TAKEBACK:  # "undo 8": the log entry that took move 8 back
        found["takeback"] = int(move.notation.split()[-1])
    if entry.comment:
        found["comment"] = entry.comment
    return found


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC, to the second (the store's times are naive UTC)."""
    return None if moment is None else f"{moment:%Y-%m-%dT%H:%M:%SZ}"


# ----- the text ------------------------------------------------------------------------
def record_text(board: Board, site: str = "") -> str:
    """The record as PGN-like text: tag pairs, a blank line, then the numbered moves with
    their comments in braces and the result, within WIDTH columns."""
    data = record(board, site)
    movetext = move_lines(data, registry.get(board.game).info.one_line_per_move)
    return "\n".join([*tag_lines(data["header"]), "", *movetext]) + "\n"


def tag_lines(head: Record) -> list[str]:
    """PGN's tag pairs: the game and board first, the seven-tag roster's order after."""
    game = head["game"]
    tags = [("Game", game["title"]), ("Board", head["board"])]
    if "site" in head:
        tags.append(("Site", head["site"]["url"]))
    tags.append(("Date", head["date-start"][:10].replace("-", ".")))  # PGN's YYYY.MM.DD
    tags += [(player["seat"], player["userid"]) for player in head["players"]]
    tags.append(("Result", result_token(head)))
    tags += [("Rules", str(game["rules-version"])), ("Status", head["status"]),
             ("Started", head["date-start"])]
    if game["options"]:
        tags.append(("Options", " ".join(f"-{name}={value}"
                                         for name, value in game["options"].items())))
    if head["date-last-move"]:
        tags.append(("LastMove", head["date-last-move"]))
    if head["date-end"]:
        tags.append(("Ended", head["date-end"]))
    tags += [(f"{player['seat']}Rating", f"{player['rating']['before']} -> "
                                         f"{player['rating']['after']}")
             for player in head["players"] if "rating" in player]
    if "seed" in head:
        tags.append(("Seed", str(head["seed"])))
    return [f'[{name} "{pgn_quoted(value)}"]' for name, value in tags]


def pgn_quoted(value: str) -> str:
    """A tag's value as PGN writes it: backslash and quote escaped, on one line."""
    return " ".join(value.replace("\\", "\\\\").replace('"', '\\"').split())


def result_token(head: Record) -> str:
    """PGN's result: 1-0, 0-1, 1/2-1/2 (one figure per seat), or * while it runs."""
    if head["result"] is None:
        return "*"
    figures = {"win": "1", "loss": "0", "draw": "1/2"}
    return "-".join(figures[player["result"]] for player in head["players"])


def move_lines(data: Record, line_per_move: bool) -> list[str]:
    """The movetext. Moves flow as PGN's do; in games whose moves are long (Pipeline,
    Outguess: GameInfo.one_line_per_move) each starts a line of its own, naming its seat,
    and goes on under its text, as in the board mails' move lists."""
    head = data["header"]
    paragraphs: list[tuple[str, list[str]]] = [("", [])]
    for move in data["moves"]:
        unit = f"{move['number']}. {move['move']}" + (" (Auto)" if move["auto"] else "")
        if line_per_move:
            unit += f" ({move['seat']})"
            paragraphs.append((" " * len(f"{move['number']}. "), []))
        paragraphs[-1][1].extend([unit, *comment_words(move.get("comment"))])
    end = [*comment_words(head["result"]["reason"] if head["result"] else None),
           result_token(head)]
    if line_per_move or not data["moves"]:
        paragraphs.append(("", end))
    else:  # PGN's result closes the movetext
        paragraphs[-1][1].extend(end)
    return [line for indent, words in paragraphs for line in flow(words, indent)]


def comment_words(text: str | None) -> list[str]:
    """A comment in braces, as PGN has them: on one run of words, no brace inside (PGN
    ends a comment at the first closing brace)."""
    if not text:
        return []
    words = text.replace("{", "(").replace("}", ")").split()
    if not words:
        return []
    words[0], words[-1] = "{" + words[0], words[-1] + "}"
    return words


def flow(words: list[str], indent: str = "") -> list[str]:
    """`words` in lines of at most WIDTH columns, each kept whole where it fits on a line
    (a move's number stays with its text); the lines after the first are indented."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) <= WIDTH:
            line += " " + word
            continue
        if line:
            lines.append(line)
        # On a line of its own; one longer than a line (a long word in a comment) is cut
        # there, as nothing may pass WIDTH.
        pieces = textwrap.wrap(word, WIDTH, initial_indent=indent if lines else "",
                               subsequent_indent=indent, break_on_hyphens=False,
                               break_long_words=True)
        lines += pieces[:-1]
        line = pieces[-1] if pieces else ""
    if line:
        lines.append(line)
    return lines
