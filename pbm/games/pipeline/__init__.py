"""Pipeline: find the three holes in the opponent's secret pipeline by probing it with liquid.

The registry imports this package for GAME. Its modules, from the bottom up: flow (squares,
pipes, liquid), state (moves and the game state), draw (ASCII drawings), view (what each
viewer sees) and game (the rule module: reading, checking and playing moves).
"""

from pbm.games.pipeline.flow import Colour, Pipe, Reading
from pbm.games.pipeline.game import GAME, Pipeline
from pbm.games.pipeline.state import (
    Guess,
    Move,
    Phase,
    PlaceCoin,
    Probe,
    State,
    Step,
    SubmitPipe,
)

__all__ = [
    "GAME",
    "Colour",
    "Guess",
    "Move",
    "Phase",
    "Pipe",
    "Pipeline",
    "PlaceCoin",
    "Probe",
    "Reading",
    "State",
    "Step",
    "SubmitPipe",
]
