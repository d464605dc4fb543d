"""recent moves kept with the board

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 23:50:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Left empty (NULL): a board's next move reads the log once and keeps the list from then on.
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('recent_moves', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.drop_column('recent_moves')
