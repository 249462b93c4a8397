"""The rooms: settings, seats, each game's record (rounds and actions), position and chat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("store_format", sa.Integer, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("host", sa.Integer, nullable=True),
        sa.Column("closed_reason", sa.String(32), nullable=True),
        sa.Column("game_no", sa.Integer, nullable=False, server_default="0"),
        sa.Column("record_head", sa.Text, nullable=True),
        sa.Column("position", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("declined", sa.Text, nullable=False, server_default="[]"),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column("room_code", sa.String(8), sa.ForeignKey("rooms.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "rounds",
        sa.Column("room_code", sa.String(8), sa.ForeignKey("rooms.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("round_index", sa.Integer, primary_key=True),
        sa.Column("deal", sa.Text, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("room_code", sa.String(8), sa.ForeignKey("rooms.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("round_index", sa.Integer, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("line", sa.String(32), nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_code", sa.String(8), sa.ForeignKey("rooms.code", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("time", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_room", "chat", ["room_code", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_room", "chat")
    op.drop_table("chat")
    op.drop_table("actions")
    op.drop_table("rounds")
    op.drop_table("seats")
    op.drop_index("ix_rooms_status", "rooms")
    op.drop_table("rooms")
