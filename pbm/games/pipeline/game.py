"""Pipeline's rule module: reading and checking moves, playing them, storing the state."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from pbm.games.base import (
    Game,
    GameInfo,
    IllegalMove,
    InvalidMove,
    Outcome,
    UserError,
    Viewer,
)
from pbm.games.pipeline.bots import BOTS
from pbm.games.pipeline.flow import (
    CELLS,
    HOLES,
    PAWN_COUNTS,
    Colour,
    Pipe,
    Reading,
    all_paths,
    check_pipe,
    parse_cell,
    random_pipe,
    readings,
)
from pbm.games.pipeline.seats import PipelineView, sample_state, seat_view
from pbm.games.pipeline.state import (
    SEATS,
    Entry,
    Guess,
    GuessEntry,
    Move,
    Phase,
    PlaceCoin,
    Probe,
    ProbeEntry,
    State,
    Step,
    SubmitPipe,
    set_seat,
)
from pbm.games.pipeline.view import help_figures, render_lines
from pbm.games.text import and_list, number_word, plural

PIPE_EXAMPLE = "B2-B3*-C3*-D3-D4*-C4"
PIPE_HELP = (
    "Write your pipeline as every square from the head coin to the tail coin joined by '-', "
    f"with '*' after each of the {HOLES} holes, e.g. {PIPE_EXAMPLE} (head B2, tail C4)."
)
PROBE_HELP = (
    "Write a probe as two pawn moves joined by a comma, e.g. B@C3,W@A1 (a blue and a white "
    "pawn from the supply) or C3-D3,Y@A2 (the pawn on C3 to D3); or guess with guess A2,B3,C4."
)
GUESS_HELP = "A guess names three squares, e.g. guess A2,B3,C4."
# The prompt's examples, where they are legal; else it offers moves that are.
PROBE_EXAMPLE = "B@C3,W@A1"
GUESS_EXAMPLE = ("A2", "B3", "C4")
# Random playouts guess now and then; see random_move for why they may peek.
GUESS_CHANCE = 0.2
LUCKY_CHANCE = 0.35


# ----- reading moves -------------------------------------------------------------------------


def _parse_coin(state: State, text: str) -> PlaceCoin:
    coin = "head" if state.head is None else "tail"
    cell = parse_cell(text)
    if cell is None:
        advice = (f"Place the {coin} coin by naming one square, e.g. C4; "
                  "the board runs from A1 to D4.")
        raise InvalidMove(f"'{text}' is not a square. {advice}" if text else advice)
    if cell == state.head:
        raise IllegalMove(
            f"The head coin is already on {cell}; put the tail coin on another square."
        )
    return PlaceCoin(cell)


def _parse_pipe(state: State, seat: int, text: str) -> SubmitPipe:
    if state.pipes[seat] is not None:
        raise IllegalMove("You have already sent your pipeline; it cannot be changed.")
    if "@" in text or re.match(r"guess\b", text, re.IGNORECASE):
        raise IllegalMove(
            "Probes and guesses start once both pipelines are in; first send your own. "
            + PIPE_HELP
        )
    if not text:
        raise InvalidMove(PIPE_HELP)
    if "," in text:
        raise InvalidMove(f"Join the squares of your pipeline with '-', not ','. {PIPE_HELP}")
    squares, holes = _pipe_squares(text)
    if len(squares) < 2:
        raise InvalidMove(f"A pipeline is a path of squares, not a single square. {PIPE_HELP}")
    assert state.head is not None and state.tail is not None
    return SubmitPipe(check_pipe(state.head, state.tail, squares, holes))


def _pipe_squares(text: str) -> tuple[list[str], list[str]]:
    """The squares of a written pipeline in order, and those marked as holes."""
    squares: list[str] = []
    holes: list[str] = []
    for token in text.split("-"):
        if not token.strip():
            raise InvalidMove(f"Your pipeline has an empty step between two '-'. {PIPE_HELP}")
        match = re.fullmatch(r"\s*([A-Za-z]\d+)\s*(\*?)\s*", token)
        cell = parse_cell(match.group(1)) if match else None
        if match is None or cell is None:
            raise InvalidMove(f"'{token.strip()}' is not a square from A1 to D4. {PIPE_HELP}")
        squares.append(cell)
        if match.group(2):
            holes.append(cell)
    return squares, holes


RawStep = tuple[Colour | None, str | None, str]


def _parse_step(text: str) -> RawStep:
    placed = re.fullmatch(r"\s*([A-Za-z])\s*@\s*(\w+)\s*", text)
    moved = re.fullmatch(r"\s*(\w+)\s*-\s*(\w+)\s*", text)
    if placed:
        letter = placed.group(1).upper()
        colour = next((c for c in Colour if c.value == letter), None)
        if colour is None:
            raise InvalidMove(
                f"'{placed.group(1)}' is no pawn colour: the pawns are B (blue), Y (yellow) "
                "and W (white), e.g. B@C3."
            )
        return colour, None, _square(placed.group(2))
    if moved:
        return None, _square(moved.group(1)), _square(moved.group(2))
    raise InvalidMove(f"'{text.strip()}' is not a pawn move. {PROBE_HELP}")


def _square(text: str) -> str:
    cell = parse_cell(text)
    if cell is None:
        raise InvalidMove(f"'{text}' is not a square: the board runs from A1 to D4.")
    return cell


def _parse_probe(state: State, text: str) -> Probe:
    parts = text.split(",")
    if len(parts) != 2:
        raise InvalidMove(f"A probe moves exactly two pawns. {PROBE_HELP}")
    return check_probe(state, [_parse_step(part) for part in parts])


def check_probe(state: State, raw: Sequence[RawStep]) -> Probe:
    """The probe these two pawn moves make, or IllegalMove naming what the rules forbid."""
    board = state.board
    steps = [_resolve(board, colour, source, target) for colour, source, target in raw]
    first, second = steps
    if first.source is not None and first.source == second.source:
        raise IllegalMove(
            f"Both moves take the pawn on {first.source}; a probe moves two different pawns."
        )
    _check_supply(state, steps)
    for step in steps:
        if step.source == step.target:
            raise IllegalMove(
                f"The pawn on {step.source} would end where it started; "
                "each pawn must go to a new square."
            )
    if first.target == second.target:
        raise IllegalMove(f"Both pawns would end on {first.target}; a square holds one pawn.")
    leaving = {step.source for step in steps}
    for step in steps:
        if step.target in board and step.target not in leaving:
            raise IllegalMove(
                f"{step.target} already holds a {board[step.target].word} pawn; "
                "a square holds one pawn."
            )
    if _after(board, steps) == board:
        a, b = sorted((first.target, second.target))
        raise IllegalMove(
            f"Swapping the two {first.colour.word} pawns on {a} and {b} leaves the board as it "
            "was; a probe must change the colours on the board."
        )
    return Probe((first, second))


def _resolve(
    board: Mapping[str, Colour], colour: Colour | None, source: str | None, target: str
) -> Step:
    if source is None:
        assert colour is not None
        return Step(colour, None, target)
    if source not in board:
        raise IllegalMove(f"There is no pawn on {source} to move.")
    return Step(board[source], source, target)


def _check_supply(state: State, steps: Sequence[Step]) -> None:
    wanted = Counter(step.colour for step in steps if step.source is None)
    left = state.supply()
    for colour, count in wanted.items():
        if left[colour] >= count:
            continue
        total = PAWN_COUNTS[colour]
        if left[colour] == 0:
            everyone = "Both" if total == 2 else f"All {number_word(total)}"
            raise IllegalMove(
                f"{everyone} {colour.word} pawns are already on the board; move one from its "
                "square instead (e.g. C3-D3)."
            )
        raise IllegalMove(
            f"Only {number_word(left[colour])} {colour.word} pawn is off the board, "
            "so you cannot place two."
        )


def _after(board: Mapping[str, Colour], steps: Sequence[Step]) -> dict[str, Colour]:
    after = dict(board)
    for step in steps:
        if step.source is not None:
            del after[step.source]
    for step in steps:
        after[step.target] = step.colour
    return after


def _parse_guess(state: State, seat: int, text: str) -> Guess:
    words = [word for word in re.split(r"[,\s]+", text.strip()) if word]
    if len(words) != HOLES:
        raise InvalidMove(GUESS_HELP)
    cells = [_square(word) for word in words]
    owed = state.owed[seat]
    if owed:
        raise IllegalMove(
            f"You still owe {plural(owed, 'probe')} since your last wrong guess; "
            "probe before you guess again."
        )
    for cell in cells:
        if cells.count(cell) > 1:
            raise IllegalMove(f"You named {cell} twice; a guess names three different squares.")
        if cell in (state.head, state.tail):
            coin = "head" if cell == state.head else "tail"
            raise IllegalMove(
                f"{cell} holds the {coin} coin, and a hole is never on the head or tail; "
                "guess three other squares."
            )
    return Guess(tuple(sorted(cells)))


# ----- the game ------------------------------------------------------------------------------


class Pipeline(Game[State, Move]):
    """The rule module; stateless, one instance registered as GAME."""

    info = GameInfo(
        name="pipeline",
        title="Pipeline",
        seats=SEATS,
        rules_version=1,
        hidden=True,
        one_line_per_move=True,
        summary="Find the holes in the other player's secret pipeline by pouring in liquid.",
    )

    def start(self, options: dict[str, Any], seed: int) -> State:
        return State()

    def to_move(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase is Phase.HEAD_COIN:
            return frozenset({0})
        if phase is Phase.TAIL_COIN:
            return frozenset({1})
        if phase is Phase.PIPES:
            return frozenset(seat for seat in (0, 1) if state.pipes[seat] is None)
        if phase is Phase.PLAY:
            return frozenset({state.turn})
        return frozenset()

    def parse(self, state: State, seat: int, text: str) -> Move:
        text = text.strip()
        phase = state.phase
        if phase is Phase.OVER:
            raise IllegalMove("This game is over.")
        if phase in (Phase.HEAD_COIN, Phase.TAIL_COIN):
            return _parse_coin(state, text)
        if phase is Phase.PIPES:
            return _parse_pipe(state, seat, text)
        if seat != state.turn:
            raise IllegalMove(f"It is {SEATS[state.turn]}'s turn, not yours.")
        if re.match(r"guess\b", text, re.IGNORECASE):
            return _parse_guess(state, seat, text[len("guess") :])
        return _parse_probe(state, text)

    def play(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, PlaceCoin):
            if state.head is None:
                return replace(state, head=move.cell)
            return replace(state, tail=move.cell)
        if isinstance(move, SubmitPipe):
            return replace(state, pipes=set_seat(state.pipes, seat, move.pipe), turn=0)
        if isinstance(move, Probe):
            return self._play_probe(state, seat, move)
        return self._play_guess(state, seat, move)

    @staticmethod
    def _play_probe(state: State, seat: int, probe: Probe) -> State:
        board = _after(state.board, probe.steps)
        head_pipe, tail_pipe = state.pipes
        assert head_pipe is not None and tail_pipe is not None
        entry = ProbeEntry(seat, probe, (readings(head_pipe, board), readings(tail_pipe, board)))
        return replace(
            state,
            pawns=tuple(sorted(board.items())),
            owed=set_seat(state.owed, seat, max(0, state.owed[seat] - 1)),
            log=(*state.log, entry),
            turn=1 - seat,
        )

    @staticmethod
    def _play_guess(state: State, seat: int, guess: Guess) -> State:
        target = state.pipes[1 - seat]
        assert target is not None
        right = frozenset(guess.cells) == target.holes
        state = replace(state, log=(*state.log, GuessEntry(seat, guess, right)), turn=1 - seat)
        if right:
            return replace(state, winner=seat)
        wrong = state.wrong[seat] + 1
        # The cooldown: as many probes of your own as you have wrong guesses so far.
        return replace(
            state, wrong=set_seat(state.wrong, seat, wrong), owed=set_seat(state.owed, seat, wrong)
        )

    def notation(self, move: Move) -> str:
        if isinstance(move, PlaceCoin):
            return move.cell
        if isinstance(move, SubmitPipe):
            return move.pipe.notation()
        if isinstance(move, Probe):
            return ",".join(step.notation() for step in move.steps)
        return "guess " + ",".join(move.cells)

    def move_text(self, state: State, seat: int, move: Move, viewer: Viewer) -> str:
        if isinstance(move, SubmitPipe) and viewer != seat:
            return "..."
        return self.notation(move)

    def conclude(self, state: State, outcome: Outcome) -> State:
        return replace(state, concluded=True)

    def result(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        found = state.pipes[1 - state.winner]
        assert found is not None
        holes = and_list(found.sorted_holes())
        return Outcome(
            frozenset({state.winner}),
            f"{SEATS[state.winner]} found {SEATS[1 - state.winner]}'s holes at {holes}.",
        )

    def prompt(self, state: State, seat: int) -> str | None:
        phase = state.phase
        if phase is Phase.HEAD_COIN:
            return "Place the head coin: send any square, e.g. B2."
        if phase is Phase.TAIL_COIN:
            example = "C4" if state.head != "C4" else "B2"
            return f"Place the tail coin on any square but {state.head}, e.g. {example}."
        if phase is Phase.PIPES:
            route = f"from {state.head} to {state.tail}"
            return f"Send your secret pipeline {route}, {HOLES} holes marked '*'."
        if phase is Phase.PLAY:
            probe = self._example_probe(state)
            owed = state.owed[seat]
            if owed:
                owing = f"you owe {plural(owed, 'probe')} before guessing"
                return f"Probe two pawns (e.g. {probe}); {owing}."
            assert state.head is not None and state.tail is not None
            guess = "guess " + ",".join(example_guess(state.head, state.tail))
            return f"Probe two pawns (e.g. {probe}) or guess the holes ({guess})."
        return None

    def _example_probe(self, state: State) -> str:
        """A probe the player could send now (once every pawn is out, none comes from the
        supply): PROBE_EXAMPLE when it is legal, else the first that is."""
        try:
            return self.notation(_parse_probe(state, PROBE_EXAMPLE))
        except UserError:
            # Some probe is always legal: 8 pawns leave 8 of the 16 squares free.
            return self.notation(next(_all_probes(state)))

    # ----- moves for tests and playouts ----------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> Iterator[Move]:
        phase = state.phase
        if phase in (Phase.HEAD_COIN, Phase.TAIL_COIN):
            yield from (PlaceCoin(cell) for cell in CELLS if cell != state.head)
        elif phase is Phase.PIPES and state.pipes[seat] is None:
            assert state.head is not None and state.tail is not None
            for path in all_paths(state.head, state.tail):
                for holes in combinations(path[1:-1], HOLES):
                    yield SubmitPipe(Pipe(path, frozenset(holes)))
        elif phase is Phase.PLAY and seat == state.turn:
            yield from _all_probes(state)
            if not state.owed[seat]:
                squares = sorted(_guessable(state))
                yield from (Guess(cells) for cells in combinations(squares, HOLES))

    def random_move(self, state: State, seat: int, rng: random.Random) -> Move:
        """A random legal move, quickly; for playouts and tests only, never a fair opponent.

        Random guesses alone would almost never hit (364 possible sets, and the cooldown
        grows with every miss), so playouts would not end. A guess therefore names the true
        holes now and then: this peeks at the opponent's pipeline and must not drive a bot.
        """
        phase = state.phase
        if phase in (Phase.HEAD_COIN, Phase.TAIL_COIN):
            return PlaceCoin(rng.choice([cell for cell in CELLS if cell != state.head]))
        assert state.head is not None and state.tail is not None
        if phase is Phase.PIPES:
            return SubmitPipe(random_pipe(state.head, state.tail, rng))
        if not state.owed[seat] and rng.random() < GUESS_CHANCE:
            target = state.pipes[1 - seat]
            assert target is not None
            if rng.random() < LUCKY_CHANCE:
                return Guess(tuple(target.sorted_holes()))
            return Guess(tuple(sorted(rng.sample(_guessable(state), HOLES))))
        return _random_probe(state, rng)

    # ----- bots ----------------------------------------------------------------------------

    def seat_view(self, state: State, seat: int) -> PipelineView:
        """The coins, the seat's own pipeline, the pawns and the public log with its
        readings on both pipelines; the opponent's pipeline only once the game is over."""
        return seat_view(state, seat)

    def sample_state(self, view: PipelineView, seat: int, rng: random.Random) -> State:
        """The opponent's pipeline drawn uniformly among all that read as every probe read
        and are none of the seat's wrong guesses (all of them are enumerated)."""
        return sample_state(view, rng)

    def own_bots(self) -> Mapping[str, Any]:
        """Deduction over the consistent pipelines (pipeline/bots.py) as good and best."""
        return BOTS

    # ----- storing -------------------------------------------------------------------------

    def encode(self, state: State) -> Any:
        return {
            "head": state.head,
            "tail": state.tail,
            "pipes": [None if pipe is None else pipe.notation() for pipe in state.pipes],
            "pawns": {cell: colour.value for cell, colour in state.pawns},
            "turn": state.turn,
            "wrong": list(state.wrong),
            "owed": list(state.owed),
            "log": [_encode_entry(entry) for entry in state.log],
            "winner": state.winner,
            "concluded": state.concluded,
        }

    def decode(self, data: Any) -> State:
        pipes = [None if text is None else _pipe_from_notation(text) for text in data["pipes"]]
        return State(
            head=data["head"],
            tail=data["tail"],
            pipes=(pipes[0], pipes[1]),
            pawns=tuple(sorted((cell, Colour(v)) for cell, v in data["pawns"].items())),
            turn=data["turn"],
            wrong=(data["wrong"][0], data["wrong"][1]),
            owed=(data["owed"][0], data["owed"][1]),
            log=tuple(_decode_entry(item) for item in data["log"]),
            winner=data["winner"],
            concluded=data.get("concluded", False),
        )

    # ----- showing -------------------------------------------------------------------------

    def render(self, state: State, viewer: Viewer) -> str:
        return "\n".join(render_lines(state, viewer)) + "\n"

    def render_full(self, state: State, viewer: Viewer) -> str:
        return "\n".join(render_lines(state, viewer, full=True)) + "\n"

    def help_figures(self) -> dict[str, str]:
        return help_figures()


