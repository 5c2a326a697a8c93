"""vin requests: a VIN asked for while every catalog source failed is saved too (kind unavailable)

Revision ID: e7a1c3b5d9f2
Revises: d4e6f8a0b2c3
Create Date: 2026-11-25 19:40:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e7a1c3b5d9f2'
down_revision = 'd4e6f8a0b2c3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('vin_request') as batch:
        batch.drop_constraint(op.f('ck_vin_request_kind'), type_='check')
        batch.create_check_constraint(op.f('ck_vin_request_kind'), "kind IN ('no_catalog', 'report', 'unavailable')")


def downgrade():
    # The older check cannot hold the newer kind: those requests go with it.
    op.execute("DELETE FROM vin_request WHERE kind = 'unavailable'")
    with op.batch_alter_table('vin_request') as batch:
        batch.drop_constraint(op.f('ck_vin_request_kind'), type_='check')
        batch.create_check_constraint(op.f('ck_vin_request_kind'), "kind IN ('no_catalog', 'report')")
