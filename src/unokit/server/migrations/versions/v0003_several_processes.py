"""Several server processes on one database: each room's revision (``rev``, counted up by every
change of the room that another process must not overwrite), each seat's ``ready`` and
``away`` flags (kept in memory by one process before), the servers that are running
(``servers``, with the time of their last heartbeat) and which seats each has a connection
for (``presence``).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("rev", sa.Integer, nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("ready", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("seats", sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "servers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("server", sa.String(32), primary_key=True),
        sa.Column("room_code", sa.String(32), sa.ForeignKey("rooms.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("connections", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("presence")
    op.drop_table("servers")
    op.drop_column("seats", "away")
    op.drop_column("seats", "ready")
    op.drop_column("rooms", "rev")
