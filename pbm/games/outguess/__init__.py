"""Outguess: make your moves while the opponent secretly guesses which piece you will move.

The registry imports this package for GAME. Its modules: notation (reading and spelling
move lines) and game (the rule module: checking a whole line, playing it, showing it).
"""

from pbm.games.outguess.game import GAME, SEATS, Outguess, OutguessState
from pbm.games.outguess.notation import Drop, Step, Turn

__all__ = ["GAME", "SEATS", "Drop", "Outguess", "OutguessState", "Step", "Turn"]
