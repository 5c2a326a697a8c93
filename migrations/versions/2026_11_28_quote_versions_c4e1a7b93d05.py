"""quote versions: a shared quote is frozen, a change is made on a new version (version_of, version), and the shop's
name and phone are kept as they were sent (sent_shop_name, sent_phone)

Revision ID: c4e1a7b93d05
Revises: a98a08ad2561
Create Date: 2026-11-28 02:40:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'c4e1a7b93d05'
down_revision = 'a98a08ad2561'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('quote', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version_of', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))
        batch_op.add_column(sa.Column('sent_shop_name', sa.String(length=120), nullable=True))
        batch_op.add_column(sa.Column('sent_phone', sa.String(length=40), nullable=True))
        batch_op.create_index(batch_op.f('ix_quote_version_of'), ['version_of'], unique=False)
        batch_op.create_foreign_key(
            batch_op.f('fk_quote_version_of_quote'), 'quote', ['version_of'], ['id'], ondelete='SET NULL'
        )


def downgrade():
    with op.batch_alter_table('quote', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_quote_version_of_quote'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_quote_version_of'))
        batch_op.drop_column('sent_phone')
        batch_op.drop_column('sent_shop_name')
        batch_op.drop_column('version')
        batch_op.drop_column('version_of')
