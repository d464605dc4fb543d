"""The store: SQLAlchemy models, engine set-up and the schema revision check."""

# The Alembic revision the models correspond to. `pbm process` compares it with the
# database's alembic_version row instead of importing Alembic (a test keeps them equal).
SCHEMA_REVISION = "0014"
