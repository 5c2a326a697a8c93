"""member rows outlive the member: a quote and a stock list import keep their shop's data when the member who made
them deletes their account (user_id set null, no longer cascading)

Revision ID: d5a1c0ffee17
Revises: d5a1c0ffee16
Create Date: 2026-11-28 19:30:00.000000

The downgrade gives a row whose member is gone to its shop's owner (the shop has the owner's id for a migrated shop)
and drops what has none, as the tables could not hold such rows before.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d5a1c0ffee17"
down_revision = "d5a1c0ffee16"
branch_labels = None
depends_on = None

TABLES = ("quote", "shelf_import")


def _member_key(table, nullable, ondelete):
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.drop_constraint(f"fk_{table}_user_id_user", type_="foreignkey")
        batch_op.alter_column("user_id", existing_type=sa.Uuid(), nullable=nullable)
        batch_op.create_foreign_key(f"fk_{table}_user_id_user", "user", ["user_id"], ["id"], ondelete=ondelete)


def upgrade():
    for table in TABLES:
        _member_key(table, nullable=True, ondelete="SET NULL")


def downgrade():
    for table in TABLES:
        owner = (
            f'(SELECT MIN(CAST("user".id AS VARCHAR(36))) FROM "user" '
            f"WHERE \"user\".shop_id = {table}.shop_id AND \"user\".shop_role = 'owner')"
        )
        op.execute(
            f'UPDATE {table} SET user_id = (SELECT id FROM "user" WHERE CAST(id AS VARCHAR(36)) = {owner}) '
            "WHERE user_id IS NULL"
        )
        op.execute(f"DELETE FROM {table} WHERE user_id IS NULL")
        _member_key(table, nullable=False, ondelete="CASCADE")
