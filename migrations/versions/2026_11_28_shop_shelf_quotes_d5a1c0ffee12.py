"""shop shelf and quotes: stock lists per branch of a shop, quotes and their settings of the shop

Revision ID: d5a1c0ffee12
Revises: d5a1c0ffee11
Create Date: 2026-11-28 15:30:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'd5a1c0ffee12'
down_revision = 'd5a1c0ffee11'
branch_labels = None
depends_on = None

# The migrated shops have the id of their owner and one branch.
ONLY_BRANCH = '(SELECT MIN(branch.id) FROM branch WHERE branch.shop_id = {table}.{column})'
OWNER = (
    '(SELECT MIN(CAST("user".id AS VARCHAR(36))) FROM "user" '
    'WHERE "user".shop_id = {table}.shop_id AND "user".shop_role = \'owner\')'
)


def _add_shop_and_branch(table, branch_nullable, branch_ondelete):
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.add_column(sa.Column('shop_id', sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column('branch_id', sa.Integer(), nullable=True))
    op.execute(f"UPDATE {table} SET shop_id = user_id, branch_id = {ONLY_BRANCH.format(table=table, column='user_id')}")
    op.execute(f"DELETE FROM {table} WHERE branch_id IS NULL")  # a user without a shop (none after d5a1c0ffee01)
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.alter_column('shop_id', existing_type=sa.Uuid(), nullable=False)
        batch_op.alter_column('branch_id', existing_type=sa.Integer(), nullable=branch_nullable)
        batch_op.create_foreign_key(
            batch_op.f(f'fk_{table}_shop_id_shop'), 'shop', ['shop_id'], ['id'], ondelete='CASCADE'
        )
        batch_op.create_foreign_key(
            batch_op.f(f'fk_{table}_branch_id_branch'), 'branch', ['branch_id'], ['id'], ondelete=branch_ondelete
        )
        batch_op.create_index(batch_op.f(f'ix_{table}_shop_id'), ['shop_id'], unique=False)
        batch_op.create_index(batch_op.f(f'ix_{table}_branch_id'), ['branch_id'], unique=False)


def _drop_shop_and_branch(table):
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.drop_index(batch_op.f(f'ix_{table}_branch_id'))
        batch_op.drop_index(batch_op.f(f'ix_{table}_shop_id'))
        batch_op.drop_constraint(batch_op.f(f'fk_{table}_branch_id_branch'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f(f'fk_{table}_shop_id_shop'), type_='foreignkey')
        batch_op.drop_column('branch_id')
        batch_op.drop_column('shop_id')


def _owner_key_to_shop_key(table):
    """A table keyed by its owner's user id keyed by the shop (the same id for a migrated shop)."""
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f(f'fk_{table}_user_id_user'), type_='foreignkey')
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.alter_column('user_id', new_column_name='shop_id', existing_type=sa.Uuid(), existing_nullable=False)
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.create_foreign_key(
            batch_op.f(f'fk_{table}_shop_id_shop'), 'shop', ['shop_id'], ['id'], ondelete='CASCADE'
        )


def _shop_key_to_owner_key(table):
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f(f'fk_{table}_shop_id_shop'), type_='foreignkey')
    _to_owner(table)
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.alter_column('shop_id', new_column_name='user_id', existing_type=sa.Uuid(), existing_nullable=False)
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.create_foreign_key(
            batch_op.f(f'fk_{table}_user_id_user'), 'user', ['user_id'], ['id'], ondelete='CASCADE'
        )


def _to_owner(table):
    """shop_id holds the shop's owner's id (a shop made since has its own id): rows of a shop without owner go."""
    owners = sa.text(f'SELECT shop_id, {OWNER.format(table=table)} FROM {table}')
    bind = op.get_bind()
    for shop_id, owner in bind.execute(owners).all():
        if owner is None:
            bind.execute(sa.text(f'DELETE FROM {table} WHERE shop_id = :shop'), {'shop': shop_id})
        elif str(owner).replace('-', '') != str(shop_id).replace('-', ''):
            bind.execute(
                sa.text(f'UPDATE {table} SET shop_id = (SELECT id FROM "user" WHERE CAST(id AS VARCHAR(36)) = :owner) '
                        'WHERE shop_id = :shop'),
                {'owner': str(owner), 'shop': shop_id},
            )


