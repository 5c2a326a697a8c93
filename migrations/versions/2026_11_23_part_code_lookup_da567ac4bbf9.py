"""part code lookup: a btree on (part.search_code, part.vehicle_id), for where-used's exact lookup of a folded code

Revision ID: da567ac4bbf9
Revises: fd8bf4c6858f
Create Date: 2026-11-23 21:40:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'da567ac4bbf9'
down_revision = 'fd8bf4c6858f'
branch_labels = None
depends_on = None


def upgrade():
    # ix_part_search_code is a trigram GIN on PostgreSQL (LIKE '%code%' in the in-vehicle search): it answers
    # `search_code = :code` only through a lossy trigram match and a recheck, where a btree finds the rows at once.
    # The vehicle id beside the code lets where-used count vehicles from the index.
    op.create_index('ix_part_search_code_vehicle_id', 'part', ['search_code', 'vehicle_id'], unique=False)


def downgrade():
    op.drop_index('ix_part_search_code_vehicle_id', table_name='part')
