"""mailbox marks: where IMAP intake started reading each mailbox

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 07:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'mailbox_marks',
        sa.Column('mailbox', sa.String(length=400), nullable=False),
        sa.Column('uidvalidity', sa.BigInteger(), nullable=False),
        sa.Column('first_uid', sa.BigInteger(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('mailbox', name=op.f('pk_mailbox_marks')),
    )


def downgrade() -> None:
    op.drop_table('mailbox_marks')
