"""Trou: place pawns 1-4 on a 3x3 grid under parity rules; fewest pawns beside the hole wins.

The registry imports this package for GAME. Its modules: game (the rule module and its text
board), picture (the board drawn in HTML) and help.txt (the help page).
"""

from pbm.games.trou.game import GAME

__all__ = ["GAME"]
