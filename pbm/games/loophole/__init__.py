"""Loophole (Mark Steere, 2008): make two distinct loops through the board's three nodes.

The registry imports this package for GAME. Its modules: board (the hex geometry, windows,
rims and the incremental loop detection), rhombus (the board drawn as text, each row half a
cell right of the row above) and game (the rule module, the lines under the board and the
help page's positions).
"""

from pbm.games.loophole.game import GAME, SEATS, Loophole, LoopholeState, Placement

__all__ = ["GAME", "SEATS", "Loophole", "LoopholeState", "Placement"]