def _shelf_active_table(key):
    columns = {
        'user': [sa.Column('user_id', sa.Uuid(), nullable=False)],
        'branch': [sa.Column('branch_id', sa.Integer(), nullable=False), sa.Column('shop_id', sa.Uuid(), nullable=False)],
    }[key]
    op.create_table('shelf_active',
    *columns,
    sa.Column('import_id', sa.Integer(), nullable=False),
    sa.Column('activated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['import_id'], ['shelf_import.id'], name=op.f('fk_shelf_active_import_id_shelf_import'), ondelete='CASCADE'),
    *(
        [sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_shelf_active_user_id_user'), ondelete='CASCADE'),
         sa.PrimaryKeyConstraint('user_id', name=op.f('pk_shelf_active'))]
        if key == 'user' else
        [sa.ForeignKeyConstraint(['branch_id'], ['branch.id'], name=op.f('fk_shelf_active_branch_id_branch'), ondelete='CASCADE'),
         sa.ForeignKeyConstraint(['shop_id'], ['shop.id'], name=op.f('fk_shelf_active_shop_id_shop'), ondelete='CASCADE'),
         sa.PrimaryKeyConstraint('branch_id', name=op.f('pk_shelf_active'))]
    ),
    )
    if key == 'branch':
        op.create_index(op.f('ix_shelf_active_shop_id'), 'shelf_active', ['shop_id'], unique=False)


def upgrade():
    with op.batch_alter_table('shelf_import', schema=None) as batch_op:
        batch_op.drop_index('uq_shelf_import_one_importing_per_user', sqlite_where=sa.text("status = 'importing'"),
                            postgresql_where=sa.text("status = 'importing'"))
    _add_shop_and_branch('shelf_import', False, 'CASCADE')
    with op.batch_alter_table('shelf_import', schema=None) as batch_op:
        batch_op.create_index('uq_shelf_import_one_importing_per_branch', ['shop_id', 'branch_id'], unique=True,
                              sqlite_where=sa.text("status = 'importing'"),
                              postgresql_where=sa.text("status = 'importing'"))

    bind = op.get_bind()
    active = bind.execute(sa.text('SELECT i.shop_id, i.branch_id, a.import_id, a.activated_at FROM shelf_active a '
                                  'JOIN shelf_import i ON i.id = a.import_id')).all()
    op.drop_table('shelf_active')
    _shelf_active_table('branch')
    for row in active:
        bind.execute(sa.text('INSERT INTO shelf_active (shop_id, branch_id, import_id, activated_at) '
                             'VALUES (:shop, :branch, :import_id, :at)'),
                     {'shop': row[0], 'branch': row[1], 'import_id': row[2], 'at': row[3]})

    _owner_key_to_shop_key('shelf_mapping')
    _owner_key_to_shop_key('quote_profile')

    _add_shop_and_branch('quote', True, 'SET NULL')
    with op.batch_alter_table('quote', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sent_branch_name', sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column('sent_branch_address', sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column('sent_branch_phone', sa.String(length=40), nullable=True))


def downgrade():
    with op.batch_alter_table('quote', schema=None) as batch_op:
        batch_op.drop_column('sent_branch_phone')
        batch_op.drop_column('sent_branch_address')
        batch_op.drop_column('sent_branch_name')
    _drop_shop_and_branch('quote')

    _shop_key_to_owner_key('quote_profile')
    _shop_key_to_owner_key('shelf_mapping')

    bind = op.get_bind()
    # A branch's list goes back to the member who imported it; one list per member (the latest).
    active = bind.execute(sa.text('SELECT i.user_id, a.import_id, a.activated_at FROM shelf_active a '
                                  'JOIN shelf_import i ON i.id = a.import_id ORDER BY a.import_id')).all()
    kept = {str(row[0]): row for row in active}
    op.drop_index(op.f('ix_shelf_active_shop_id'), table_name='shelf_active')
    op.drop_table('shelf_active')
    _shelf_active_table('user')
    for row in kept.values():
        bind.execute(sa.text('INSERT INTO shelf_active (user_id, import_id, activated_at) VALUES (:user, :import_id, :at)'),
                     {'user': row[0], 'import_id': row[1], 'at': row[2]})

    with op.batch_alter_table('shelf_import', schema=None) as batch_op:
        batch_op.drop_index('uq_shelf_import_one_importing_per_branch', sqlite_where=sa.text("status = 'importing'"),
                            postgresql_where=sa.text("status = 'importing'"))
    # One import running per user again: the later ones of a user are failed.
    op.execute(
        "UPDATE shelf_import SET status = 'failed' WHERE status = 'importing' AND id > "
        "(SELECT MIN(other.id) FROM shelf_import other WHERE other.user_id = shelf_import.user_id "
        "AND other.status = 'importing')"
    )
    _drop_shop_and_branch('shelf_import')
    with op.batch_alter_table('shelf_import', schema=None) as batch_op:
        batch_op.create_index('uq_shelf_import_one_importing_per_user', ['user_id'], unique=True,
                              sqlite_where=sa.text("status = 'importing'"),
                              postgresql_where=sa.text("status = 'importing'"))
