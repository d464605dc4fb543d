"""Battleship: place a secret fleet of five ships, then shoot in turn until one fleet is sunk.

The registry imports this package for GAME. Its modules, from the bottom up: fleet (cells,
ships, placements), state (moves and the game state), notation (reading moves from mail),
seats (what each seat knows, and fleets that agree with it), view (the text board), bots
(hunt and target, shots by the odds) and game (the rule module); picture draws the board
in HTML and help.txt is the help page.
"""

from pbm.games.battleship.game import GAME

__all__ = ["GAME"]
