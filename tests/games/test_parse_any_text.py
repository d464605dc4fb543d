"""Whatever a player mails as a move, every registered game answers with a player error.

`parse` of any text, from the start and from positions random playouts reach, raises
nothing but the contract's InvalidMove and IllegalMove: not a ValueError from int() of a
superscript digit that str.isdigit() let through ('A²'), not an IndexError, not an
AssertionError. The text comes from hypothesis, with Unicode digits of every kind (Nd such
as '٣', No such as '²' and '①'), letters, combining marks, spaces and control characters,
mixed into the game's own moves so it reaches deep into each parser."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove

GAMES = registry.names()
PLAYER_ERRORS = (InvalidMove, IllegalMove)

# Unicode digits, letters, marks, spaces and control characters: what a mail client, a
# phone keyboard or an attacker may put where a square's number belongs.
STRANGE = st.characters(categories=("Nd", "No", "Nl", "L", "M", "Z", "Cc"))
# The characters moves of the games are written with, so mixed texts stay close to moves.
MOVE_CHARS = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdxyz0123456789 -,:;@*#/+x")
# Characters that look like digits to str.isdigit() or re's \d but are not 0-9.
LOOKALIKE_DIGITS = st.sampled_from("²³¹⁰⁴⁹₂₃٣۴०߂൩๓①⑫⒈𝟐２")
# A number too long for int(): Python refuses to convert more than 4300 digits.
LONG_NUMBER = st.integers(4290, 4400).map(lambda digits: "1" * digits)


@cache
def positions(name: str) -> tuple[tuple[Any, int], ...]:
    """The start and positions random playouts reach, with each seat to move in them."""
    game = registry.get(name)
    found = []
    for seed in range(4):
        rng = random.Random(seed)
        state = game.start(game.parse_options([]), seed)
        for depth in range(60):
            if game.result(state) is not None:
                break
            if depth in (0, 1, 2, 3, 5, 8, 13, 21, 34) or (seed == 0 and depth < 8):
                found += [(state, seat) for seat in sorted(game.to_move(state))]
            seat = rng.choice(sorted(game.to_move(state)))
            state = game.play(state, seat, game.random_move(state, seat, rng))
    return tuple(found)


@cache
def legal_texts(name: str, index: int) -> tuple[str, ...]:
    """A few legal moves at position `index`, as players write them."""
    game = registry.get(name)
    state, seat = positions(name)[index]
    rng = random.Random(index)
    texts = {game.notation(game.random_move(state, seat, rng)) for _ in range(8)}
    return tuple(sorted(texts))


@st.composite
def mutated(draw: st.DrawFn, name: str, index: int) -> str:
    """A legal move with characters inserted or replaced: 'A2' -> 'A²', 'A2' -> 'A11...1'."""
    text = draw(st.sampled_from(legal_texts(name, index)))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        char = draw(st.one_of(LOOKALIKE_DIGITS, STRANGE, MOVE_CHARS, LONG_NUMBER))
        keep = draw(st.integers(0, 1))  # 0: replace the character there, 1: insert
        text = text[:where] + char + text[where + 1 - keep:]
    return text


def any_text(name: str, index: int) -> st.SearchStrategy[str]:
    return st.one_of(
        mutated(name, index),
        st.text(st.one_of(MOVE_CHARS, LOOKALIKE_DIGITS, STRANGE), max_size=30),
        st.text(STRANGE, max_size=12),
        st.builds("{}{}".format, st.sampled_from(["guess ", "guess", ""]),
                  st.text(st.one_of(MOVE_CHARS, LOOKALIKE_DIGITS), max_size=20)),
    )


@st.composite
def position_and_text(draw: st.DrawFn, name: str) -> tuple[int, str]:
    index = draw(st.integers(0, len(positions(name)) - 1))
    return index, draw(any_text(name, index))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_parse_of_any_text_raises_only_player_errors(name: str, data: st.DataObject) -> None:
    game = registry.get(name)
    index, text = data.draw(position_and_text(name))
    state, seat = positions(name)[index]
    try:
        game.parse(state, seat, text)
    except PLAYER_ERRORS as refusal:
        assert str(refusal).strip(), "a refusal says what was wrong"


@pytest.mark.parametrize(("name", "text"), [
    ("loophole", "A²"), ("trou", "1A²"), ("synapse-ice", "A²:1N"), ("outguess", "a²"),
    ("pipeline", "A²"), ("pipeline", "A³"), ("pipeline", "B①"),
])
def test_superscript_digits_are_not_squares(name: str, text: str) -> None:
    """The hole as reported: a superscript digit passes str.isdigit() but is no number."""
    game = registry.get(name)
    for state, seat in positions(name)[:4]:
        with pytest.raises(PLAYER_ERRORS):
            game.parse(state, seat, text)


@pytest.mark.parametrize(("phase", "text", "square"), [
    (0, "A²", "A²"), (1, "D³", "D³"), (-1, "B²-A1,C4-B1", "B²"), (-1, "A1-B2,C³-B1", "C³"),
    (-1, "B@C³,W@A1", "C³"), (-1, "guess A2,B³,C4", "B³"),
])
def test_pipeline_says_which_text_is_not_a_square(phase: int, text: str, square: str) -> None:
    """Coins, probes and guesses: the refusal names the text, fit to mail back."""
    game = registry.get("pipeline")
    state = game.start({}, 0)
    if phase == 1:
        state = game.play(state, 0, game.parse(state, 0, "A1"))
    elif phase == -1:
        for seat, move in ((0, "A1"), (1, "D4"), (0, "A1-A2*-A3*-A4*-B4-C4-D4"),
                           (1, "A1-B1*-C1*-D1*-D2-D3-D4")):
            state = game.play(state, seat, game.parse(state, seat, move))
    seat = min(game.to_move(state))
    with pytest.raises(InvalidMove, match=f"'{square}' is not a square"):
        game.parse(state, seat, text)
