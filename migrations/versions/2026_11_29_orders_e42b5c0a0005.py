"""orders: a shop's orders to its suppliers and their lines, and the files an outbox message carries

Revision ID: e42b5c0a0005
Revises: e42b5c0a0004
Create Date: 2026-11-29 02:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e42b5c0a0005"
down_revision = "e42b5c0a0004"
branch_labels = None
depends_on = None

OPEN_ONLY = "status = 'open'"


def upgrade():
    op.create_table(
        "email_attachment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["outbox_id"],
            ["email_outbox.id"],
            name=op.f("fk_email_attachment_outbox_id_email_outbox"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_attachment")),
    )
    op.create_index(op.f("ix_email_attachment_outbox_id"), "email_attachment", ["outbox_id"], unique=False)
    op.create_table(
        "supplier_order",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("supplier_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("created_by", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_to", sa.String(length=254), nullable=True),
        sa.Column("ordered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("arrived_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('open', 'sent', 'ordered', 'arrived')", name=op.f("ck_supplier_order_status")),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_supplier_order_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["supplier_id"], ["supplier.id"], name=op.f("fk_supplier_order_supplier_id_supplier"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["created_by"], ["user.id"], name=op.f("fk_supplier_order_created_by_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_supplier_order")),
    )
    op.create_index(op.f("ix_supplier_order_shop_id"), "supplier_order", ["shop_id"], unique=False)
    op.create_index(op.f("ix_supplier_order_supplier_id"), "supplier_order", ["supplier_id"], unique=False)
    op.create_index(op.f("ix_supplier_order_created_by"), "supplier_order", ["created_by"], unique=False)
    op.create_index(
        "uq_supplier_order_open",
        "supplier_order",
        ["shop_id", "supplier_id"],
        unique=True,
        sqlite_where=sa.text(OPEN_ONLY),
        postgresql_where=sa.text(OPEN_ONLY),
    )
    op.create_table(
        "supplier_order_line",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("order_id", sa.Integer(), nullable=False),
        sa.Column("quote_line_id", sa.Integer(), nullable=True),
        sa.Column("quote_id", sa.Integer(), nullable=True),
        sa.Column("oem_code", sa.String(length=60), nullable=True),
        sa.Column("offer_code", sa.String(length=80), nullable=True),
        sa.Column("brand", sa.String(length=80), nullable=True),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("quantity", sa.Numeric(precision=10, scale=2), nullable=False),
        sa.Column("unit_cost", sa.Numeric(precision=14, scale=2), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["order_id"],
            ["supplier_order.id"],
            name=op.f("fk_supplier_order_line_order_id_supplier_order"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["quote_line_id"],
            ["quote_line.id"],
            name=op.f("fk_supplier_order_line_quote_line_id_quote_line"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["quote_id"], ["quote.id"], name=op.f("fk_supplier_order_line_quote_id_quote"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_supplier_order_line")),
        sa.UniqueConstraint("quote_line_id", name=op.f("uq_supplier_order_line_quote_line_id")),
    )
    op.create_index(op.f("ix_supplier_order_line_order_id"), "supplier_order_line", ["order_id"], unique=False)
    op.create_index(op.f("ix_supplier_order_line_quote_id"), "supplier_order_line", ["quote_id"], unique=False)


def downgrade():
    op.drop_table("supplier_order_line")
    op.drop_index("uq_supplier_order_open", table_name="supplier_order")
    op.drop_table("supplier_order")
    op.drop_table("email_attachment")
