"""Rule modules, one per game, and the registry that finds them by name or alias."""
