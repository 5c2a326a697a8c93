"""billing: brands with WMI prefixes, plans, subscriptions with their brand sets, payments, legacy bank accounts, handled provider events.

Revision ID: bc0981d4be2a
Revises: 494c3d58f1ca
Create Date: 2026-11-22 03:17:26.762960

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'bc0981d4be2a'
down_revision = '494c3d58f1ca'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('bank_account',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('bank_name', sa.String(length=100), nullable=False),
    sa.Column('account_holder', sa.String(length=150), nullable=False),
    sa.Column('iban', sa.String(length=34), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bank_account'))
    )
    op.create_table('brand',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('slug', sa.String(length=60), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_brand')),
    sa.UniqueConstraint('name', name=op.f('uq_brand_name')),
    sa.UniqueConstraint('slug', name=op.f('uq_brand_slug'))
    )
    op.create_table('plan',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('brand_count', sa.Integer(), nullable=False),
    sa.Column('monthly_price', sa.Integer(), nullable=False),
    sa.Column('yearly_price', sa.Integer(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.CheckConstraint('brand_count >= 0', name=op.f('ck_plan_brand_count')),
    sa.CheckConstraint('monthly_price >= 0 AND yearly_price >= 0', name=op.f('ck_plan_prices')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_plan')),
    sa.UniqueConstraint('key', name=op.f('uq_plan_key'))
    )
    op.create_table('provider_event',
    sa.Column('id', sa.String(length=255), nullable=False),
    sa.Column('type', sa.String(length=100), nullable=False),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_event'))
    )
    op.create_table('brand_wmi',
    sa.Column('wmi', sa.String(length=3), nullable=False),
    sa.Column('brand_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['brand_id'], ['brand.id'], name=op.f('fk_brand_wmi_brand_id_brand'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('wmi', name=op.f('pk_brand_wmi'))
    )
    with op.batch_alter_table('brand_wmi', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_brand_wmi_brand_id'), ['brand_id'], unique=False)

    op.create_table('subscription',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('user_id', sa.Uuid(), nullable=True),
    sa.Column('plan_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('billing_period', sa.String(length=10), nullable=False),
    sa.Column('start_date', sa.DateTime(timezone=True), nullable=True),
    sa.Column('end_date', sa.DateTime(timezone=True), nullable=True),
    sa.Column('cancelled_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('scheduled_plan_id', sa.Integer(), nullable=True),
    sa.Column('scheduled_brand_ids', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("billing_period IN ('monthly', 'yearly')", name=op.f('ck_subscription_billing_period')),
    sa.CheckConstraint("status IN ('pending', 'active', 'trial', 'cancelled', 'expired')", name=op.f('ck_subscription_status')),
    sa.ForeignKeyConstraint(['plan_id'], ['plan.id'], name=op.f('fk_subscription_plan_id_plan')),
    sa.ForeignKeyConstraint(['scheduled_plan_id'], ['plan.id'], name=op.f('fk_subscription_scheduled_plan_id_plan')),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_subscription_user_id_user'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_subscription'))
    )
    with op.batch_alter_table('subscription', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_subscription_user_id'), ['user_id'], unique=False)
        batch_op.create_index('uq_subscription_one_pending_per_user', ['user_id'], unique=True, sqlite_where=sa.text("status = 'pending'"), postgresql_where=sa.text("status = 'pending'"))

    op.create_table('payment',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('user_id', sa.Uuid(), nullable=True),
    sa.Column('subscription_id', sa.Uuid(), nullable=True),
    sa.Column('amount', sa.Integer(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('method', sa.String(length=10), nullable=False),
    sa.Column('billing_period', sa.String(length=10), nullable=True),
    sa.Column('checkout_session_id', sa.String(length=255), nullable=True),
    sa.Column('payment_intent_id', sa.String(length=255), nullable=True),
    sa.Column('refunded_amount', sa.Integer(), nullable=False),
    sa.Column('bank_account_id', sa.Integer(), nullable=True),
    sa.Column('receipt_url', sa.String(length=500), nullable=True),
    sa.Column('admin_note', sa.Text(), nullable=True),
    sa.Column('paid_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("method IN ('card', 'eft')", name=op.f('ck_payment_method')),
    sa.CheckConstraint("status IN ('pending', 'completed', 'failed', 'expired', 'refunded', 'partially_refunded')", name=op.f('ck_payment_status')),
    sa.CheckConstraint('amount >= 0 AND refunded_amount >= 0', name=op.f('ck_payment_amounts')),
    sa.ForeignKeyConstraint(['bank_account_id'], ['bank_account.id'], name=op.f('fk_payment_bank_account_id_bank_account')),
    sa.ForeignKeyConstraint(['subscription_id'], ['subscription.id'], name=op.f('fk_payment_subscription_id_subscription'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_payment_user_id_user'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payment')),
    sa.UniqueConstraint('checkout_session_id', name=op.f('uq_payment_checkout_session_id'))
    )
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_payment_payment_intent_id'), ['payment_intent_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_payment_subscription_id'), ['subscription_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_payment_user_id'), ['user_id'], unique=False)

    op.create_table('user_brands',
    sa.Column('subscription_id', sa.Uuid(), nullable=False),
    sa.Column('brand_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['brand_id'], ['brand.id'], name=op.f('fk_user_brands_brand_id_brand'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['subscription_id'], ['subscription.id'], name=op.f('fk_user_brands_subscription_id_subscription'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('subscription_id', 'brand_id', name=op.f('pk_user_brands'))
    )


def downgrade():
    op.drop_table('user_brands')
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payment_user_id'))
        batch_op.drop_index(batch_op.f('ix_payment_subscription_id'))
        batch_op.drop_index(batch_op.f('ix_payment_payment_intent_id'))

    op.drop_table('payment')
    with op.batch_alter_table('subscription', schema=None) as batch_op:
        batch_op.drop_index('uq_subscription_one_pending_per_user', sqlite_where=sa.text("status = 'pending'"), postgresql_where=sa.text("status = 'pending'"))
        batch_op.drop_index(batch_op.f('ix_subscription_user_id'))

    op.drop_table('subscription')
    with op.batch_alter_table('brand_wmi', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_brand_wmi_brand_id'))

    op.drop_table('brand_wmi')
    op.drop_table('provider_event')
    op.drop_table('plan')
    op.drop_table('brand')
    op.drop_table('bank_account')
