"""Boards in the store: their positions, playing on them, and choosing which to look at."""
