"""Room codes of 14 characters (at least 64 random bits), and each room's ``version_base``: the
versions of its earlier matches, so that the protocol's version counts on through a rematch.

A room stored before this revision keeps its six-character code and gets ``version_base`` 0
(its current match's versions are the room's). SQLite does not hold a ``VARCHAR`` to its
length, so its code columns are left as they are (rebuilding the ``rooms`` table would
cascade its deletion to the seats, rounds, actions and chat).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_CODES = (("rooms", "code"), ("seats", "room_code"), ("rounds", "room_code"), ("actions", "room_code"),
          ("chat", "room_code"))


def upgrade() -> None:
    op.add_column("rooms", sa.Column("version_base", sa.Integer, nullable=False, server_default="0"))
    if op.get_bind().dialect.name != "sqlite":
        for table, column in _CODES:
            op.alter_column(table, column, type_=sa.String(32), existing_type=sa.String(8),
                            existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        for table, column in _CODES:
            op.alter_column(table, column, type_=sa.String(8), existing_type=sa.String(32),
                            existing_nullable=False)
    op.drop_column("rooms", "version_base")
