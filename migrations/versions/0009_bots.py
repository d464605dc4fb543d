"""bot users

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 02:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

# The bots' userids, weakest first (pbm/games/bots.py names them the same way). Written out
# here, not imported: a migration must do tomorrow what it did today.
BOTS = (("easybot", "easy"), ("goodbot", "good"), ("bestbot", "best"))


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot', sa.String(length=8), nullable=True))
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('userid', sa.String),
                     sa.column('password_hash', sa.String), sa.column('created_at', sa.DateTime),
                     sa.column('active', sa.Boolean), sa.column('wrong_passwords', sa.Integer),
                     sa.column('html', sa.Boolean), sa.column('bot', sa.String))
    connection = op.get_bind()
    taken = set(connection.scalars(sa.select(users.c.userid).where(
        users.c.userid.in_([userid for userid, _ in BOTS]))))
    # A person who already holds one of the names keeps it: that strength then has no bot
    # on this server (`pbm bots` says so), rather than an account taken from its owner.
    rows = [{"userid": userid, "password_hash": "!", "created_at": sa.func.current_timestamp(),
             "active": True, "wrong_passwords": 0, "html": False, "bot": strength}
            for userid, strength in BOTS if userid not in taken]
    for row in rows:
        # "!" is no argon2 hash: no password ever matches it, so nobody logs in as a bot.
        connection.execute(sa.insert(users).values(**row))


def downgrade() -> None:
    users = sa.table('users', sa.column('bot', sa.String))
    op.get_bind().execute(sa.delete(users).where(users.c.bot.is_not(None)))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('bot')
