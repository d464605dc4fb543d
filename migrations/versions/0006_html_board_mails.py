"""html board mails

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 17:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Everyone, old accounts too, gets the drawn board until they ask for plain text.
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('html', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('html')
