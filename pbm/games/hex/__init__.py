"""Hex (Piet Hein 1942, John Nash 1948): join your two opposite edges of a rhombus of hexagons.

The registry imports this package for GAME. Its modules: board (the rhombus of one size, its
neighbours and the union-find that finds a winning chain), rhombus (the board drawn as text,
each row half a cell right of the row above), game (the rule module and the help page's
positions), picture (the board in HTML) and help.txt (the help page).
"""

from pbm.games.hex.game import GAME, SEATS, Hex, HexState, Place, Swap

__all__ = ["GAME", "SEATS", "Hex", "HexState", "Place", "Swap"]
