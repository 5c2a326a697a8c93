"""shops: every user becomes the owner of a one-person shop (its id the user's) with one branch, "Merkez"

Revision ID: d5a1c0ffee01
Revises: c4e1f7a2b9d3
Create Date: 2026-11-28 14:30:00.000000

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'd5a1c0ffee01'
down_revision = 'c4e1f7a2b9d3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('shop',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shop'))
    )
    op.create_table('branch',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shop_id', sa.Uuid(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('address', sa.String(length=300), nullable=True),
    sa.Column('phone', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['shop_id'], ['shop.id'], name=op.f('fk_branch_shop_id_shop'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_branch'))
    )
    op.create_index(op.f('ix_branch_shop_id'), 'branch', ['shop_id'], unique=False)
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('shop_id', sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column('shop_role', sa.String(length=10), server_default='owner', nullable=False))
        batch_op.add_column(sa.Column('branch_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f('fk_user_shop_id_shop'), 'shop', ['shop_id'], ['id'], ondelete='RESTRICT'
        )
        batch_op.create_foreign_key(
            batch_op.f('fk_user_branch_id_branch'), 'branch', ['branch_id'], ['id'], ondelete='SET NULL'
        )
        batch_op.create_check_constraint('shop_role', "shop_role IN ('clerk', 'manager', 'owner')")
        batch_op.create_index(batch_op.f('ix_user_shop_id'), ['shop_id'], unique=False)
    op.execute('INSERT INTO shop (id, name, created_at) SELECT id, name, created_at FROM "user"')
    op.execute("INSERT INTO branch (shop_id, name, created_at) SELECT id, 'Merkez', created_at FROM shop")
    op.execute(
        'UPDATE "user" SET shop_id = id, shop_role = \'owner\', '
        'branch_id = (SELECT branch.id FROM branch WHERE branch.shop_id = "user".id)'
    )


def downgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_user_shop_id'))
        batch_op.drop_constraint('shop_role', type_='check')
        batch_op.drop_constraint(batch_op.f('fk_user_branch_id_branch'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_user_shop_id_shop'), type_='foreignkey')
        batch_op.drop_column('branch_id')
        batch_op.drop_column('shop_role')
        batch_op.drop_column('shop_id')
    op.drop_index(op.f('ix_branch_shop_id'), table_name='branch')
    op.drop_table('branch')
    op.drop_table('shop')
