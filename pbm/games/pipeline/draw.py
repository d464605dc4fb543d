"""ASCII drawings for Pipeline: the shared board, a pipe's course and the liquid in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pbm.games.pipeline.flow import COLUMNS, SIZE, Colour, Pipe, Reading, cell_at, liquid

LIQUID_MARK = {Reading.BLUE: "B", Reading.YELLOW: "Y", Reading.GREEN: "G", Reading.EMPTY: "o"}


def draw_board(head: str | None, tail: str | None, pawns: Mapping[str, Colour]) -> list[str]:
    """The 4x4 board: each square shows its coin (H or T) on the left, its pawn on the right."""
    rule = "    " + "+-----" * SIZE + "+"
    lines = ["       " + "     ".join(COLUMNS), rule]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            cell = cell_at(col, row)
            coin = "H" if cell == head else "T" if cell == tail else " "
            pawn = pawns[cell].value if cell in pawns else " "
            cells.append(f" {coin} {pawn} ")
        lines.append(f"{row + 1:>3} |" + "|".join(cells) + "|")
        lines.append(rule)
    return lines


def draw_course(path: Sequence[str], mark: Callable[[str], str]) -> list[str]:
    """A pipe's course on the grid: a mark on each of its squares, '.' off it.

    Links are drawn only between consecutive squares of the path, so a pipe that runs
    beside itself still reads unambiguously.
    """
    links = set(zip(path, path[1:])) | set(zip(path[1:], path))
    on_pipe = set(path)
    # The blank line puts each row level with the same row of draw_board beside it.
    lines = ["    " + "   ".join(COLUMNS), ""]
    for row in range(SIZE):
        text = f"{row + 1:>2}  "
        for col in range(SIZE):
            cell = cell_at(col, row)
            text += mark(cell) if cell in on_pipe else "."
            if col + 1 < SIZE:
                text += "---" if (cell, cell_at(col + 1, row)) in links else "   "
        lines.append(text.rstrip())
        if row + 1 < SIZE:
            below = "    " + "   ".join(
                "|" if (cell_at(col, row), cell_at(col, row + 1)) in links else " "
                for col in range(SIZE)
            )
            lines.append(below.rstrip())
    return lines


def draw_pipe(pipe: Pipe) -> list[str]:
    """The pipe with its head H, tail T and holes *; other pipe squares are o."""

    def mark(cell: str) -> str:
        if cell == pipe.head:
            return "H"
        if cell == pipe.tail:
            return "T"
        return "*" if cell in pipe.holes else "o"

    return draw_course(pipe.path, mark)


def draw_liquid(pipe: Pipe, pawns: Mapping[str, Colour]) -> list[str]:
    """The liquid in the pipe under a probe: B, Y or G where it flows, o where it is empty."""
    colours = liquid(pipe, pawns)
    return draw_course(pipe.path, lambda cell: LIQUID_MARK[colours[cell]])


def side_by_side(blocks: Sequence[Sequence[str]], gap: int = 5) -> list[str]:
    """Blocks of lines set next to each other, top aligned."""
    widths = [max((len(line) for line in block), default=0) for block in blocks]
    height = max(len(block) for block in blocks)
    lines = []
    for i in range(height):
        parts = [
            (block[i] if i < len(block) else "").ljust(width)
            for block, width in zip(blocks, widths)
        ]
        lines.append((" " * gap).join(parts).rstrip())
    return lines


def titled(title: str, block: Sequence[str]) -> list[str]:
    return [title, *block]
