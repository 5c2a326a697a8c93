"""Live servers over the JSON API (schemathesis, the generated client): real commits, cleaned up afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask

from app import create_app
from app.extensions import db, redis_store
from app.sources.sandbox.catalog import VIN_GOLF
from tests.support.payments import WEBHOOK_SECRET


def _primary_keys(table: sa.Table) -> set[tuple]:
    columns = list(table.primary_key.columns)
    return set(db.session.execute(sa.select(*columns)).all()) if columns else set()


@pytest.fixture(scope="module")
def database_snapshot(app) -> Iterator[None]:
    """Delete afterwards every row the run committed (sign-ups, sessions, decodes, payments...), children first."""
    with app.app_context():
        before = {table.name: _primary_keys(table) for table in db.metadata.sorted_tables}
        db.session.remove()
    yield
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            columns = list(table.primary_key.columns)
            for key in _primary_keys(table) - before[table.name]:
                db.session.execute(
                    sa.delete(table).where(*(column == value for column, value in zip(columns, key, strict=True)))
                )
        db.session.commit()
        db.session.remove()
        redis_store.client.flushdb()


def live_server_app(base_config: dict, upstream_settings: dict, stripe_url: str, internal_token: str) -> Flask:
    """The app a live API server runs: the upstream sandboxes, the card sandbox, the founder's token."""
    return create_app(
        {
            **base_config,
            **upstream_settings,
            "RATELIMIT_ENABLED": False,  # hundreds of calls a minute from one address are the point here
            "INTERNAL_API_TOKEN": internal_token,
            "STRIPE_SECRET_KEY": "sk_test_x",
            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "STRIPE_API_BASE": stripe_url,
            "CHECKOUT_ORIGIN": stripe_url,
            "DEMO_VIN": VIN_GOLF,
        }
    )
