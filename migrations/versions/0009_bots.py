"""bot users

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 02:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The bots' accounts are made when first challenged (accounts/bots.py), not here: an
    # empty database stays empty (`pbm db copy` needs one), and a person who already holds
    # a bot's userid keeps it.
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('bot')
