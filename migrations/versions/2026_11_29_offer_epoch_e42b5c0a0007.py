"""offer epoch: one row raised with every change to what a shop's offers are made of, so offers may be kept

Revision ID: e42b5c0a0007
Revises: e42b5c0a0006
Create Date: 2026-11-29 05:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e42b5c0a0007"
down_revision = "e42b5c0a0006"
branch_labels = None
depends_on = None


def upgrade():
    epoch = op.create_table(
        "offer_epoch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_offer_epoch")),
    )
    op.bulk_insert(epoch, [{"id": 1, "version": 1}])


def downgrade():
    op.drop_table("offer_epoch")
