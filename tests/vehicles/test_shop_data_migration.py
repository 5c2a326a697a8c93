"""The vehicles-and-catalog shop migration on a database with data (SQLite and PostgreSQL): every user's history,
picks, fit answers, part fits, query log and OEM copies move to the shop the shops migration made for them (its id
the user's), with the user kept as the member who did it; the downgrade gives every row back to its user."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from app.core.db import JsonDocument, UTCDateTime
from app.extensions import db
from tests.core.test_migrations import empty_database_url  # noqa: F401 - the fixture used here

REVISION = "d5a1c0ffee11"
SHOPS = "d5a1c0ffee01"  # the shops themselves
BEFORE_SHOPS = "c4e1f7a2b9d3"
NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
SHARED = ("user_vehicle", "vehicle_pick", "fit_answer", "part_fit")
LOGGED = ("query_log", "oem_copy")


def _typed(name: str, value: Any) -> sa.ColumnClause:
    if isinstance(value, uuid.UUID):
        return sa.column(name, sa.Uuid())
    if isinstance(value, dict | list) or name == "value":  # a fit answer's value is a JSON document too
        return sa.column(name, JsonDocument)
    if isinstance(value, datetime):
        return sa.column(name, UTCDateTime)
    return sa.column(name)


def insert(table: str, **values: Any) -> Any:
    """A row as the schema of the moment has it (the models describe the head), its id when it has one."""
    columns = [_typed(name, value) for name, value in values.items()]
    clause = sa.table(table, *columns, *([] if "id" in values else [sa.column("id")]))
    statement = sa.insert(clause).values(values)
    if table in ("user", "vehicle", "category", "part", "query_log", "oem_copy"):
        return db.session.execute(statement.returning(clause.c.id)).scalar_one()
    db.session.execute(statement)
    return None


def add_user(email: str) -> uuid.UUID:
    user_id = uuid.uuid4()
    insert(
        "user", id=user_id, email=email, name=email.split("@")[0], email_verified=True, role="user", status="active",
        referral_credit_days=0, referral_code=uuid.uuid4().hex[:8].upper(), created_at=NOW, updated_at=NOW,
    )  # fmt: skip
    return user_id


def add_catalog() -> tuple[int, int, int]:
    """A vehicle with one leaf and one part row: (vehicle, category, part)."""
    vehicle = insert(
        "vehicle", vin="WVWZZZ1KZAW000125", candidate_key="", brand_name="Volkswagen", model="Golf",
        source="catapi", raw_data={}, created_at=NOW,
    )  # fmt: skip
    category = insert(
        "category", vehicle_id=vehicle, source="catapi", external_id="1", name="Motor", unavailable=False,
        model_codes=[], presel=False, is_leaf=True, sort_order=0, search_name="motor",
    )  # fmt: skip
    part = insert(
        "part", vehicle_id=vehicle, category_id=category, oem_code="06A115561B", name="Oil filter",
        unavailable=False, model_codes=[], label="Oil filter", sort_order=0, search_name="oil filter",
        search_code="06A115561B",
    )  # fmt: skip
    return vehicle, category, part


def add_dealer_rows(user_id: uuid.UUID, vehicle: int, category: int, part: int) -> None:
    insert("user_vehicle", user_id=user_id, vehicle_id=vehicle, last_decoded_at=NOW)
    insert("vehicle_pick", user_id=user_id, vin="WVWZZZ1KZAW000125", vehicle_id=vehicle, picked_at=NOW)
    insert("fit_answer", vehicle_id=vehicle, user_id=user_id, fact="aircon", value=True, answered_at=NOW)
    fit = {"status": "yes", "reasons": []}
    insert(
        "part_fit", user_id=user_id, part_id=part, vehicle_id=vehicle, category_id=category, fit_status="yes", fit=fit
    )
    insert(
        "query_log", user_id=user_id, vin="WVWZZZ1KZAW000125", success=True, response_time_ms=5, timings={},
        created_at=NOW,
    )  # fmt: skip
    insert("oem_copy", user_id=user_id, vehicle_id=vehicle, part_id=part, oem_code="06A115561B", created_at=NOW)


def owners(table: str, column: str) -> list[str]:
    found = db.session.execute(sa.text(f"SELECT {column} FROM {table}")).scalars()  # noqa: S608 - our own names
    return sorted(str(value).replace("-", "") for value in found)


@pytest.mark.no_isolation
def test_every_row_moves_to_its_users_shop_and_back(make_app, empty_database_url):  # noqa: F811
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    with app.app_context():
        upgrade(revision=BEFORE_SHOPS)
        first, second = add_user("birinci@example.com"), add_user("ikinci@example.com")
        vehicle, category, part = add_catalog()
        for user_id in (first, second):
            add_dealer_rows(user_id, vehicle, category, part)
        db.session.commit()
        db.session.remove()
        users = sorted([first.hex, second.hex])

        upgrade(revision=SHOPS)  # every user's shop, its id the user's
        db.session.remove()
        upgrade(revision=REVISION)

        for table in (*SHARED, *LOGGED):
            assert owners(table, "shop_id") == users, table
        for table in (*SHARED[:3], *LOGGED):
            assert owners(table, "user_id") == users, table  # the member who did it
        assert "user_id" not in {column["name"] for column in sa.inspect(db.engine).get_columns("part_fit")}
        db.session.remove()

        downgrade(revision=SHOPS)

        for table in (*SHARED, *LOGGED):
            assert owners(table, "user_id") == users, table
            assert "shop_id" not in {column["name"] for column in sa.inspect(db.engine).get_columns(table)}
        db.session.remove()
        db.engine.dispose()
