"""one KDV rate a shop: the quotes' rate moves to the offer settings, the quote settings' column goes

Revision ID: e42b5c0a0008
Revises: e42b5c0a0007
Create Date: 2026-11-29 05:45:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e42b5c0a0008"
down_revision = "e42b5c0a0007"
branch_labels = None
depends_on = None

PROFILE = sa.table("quote_profile", sa.column("shop_id", sa.Uuid()), sa.column("kdv_rate", sa.Numeric(5, 2)))
SETTINGS = sa.table(
    "offer_settings",
    sa.column("shop_id", sa.Uuid()),
    sa.column("with_kdv", sa.Boolean()),
    sa.column("kdv_rate", sa.Numeric(5, 2)),
)


def upgrade():
    # The quotes' rate is the one customers were charged by: it wins where a shop set both.
    quoted = sa.select(PROFILE.c.kdv_rate).where(PROFILE.c.shop_id == SETTINGS.c.shop_id).scalar_subquery()
    has_profile = sa.exists().where(PROFILE.c.shop_id == SETTINGS.c.shop_id)
    op.execute(sa.update(SETTINGS).where(has_profile).values(kdv_rate=quoted))
    without_settings = sa.select(PROFILE.c.shop_id, sa.false(), PROFILE.c.kdv_rate).where(
        ~sa.exists().where(SETTINGS.c.shop_id == PROFILE.c.shop_id)
    )
    op.execute(sa.insert(SETTINGS).from_select(["shop_id", "with_kdv", "kdv_rate"], without_settings))
    with op.batch_alter_table("quote_profile") as batch:
        batch.drop_column("kdv_rate")


def downgrade():
    with op.batch_alter_table("quote_profile") as batch:
        batch.add_column(sa.Column("kdv_rate", sa.Numeric(5, 2), nullable=False, server_default="20.00"))
    rate = sa.select(SETTINGS.c.kdv_rate).where(SETTINGS.c.shop_id == PROFILE.c.shop_id).scalar_subquery()
    op.execute(
        sa.update(PROFILE).where(sa.exists().where(SETTINGS.c.shop_id == PROFILE.c.shop_id)).values(kdv_rate=rate)
    )
