"""tournaments, and tournament boards' names

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 14:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A tournament's boards are named a101, a102, ... (pbmserv's letter prefix) and numbered
    # within the tournament: the number is unique per game and prefix ("" for the others).
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('prefix', sa.String(length=4), server_default=sa.text("''"),
                                      nullable=False))
        batch_op.drop_index('ix_boards_game_number')
        batch_op.create_index('ix_boards_game_prefix_number', ['game', 'prefix', 'number'],
                              unique=True)
    op.create_table(
        'tournaments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=32), nullable=False),
        sa.Column('prefix', sa.String(length=4), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('pool_size', sa.Integer(), nullable=False),
        sa.Column('nag_days', sa.Integer(), nullable=False),
        sa.Column('forfeit_days', sa.Integer(), nullable=False),
        sa.Column('organiser_id', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['organiser_id'], ['users.id'],
                                name=op.f('fk_tournaments_organiser_id_users'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments')),
    )
    op.create_index('ix_tournaments_game_name', 'tournaments', ['game', 'name'], unique=True)
    op.create_index('ix_tournaments_game_prefix', 'tournaments', ['game', 'prefix'],
                    unique=True)
    op.create_table(
        'tournament_entries',
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('joined_at', sa.DateTime(), nullable=False),
        sa.Column('rating', sa.Integer(), nullable=True),
        sa.Column('pool', sa.Integer(), nullable=True),
        sa.Column('withdrawn_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_entries_tournament_id_tournaments'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_tournament_entries_user_id_users')),
        sa.PrimaryKeyConstraint('tournament_id', 'user_id', name=op.f('pk_tournament_entries')),
    )
    op.create_table(
        'tournament_games',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('pool', sa.Integer(), server_default='0', nullable=False),
        sa.Column('board_id', sa.Integer(), nullable=True),
        sa.Column('seat0_id', sa.Integer(), nullable=False),
        sa.Column('seat1_id', sa.Integer(), nullable=True),
        sa.Column('outcome', sa.String(length=8), nullable=True),
        sa.Column('replay', sa.Integer(), server_default='0', nullable=False),
        sa.ForeignKeyConstraint(['board_id'], ['boards.id'],
                                name=op.f('fk_tournament_games_board_id_boards'),
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['seat0_id'], ['users.id'],
                                name=op.f('fk_tournament_games_seat0_id_users')),
        sa.ForeignKeyConstraint(['seat1_id'], ['users.id'],
                                name=op.f('fk_tournament_games_seat1_id_users')),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_games_tournament_id_tournaments'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_games')),
    )
    op.create_index('ix_tournament_games_tournament_round', 'tournament_games',
                    ['tournament_id', 'round'], unique=False)
    op.create_index('ix_tournament_games_board_id', 'tournament_games', ['board_id'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_tournament_games_board_id', table_name='tournament_games')
    op.drop_index('ix_tournament_games_tournament_round', table_name='tournament_games')
    op.drop_table('tournament_games')
    op.drop_table('tournament_entries')
    op.drop_index('ix_tournaments_game_prefix', table_name='tournaments')
    op.drop_index('ix_tournaments_game_name', table_name='tournaments')
    op.drop_table('tournaments')
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.drop_index('ix_boards_game_prefix_number')
        batch_op.create_index('ix_boards_game_number', ['game', 'number'], unique=True)
        batch_op.drop_column('prefix')