def _guessable(state: State) -> list[str]:
    return [cell for cell in CELLS if cell not in (state.head, state.tail)]


def example_guess(head: str, tail: str) -> tuple[str, ...]:
    """The prompt's example guess, chosen by the coins alone (so it tells nothing):
    GUESS_EXAMPLE unless a coin lies on one of its squares."""
    if head in GUESS_EXAMPLE or tail in GUESS_EXAMPLE:
        return tuple(cell for cell in CELLS if cell not in (head, tail))[:HOLES]
    return GUESS_EXAMPLE


def _pawn_sources(state: State) -> list[tuple[Colour, str | None]]:
    """Every pawn that may move: one entry per pawn, the supply's pawns included."""
    pawns: list[tuple[Colour, str | None]] = [(c, cell) for cell, c in state.pawns]
    for colour, left in sorted(state.supply().items(), key=lambda item: item[0].value):
        pawns.extend([(colour, None)] * left)
    return pawns


def _all_probes(state: State) -> Iterator[Probe]:
    # Pawns of one colour in the supply are interchangeable: list each kind of pawn once,
    # and pair a kind with itself only when two of it wait in the supply.
    kinds = sorted(set(_pawn_sources(state)), key=lambda k: (k[0].value, k[1] or ""))
    left = state.supply()
    for i, (ca, sa) in enumerate(kinds):
        for cb, sb in kinds[i:]:
            same = (ca, sa) == (cb, sb)
            if same and (sa is not None or left[ca] < 2):
                continue
            for ta in CELLS:
                for tb in CELLS:
                    if same and ta >= tb:
                        continue
                    try:
                        yield check_probe(state, [(ca, sa, ta), (cb, sb, tb)])
                    except IllegalMove:
                        continue


