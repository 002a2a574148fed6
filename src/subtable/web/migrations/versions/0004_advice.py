"""Learn and analyse: whether a table allows advice, each time it was asked, and where the
finished game turned (computed once, kept).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("advice", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("turning", sa.JSON, nullable=True))
    op.create_table(
        "advice_asked",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("advice_asked")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turning")
        batch.drop_column("advice")
