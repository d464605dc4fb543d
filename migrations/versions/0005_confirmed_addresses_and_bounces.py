"""confirmed addresses and bounces

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 15:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Addresses that exist already were given by their owners before confirmation existed:
    # they stay in use (confirmed), or players would stop getting their boards.
    with op.batch_alter_table('addresses', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirmed', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
        batch_op.add_column(sa.Column('confirm_token', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('confirm_sent_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('bounces', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('last_bounce_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('stopped', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.create_index('ix_addresses_confirm_token', ['confirm_token'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('addresses', schema=None) as batch_op:
        batch_op.drop_index('ix_addresses_confirm_token')
        batch_op.drop_column('stopped')
        batch_op.drop_column('last_bounce_at')
        batch_op.drop_column('bounces')
        batch_op.drop_column('confirm_sent_at')
        batch_op.drop_column('confirm_token')
        batch_op.drop_column('confirmed')
