"""Lines of Action: move a piece as far as its line holds pieces; join all yours to win.

The registry imports this package for GAME. Its modules: board (squares, lines and groups
as bit sets), moves (which moves are legal, and why one is not), game (the rule module and
its text board), picture (the board drawn in HTML) and help.txt (the help page).
"""

from pbm.games.loa.game import GAME

__all__ = ["GAME"]
