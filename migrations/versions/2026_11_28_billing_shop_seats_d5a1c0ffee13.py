"""billing belongs to the shop: subscription and payment get shop_id (= user_id for existing rows); seats on plans,
subscriptions (the plan's included seats for existing rows) and payments; one pending / live subscription per shop

Revision ID: d5a1c0ffee13
Revises: d5a1c0ffee12
Create Date: 2026-11-28 15:00:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'd5a1c0ffee13'
down_revision = 'd5a1c0ffee12'
branch_labels = None
depends_on = None

PENDING = sa.text("status = 'pending'")
LIVE = sa.text("status IN ('active', 'trial')")
# key -> (included seats, monthly and yearly price of an extra seat in kuruş), as app.billing.reference_data seeds.
PLAN_SEATS = {
    'single': (1, 14900, 149000),
    'trio': (2, 14900, 149000),
    'full': (3, 14900, 149000),
}


def upgrade():
    _upgrade()


def downgrade():
    _downgrade()


def _upgrade():
    with op.batch_alter_table('plan', schema=None) as batch_op:
        batch_op.add_column(sa.Column('included_seats', sa.Integer(), server_default='1', nullable=False))
        batch_op.add_column(sa.Column('monthly_seat_price', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('yearly_seat_price', sa.Integer(), server_default='0', nullable=False))
        batch_op.create_check_constraint('included_seats', 'included_seats >= 1')
        batch_op.create_check_constraint('seat_prices', 'monthly_seat_price >= 0 AND yearly_seat_price >= 0')
    for key, (included, monthly, yearly) in PLAN_SEATS.items():
        op.execute(
            sa.text(
                'UPDATE plan SET included_seats = :included, monthly_seat_price = :monthly, '
                'yearly_seat_price = :yearly WHERE key = :key'
            ).bindparams(included=included, monthly=monthly, yearly=yearly, key=key)
        )

    with op.batch_alter_table('subscription', schema=None) as batch_op:
        batch_op.add_column(sa.Column('shop_id', sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column('seats', sa.Integer(), server_default='1', nullable=False))
        batch_op.create_foreign_key(
            batch_op.f('fk_subscription_shop_id_shop'), 'shop', ['shop_id'], ['id'], ondelete='SET NULL'
        )
        batch_op.create_check_constraint('seats', 'seats >= 1')
        batch_op.create_index(batch_op.f('ix_subscription_shop_id'), ['shop_id'], unique=False)
        batch_op.drop_index('uq_subscription_one_pending_per_user', sqlite_where=PENDING, postgresql_where=PENDING)
        batch_op.drop_index('uq_subscription_one_live_per_user', sqlite_where=LIVE, postgresql_where=LIVE)
    # Every user owns the one-person shop whose id is theirs (d5a1c0ffee01); an anonymised row stays without a shop.
    op.execute('UPDATE subscription SET shop_id = user_id')
    op.execute('UPDATE subscription SET seats = (SELECT plan.included_seats FROM plan WHERE plan.id = subscription.plan_id)')
    with op.batch_alter_table('subscription', schema=None) as batch_op:
        batch_op.create_index(
            'uq_subscription_one_pending_per_shop', ['shop_id'], unique=True, sqlite_where=PENDING, postgresql_where=PENDING
        )
        batch_op.create_index(
            'uq_subscription_one_live_per_shop', ['shop_id'], unique=True, sqlite_where=LIVE, postgresql_where=LIVE
        )

    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.add_column(sa.Column('shop_id', sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column('purpose', sa.String(length=10), server_default='plan', nullable=False))
        batch_op.add_column(sa.Column('seats', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_payment_shop_id_shop'), 'shop', ['shop_id'], ['id'], ondelete='SET NULL')
        batch_op.create_check_constraint('purpose', "purpose IN ('plan', 'seats')")
        batch_op.create_index(batch_op.f('ix_payment_shop_id'), ['shop_id'], unique=False)
    op.execute('UPDATE payment SET shop_id = user_id')
    op.execute(
        'UPDATE payment SET seats = (SELECT subscription.seats FROM subscription '
        'WHERE subscription.id = payment.subscription_id)'
    )


def _downgrade():
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payment_shop_id'))
        batch_op.drop_constraint('purpose', type_='check')
        batch_op.drop_constraint(batch_op.f('fk_payment_shop_id_shop'), type_='foreignkey')
        batch_op.drop_column('seats')
        batch_op.drop_column('purpose')
        batch_op.drop_column('shop_id')

    with op.batch_alter_table('subscription', schema=None) as batch_op:
        batch_op.drop_index('uq_subscription_one_live_per_shop', sqlite_where=LIVE, postgresql_where=LIVE)
        batch_op.drop_index('uq_subscription_one_pending_per_shop', sqlite_where=PENDING, postgresql_where=PENDING)
        batch_op.drop_index(batch_op.f('ix_subscription_shop_id'))
        batch_op.drop_constraint('seats', type_='check')
        batch_op.drop_constraint(batch_op.f('fk_subscription_shop_id_shop'), type_='foreignkey')
        batch_op.drop_column('seats')
        batch_op.drop_column('shop_id')
        batch_op.create_index(
            'uq_subscription_one_pending_per_user', ['user_id'], unique=True, sqlite_where=PENDING, postgresql_where=PENDING
        )
        batch_op.create_index(
            'uq_subscription_one_live_per_user', ['user_id'], unique=True, sqlite_where=LIVE, postgresql_where=LIVE
        )

    with op.batch_alter_table('plan', schema=None) as batch_op:
        batch_op.drop_constraint('seat_prices', type_='check')
        batch_op.drop_constraint('included_seats', type_='check')
        batch_op.drop_column('yearly_seat_price')
        batch_op.drop_column('monthly_seat_price')
        batch_op.drop_column('included_seats')
