"""Alembic environment for Flask-Migrate: the app's engine and its models' metadata."""

import logging
from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context
from flask import current_app

config = context.config
# Keep the application's loggers alive when migrations run inside a process that already configured logging.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db
config.set_main_option("sqlalchemy.url", target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"))


def run_migrations_offline():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"), target_metadata=target_db.metadata, literal_binds=True
    )
    with context.begin_transaction():
        context.run_migrations()


def render_item(type_, obj, autogen_context):
    """Write our column types (TypeDecorators) as the plain SQLAlchemy type they store, so revisions stand alone."""
    if type_ == "type" and isinstance(obj, sa.types.TypeDecorator):
        return f"sa.{obj.impl!r}"
    return False


def run_migrations_online():
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", process_revision_directives)
    conf_args.setdefault("compare_type", True)
    conf_args.setdefault("render_item", render_item)

    with target_db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A batch migration copies a table, drops the old one and renames the copy: with foreign keys enforced,
            # SQLite's DROP TABLE deletes its rows first and so fires every ON DELETE CASCADE that points at it (the
            # user table's sessions, quotes, history). The pragma only takes effect outside a transaction; the keys
            # are checked once every migration has run. Set on the driver's connection: a statement through
            # SQLAlchemy would begin a transaction first (the engine's "begin" listener), and inside one the pragma
            # is silently ignored.
            _pragma(connection, "foreign_keys=OFF")
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"the migrations left rows whose foreign keys point nowhere: {broken[:5]}")
        if sqlite:
            # Alembic leaves SQLite's (non-transactional DDL) last transaction to the connection: end it, or the pragma
            # is ignored and the pooled connection goes back to the app with its foreign keys off.
            if connection.in_transaction():
                connection.commit()
            _pragma(connection, "foreign_keys=ON")


def _pragma(connection, setting):
    """Run a SQLite pragma outside any transaction (the driver's connection is in autocommit, app.core.db)."""
    driver = connection.connection.driver_connection
    if driver.in_transaction:
        driver.commit()
    cursor = driver.cursor()
    try:
        cursor.execute(f"PRAGMA {setting}")
    finally:
        cursor.close()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