def _random_probe(state: State, rng: random.Random) -> Probe:
    pawns = _pawn_sources(state)
    while True:
        (ca, sa), (cb, sb) = rng.sample(pawns, 2)
        raw = [(ca, sa, rng.choice(CELLS)), (cb, sb, rng.choice(CELLS))]
        try:
            return check_probe(state, raw)
        except IllegalMove:
            continue


def _pipe_from_notation(text: str) -> Pipe:
    tokens = text.split("-")
    return Pipe(
        tuple(token.rstrip("*") for token in tokens),
        frozenset(token.rstrip("*") for token in tokens if token.endswith("*")),
    )


def _encode_entry(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, GuessEntry):
        return {"seat": entry.seat, "guess": list(entry.guess.cells), "right": entry.right}
    return {
        "seat": entry.seat,
        "probe": [[s.colour.value, s.source, s.target] for s in entry.probe.steps],
        "readings": [[[cell, r.value] for cell, r in pipe] for pipe in entry.readings],
    }


def _decode_entry(item: dict[str, Any]) -> Entry:
    if "guess" in item:
        return GuessEntry(item["seat"], Guess(tuple(item["guess"])), item["right"])
    a, b = (Step(Colour(c), source, target) for c, source, target in item["probe"])
    head_r, tail_r = (
        tuple((cell, Reading(value)) for cell, value in pipe) for pipe in item["readings"]
    )
    return ProbeEntry(item["seat"], Probe((a, b)), (head_r, tail_r))


GAME = Pipeline()
