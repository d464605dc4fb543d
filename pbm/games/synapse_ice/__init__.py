"""Synapse-Ice: lay Icehouse pieces that point where the next one must go; who is stuck loses.

The registry imports this package for GAME. Its modules: game (the rule module and its text
board), picture (the board drawn in HTML) and help.txt (the help page).
"""

from pbm.games.synapse_ice.game import GAME

__all__ = ["GAME"]
