"""rate limits, password throttling, delivery claims

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 11:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'rate_counters',
        sa.Column('key', sa.String(length=400), nullable=False),
        sa.Column('window_start', sa.DateTime(), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('key', name=op.f('pk_rate_counters')),
    )
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('wrong_passwords', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('password_paused_until', sa.DateTime(), nullable=True))
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_by', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('claimed_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('maybe_sent', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('maybe_sent')
        batch_op.drop_column('claimed_at')
        batch_op.drop_column('claimed_by')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('password_paused_until')
        batch_op.drop_column('wrong_passwords')
    op.drop_table('rate_counters')
