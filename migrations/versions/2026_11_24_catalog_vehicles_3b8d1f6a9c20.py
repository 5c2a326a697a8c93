"""catalog vehicles: cars reached by browsing without a VIN, stored once for every dealer; their categories carry
catalog_vehicle_id

Revision ID: 3b8d1f6a9c20
Revises: 7c1e5a9b2d40
Create Date: 2026-11-24 16:00:00.000000

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

import app.core.db


# revision identifiers, used by Alembic.
revision = '3b8d1f6a9c20'
down_revision = '7c1e5a9b2d40'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'catalog_vehicle',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('source', sa.String(length=20), nullable=False),
        sa.Column('catalog', sa.String(length=100), nullable=False),
        sa.Column('external_id', sa.String(length=100), nullable=False),
        sa.Column('brand_name', sa.String(length=80), nullable=False),
        sa.Column('model', sa.String(length=200), nullable=False),
        sa.Column('name', sa.String(length=300), nullable=False),
        sa.Column('year', sa.Integer(), nullable=True),
        sa.Column('engine', sa.String(length=120), nullable=True),
        sa.Column('parameters', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'),
                  nullable=False),
        sa.Column('vehicle_id', sa.Integer(), nullable=False),
        sa.Column('created_at', app.core.db.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['vehicle_id'], ['vehicle.id'], name=op.f('fk_catalog_vehicle_vehicle_id_vehicle'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_catalog_vehicle')),
        sa.UniqueConstraint('source', 'catalog', 'external_id',
                            name=op.f('uq_catalog_vehicle_source_catalog_external_id')),
        sa.UniqueConstraint('vehicle_id', name=op.f('uq_catalog_vehicle_vehicle_id')),
    )
    # An added column (no batch copy): SQLite keeps the expression index uq_category_node in place. No foreign key:
    # SQLite cannot add one in place, and none is needed: a category and its catalog vehicle both go with their
    # vehicle row (ON DELETE CASCADE on each).
    op.add_column('category', sa.Column('catalog_vehicle_id', sa.Integer(), nullable=True))
    op.create_index(op.f('ix_category_catalog_vehicle_id'), 'category', ['catalog_vehicle_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_category_catalog_vehicle_id'), table_name='category')
    op.drop_column('category', 'catalog_vehicle_id')
    op.drop_table('catalog_vehicle')
