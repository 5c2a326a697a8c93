"""shop vehicles and catalog: history, picks, fit answers and part fits belong to the shop (user_id: the member who
did it); the query log and the OEM copies carry the shop

Revision ID: d5a1c0ffee11
Revises: d5a1c0ffee01
Create Date: 2026-11-28 15:20:00.000000

Every user's shop has the user's id (d5a1c0ffee01), so the rows move with `shop_id = user_id`. The downgrade gives
each row back to its member (the shop's owner-by-id where no member is recorded) and drops what has none.
"""

import warnings
from contextlib import contextmanager

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = "d5a1c0ffee11"
down_revision = "d5a1c0ffee01"
branch_labels = None
depends_on = None

# The tables whose key moves from the user to the shop, and the key's other columns.
SHARED = {
    "user_vehicle": ["shop_id", "vehicle_id"],
    "vehicle_pick": ["shop_id", "vin"],
    "fit_answer": ["vehicle_id", "shop_id", "fact"],
}
OLD_KEYS = {
    "user_vehicle": ["user_id", "vehicle_id"],
    "vehicle_pick": ["user_id", "vin"],
    "fit_answer": ["vehicle_id", "user_id", "fact"],
}
LOGGED = ("query_log", "oem_copy")  # kept when the user goes: the shop is nullable and set null too


def _add_shop(table, nullable):
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.add_column(sa.Column("shop_id", sa.Uuid(), nullable=True))
    op.execute(f"UPDATE {table} SET shop_id = user_id")
    if not nullable:
        op.execute(f"DELETE FROM {table} WHERE shop_id IS NULL")


def upgrade():
    with warnings.catch_warnings():
        _quiet_reflection()
        _upgrade()


def downgrade():
    with warnings.catch_warnings():
        _quiet_reflection()
        _downgrade()


def _quiet_reflection():
    """A batch copy on SQLite reflects the tables its foreign keys name; part and category carry expression indexes
    SQLite's reflection skips (with a warning): the copy keeps them as they are."""
    warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")


@contextmanager
def _views_kept():
    """SQLite's batch copy renames a table under the views that read it (query_log_insights), which it refuses: the
    views are dropped around the copy and made again from their own SQL."""
    bind = op.get_bind()
    views = []
    if bind.dialect.name == "sqlite":
        views = bind.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'view'").all()
        for name, _sql in views:
            op.execute(f'DROP VIEW "{name}"')
    yield
    for _name, sql in views:
        op.execute(sql)


def _upgrade():
    for table, key in SHARED.items():
        _add_shop(table, nullable=False)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"fk_{table}_user_id_user", type_="foreignkey")
            batch_op.drop_constraint(f"pk_{table}", type_="primary")
            batch_op.alter_column("shop_id", existing_type=sa.Uuid(), nullable=False)
            batch_op.alter_column("user_id", existing_type=sa.Uuid(), nullable=True)
            batch_op.create_primary_key(f"pk_{table}", key)
            batch_op.create_foreign_key(f"fk_{table}_shop_id_shop", "shop", ["shop_id"], ["id"], ondelete="CASCADE")
            batch_op.create_foreign_key(f"fk_{table}_user_id_user", "user", ["user_id"], ["id"], ondelete="SET NULL")
            batch_op.create_index(f"ix_{table}_user_id", ["user_id"], unique=False)
    with op.batch_alter_table("user_vehicle", schema=None) as batch_op:
        batch_op.drop_index("ix_user_vehicle_user_id_last_decoded_at")
        batch_op.create_index("ix_user_vehicle_shop_id_last_decoded_at", ["shop_id", "last_decoded_at"], unique=False)

    _add_shop("part_fit", nullable=False)
    with op.batch_alter_table("part_fit", schema=None) as batch_op:
        batch_op.drop_index("ix_part_fit_user_id_vehicle_id")
        batch_op.drop_constraint("fk_part_fit_user_id_user", type_="foreignkey")
        batch_op.drop_constraint("pk_part_fit", type_="primary")
        batch_op.drop_column("user_id")
        batch_op.alter_column("shop_id", existing_type=sa.Uuid(), nullable=False)
        batch_op.create_primary_key("pk_part_fit", ["shop_id", "part_id"])
        batch_op.create_foreign_key("fk_part_fit_shop_id_shop", "shop", ["shop_id"], ["id"], ondelete="CASCADE")
        batch_op.create_index("ix_part_fit_shop_id_vehicle_id", ["shop_id", "vehicle_id", "category_id"], unique=False)

    with _views_kept():
        for table in LOGGED:
            _add_shop(table, nullable=True)
            with op.batch_alter_table(table, schema=None) as batch_op:
                batch_op.create_foreign_key(
                    f"fk_{table}_shop_id_shop", "shop", ["shop_id"], ["id"], ondelete="SET NULL"
                )
                batch_op.create_index(f"ix_{table}_shop_id", ["shop_id"], unique=False)


