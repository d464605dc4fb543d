"""the clock (nag, forfeit, vacation) and ratings

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 14:00:00
"""
from datetime import timedelta

from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('vacation_until', sa.DateTime(), nullable=True))
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('nag_days', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('forfeit_days', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('rating_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('rating_changes', sa.JSON(), nullable=True))
        batch_op.create_index('ix_boards_rating_seq', ['rating_seq'], unique=True)
        batch_op.drop_index('ix_boards_game_status')
        batch_op.create_index('ix_boards_game_status_finished',
                              ['game', 'status', 'finished_at'], unique=False)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('waiting_since', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('nags', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('first_nag_wait', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('last_nag_wait', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('next_check_at', sa.DateTime(), nullable=True))
        batch_op.create_index('ix_seats_next_check_at', ['next_check_at'], unique=False)
    op.create_table(
        'vacations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('starts_at', sa.DateTime(), nullable=False),
        sa.Column('ends_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_vacations_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_vacations')),
    )
    op.create_index('ix_vacations_user_id', 'vacations', ['user_id'], unique=False)
    op.create_table(
        'ratings',
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('rating', sa.Integer(), nullable=False),
        sa.Column('won', sa.Integer(), nullable=False),
        sa.Column('lost', sa.Integer(), nullable=False),
        sa.Column('tied', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_ratings_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game', 'user_id', name=op.f('pk_ratings')),
    )
    _start_clocks()
    _rate_finished_games()


def _rate_finished_games() -> None:
    """Games that ended before ratings existed are rated now, in the order they ended, as
    they would have been (`pbm ratings rebuild` replays the same order)."""
    import json

    from pbm.ratings.record import apply, fresh

    conn = op.get_bind()
    finished = conn.execute(sa.text(
        "SELECT id, game, winners FROM boards WHERE status = 'finished' "
        "ORDER BY finished_at, id")).all()
    records = {}
    seq = 0
    for number, game, winners in finished:
        players = list(conn.execute(sa.text(
            "SELECT user_id FROM seats WHERE board_id = :b ORDER BY position"),
            {"b": number}).scalars())
        if len(players) != 2:
            continue
        if isinstance(winners, str):
            winners = json.loads(winners)
        rows = [records.setdefault((game, user), fresh(game, user)) for user in players]
        changes = apply(rows, winners or [])
        seq += 1
        conn.execute(sa.text("UPDATE boards SET rating_seq = :seq, rating_changes = :changes "
                             "WHERE id = :b"),
                     {"seq": seq, "changes": json.dumps(changes), "b": number})
    for row in records.values():
        conn.execute(sa.text(
            "INSERT INTO ratings (game, user_id, rating, won, lost, tied) "
            "VALUES (:game, :user_id, :rating, :won, :lost, :tied)"),
            {"game": row.game, "user_id": row.user_id, "rating": row.rating, "won": row.won,
             "lost": row.lost, "tied": row.tied})


def _start_clocks() -> None:
    """Games in progress: the clock of each player to move starts from the board's last
    move (or its start). Housekeeping looks at each a day later and schedules the rest."""
    from pbm.games import registry

    conn = op.get_bind()
    boards = conn.execute(sa.text(
        "SELECT id, game, state, updated_at FROM boards WHERE status = 'active'")).all()
    for number, game_name, state, updated_at in boards:
        since = _as_datetime(updated_at)
        try:
            game = registry.get(game_name)
            decoded = game.decode(state if not isinstance(state, str) else _json(state))
            movers = sorted(game.to_move(decoded))
        except Exception:  # a game no longer installed: every seat waits, checked later
            movers = [row[0] for row in conn.execute(sa.text(
                "SELECT position FROM seats WHERE board_id = :b"), {"b": number})]
        for seat in movers:
            conn.execute(sa.text(
                "UPDATE seats SET waiting_since = :since, next_check_at = :check "
                "WHERE board_id = :b AND position = :p"),
                {"since": since, "check": since + timedelta(days=1), "b": number, "p": seat})


def _json(text):
    import json
    return json.loads(text)


def _as_datetime(value):
    from datetime import datetime
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def downgrade() -> None:
    op.drop_table('ratings')
    op.drop_index('ix_vacations_user_id', table_name='vacations')
    op.drop_table('vacations')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index('ix_seats_next_check_at')
        batch_op.drop_column('next_check_at')
        batch_op.drop_column('last_nag_wait')
        batch_op.drop_column('first_nag_wait')
        batch_op.drop_column('nags')
        batch_op.drop_column('waiting_since')
    with op.batch_alter_table('boards', schema=None) as batch_op:
        batch_op.drop_index('ix_boards_game_status_finished')
        batch_op.create_index('ix_boards_game_status', ['game', 'status'], unique=False)
        batch_op.drop_index('ix_boards_rating_seq')
        batch_op.drop_column('rating_changes')
        batch_op.drop_column('rating_seq')
        batch_op.drop_column('forfeit_days')
        batch_op.drop_column('nag_days')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('vacation_until')
