"""changelog: what changed in the product, written by the release automation

Revision ID: d4e6f8a0b2c3
Revises: c3d5e7f9a1b2
Create Date: 2026-11-25 13:00:00.000000

"""
from alembic import op
import sqlalchemy as sa

import app.core.db


# revision identifiers, used by Alembic.
revision = 'd4e6f8a0b2c3'
down_revision = 'c3d5e7f9a1b2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'changelog_entry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('title', sa.String(length=200), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('change_type', sa.String(length=20), nullable=False),
        sa.Column('version', sa.String(length=40), nullable=True),
        sa.Column('created_at', app.core.db.UTCDateTime(), nullable=False),
        sa.CheckConstraint("change_type IN ('feature', 'improvement', 'fix', 'security', 'catalog')",
                           name=op.f('ck_changelog_entry_change_type')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_changelog_entry')),
    )
    op.create_index(op.f('ix_changelog_entry_created_at'), 'changelog_entry', ['created_at'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_changelog_entry_created_at'), table_name='changelog_entry')
    op.drop_table('changelog_entry')
