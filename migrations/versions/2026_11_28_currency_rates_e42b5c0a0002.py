"""currency rates: the Central Bank's (TCMB) daily rate of each currency in TRY per unit, one row per currency and day

Revision ID: e42b5c0a0002
Revises: d5a1c0ffee17
Create Date: 2026-11-28 22:30:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'e42b5c0a0002'
down_revision = 'd5a1c0ffee17'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('currency_rate',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('rate_date', sa.Date(), nullable=False),
    sa.Column('try_per_unit', sa.Numeric(precision=18, scale=6), nullable=False),
    sa.Column('fetched_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_currency_rate')),
    sa.UniqueConstraint('currency', 'rate_date', name=op.f('uq_currency_rate_currency_rate_date'))
    )


def downgrade():
    op.drop_table('currency_rate')
