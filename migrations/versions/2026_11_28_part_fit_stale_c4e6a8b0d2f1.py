"""part fit stale: rows whose fit answer predates the rules in force are marked for the fit-recompute jobs

A part row whose catalog states no applicability was stored as a yes; it is a maybe ("not known") now. Such rows get a
null status, as rows stored before the fit answer existed have, and their leaves' counts are cleared: until the
fit-recompute jobs (app.catalog.fit.recompute, queued by the scheduler's sweep, a starting worker, or `flask catalog
refit`) reach them, the pages read them as a maybe, never a yes. A partial index finds the waiting rows.

Revision ID: c4e6a8b0d2f1
Revises: c4e1a7b93d05
Create Date: 2026-11-28 02:40:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'c4e6a8b0d2f1'
down_revision = 'c4e1a7b93d05'
branch_labels = None
depends_on = None

# app.catalog.models.FIT_STALE: the same text in the queries and the index, so that both backends use it.
STALE = sa.text("fit_status IS NULL OR (fit_status = 'yes' AND (fit IS NULL OR CAST(fit AS TEXT) = 'null'))")


def upgrade():
    # A JSON null (what the earlier rule wrote for "no applicability") reads as the text 'null' on both backends.
    op.execute(
        "UPDATE part SET fit_status = NULL, fit = NULL "
        "WHERE fit_status IS NOT NULL AND (applicability IS NULL OR CAST(applicability AS TEXT) = 'null')"
    )
    op.execute(
        "UPDATE category SET fit_yes = NULL, fit_no = NULL, fit_maybe = NULL "
        "WHERE id IN (SELECT category_id FROM part WHERE fit_status IS NULL)"
    )
    op.create_index('ix_part_fit_stale', 'part', ['id'], postgresql_where=STALE, sqlite_where=STALE)


def downgrade():
    # The rows keep their marks: the recomputed answers are right under the earlier code too.
    op.drop_index('ix_part_fit_stale', table_name='part')
