"""part quantity: how many of a part its drawing takes (a positive count), null when the catalog gives none

Revision ID: 249eecbe8560
Revises: da567ac4bbf9
Create Date: 2026-11-23 22:29:32.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '249eecbe8560'
down_revision = 'da567ac4bbf9'
branch_labels = None
depends_on = None


def upgrade():
    # A nullable column with no default: the batch adds it in place on SQLite too (no table copy, which would lose
    # the part table's expression index uq_part_row). Rows stored before it have no quantity until re-fetched.
    with op.batch_alter_table('part', schema=None) as batch_op:
        batch_op.add_column(sa.Column('quantity', sa.Integer(), nullable=True))


def downgrade():
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), not a batch: on SQLite a batch drop copies the table and loses its
    # expression index uq_part_row (see 4db4b4c72311).
    op.drop_column('part', 'quantity')
