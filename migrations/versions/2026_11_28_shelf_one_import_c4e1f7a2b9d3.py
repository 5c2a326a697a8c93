"""shelf: one import running per dealer (a partial unique index on shelf_import.user_id where status is importing);
of two already running, the older is failed first (the newer one is the list the dealer meant)

Revision ID: c4e1f7a2b9d3
Revises: c4e6a8b0d2f1
Create Date: 2026-11-28 02:40:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'c4e1f7a2b9d3'
down_revision = 'c4e6a8b0d2f1'
branch_labels = None
depends_on = None

WHERE = "status = 'importing'"


def upgrade():
    op.execute(
        "UPDATE shelf_import SET status = 'failed', message = 'Yerine daha yeni bir liste aktarıldı.' "
        "WHERE status = 'importing' AND id < (SELECT max(newer.id) FROM shelf_import AS newer "
        "WHERE newer.user_id = shelf_import.user_id AND newer.status = 'importing')"
    )
    with op.batch_alter_table('shelf_import', schema=None) as batch_op:
        batch_op.create_index(
            'uq_shelf_import_one_importing_per_user', ['user_id'], unique=True,
            sqlite_where=sa.text(WHERE), postgresql_where=sa.text(WHERE),
        )


def downgrade():
    with op.batch_alter_table('shelf_import', schema=None) as batch_op:
        batch_op.drop_index(
            'uq_shelf_import_one_importing_per_user', sqlite_where=sa.text(WHERE), postgresql_where=sa.text(WHERE)
        )
