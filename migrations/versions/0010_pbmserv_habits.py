"""submitted moves, total-time clocks

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 10:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A move sent with `submit`, waiting for `confirm`; and the time each seat has used on
    # its turns (seconds), which a total-time board (`--totaltime=N`) limits.
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('submitted', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('time_used', sa.Integer(), server_default='0',
                                      nullable=False))
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('total_days', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.drop_column('total_days')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('time_used')
        batch_op.drop_column('submitted')
