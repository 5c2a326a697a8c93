"""referrals: who brought whom (one referrer per referee, pending until the referee's e-mail is verified) and the
milestone rewards each referrer earned (unique per milestone, so given once)

Revision ID: b71c3e9a4d25
Revises: 8d4f2a6c1e57
Create Date: 2026-11-25 12:00:00.000000

"""
from alembic import op
import sqlalchemy as sa

import app.core.db


# revision identifiers, used by Alembic.
revision = 'b71c3e9a4d25'
down_revision = '8d4f2a6c1e57'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'referral',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('referrer_id', sa.Uuid(), nullable=False),
        sa.Column('referee_id', sa.Uuid(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('created_at', app.core.db.UTCDateTime(), nullable=False),
        sa.Column('qualified_at', app.core.db.UTCDateTime(), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'qualified')", name=op.f('ck_referral_status')),
        sa.ForeignKeyConstraint(['referee_id'], ['user.id'], name=op.f('fk_referral_referee_id_user'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['referrer_id'], ['user.id'], name=op.f('fk_referral_referrer_id_user'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_referral')),
        sa.UniqueConstraint('referee_id', name=op.f('uq_referral_referee_id')),
    )
    op.create_index(op.f('ix_referral_referrer_id'), 'referral', ['referrer_id'], unique=False)
    op.create_table(
        'referral_reward',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('referrer_id', sa.Uuid(), nullable=False),
        sa.Column('every', sa.Integer(), nullable=False),
        sa.Column('reached_at_count', sa.Integer(), nullable=False),
        sa.Column('days', sa.Integer(), nullable=False),
        sa.Column('created_at', app.core.db.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['referrer_id'], ['user.id'], name=op.f('fk_referral_reward_referrer_id_user'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_referral_reward')),
        sa.UniqueConstraint('referrer_id', 'every', 'reached_at_count',
                            name=op.f('uq_referral_reward_referrer_id_every_reached_at_count')),
    )


def downgrade():
    op.drop_table('referral_reward')
    op.drop_index(op.f('ix_referral_referrer_id'), table_name='referral')
    op.drop_table('referral')
