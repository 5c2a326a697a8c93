"""Migrations apply to an empty database, match the models, and downgrade cleanly (SQLite and PostgreSQL)."""

import os
import warnings

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade

from app.extensions import db
from tests.support.databases import empty_database


@pytest.fixture
def empty_database_url(tmp_path):
    with empty_database(tmp_path, "migrations") as url:
        yield url


@pytest.fixture
def empty_app(make_app, empty_database_url):
    """An app on an empty database of its own, for a migration's test to upgrade step by step."""
    return make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)


def _schema_diff() -> list:
    with warnings.catch_warnings():
        # SQLite cannot reflect expression indexes (the parts' nulls-equal unique index): PostgreSQL compares them.
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        warnings.filterwarnings("ignore", "autogenerate skipping metadata-specified expression-based index")
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return compare_metadata(context, db.metadata)


def _current_revision() -> str | None:
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


@pytest.mark.no_isolation
def test_upgrade_from_empty_matches_models_and_downgrade_removes_everything(make_app, empty_database_url):
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    with app.app_context():
        head = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config()).get_current_head()

        upgrade()
        assert _current_revision() == head
        assert _schema_diff() == []

        downgrade(revision="base")
        assert _current_revision() is None
        assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}

        upgrade()
        assert _schema_diff() == []
        db.session.remove()
        db.engine.dispose()


def test_every_revision_is_date_prefixed_and_in_one_line_of_history(app):
    script = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())
    revisions = list(script.walk_revisions())

    assert len(script.get_heads()) == 1
    for revision in revisions:
        filename = os.path.basename(revision.path)
        assert filename[:11].replace("_", "").isdigit(), filename
