"""scrape VIN cache: what the web catalog answered for a VIN, so a repeat VIN skips that upstream call

Revision ID: 5e2a7c9d1b43
Revises: 3b8d1f6a9c20
Create Date: 2026-11-24 16:20:00.000000

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

import app.core.db


# revision identifiers, used by Alembic.
revision = '5e2a7c9d1b43'
down_revision = '3b8d1f6a9c20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'scrape_vin_cache',
        sa.Column('vin', sa.String(length=17), nullable=False),
        sa.Column('cars', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'),
                  nullable=False),
        sa.Column('created_at', app.core.db.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('vin', name=op.f('pk_scrape_vin_cache')),
    )


def downgrade():
    op.drop_table('scrape_vin_cache')
