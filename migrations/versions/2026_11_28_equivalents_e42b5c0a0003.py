"""equivalents: links between part numbers (type, source, the shop for a shop's own) and a shop's rejections

Revision ID: e42b5c0a0003
Revises: e42b5c0a0001
Create Date: 2026-11-28 22:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e42b5c0a0003"
down_revision = "e42b5c0a0001"
branch_labels = None
depends_on = None

UNIQUE = ["source", "detail", "a_key", "b_key", "kind"]


def upgrade():
    op.create_table(
        "equivalent_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=True),
        sa.Column("a_key", sa.String(length=60), nullable=False),
        sa.Column("a_code", sa.String(length=60), nullable=False),
        sa.Column("a_brand", sa.String(length=80), nullable=True),
        sa.Column("b_key", sa.String(length=60), nullable=False),
        sa.Column("b_code", sa.String(length=60), nullable=False),
        sa.Column("b_brand", sa.String(length=80), nullable=True),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("source", sa.String(length=10), nullable=False),
        sa.Column("detail", sa.String(length=80), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('same', 'replaces', 'part_of')", name=op.f("ck_equivalent_link_kind")),
        sa.CheckConstraint(
            "source IN ('catalog', 'supplier', 'shelf', 'member')", name=op.f("ck_equivalent_link_source")
        ),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_equivalent_link_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_equivalent_link_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_equivalent_link")),
    )
    op.create_index("ix_equivalent_link_a_key", "equivalent_link", ["a_key"], unique=False)
    op.create_index("ix_equivalent_link_b_key", "equivalent_link", ["b_key"], unique=False)
    op.create_index(op.f("ix_equivalent_link_user_id"), "equivalent_link", ["user_id"], unique=False)
    # Nulls never compare equal in a unique index: one partial index per side of the nullable shop.
    shop_only = sa.text("shop_id IS NOT NULL")
    op.create_index(
        "uq_equivalent_link_shop",
        "equivalent_link",
        ["shop_id", *UNIQUE],
        unique=True,
        sqlite_where=shop_only,
        postgresql_where=shop_only,
    )
    global_only = sa.text("shop_id IS NULL")
    op.create_index(
        "uq_equivalent_link_global",
        "equivalent_link",
        UNIQUE,
        unique=True,
        sqlite_where=global_only,
        postgresql_where=global_only,
    )
    op.create_table(
        "equivalent_rejection",
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("a_key", sa.String(length=60), nullable=False),
        sa.Column("b_key", sa.String(length=60), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_equivalent_rejection_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_equivalent_rejection_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("shop_id", "a_key", "b_key", "kind", name=op.f("pk_equivalent_rejection")),
    )
    op.create_index(op.f("ix_equivalent_rejection_user_id"), "equivalent_rejection", ["user_id"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_equivalent_rejection_user_id"), table_name="equivalent_rejection")
    op.drop_table("equivalent_rejection")
    for name in ("uq_equivalent_link_global", "uq_equivalent_link_shop", "ix_equivalent_link_user_id"):
        op.drop_index(name, table_name="equivalent_link")
    op.drop_index("ix_equivalent_link_b_key", table_name="equivalent_link")
    op.drop_index("ix_equivalent_link_a_key", table_name="equivalent_link")
    op.drop_table("equivalent_link")
