"""outbox message ids

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 20:00:00
"""
import re

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

# Our own header block: the Message-ID line compose.py wrote (no body text is looked at).
MESSAGE_ID = re.compile(rb"^Message-ID: (<[^\r\n<>]{1,500}>)\r?$", re.I | re.M)
CHUNK = 500


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message_id', sa.String(length=512), nullable=True))
        batch_op.create_index('ix_outbox_message_id', ['message_id'], unique=False)
    # Mail sent before: its id from its headers, so a bounce of it still counts.
    outbox = sa.table('outbox', sa.column('id', sa.Integer), sa.column('raw', sa.LargeBinary),
                      sa.column('message_id', sa.String))
    conn = op.get_bind()
    last = 0
    while True:
        rows = conn.execute(
            sa.select(outbox.c.id, sa.func.substr(outbox.c.raw, 1, 8192))
            .where(outbox.c.id > last).order_by(outbox.c.id).limit(CHUNK)).all()
        if not rows:
            break
        last = rows[-1][0]
        found = []
        for ident, head in rows:
            header = bytes(head or b"").split(b"\r\n\r\n", 1)[0]
            match = MESSAGE_ID.search(header)
            if match:
                found.append({"ident": ident, "found": match.group(1).decode("ascii", "replace")})
        if found:
            conn.execute(outbox.update().where(outbox.c.id == sa.bindparam("ident"))
                         .values(message_id=sa.bindparam("found")), found)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_message_id')
        batch_op.drop_column('message_id')
