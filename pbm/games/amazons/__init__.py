"""Amazons (Walter Zamkauskas, 1988): move an amazon like a queen, shoot an arrow; the
player who cannot move loses.

The registry imports this package for GAME. Its modules: board (the squares in a frame of
walls, their names and queen lines), moves (listing, counting and drawing moves), state
(the position and how a move changes it), notation (reading a move), checks (why a move
is illegal), view (the board as text), game (the rule module), bots (search budgets),
picture (the board drawn in HTML) and help.txt (the help page).
"""

from pbm.games.amazons.game import GAME

__all__ = ["GAME"]
