"""Reversi (Lewis Waterman and John W. Mollett, London, 1880s), by the World Othello
Federation's rules: outflank the other colour's discs to turn them over; most discs wins.

The registry imports this package for GAME. Its modules: board (the 8x8 bitboards and
outflanking), state (the position), words (the text board and the score in words), game
(the rule module), picture (the board drawn in HTML) and help.txt (the help page).
"""

from pbm.games.reversi.game import GAME, Reversi
from pbm.games.reversi.state import PASS, SEATS, ReversiState

__all__ = ["GAME", "PASS", "SEATS", "Reversi", "ReversiState"]
