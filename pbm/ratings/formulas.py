"""pbmserv's rating formulas for one two-player game, as pure integer functions.

Everyone starts at START and is provisional until PROVISIONAL_GAMES finished games. A
provisional player's rating is a running average of "performance" values; an established
player's moves Elo-style with K = 32.
"""

from __future__ import annotations

import math

START = 1600
PROVISIONAL_GAMES = 20
K = 32

WIN, TIE, LOSS = 1, 0, -1


def is_provisional(games: int) -> bool:
    """Whether a player with this many finished games (won + lost + tied) is provisional."""
    return games < PROVISIONAL_GAMES


def c_div(a: int, b: int) -> int:
    """Integer division truncating toward zero, as C does (Python's // floors: -7 // 2 is -4,
    C gives -3). pbmserv is C, and its ratings depend on it for ratings above 1720."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def new_rating(r1: int, g1: int, r2: int, g2: int, outcome: int) -> int:
    """The player's rating after a game: r1, g1 their rating and finished games before it,
    r2, g2 the opponent's, outcome WIN, TIE or LOSS for the player.

    Provisional player (g1 < 20), all in C integer arithmetic:
        value = (r1 + r2) / 2 + 200 * outcome   against a provisional opponent
                r2 + 400 * outcome              against an established one
        new = (r1 * g1 + value) / (g1 + 1) + (1720 - r1) / 5
    Established player:
        K = 32, times g2 / 20 against a provisional opponent; w = 1, 0.5, 0
        new = r1 + trunc(K * (w - 1 / (1 + 10 ** ((r2 - r1) / 400))))
    pbmserv's text does not say which divisions of the established formula are integer
    ones; the expected score is a fraction by nature, so here every division inside is a
    real one (g2 / 20 too) and only the change is truncated toward zero, once, at the end.
    """
    if outcome not in (WIN, TIE, LOSS):
        raise ValueError(f"outcome must be 1, 0 or -1, not {outcome}")
    if is_provisional(g1):
        if is_provisional(g2):
            value = c_div(r1 + r2, 2) + 200 * outcome
        else:
            value = r2 + 400 * outcome
        return c_div(r1 * g1 + value, g1 + 1) + c_div(1720 - r1, 5)
    k = K * g2 / PROVISIONAL_GAMES if is_provisional(g2) else K
    score = (outcome + 1) / 2
    expected = 1 / (1 + 10 ** ((r2 - r1) / 400))
    return r1 + math.trunc(k * (score - expected))


def rate_game(first: tuple[int, int], second: tuple[int, int], outcome: int) -> tuple[int, int]:
    """Both players' new ratings, each computed from the (rating, games) before the game;
    `outcome` is the first player's."""
    (r1, g1), (r2, g2) = first, second
    return new_rating(r1, g1, r2, g2, outcome), new_rating(r2, g2, r1, g1, -outcome)
