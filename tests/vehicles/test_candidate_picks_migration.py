"""The candidate-picks migration on a database with data (SQLite and PostgreSQL): earlier picks become each dealer's
own, the catalog and the history survive the vehicle table's copy, and the downgrade leaves one vehicle per VIN."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade

from app.core.db import JsonDocument, UTCDateTime
from app.extensions import db
from app.sources.sandbox.catalog import VIN_COROLLA, VIN_GOLF
from app.vehicles.models import QueryLog, UserVehicle
from tests.core.test_migrations import empty_database_url  # noqa: F401 - the fixture used here

REVISION = "dfee03411601"
NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def vehicle_table(*extra: sa.ColumnClause) -> sa.TableClause:
    """The vehicle table as it is before the revision (the models describe it after), with `extra` columns."""
    return sa.table(
        "vehicle",
        sa.column("id", sa.Integer),
        sa.column("vin", sa.String),
        sa.column("brand_name", sa.String),
        sa.column("model", sa.String),
        sa.column("source", sa.String),
        sa.column("raw_data", JsonDocument),
        sa.column("created_at", UTCDateTime),
        *extra,
    )


VEHICLE_BEFORE = vehicle_table()
VEHICLE_AFTER = vehicle_table(sa.column("candidate_key", sa.String))
CATEGORY = sa.table(
    "category",
    sa.column("id", sa.Integer),
    sa.column("vehicle_id", sa.Integer),
    sa.column("source", sa.String),
    sa.column("external_id", sa.String),
    sa.column("name", sa.String),
    sa.column("unavailable", sa.Boolean),
    sa.column("model_codes", JsonDocument),
    sa.column("presel", sa.Boolean),
    sa.column("is_leaf", sa.Boolean),
    sa.column("sort_order", sa.Integer),
    sa.column("search_name", sa.String),
)


def add_vehicle(vin: str, car_id: str, table: sa.TableClause = VEHICLE_BEFORE, **columns) -> int:
    """A stored vehicle with one category of its catalog."""
    values = {"vin": vin, "brand_name": "Toyota", "model": "Corolla", "source": "catapi", "created_at": NOW}
    row = {**values, "raw_data": {"carId": car_id}, **columns}
    vehicle_id = db.session.execute(sa.insert(table).values(row).returning(table.c.id)).scalar_one()
    db.session.execute(
        sa.insert(CATEGORY).values(
            vehicle_id=vehicle_id,
            source="catapi",
            external_id="1",
            name="Motor",
            unavailable=False,
            model_codes=[],
            presel=False,
            is_leaf=False,
            sort_order=0,
            search_name="motor",
        )
    )
    return vehicle_id


def log(user_id, vin: str, result_kind: str, pick: str = "none") -> None:
    timings = {"wmi": vin[:3], "result_kind": result_kind, "candidate_pick": pick}
    db.session.execute(
        sa.insert(QueryLog.__table__).values(
            user_id=user_id, vin=vin, success=True, response_time_ms=5, timings=timings, created_at=NOW
        )
    )


# The history table as it was at that revision (keyed by the user; by the shop since issue 41).
EARLIER_HISTORY = sa.table(
    "user_vehicle",
    sa.column("user_id", UserVehicle.__table__.c.user_id.type),
    sa.column("vehicle_id", sa.Integer()),
    sa.column("last_decoded_at", UserVehicle.__table__.c.last_decoded_at.type),
)


def link(user_id, vehicle_id: int) -> None:
    db.session.execute(sa.insert(EARLIER_HISTORY).values(user_id=user_id, vehicle_id=vehicle_id, last_decoded_at=NOW))


def count(table: str) -> int:
    return db.session.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar_one()  # noqa: S608 - our own names


def rows(sql: str) -> list[tuple]:
    return [tuple(row) for row in db.session.execute(sa.text(sql))]


def add_user(email: str, name: str) -> uuid.UUID:
    """A user row as the schema before the revision has it (the model may have columns added since)."""
    user_id = uuid.uuid4()
    table = sa.table(
        "user", *(sa.column(name) for name in ("id", "email", "name", "email_verified", "role", "status")),
        sa.column("referral_credit_days"), sa.column("referral_code"), sa.column("created_at"), sa.column("updated_at"),
    )  # fmt: skip
    now = datetime.now(UTC)
    db.session.execute(
        sa.insert(table).values(
            id=user_id if db.engine.dialect.name == "postgresql" else user_id.hex,
            email=email,
            name=name,
            email_verified=True,
            role="user",
            status="active",
            referral_credit_days=0,
            referral_code=uuid.uuid4().hex[:8].upper(),
            created_at=now,
            updated_at=now,
        )  # fmt: skip
    )
    return user_id


@pytest.mark.no_isolation
def test_earlier_picks_become_each_dealers_own_and_the_downgrade_keeps_one_vehicle_per_vin(
    make_app,
    empty_database_url,  # noqa: F811
):
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    with app.app_context():
        script = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())
        before = script.get_revision(REVISION).down_revision
        upgrade(revision=before)
        picker_id, follower_id = add_user("secen@example.com", "Seçen"), add_user("sonraki@example.com", "Sonraki")
        corolla = add_vehicle(VIN_COROLLA, "c-2")
        golf = add_vehicle(VIN_GOLF, "g-1", brand_name="Volkswagen", model="Golf")
        log(picker_id, VIN_COROLLA, "catapi_candidates")
        log(picker_id, VIN_COROLLA, "vehicle", pick="catapi")
        log(follower_id, VIN_COROLLA, "vehicle")  # the first dealer's pick, answered to the next one (the old bug)
        log(picker_id, VIN_GOLF, "vehicle")
        for user_id, vehicle_id in ((picker_id, corolla), (follower_id, corolla), (picker_id, golf)):
            link(user_id, vehicle_id)
        db.session.commit()
        db.session.remove()

        upgrade(revision=REVISION)

        keys = dict(rows("SELECT id, candidate_key FROM vehicle"))
        assert keys == {corolla: "catapi:c-2", golf: ""}
        picks = rows("SELECT user_id, vin, vehicle_id FROM vehicle_pick")
        assert [(vin, vehicle_id) for _user, vin, vehicle_id in picks] == [(VIN_COROLLA, corolla)]
        assert str(picks[0][0]).replace("-", "") == picker_id.hex
        assert (count("category"), count("user_vehicle")) == (2, 3)  # the table copy cascaded nothing

        other = add_vehicle(VIN_COROLLA, "c-1", VEHICLE_AFTER, candidate_key="catapi:c-1")  # another dealer's pick
        link(follower_id, other)
        db.session.commit()
        db.session.remove()

        downgrade(revision=before)

        assert sorted(rows("SELECT id FROM vehicle")) == sorted([(corolla,), (golf,)])
        assert (count("category"), count("user_vehicle")) == (2, 3)  # the dropped candidate's went with it
        assert "vehicle_pick" not in sa.inspect(db.engine).get_table_names()
        db.session.remove()
        with pytest.raises(sa.exc.IntegrityError):  # the VIN is unique again
            add_vehicle(VIN_GOLF, "g-2")
        db.session.rollback()
        db.session.remove()
        db.engine.dispose()
