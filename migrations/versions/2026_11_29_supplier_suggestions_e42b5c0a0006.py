"""supplier suggestions: a known number close to one a supplier's line states, for a manager to confirm or reject

Revision ID: e42b5c0a0006
Revises: e42b5c0a0005
Create Date: 2026-11-29 02:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e42b5c0a0006"
down_revision = "e42b5c0a0005"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "supplier_suggestion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("supplier_id", sa.Integer(), nullable=False),
        sa.Column("own_code", sa.String(length=60), nullable=False),
        sa.Column("line_key", sa.String(length=60), nullable=False),
        sa.Column("number_key", sa.String(length=60), nullable=False),
        sa.Column("candidate_key", sa.String(length=60), nullable=False),
        sa.Column("reason", sa.String(length=14), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=9), nullable=False),
        sa.Column("decided_by", sa.Uuid(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('pending', 'confirmed', 'rejected')", name=op.f("ck_supplier_suggestion_status")
        ),
        sa.CheckConstraint("reason IN ('similar_number', 'brand_hint')", name=op.f("ck_supplier_suggestion_reason")),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_supplier_suggestion_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["supplier_id"],
            ["supplier.id"],
            name=op.f("fk_supplier_suggestion_supplier_id_supplier"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"], ["user.id"], name=op.f("fk_supplier_suggestion_decided_by_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_supplier_suggestion")),
        sa.UniqueConstraint(
            "supplier_id", "line_key", "candidate_key", name="uq_supplier_suggestion_supplier_id_line_key_candidate_key"
        ),
    )
    op.create_index(op.f("ix_supplier_suggestion_shop_id"), "supplier_suggestion", ["shop_id"], unique=False)
    op.create_index(op.f("ix_supplier_suggestion_supplier_id"), "supplier_suggestion", ["supplier_id"], unique=False)
    op.create_index(op.f("ix_supplier_suggestion_decided_by"), "supplier_suggestion", ["decided_by"], unique=False)


def downgrade():
    op.drop_table("supplier_suggestion")
