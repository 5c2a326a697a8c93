"""catalog search: folded search keys of category and part names and of OEM codes, trigram-indexed on PostgreSQL

Revision ID: 4db4b4c72311
Revises: 65b38ff9b219
Create Date: 2026-11-22 06:26:03.082293

"""
import re
import unicodedata

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4db4b4c72311'
down_revision = '65b38ff9b219'
branch_labels = None
depends_on = None

BATCH = 5000

# A frozen copy of app.catalog.folding as it was when this revision was written, for the rows stored before it.
_TO_ASCII = str.maketrans({"ı": "i", "ğ": "g", "ü": "u", "ş": "s", "ö": "o", "ç": "c"})
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


def _fold(text):
    text = unicodedata.normalize("NFC", text or "").replace("İ", "i").replace("I", "ı").lower().translate(_TO_ASCII)
    return "".join(char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char))


def _fold_code(code):
    return _NOT_ALNUM.sub("", _fold(code))


def _backfill(table, columns):
    """Fill the new keys of the rows already stored, a batch of ids at a time."""
    connection = op.get_bind()
    source = sa.table(table, sa.column("id"), *(sa.column(name) for name in columns.values()))
    target = sa.table(table, sa.column("id"), *(sa.column(key) for key in columns))
    update = (
        sa.update(target)
        .where(target.c.id == sa.bindparam("row_id"))
        .values({key: sa.bindparam(f"new_{key}") for key in columns})
    )
    last = 0
    while True:
        rows = connection.execute(
            sa.select(source).where(source.c.id > last).order_by(source.c.id).limit(BATCH)
        ).mappings().all()
        if not rows:
            return
        connection.execute(
            update,
            [
                {
                    "row_id": row["id"],
                    **{
                        f"new_{key}": (_fold_code if key == "search_code" else _fold)(row[name])
                        for key, name in columns.items()
                    },
                }
                for row in rows
            ],
        )
        last = rows[-1]["id"]


def _search_index(name, table, column):
    op.create_index(name, table, [column], postgresql_using="gin", postgresql_ops={column: "gin_trgm_ops"})


def upgrade():
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        # Trigram indexes let LIKE '%word%' use an index; pg_trgm is a trusted extension (PostgreSQL 13+).
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    # Plain ADD COLUMN (no batch): a batch would copy the tables on SQLite and lose their expression indexes.
    # The '' server default only carries the existing rows until they are filled below.
    op.add_column("category", sa.Column("search_name", sa.String(length=300), nullable=False, server_default=""))
    op.add_column("part", sa.Column("search_name", sa.String(length=300), nullable=False, server_default=""))
    op.add_column("part", sa.Column("search_code", sa.String(length=60), nullable=False, server_default=""))
    _backfill("category", {"search_name": "name"})
    _backfill("part", {"search_name": "name", "search_code": "oem_code"})
    if postgres:
        # Every insert fills the keys itself (column defaults in the models); a row without them should fail loudly.
        # SQLite can only drop a default by copying the table, so it keeps the harmless ''.
        op.alter_column("category", "search_name", server_default=None)
        op.alter_column("part", "search_name", server_default=None)
        op.alter_column("part", "search_code", server_default=None)
    _search_index("ix_category_search_name", "category", "search_name")
    _search_index("ix_part_search_name", "part", "search_name")
    _search_index("ix_part_search_code", "part", "search_code")


def downgrade():
    op.drop_index("ix_part_search_code", table_name="part")
    op.drop_index("ix_part_search_name", table_name="part")
    op.drop_index("ix_category_search_name", table_name="category")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), not a batch copy, for the same reason as above.
    op.drop_column("part", "search_code")
    op.drop_column("part", "search_name")
    op.drop_column("category", "search_name")
    # pg_trgm stays installed: other objects may use it, and keeping an extension changes no table.
