"""Alembic migration scripts, shipped inside the package as pbm.migrations."""
