"""Who opened a table (a digest of the address, for the caps per client) and why a table
closed before its game ended.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(32), nullable=True))
        batch.add_column(sa.Column("closed", sa.String(32), nullable=True))
    op.create_index("ix_tables_creator", "tables", ["creator", "finished"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("closed")
        batch.drop_column("creator")
