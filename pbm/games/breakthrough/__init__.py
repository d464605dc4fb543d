"""Breakthrough: two rows of pieces race forward; first to the far row, or to take all, wins.

The registry imports this package for GAME. Its modules: board (squares, position, playing a
move), moves (the legal ones), notation (writing and reading moves), checks (why a move is
refused), drawing (the text board), game (the rule module), picture (the board in HTML) and
help.txt (the help page).
"""

from pbm.games.breakthrough.game import GAME

__all__ = ["GAME"]
