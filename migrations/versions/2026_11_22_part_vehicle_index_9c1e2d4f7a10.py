"""part by vehicle: an index on part.vehicle_id, for a vehicle's part counts and its cascading delete

Revision ID: 9c1e2d4f7a10
Revises: 4db4b4c72311
Create Date: 2026-11-22 08:20:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '9c1e2d4f7a10'
down_revision = '4db4b4c72311'
branch_labels = None
depends_on = None


def upgrade():
    # uq_part_row starts with coalesce(vehicle_id, 0), which `vehicle_id = :id` cannot use: without this index, a
    # vehicle's part count (the demo summary) and deleting a vehicle read the whole part table.
    op.create_index(op.f('ix_part_vehicle_id'), 'part', ['vehicle_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_part_vehicle_id'), table_name='part')
