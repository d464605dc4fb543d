"""What a Pipeline viewer sees: the board, their own pipe, readings, guesses and the log."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.pipeline.draw import draw_board, draw_liquid, draw_pipe, side_by_side, titled
from pbm.games.pipeline.flow import Colour, Pipe, readings
from pbm.games.pipeline.state import (
    SEATS,
    GuessEntry,
    Phase,
    PipeReadings,
    State,
)
from pbm.games.text import and_list

PIPE_LEGEND = "Pipelines: H head, T tail, * hole, o pipe, . no pipe; liquid flows H to T."
BOARD_LEGEND = "Board: H head coin, T tail coin; B blue, Y yellow, W white pawn."


RECENT_PROBES = 10  # probes in the log of a board mail; `show` gives the whole log


def render_lines(state: State, viewer: Viewer, *, full: bool = False) -> list[str]:
    """Everything `viewer` may see: only their own pipeline until the game is over.

    The log ends at the last RECENT_PROBES probes unless `full`: a long game's board mail
    stays short.
    """
    shown = shown_pipes(state, viewer)
    blocks = [titled("Board", draw_board(state.head, state.tail, state.board))]
    for seat in shown:
        pipe = state.pipes[seat]
        assert pipe is not None
        blocks.append(titled(_pipe_title(seat, viewer), draw_pipe(pipe)))
    legends = [BOARD_LEGEND, PIPE_LEGEND] if shown else [BOARD_LEGEND]
    sections = [side_by_side(blocks), legends, _pipe_lines(state, viewer)]
    if state.phase in (Phase.PLAY, Phase.OVER):
        sections += [[_supply_line(state)], _now_lines(state), _guess_table(state)]
        sections.append(_log_lines(state, None if full else RECENT_PROBES))
    lines: list[str] = []
    for section in sections:
        if section:
            lines += ["", *section] if lines else list(section)
    return lines


def shown_pipes(state: State, viewer: Viewer) -> list[int]:
    """The seats whose pipeline `viewer` may see: their own, and both once the game is over."""
    over = state.phase is Phase.OVER
    return [seat for seat in (0, 1) if state.pipes[seat] is not None and (over or viewer == seat)]


def _pipe_title(seat: int, viewer: Viewer) -> str:
    return "Your pipeline" if seat == viewer else f"{SEATS[seat]}'s pipeline"


def _pipe_lines(state: State, viewer: Viewer) -> list[str]:
    if state.phase in (Phase.HEAD_COIN, Phase.TAIL_COIN):
        return []
    over = state.phase is Phase.OVER
    lines = []
    for seat, name in enumerate(SEATS):
        pipe = state.pipes[seat]
        label = f"Your pipeline ({name})" if seat == viewer else f"{name}'s pipeline"
        if pipe is not None and (over or seat == viewer):
            lines.append(f"{label}: {pipe.notation()}")
            lines.append(f"  with its holes on {and_list(pipe.sorted_holes())}.")
        elif pipe is None:
            lines.append(f"{label}: not sent yet.")
        elif state.phase is Phase.PIPES:
            lines.append(f"{label}: sent.")
        else:
            lines.append(f"{label}: secret until the game ends.")
    return lines


def _supply_line(state: State) -> str:
    left = state.supply()
    parts = [f"{left[c]} {c.word}" for c in (Colour.BLUE, Colour.YELLOW, Colour.WHITE)]
    return "Pawns off the board: " + ", ".join(parts) + "."


def readings_table(head_r: PipeReadings, tail_r: PipeReadings, first: str) -> list[str]:
    """One column per white pawn, one row per pipeline."""
    cells = [cell for cell, _ in head_r]
    lines = [f"{first:<24}" + "".join(f"{cell:<8}" for cell in cells)]
    for name, pipe in zip(SEATS, (head_r, tail_r)):
        row = f"  on {name}'s pipeline".ljust(24)
        lines.append((row + "".join(f"{r.value:<8}" for _, r in pipe)).rstrip())
    return [line.rstrip() for line in lines]


def _now_lines(state: State) -> list[str]:
    latest = state.last_readings()
    if latest is None or not latest[0]:
        return ["No white pawn is on the board yet, so nothing has been read."]
    return readings_table(*latest, first="White pawns now read:")


def _guess_table(state: State) -> list[str]:
    lines = ["        Wrong guesses   Probes owed before guessing"]
    for seat, name in enumerate(SEATS):
        lines.append(f"  {name:<6}{state.wrong[seat]:<16}{state.owed[seat]}")
    return lines


def _log_lines(state: State, recent: int | None) -> list[str]:
    """The log of probes and guesses: all of it, or from the `recent`th last probe on."""
    if not state.log:
        return ["No probes or guesses yet."]
    lines = ["Probes and guesses, with what the white pawns read on each pipeline:"]
    skipped = 0 if recent is None else _recent_start(state, recent)
    if skipped:
        lines.append(f"  (1-{skipped} not shown: 'pipeline show' with this board's number"
                     " lists them all)")
    for number, entry in enumerate(state.log[skipped:], start=skipped + 1):
        start = f"{number:>4}. {SEATS[entry.seat]:<5} "
        if isinstance(entry, GuessEntry):
            verdict = "right" if entry.right else "wrong"
            lines.append(f"{start}guess {','.join(entry.guess.cells)}  {verdict}")
            continue
        text = ",".join(step.notation() for step in entry.probe.steps)
        for i, (name, pipe) in enumerate(zip(SEATS, entry.readings)):
            found = "  ".join(f"{cell} {r.value:<6}" for cell, r in pipe) or "(no white pawn)"
            prefix = f"{start}{text:<11}" if i == 0 else " " * (len(start) + 11)
            lines.append(f"{prefix} {name}'s: {found}".rstrip())
    return lines


def _recent_start(state: State, probes: int) -> int:
    """Where in the log the last `probes` probes begin (the guesses among them kept)."""
    seen = 0
    for index in range(len(state.log) - 1, -1, -1):
        if not isinstance(state.log[index], GuessEntry):
            seen += 1
            if seen == probes:
                return index
    return 0


# ----- the help page's worked example ---------------------------------------------------------

EXAMPLE_PIPE = Pipe(
    ("A1", "A2", "A3", "B3", "B2", "C2", "C3", "D3", "D2", "D1"),
    frozenset({"B2", "C3", "D2"}),
)
EXAMPLE_PAWNS = {
    "A2": Colour.BLUE,
    "A3": Colour.YELLOW,
    "C4": Colour.YELLOW,
    "A1": Colour.WHITE,
    "A4": Colour.WHITE,
    "B2": Colour.WHITE,
    "C2": Colour.WHITE,
}


def help_figures() -> dict[str, str]:
    """The drawings for the help page's [[example]] and [[example-readings]] marks."""
    example = readings(EXAMPLE_PIPE, EXAMPLE_PAWNS)
    figures = side_by_side(
        [
            titled("Board", draw_board("A1", "D1", EXAMPLE_PAWNS)),
            titled("The pipeline", draw_pipe(EXAMPLE_PIPE)),
            titled("Its liquid", draw_liquid(EXAMPLE_PIPE, EXAMPLE_PAWNS)),
        ],
        gap=3,
    )
    table = [
        f"{'White pawn on':<16}" + "".join(f"{cell:<8}" for cell, _ in example),
        f"{'reads':<16}" + "".join(f"{r.value:<8}" for _, r in example),
    ]
    return {"example": "\n".join(figures), "example-readings": "\n".join(map(str.rstrip, table))}
