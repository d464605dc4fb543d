"""seekers' waits

Revision ID: 0011
Revises: 0010
Create Date: 2027-01-10 10:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Since when a seeker has waited for an opponent: automatic pairing offers a bot to one
    # who has waited longer than `bots.seek_wait_hours` (NULL: not waiting).
    with op.batch_alter_table('challenge_policies', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seeking_since', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('challenge_policies', schema=None) as batch_op:
        batch_op.drop_column('seeking_since')
