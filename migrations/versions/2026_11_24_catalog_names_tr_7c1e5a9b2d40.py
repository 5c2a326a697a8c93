"""catalog names in two languages: the upstream name's language, its Turkish text and the dictionary version that
made it; the user's interface language; admin-added dictionary terms

Revision ID: 7c1e5a9b2d40
Revises: dfee03411601
Create Date: 2026-11-24 01:10:00.000000

"""
from alembic import op
import sqlalchemy as sa

import app.core.db


# revision identifiers, used by Alembic.
revision = '7c1e5a9b2d40'
down_revision = 'dfee03411601'
branch_labels = None
depends_on = None

NAME_COLUMNS = ('name_lang', 'name_tr', 'name_tr_complete', 'translation_version')


def _name_columns():
    return [
        sa.Column('name_lang', sa.String(length=2), server_default='en', nullable=False),
        sa.Column('name_tr', sa.String(length=400), nullable=True),
        sa.Column('name_tr_complete', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('translation_version', sa.String(length=40), nullable=True),
    ]


def upgrade():
    # Only added columns (with defaults): SQLite adds them in place, keeping the expression indexes uq_category_node
    # and uq_part_row that a batch table copy would lose.
    for column in [*_name_columns(), sa.Column('translated_at', app.core.db.UTCDateTime(), nullable=True)]:
        op.add_column('category', column)
    for column in _name_columns():
        op.add_column('part', column)
    op.add_column('user', sa.Column('locale', sa.String(length=5), nullable=True))
    # The portal writes Turkish: its names are their own Turkish text. English names are translated by
    # `flask catalog retranslate` (the tr- jobs), which the upgrade notes in the README ask for.
    op.execute(
        "UPDATE category SET name_lang = 'tr', name_tr = name, name_tr_complete = true, translation_version = 'source'"
        " WHERE source = 'portal'"
    )
    op.execute(
        "UPDATE part SET name_lang = 'tr', name_tr = name, name_tr_complete = true, translation_version = 'source'"
        " WHERE category_id IN (SELECT id FROM category WHERE source = 'portal')"
    )
    op.create_table(
        'translation_term',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('english', sa.String(length=120), nullable=False),
        sa.Column('turkish', sa.String(length=120), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('possessive', sa.String(length=120), nullable=True),
        sa.Column('created_by', sa.Uuid(), nullable=True),
        sa.Column('created_at', app.core.db.UTCDateTime(), nullable=False),
        sa.Column('updated_at', app.core.db.UTCDateTime(), nullable=False),
        sa.CheckConstraint("kind IN ('noun', 'modifier')", name=op.f('ck_translation_term_kind')),
        sa.ForeignKeyConstraint(['created_by'], ['user.id'], name=op.f('fk_translation_term_created_by_user'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_translation_term')),
        sa.UniqueConstraint('english', name=op.f('uq_translation_term_english')),
    )


def downgrade():
    op.drop_table('translation_term')
    op.drop_column('user', 'locale')
    # DROP COLUMN in place (SQLite 3.35+), not a batch: a batch copy would lose the expression indexes.
    for column in NAME_COLUMNS:
        op.drop_column('part', column)
    for column in (*NAME_COLUMNS, 'translated_at'):
        op.drop_column('category', column)