def _back_to_members(table):
    """Each row to the member who did it, else to the user whose id the shop has; none of those: dropped."""
    op.execute(f'UPDATE {table} SET user_id = shop_id WHERE user_id IS NULL AND shop_id IN (SELECT id FROM "user")')
    op.execute(f"DELETE FROM {table} WHERE user_id IS NULL")


def _downgrade():
    with _views_kept():
        for table in LOGGED:
            with op.batch_alter_table(table, schema=None) as batch_op:
                batch_op.drop_index(f"ix_{table}_shop_id")
                batch_op.drop_constraint(f"fk_{table}_shop_id_shop", type_="foreignkey")
                batch_op.drop_column("shop_id")

    with op.batch_alter_table("part_fit", schema=None) as batch_op:
        batch_op.add_column(sa.Column("user_id", sa.Uuid(), nullable=True))
    op.execute('UPDATE part_fit SET user_id = shop_id WHERE shop_id IN (SELECT id FROM "user")')
    op.execute("DELETE FROM part_fit WHERE user_id IS NULL")
    with op.batch_alter_table("part_fit", schema=None) as batch_op:
        batch_op.drop_index("ix_part_fit_shop_id_vehicle_id")
        batch_op.drop_constraint("fk_part_fit_shop_id_shop", type_="foreignkey")
        batch_op.drop_constraint("pk_part_fit", type_="primary")
        batch_op.drop_column("shop_id")
        batch_op.alter_column("user_id", existing_type=sa.Uuid(), nullable=False)
        batch_op.create_primary_key("pk_part_fit", ["user_id", "part_id"])
        batch_op.create_foreign_key("fk_part_fit_user_id_user", "user", ["user_id"], ["id"], ondelete="CASCADE")
        batch_op.create_index("ix_part_fit_user_id_vehicle_id", ["user_id", "vehicle_id", "category_id"], unique=False)

    with op.batch_alter_table("user_vehicle", schema=None) as batch_op:
        batch_op.drop_index("ix_user_vehicle_shop_id_last_decoded_at")
        batch_op.create_index("ix_user_vehicle_user_id_last_decoded_at", ["user_id", "last_decoded_at"], unique=False)
    for table, key in OLD_KEYS.items():
        _back_to_members(table)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(f"ix_{table}_user_id")
            batch_op.drop_constraint(f"fk_{table}_user_id_user", type_="foreignkey")
            batch_op.drop_constraint(f"fk_{table}_shop_id_shop", type_="foreignkey")
            batch_op.drop_constraint(f"pk_{table}", type_="primary")
            batch_op.drop_column("shop_id")
            batch_op.alter_column("user_id", existing_type=sa.Uuid(), nullable=False)
            batch_op.create_primary_key(f"pk_{table}", key)
            batch_op.create_foreign_key(f"fk_{table}_user_id_user", "user", ["user_id"], ["id"], ondelete="CASCADE")
