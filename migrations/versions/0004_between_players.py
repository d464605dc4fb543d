"""between players: board numbers per game, votes, queued moves, spectators, end notices,
challenge policies

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 15:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('proposal', sa.JSON(), nullable=True))
    # Boards made before numbers per game keep the number their players know.
    op.execute("UPDATE boards SET number = id")
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.alter_column('number', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index('ix_boards_game_number', ['game', 'number'], unique=True)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('queued', sa.JSON(), nullable=True))
    with op.batch_alter_table('moves', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=16), nullable=False,
                                      server_default='move'))
        batch_op.add_column(sa.Column('auto', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.create_table(
        'subscriptions',
        sa.Column('board_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['board_id'], ['boards.id'],
                                name=op.f('fk_subscriptions_board_id_boards'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_subscriptions_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('board_id', 'user_id', name=op.f('pk_subscriptions')),
    )
    op.create_index('ix_subscriptions_user_id', 'subscriptions', ['user_id'], unique=False)
    op.create_table(
        'end_notices',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('board_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['board_id'], ['boards.id'],
                                name=op.f('fk_end_notices_board_id_boards'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_end_notices_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_end_notices')),
    )
    op.create_index('ix_end_notices_game_board', 'end_notices', ['game', 'board_id'],
                    unique=False)
    op.create_table(
        'challenge_policies',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('refuses', sa.Boolean(), nullable=False),
        sa.Column('board_limit', sa.Integer(), nullable=True),
        sa.Column('seeking', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_challenge_policies_user_id_users'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id', 'game', name=op.f('pk_challenge_policies')),
    )


def downgrade() -> None:
    op.drop_table('challenge_policies')
    op.drop_index('ix_end_notices_game_board', table_name='end_notices')
    op.drop_table('end_notices')
    op.drop_index('ix_subscriptions_user_id', table_name='subscriptions')
    op.drop_table('subscriptions')
    with op.batch_alter_table('moves', schema=None) as batch_op:
        batch_op.drop_column('auto')
        batch_op.drop_column('kind')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('queued')
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.drop_index('ix_boards_game_number')
        batch_op.drop_column('proposal')
        batch_op.drop_column('number')
