"""query log branch: each decode keeps the branch its member worked in, for the shop's activity

Revision ID: d5a1c0ffee16
Revises: d5a1c0ffee15
Create Date: 2026-11-28 19:00:00.000000

Old rows have none (the activity shows their branch as empty).
"""

import warnings
from contextlib import contextmanager

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = "d5a1c0ffee16"
down_revision = "d5a1c0ffee15"
branch_labels = None
depends_on = None


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
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        yield
    for _name, sql in views:
        op.execute(sql)


def upgrade():
    with _views_kept(), op.batch_alter_table("query_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("branch_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_query_log_branch_id_branch", "branch", ["branch_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    with _views_kept(), op.batch_alter_table("query_log", schema=None) as batch_op:
        batch_op.drop_constraint("fk_query_log_branch_id_branch", type_="foreignkey")
        batch_op.drop_column("branch_id")
