"""The migration that gives the shelf and the quotes to the shop (d5a1c0ffee12), with data in the tables: a dealer's
imports, list in use, mapping, quote settings and quotes become his shop's and his branch's, and go back to him on a
downgrade (SQLite and PostgreSQL)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from app.extensions import db
from tests.core.test_migrations import empty_database_url  # noqa: F401 - fixture used here

BEFORE_SHOPS = "c4e1f7a2b9d3"
SHOPS = "d5a1c0ffee01"
NOW = datetime(2026, 11, 1, tzinfo=UTC)


def _table(name: str, *columns: sa.Column) -> sa.TableClause:
    return sa.table(name, *columns)


USER = _table(
    "user",
    sa.column("id", sa.Uuid),
    sa.column("email", sa.String),
    sa.column("name", sa.String),
    sa.column("email_verified", sa.Boolean),
    sa.column("role", sa.String),
    sa.column("status", sa.String),
    sa.column("referral_credit_days", sa.Integer),
    sa.column("referral_code", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("updated_at", sa.DateTime(timezone=True)),
)
IMPORT = _table(
    "shelf_import",
    *(sa.column(name, sa.Integer) for name in ("id", "size_bytes", "rows_total", "rows_done", "rows_imported")),
    sa.column("rows_failed", sa.Integer),
    sa.column("user_id", sa.Uuid),
    sa.column("filename", sa.String),
    sa.column("file_kind", sa.String),
    sa.column("status", sa.String),
    sa.column("errors", sa.JSON),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
ITEM = _table("shelf_item", sa.column("import_id", sa.Integer), sa.column("line", sa.Integer),
              sa.column("oem_code", sa.String), sa.column("currency", sa.String))  # fmt: skip
ACTIVE = _table("shelf_active", sa.column("user_id", sa.Uuid), sa.column("import_id", sa.Integer),
                sa.column("activated_at", sa.DateTime(timezone=True)))  # fmt: skip
MAPPING = _table("shelf_mapping", sa.column("user_id", sa.Uuid), sa.column("mapping", sa.JSON),
                 sa.column("updated_at", sa.DateTime(timezone=True)))  # fmt: skip
PROFILE = _table("quote_profile", sa.column("user_id", sa.Uuid), sa.column("shop_name", sa.String),
                 sa.column("kdv_rate", sa.Numeric))  # fmt: skip
QUOTE = _table(
    "quote",
    sa.column("id", sa.Integer),
    sa.column("user_id", sa.Uuid),
    sa.column("vehicle_title", sa.String),
    sa.column("status", sa.String),
    sa.column("kdv_rate", sa.Numeric),
    sa.column("version", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("updated_at", sa.DateTime(timezone=True)),
)


def _dealer(connection, number: int) -> uuid.UUID:
    user_id = uuid.uuid4()
    connection.execute(
        USER.insert().values(
            id=user_id, email=f"bayi{number}@example.com", name=f"Bayi {number}", email_verified=True, role="user",
            status="active", referral_credit_days=0, referral_code=f"KOD{number}", created_at=NOW, updated_at=NOW,
        )
    )  # fmt: skip
    import_id = 10 + number
    connection.execute(
        IMPORT.insert().values(
            id=import_id, size_bytes=1, rows_total=1, rows_done=1, rows_imported=1, rows_failed=0, user_id=user_id,
            filename=f"liste{number}.csv", file_kind="csv", status="done", errors=[], created_at=NOW,
        )
    )  # fmt: skip
    connection.execute(ITEM.insert().values(import_id=import_id, line=2, oem_code=f"OEM{number}", currency="TRY"))
    connection.execute(ACTIVE.insert().values(user_id=user_id, import_id=import_id, activated_at=NOW))
    connection.execute(MAPPING.insert().values(user_id=user_id, mapping={"oem": number}, updated_at=NOW))
    connection.execute(PROFILE.insert().values(user_id=user_id, shop_name=f"Dükkân {number}", kdv_rate=20))
    connection.execute(
        QUOTE.insert().values(id=20 + number, user_id=user_id, vehicle_title="", status="draft", kdv_rate=20,
                              version=1, created_at=NOW, updated_at=NOW)
    )  # fmt: skip
    return user_id


def _rows(sql: str) -> set[tuple]:
    with db.engine.connect() as connection:
        return {tuple(str(value).replace("-", "") for value in row) for row in connection.execute(sa.text(sql))}


def _hex(value) -> str:
    return str(value).replace("-", "")


@pytest.mark.no_isolation
def test_the_shelf_and_the_quotes_become_the_shop_s_and_go_back(make_app, empty_database_url):  # noqa: F811
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    with app.app_context():
        upgrade(revision=BEFORE_SHOPS)
        with db.engine.begin() as connection:
            dealers = [_dealer(connection, number) for number in (1, 2)]

        upgrade()
        branches = dict(_rows("SELECT shop_id, id FROM branch"))
        shops = [_hex(dealer) for dealer in dealers]
        assert _rows("SELECT id, shop_id, branch_id, user_id FROM shelf_import") == {
            ("11", shops[0], branches[shops[0]], shops[0]),
            ("12", shops[1], branches[shops[1]], shops[1]),
        }
        assert _rows("SELECT import_id, oem_code FROM shelf_item") == {("11", "OEM1"), ("12", "OEM2")}
        assert _rows("SELECT branch_id, shop_id, import_id FROM shelf_active") == {
            (branches[shops[0]], shops[0], "11"),
            (branches[shops[1]], shops[1], "12"),
        }
        assert _rows("SELECT shop_id, shop_name FROM quote_profile") == {(shops[0], "Dükkân 1"), (shops[1], "Dükkân 2")}
        assert {row[0] for row in _rows("SELECT shop_id FROM shelf_mapping")} == set(shops)
        assert _rows("SELECT id, shop_id, branch_id, user_id FROM quote") == {
            ("21", shops[0], branches[shops[0]], shops[0]),
            ("22", shops[1], branches[shops[1]], shops[1]),
        }

        downgrade(revision=SHOPS)
        assert _rows("SELECT user_id, import_id FROM shelf_active") == {(shops[0], "11"), (shops[1], "12")}
        assert _rows("SELECT user_id, shop_name FROM quote_profile") == {(shops[0], "Dükkân 1"), (shops[1], "Dükkân 2")}
        assert {row[0] for row in _rows("SELECT user_id FROM shelf_mapping")} == set(shops)
        assert _rows("SELECT id, user_id FROM quote") == {("21", shops[0]), ("22", shops[1])}
        assert _rows("SELECT import_id, oem_code FROM shelf_item") == {("11", "OEM1"), ("12", "OEM2")}

        downgrade(revision="base")
        db.session.remove()
        db.engine.dispose()
