"""shop API keys: a shop's keys for its integrations (hash and prefix, role, maker, expiry, revocation, last use)

Revision ID: d5a1c0ffee15
Revises: d5a1c0ffee14
Create Date: 2026-11-28 15:00:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'd5a1c0ffee15'
down_revision = 'd5a1c0ffee14'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('shop_api_key',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shop_id', sa.Uuid(), nullable=False),
    sa.Column('created_by', sa.Uuid(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('role', sa.String(length=10), nullable=False),
    sa.Column('prefix', sa.String(length=16), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("role IN ('clerk', 'manager')", name=op.f('ck_shop_api_key_role')),
    sa.ForeignKeyConstraint(['created_by'], ['user.id'], name=op.f('fk_shop_api_key_created_by_user'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['shop_id'], ['shop.id'], name=op.f('fk_shop_api_key_shop_id_shop'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shop_api_key')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_shop_api_key_key_hash'))
    )
    op.create_index(op.f('ix_shop_api_key_created_by'), 'shop_api_key', ['created_by'], unique=False)
    op.create_index(op.f('ix_shop_api_key_prefix'), 'shop_api_key', ['prefix'], unique=False)
    op.create_index(op.f('ix_shop_api_key_shop_id'), 'shop_api_key', ['shop_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_shop_api_key_shop_id'), table_name='shop_api_key')
    op.drop_index(op.f('ix_shop_api_key_prefix'), table_name='shop_api_key')
    op.drop_index(op.f('ix_shop_api_key_created_by'), table_name='shop_api_key')
    op.drop_table('shop_api_key')
