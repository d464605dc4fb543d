"""ladders: a standing ranking per game, and its challenges' boards

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 15:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'ladder_rungs',
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('joined_at', sa.DateTime(), nullable=False),
        sa.Column('wins', sa.Integer(), server_default='0', nullable=False),
        sa.Column('losses', sa.Integer(), server_default='0', nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_ladder_rungs_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game', 'user_id', name=op.f('pk_ladder_rungs')),
    )
    # Not unique: a win moves several ranks by one in one UPDATE (see the model).
    op.create_index('ix_ladder_rungs_game_rank', 'ladder_rungs', ['game', 'rank'], unique=False)
    op.create_table(
        'ladder_games',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('board_id', sa.Integer(), nullable=True),
        sa.Column('challenger_id', sa.Integer(), nullable=False),
        sa.Column('challenged_id', sa.Integer(), nullable=False),
        sa.Column('outcome', sa.String(length=8), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['board_id'], ['boards.id'],
                                name=op.f('fk_ladder_games_board_id_boards'),
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['challenged_id'], ['users.id'],
                                name=op.f('fk_ladder_games_challenged_id_users'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['challenger_id'], ['users.id'],
                                name=op.f('fk_ladder_games_challenger_id_users'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_ladder_games')),
    )
    op.create_index('ix_ladder_games_board_id', 'ladder_games', ['board_id'], unique=False)
    op.create_index('ix_ladder_games_game_outcome', 'ladder_games', ['game', 'outcome'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_ladder_games_game_outcome', table_name='ladder_games')
    op.drop_index('ix_ladder_games_board_id', table_name='ladder_games')
    op.drop_table('ladder_games')
    op.drop_index('ix_ladder_rungs_game_rank', table_name='ladder_rungs')
    op.drop_table('ladder_rungs')
