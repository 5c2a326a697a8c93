"""part fit: each part's applicability and fit answer, each leaf's fit counts, dealers' answers to fit questions,
their per-dealer fits and their "only what fits" switch

Revision ID: a3c5e7f9b1d2
Revises: e7a1c3b5d9f2
Create Date: 2026-11-26 02:10:00.000000

"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = 'a3c5e7f9b1d2'
down_revision = 'e7a1c3b5d9f2'
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade():
    # Nullable columns with no default: the batches add them in place on SQLite too (no table copy).
    with op.batch_alter_table('part') as batch:
        batch.add_column(sa.Column('applicability', JSON, nullable=True))
        batch.add_column(sa.Column('fit_status', sa.String(length=5), nullable=True))
        batch.add_column(sa.Column('fit', JSON, nullable=True))
    with op.batch_alter_table('category') as batch:
        batch.add_column(sa.Column('fit_yes', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('fit_no', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('fit_maybe', sa.Integer(), nullable=True))
    op.create_table(
        'fit_answer',
        sa.Column('vehicle_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Uuid(), nullable=False),
        sa.Column('fact', sa.String(length=80), nullable=False),
        sa.Column('value', JSON, nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_fit_answer_user_id_user'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(
            ['vehicle_id'], ['vehicle.id'], name=op.f('fk_fit_answer_vehicle_id_vehicle'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('vehicle_id', 'user_id', 'fact', name=op.f('pk_fit_answer')),
    )
    op.create_table(
        'part_fit',
        sa.Column('user_id', sa.Uuid(), nullable=False),
        sa.Column('part_id', sa.Integer(), nullable=False),
        sa.Column('vehicle_id', sa.Integer(), nullable=False),
        sa.Column('category_id', sa.Integer(), nullable=False),
        sa.Column('fit_status', sa.String(length=5), nullable=False),
        sa.Column('fit', JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ['category_id'], ['category.id'], name=op.f('fk_part_fit_category_id_category'), ondelete='CASCADE'
        ),
        sa.ForeignKeyConstraint(['part_id'], ['part.id'], name=op.f('fk_part_fit_part_id_part'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_part_fit_user_id_user'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(
            ['vehicle_id'], ['vehicle.id'], name=op.f('fk_part_fit_vehicle_id_vehicle'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('user_id', 'part_id', name=op.f('pk_part_fit')),
    )
    op.create_index('ix_part_fit_user_id_vehicle_id', 'part_fit', ['user_id', 'vehicle_id', 'category_id'])
    op.create_table(
        'fit_preference',
        sa.Column('user_id', sa.Uuid(), nullable=False),
        sa.Column('fitting_only', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ['user_id'], ['user.id'], name=op.f('fk_fit_preference_user_id_user'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('user_id', name=op.f('pk_fit_preference')),
    )


def downgrade():
    op.drop_table('fit_preference')
    op.drop_index('ix_part_fit_user_id_vehicle_id', table_name='part_fit')
    op.drop_table('part_fit')
    op.drop_table('fit_answer')
    # ALTER TABLE ... DROP COLUMN, not a batch: on SQLite a batch drop copies the table and loses its expression
    # indexes (uq_category_node, uq_part_row).
    for column in ('fit_maybe', 'fit_no', 'fit_yes'):
        op.drop_column('category', column)
    for column in ('fit', 'fit_status', 'applicability'):
        op.drop_column('part', column)
