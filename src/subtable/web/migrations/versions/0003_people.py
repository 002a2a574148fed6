"""People at the table: names, public tables, chat, turn-based tables.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("visibility", sa.String(8), nullable=True))
        batch.add_column(sa.Column("mode", sa.String(16), nullable=True))
        batch.add_column(sa.Column("turn_limit", sa.Float, nullable=True))
        batch.add_column(sa.Column("late", sa.String(8), nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
    op.create_index("ix_tables_lobby", "tables", ["visibility", "finished"])
    op.create_table(
        "player_names",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
    op.drop_table("player_names")
    op.drop_index("ix_tables_lobby", "tables")
    with op.batch_alter_table("tables") as batch:
        for name in ("deadline", "late", "turn_limit", "mode", "visibility"):
            batch.drop_column(name)
