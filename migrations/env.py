"""Alembic environment: runs migrations on the connection pbm.db.migrate hands over."""

from alembic import context

from pbm.db.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("pbm migrations run through `pbm db upgrade`, not the alembic CLI")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things; batch mode copies tables
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run()
