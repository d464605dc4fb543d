"""A tournament as its mails show it: the standings in pbmserv's pool table, then every
round's pairings with their boards and results."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.boards import rounds
from pbm.db.models import Board, Tournament, TournamentGame
from pbm.db.statuses import TournamentStatus
from pbm.games import registry
from pbm.tournaments.standings import Standing, Tiebreak, standings
from pbm.tournaments.table import number, table
from pbm.views.boardhtml import table_document
from pbm.width import fit

FORMAT_NAMES = {rounds.ROUND_ROBIN: "round robin", rounds.SWISS: "Swiss",
                rounds.KNOCKOUT: "knockout"}


def tiebreak_of(t: Tournament) -> Tiebreak:
    return Tiebreak.SONNEBORN_BERGER if t.format == rounds.ROUND_ROBIN else Tiebreak.BUCHHOLZ


def heading(t: Tournament) -> str:
    title = registry.get(t.game).info.title
    kind = FORMAT_NAMES[t.format]
    if t.status == TournamentStatus.OPEN:
        where = f"open: {len(t.entries)} joined"
    elif t.status == TournamentStatus.RUNNING:
        where = f"round {t.round}"
        if t.format != rounds.KNOCKOUT:
            where += f" of {rounds.last_round(t)}"
    else:
        where = t.status.value
    return f"{title} tournament {t.name} ({kind}, boards {t.prefix}101...): {where}"


def tournament_text(session: Session, t: Tournament) -> str:
    st = rounds.standing(session, t)
    lines = [heading(t), ""]
    if t.status == TournamentStatus.OPEN:
        names = " ".join(sorted(e.user.userid for e in t.entries)) or "(nobody yet)"
        lines += [fit(f"Players: {names}"), "",
                  f"Join: {t.game} tournament join {t.name} userid password"]
        return "\n".join(lines) + "\n"
    lines.append(pool_table(st, t))
    champion = rounds.champion(t, st)
    if champion:
        lines += ["", f"Winner: {champion}"]
    withdrawn = sorted(e.user.userid for e in t.entries if e.withdrawn_at is not None)
    if withdrawn:
        lines += ["", fit("Withdrawn: " + " ".join(withdrawn))]
    labels = _labels(session, st.games)
    for played in sorted({g.round for g in st.games}):
        lines += ["", f"Round {played}:"]
        lines += [_pairing_line(g, st.userids, labels) for g in st.games if g.round == played]
    return "\n".join(lines) + "\n"


def pool_table(st: rounds.Standing, t: Tournament) -> str:
    """pbmserv's pool table of a started tournament: `Pool Name W L [T]` and the tie-break,
    each pool sorted by 2W+T (pools named by the tournament's letter: A1, A2, ...)."""
    return table(pool_rows(st, t), tiebreak_of(t)).rstrip()


def pool_cells(st: rounds.Standing, t: Tournament) -> tuple[list[str], list[list[str]]]:
    """The same table as headings and rows of cells, for the drawn (HTML) table."""
    pools = pool_rows(st, t)
    ties = any(row.ties for rows in pools.values() for row in rows)
    headings = ["Pool", "Name", "W", "L", *(["T"] if ties else []), tiebreak_of(t).value]
    cells = [[label, row.userid, str(row.wins), str(row.losses),
              *([str(row.ties)] if ties else []), number(row.tiebreak(tiebreak_of(t)))]
             for label, rows in pools.items() for row in rows]
    return headings, cells


def pool_rows(st: rounds.Standing, t: Tournament) -> dict[str, list[Standing]]:
    pools: dict[str, list[Standing]] = {}
    ratings = rounds.ratings_at_start(t)
    done = rounds.results(st)
    for pool in sorted({e.pool or 0 for e in t.entries}):
        members = {e.user.userid: ratings[e.user.userid] for e in t.entries
                   if (e.pool or 0) == pool}
        mine = [r for r in done if set(r.players()) <= set(members)]
        pools[f"{t.prefix.upper()}{pool + 1}"] = standings(mine, members, tiebreak_of(t))
    return pools


def running(session: Session, game: str, most: int = 5) -> list[Tournament]:
    """The game's running tournaments, the newest `most`."""
    return list(session.scalars(select(Tournament).where(
        Tournament.game == game, Tournament.status == TournamentStatus.RUNNING)
        .order_by(Tournament.started_at.desc()).limit(most)))


def running_tables(session: Session, tournaments: list[Tournament]) -> str:
    """The pool tables of running tournaments, as pbmserv's standings mail ended; "" when
    none runs."""
    return "\n\n".join(f"{heading(t)}\n\n{pool_table(rounds.standing(session, t), t)}"
                        for t in tournaments)


def _labels(session: Session, games: list[TournamentGame]) -> dict[int, str]:
    ids = [g.board_id for g in games if g.board_id is not None]
    if not ids:
        return {}
    return {board_id: f"{prefix}{number}" for board_id, prefix, number in session.execute(
        select(Board.id, Board.prefix, Board.number).where(Board.id.in_(ids)))}


def _pairing_line(game: TournamentGame, userids: dict[int, str], labels: dict[int, str]) -> str:
    white = userids[game.seat0_id]
    if game.seat1_id is None:
        return f"  {'':6} {white:<16} bye"
    black = userids[game.seat1_id]
    board = labels.get(game.board_id or -1, "-")
    outcome = game.outcome
    if outcome is None:
        result = "playing"
    elif outcome == rounds.DRAW:
        result = "draw"
    elif outcome == rounds.BOTH_LOST:
        result = "lost by both (withdrawn)"
    else:
        winner = (white, black)[int(outcome[0])]
        result = f"{winner} won" + (" (forfeit)" if outcome.endswith(rounds.WALKOVER) else "")
    replay = " (replay)" if game.replay else ""
    return f"  {board:<6} {white:<16} - {black:<16} {result}{replay}".rstrip()


LIST_HEADINGS = ["Name", "Format", "Boards", "Status", "Players"]
LIST_FIGURES = (4,)  # the players' count, right-aligned in the drawn table


def status_cell(t: Tournament) -> str:
    """Where a tournament stands, in a few letters: open, round 2/5 (a knockout: round 2),
    finished, cancelled."""
    if t.status != TournamentStatus.RUNNING:
        return t.status.value
    if t.format == rounds.KNOCKOUT:
        return f"round {t.round}"
    return f"round {t.round}/{rounds.last_round(t)}"


def list_cells(found: list[Tournament]) -> list[list[str]]:
    """`GAME tournaments` as rows of cells: name, format, boards, status, players."""
    return [[t.name, FORMAT_NAMES[t.format], f"{t.prefix}101", status_cell(t),
             str(len(t.entries))] for t in found]


def list_text(title: str, game: str, found: list[Tournament]) -> str:
    """The game's tournaments as a text table: a name has at most 32 letters, so a row
    fits 76 columns (32 + 11 + 6 + 11 + 7 and the gaps)."""
    if not found:
        return (f"No {title} tournaments yet. Create one: {game} "
                "tournament create NAME userid password [-format=swiss]\n")
    rows = [LIST_HEADINGS, *list_cells(found)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(LIST_HEADINGS))]
    lines = [f"{title} tournaments, newest first:", ""]
    lines += ["  ".join([*(cell.ljust(width) for cell, width in zip(row[:-1], widths)),
                         row[-1].rjust(widths[-1])]) for row in rows]
    return "\n".join([*lines, "", _list_note(game)]) + "\n"


def list_html(title: str, game: str, found: list[Tournament], text: str) -> str | None:
    """The list's HTML part: the same rows as a drawn table (None when there is none)."""
    if not found:
        return None
    return table_document(text.split("\n", 1)[0], [(LIST_HEADINGS, list_cells(found))],
                          _list_note(game), figures=LIST_FIGURES)


def _list_note(game: str) -> str:
    return f"Standings and pairings: {game} tournament show NAME"


def tournament_html(session: Session, t: Tournament, text: str) -> str | None:
    """The HTML part of a tournament's mail: its `text` with the pool table drawn (None
    before it starts: there is no table yet)."""
    if t.status == TournamentStatus.OPEN:
        return None
    head, _, rest = text.partition("\n\n")
    after_table = rest.split("\n\n", 1)[1] if "\n\n" in rest else ""
    return table_document(head, [pool_cells(rounds.standing(session, t), t)], after_table)
