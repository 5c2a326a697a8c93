"""baseline: the root of the revision chain; each capability adds its tables in a revision of its own.

Revision ID: f4dfba80f4ed
Revises: 
Create Date: 2026-11-22 02:48:27.789705

"""
# revision identifiers, used by Alembic.
revision = 'f4dfba80f4ed'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
