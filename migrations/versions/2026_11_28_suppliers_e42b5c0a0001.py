"""suppliers: a shop's distributors, their terms and brand discounts, their price lists (imports, private uploads,
the list in use, the remembered mapping) and the numbers each line answers to

Revision ID: e42b5c0a0001
Revises: e42b5c0a0002
Create Date: 2026-11-28 22:05:32.491406

"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = "e42b5c0a0001"
down_revision = "e42b5c0a0002"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "supplier",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("discount_percent", sa.Numeric(precision=5, scale=2), nullable=False),
        sa.Column("delivery_promise", sa.String(length=200), nullable=True),
        sa.Column("order_cutoff", sa.String(length=5), nullable=True),
        sa.Column("order_email", sa.String(length=254), nullable=True),
        sa.Column("source", sa.String(length=6), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=True),
        sa.Column("auth_kind", sa.String(length=5), nullable=False),
        sa.Column("auth_user", sa.String(length=200), nullable=True),
        sa.Column("auth_header", sa.String(length=100), nullable=True),
        sa.Column("auth_secret", sa.Text(), nullable=True),
        sa.Column("pull_interval_minutes", sa.Integer(), nullable=True),
        sa.Column("last_refreshed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_pull_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_pull_error", sa.String(length=300), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("auth_kind IN ('none', 'basic', 'token')", name=op.f("ck_supplier_auth_kind")),
        sa.CheckConstraint("source IN ('upload', 'url')", name=op.f("ck_supplier_source")),
        sa.ForeignKeyConstraint(["shop_id"], ["shop.id"], name=op.f("fk_supplier_shop_id_shop"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], name=op.f("fk_supplier_user_id_user"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_supplier")),
        sa.UniqueConstraint("shop_id", "name", name="uq_supplier_shop_id_name"),
    )
    with op.batch_alter_table("supplier", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_supplier_shop_id"), ["shop_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_supplier_user_id"), ["user_id"], unique=False)

    op.create_table(
        "supplier_brand_discount",
        sa.Column("supplier_id", sa.Integer(), nullable=False),
        sa.Column("brand_key", sa.String(length=80), nullable=False),
        sa.Column("brand", sa.String(length=80), nullable=False),
        sa.Column("discount_percent", sa.Numeric(precision=5, scale=2), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["supplier_id"],
            ["supplier.id"],
            name=op.f("fk_supplier_brand_discount_supplier_id_supplier"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_supplier_brand_discount_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("supplier_id", "brand_key", name=op.f("pk_supplier_brand_discount")),
    )
    with op.batch_alter_table("supplier_brand_discount", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_supplier_brand_discount_user_id"), ["user_id"], unique=False)

    op.create_table(
        "supplier_import",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("supplier_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("origin", sa.String(length=6), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("file_kind", sa.String(length=5), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("mapping", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=True),
        sa.Column("rows_total", sa.Integer(), nullable=False),
        sa.Column("rows_done", sa.Integer(), nullable=False),
        sa.Column("rows_imported", sa.Integer(), nullable=False),
        sa.Column("rows_failed", sa.Integer(), nullable=False),
        sa.Column("errors", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("message", sa.String(length=300), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("origin IN ('upload', 'pull')", name=op.f("ck_supplier_import_origin")),
        sa.CheckConstraint(
            "status IN ('uploaded', 'importing', 'done', 'failed')", name=op.f("ck_supplier_import_status")
        ),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_supplier_import_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["supplier_id"], ["supplier.id"], name=op.f("fk_supplier_import_supplier_id_supplier"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_supplier_import_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_supplier_import")),
    )
    with op.batch_alter_table("supplier_import", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_supplier_import_shop_id"), ["shop_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_supplier_import_supplier_id"), ["supplier_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_supplier_import_user_id"), ["user_id"], unique=False)
        batch_op.create_index(
            "uq_supplier_import_one_importing_per_supplier",
            ["supplier_id"],
            unique=True,
            sqlite_where=sa.text("status = 'importing'"),
            postgresql_where=sa.text("status = 'importing'"),
        )

    op.create_table(
        "supplier_mapping",
        sa.Column("supplier_id", sa.Integer(), nullable=False),
        sa.Column("mapping", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["supplier_id"], ["supplier.id"], name=op.f("fk_supplier_mapping_supplier_id_supplier"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_supplier_mapping_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("supplier_id", name=op.f("pk_supplier_mapping")),
    )
    with op.batch_alter_table("supplier_mapping", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_supplier_mapping_user_id"), ["user_id"], unique=False)

    op.create_table(
        "supplier_active",
        sa.Column("supplier_id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("activated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["import_id"],
            ["supplier_import.id"],
            name=op.f("fk_supplier_active_import_id_supplier_import"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_supplier_active_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["supplier_id"], ["supplier.id"], name=op.f("fk_supplier_active_supplier_id_supplier"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("supplier_id", name=op.f("pk_supplier_active")),
    )
    with op.batch_alter_table("supplier_active", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_supplier_active_shop_id"), ["shop_id"], unique=False)

    op.create_table(
        "supplier_line",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("own_code", sa.String(length=60), nullable=True),
        sa.Column("brand", sa.String(length=80), nullable=True),
        sa.Column("name", sa.String(length=300), nullable=True),
        sa.Column("price", sa.Numeric(precision=14, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("stock", sa.Integer(), nullable=True),
        sa.Column("stock_text", sa.String(length=40), nullable=True),
        sa.Column("ean", sa.String(length=20), nullable=True),
        sa.Column("oem_code", sa.String(length=60), nullable=True),
        sa.Column("oe_text", sa.String(length=1000), nullable=True),
        sa.ForeignKeyConstraint(
            ["import_id"],
            ["supplier_import.id"],
            name=op.f("fk_supplier_line_import_id_supplier_import"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_supplier_line")),
    )
    with op.batch_alter_table("supplier_line", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_supplier_line_import_id"), ["import_id"], unique=False)

    op.create_table(
        "supplier_upload",
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["import_id"],
            ["supplier_import.id"],
            name=op.f("fk_supplier_upload_import_id_supplier_import"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("import_id", name=op.f("pk_supplier_upload")),
    )
    op.create_table(
        "supplier_number",
        sa.Column("line_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=5), nullable=False),
        sa.Column("key", sa.String(length=60), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.CheckConstraint("kind IN ('own', 'oem', 'oe', 'ean')", name=op.f("ck_supplier_number_kind")),
        sa.ForeignKeyConstraint(
            ["import_id"],
            ["supplier_import.id"],
            name=op.f("fk_supplier_number_import_id_supplier_import"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["line_id"], ["supplier_line.id"], name=op.f("fk_supplier_number_line_id_supplier_line"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("line_id", "kind", "key", name=op.f("pk_supplier_number")),
    )
    with op.batch_alter_table("supplier_number", schema=None) as batch_op:
        batch_op.create_index("ix_supplier_number_import_id_key", ["import_id", "key"], unique=False)


TABLES = (
    "supplier_number",
    "supplier_upload",
    "supplier_line",
    "supplier_active",
    "supplier_mapping",
    "supplier_import",
    "supplier_brand_discount",
    "supplier",
)


def downgrade():
    for table in TABLES:  # a table's indexes go with it
        op.drop_table(table)
