"""shops: invitations by e-mail and the shop's activity (who did what)

Revision ID: d5a1c0ffee14
Revises: d5a1c0ffee13
Create Date: 2026-11-28 15:00:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'd5a1c0ffee14'
down_revision = 'd5a1c0ffee13'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('shop_invitation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shop_id', sa.Uuid(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('role', sa.String(length=10), nullable=False),
    sa.Column('branch_id', sa.Integer(), nullable=True),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('invited_by', sa.Uuid(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("role IN ('clerk', 'manager', 'owner')", name=op.f('ck_shop_invitation_role')),
    sa.ForeignKeyConstraint(['branch_id'], ['branch.id'], name=op.f('fk_shop_invitation_branch_id_branch'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['invited_by'], ['user.id'], name=op.f('fk_shop_invitation_invited_by_user'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['shop_id'], ['shop.id'], name=op.f('fk_shop_invitation_shop_id_shop'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shop_invitation')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_shop_invitation_token_hash'))
    )
    op.create_index(op.f('ix_shop_invitation_shop_id'), 'shop_invitation', ['shop_id'], unique=False)
    op.create_table('shop_activity',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shop_id', sa.Uuid(), nullable=False),
    sa.Column('user_id', sa.Uuid(), nullable=True),
    sa.Column('branch_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('detail', sa.String(length=300), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['branch_id'], ['branch.id'], name=op.f('fk_shop_activity_branch_id_branch'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['shop_id'], ['shop.id'], name=op.f('fk_shop_activity_shop_id_shop'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_shop_activity_user_id_user'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shop_activity'))
    )
    op.create_index(op.f('ix_shop_activity_created_at'), 'shop_activity', ['created_at'], unique=False)
    op.create_index('ix_shop_activity_shop_id_created_at', 'shop_activity', ['shop_id', 'created_at'], unique=False)


def downgrade():
    op.drop_index('ix_shop_activity_shop_id_created_at', table_name='shop_activity')
    op.drop_index(op.f('ix_shop_activity_created_at'), table_name='shop_activity')
    op.drop_table('shop_activity')
    op.drop_index(op.f('ix_shop_invitation_shop_id'), table_name='shop_invitation')
    op.drop_table('shop_invitation')
