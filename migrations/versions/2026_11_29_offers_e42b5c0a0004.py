"""offers: a shop's offer settings (KDV), markup rules, and a quote line's chosen supplier offer (cost kept)

Revision ID: e42b5c0a0004
Revises: e42b5c0a0003
Create Date: 2026-11-29 01:40:00.000000

"""

import warnings
from contextlib import contextmanager

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e42b5c0a0004"
down_revision = "e42b5c0a0003"
branch_labels = None
depends_on = None


@contextmanager
def _batch_on_quote_line():
    """SQLite's batch copy reflects quote_line's referenced part table, whose expression index (uq_part_row) it
    cannot read and leaves alone."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        with op.batch_alter_table("quote_line", schema=None) as batch_op:
            yield batch_op


def upgrade():
    op.create_table(
        "offer_settings",
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("with_kdv", sa.Boolean(), nullable=False),
        sa.Column("kdv_rate", sa.Numeric(precision=5, scale=2), nullable=False),
        sa.ForeignKeyConstraint(
            ["shop_id"], ["shop.id"], name=op.f("fk_offer_settings_shop_id_shop"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("shop_id", name=op.f("pk_offer_settings")),
    )
    op.create_table(
        "markup_rule",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shop_id", sa.Uuid(), nullable=False),
        sa.Column("supplier_id", sa.Integer(), nullable=True),
        sa.Column("brand_key", sa.String(length=80), nullable=True),
        sa.Column("brand", sa.String(length=80), nullable=True),
        sa.Column("scope_key", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=7), nullable=False),
        sa.Column("value", sa.Numeric(precision=12, scale=2), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('percent', 'fixed')", name=op.f("ck_markup_rule_kind")),
        sa.ForeignKeyConstraint(["shop_id"], ["shop.id"], name=op.f("fk_markup_rule_shop_id_shop"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["supplier_id"], ["supplier.id"], name=op.f("fk_markup_rule_supplier_id_supplier"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_markup_rule_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_markup_rule")),
        sa.UniqueConstraint("shop_id", "scope_key", name="uq_markup_rule_shop_id_scope_key"),
    )
    op.create_index(op.f("ix_markup_rule_shop_id"), "markup_rule", ["shop_id"], unique=False)
    op.create_index(op.f("ix_markup_rule_supplier_id"), "markup_rule", ["supplier_id"], unique=False)
    op.create_index(op.f("ix_markup_rule_user_id"), "markup_rule", ["user_id"], unique=False)
    with _batch_on_quote_line() as batch_op:
        batch_op.add_column(sa.Column("supplier_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("supplier_line_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("supplier_name", sa.String(length=120), nullable=True))
        batch_op.add_column(sa.Column("offer_brand", sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column("offer_code", sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column("unit_cost", sa.Numeric(precision=14, scale=2), nullable=True))
        batch_op.create_index(batch_op.f("ix_quote_line_supplier_id"), ["supplier_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_quote_line_supplier_id_supplier"), "supplier", ["supplier_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    with _batch_on_quote_line() as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_quote_line_supplier_id_supplier"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_quote_line_supplier_id"))
        for column in ("unit_cost", "offer_code", "offer_brand", "supplier_name", "supplier_line_id", "supplier_id"):
            batch_op.drop_column(column)
    op.drop_table("markup_rule")
    op.drop_table("offer_settings")
