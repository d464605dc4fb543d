"""Ratings per game: the formulas, recording finished games, and rebuilding from scratch."""
