"""Who made each room: the creator's address key (``limits.address_key``), so that every
process counts the open rooms of one address (``--rooms-per-address``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_rooms_creator", "rooms", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_rooms_creator", "rooms")
    op.drop_column("rooms", "creator")
