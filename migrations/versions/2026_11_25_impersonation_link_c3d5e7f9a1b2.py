"""impersonation link: when the one-shot consume link of a read-only impersonation session was used

Revision ID: c3d5e7f9a1b2
Revises: b71c3e9a4d25
Create Date: 2026-11-25 12:45:00.000000

"""
from alembic import op
import sqlalchemy as sa

import app.core.db


# revision identifiers, used by Alembic.
revision = 'c3d5e7f9a1b2'
down_revision = 'b71c3e9a4d25'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('session') as batch:
        batch.add_column(sa.Column('link_consumed_at', app.core.db.UTCDateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('session') as batch:
        batch.drop_column('link_consumed_at')
