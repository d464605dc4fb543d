"""Rule modules (a module or subpackage per game), their shared toolkit, and the registry."""
