"""The writes every decode makes, as Core statements built once (so compiled once): its query-log row and the
shop's history link (the member who decoded recorded on both). Built per call through the ORM, they cost more than
the database's work on the cached path."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.core.autocommit import AutocommitStatement
from app.core.db import utcnow
from app.sources.base import Car
from app.vehicles.models import QueryLog, UserVehicle

HISTORY_TOUCH = timedelta(seconds=60)  # a link moved up more recently than this is left as it is

LOG_INSERT = sa.insert(QueryLog.__table__)
LOG_COLUMNS = frozenset(
    (
        "user_id",
        "shop_id",
        "branch_id",
        "vin",
        "brand_id",
        "source",
        "success",
        "error_message",
        "response_time_ms",
        "timings",
        "created_at",
    )
)
_STATEMENTS: dict[str, Any] = {}  # built on first use


def log_and_link(connection: sa.Connection, row: dict[str, Any], vehicle_id: int | None) -> None:
    """Write the log row and put the vehicle at the top of the shop's history; a link moved up less than a minute
    ago stays as it is, so a shop decoding one VIN again and again rewrites (and locks) no row (nor its member)."""
    if vehicle_id is None:
        connection.execute(LOG_INSERT, row)
        return
    link = _link_parameters(row, vehicle_id)
    if connection.dialect.name == "postgresql":
        connection.execute(_statement("postgresql", _postgresql_log_and_link), {**link, **_prefixed(row)})
        return
    connection.execute(LOG_INSERT, row)
    connection.execute(_statement("sqlite", _sqlite_link), link)


def log_and_link_alone(session: Session, row: dict[str, Any], vehicle_id: int) -> bool:
    """The log row and the history link as one statement that is its own transaction, on PostgreSQL apart from the
    session (a found car's cached decode writes nothing else); False, nothing written, where that cannot be had."""
    return _LOG_AND_LINK_ALONE.run(session, {**_link_parameters(row, vehicle_id), **_prefixed(row)})


def _link_parameters(row: dict[str, Any], vehicle_id: int) -> dict[str, Any]:
    # Parameter names that are no column's: an UPDATE would read a column-named parameter as a value to SET.
    return {
        "link_shop_id": row["shop_id"],
        "link_user_id": row["user_id"],
        "link_vehicle_id": vehicle_id,
        "now": row["created_at"],
        "stale_before": row["created_at"] - HISTORY_TOUCH,
    }


def _statement(name: str, build: Any) -> Any:
    if name not in _STATEMENTS:
        _STATEMENTS[name] = build()
    return _STATEMENTS[name]


def _prefixed(row: dict[str, Any]) -> dict[str, Any]:
    return {f"log_{key}": value for key, value in row.items()}


def _link_values() -> dict[str, Any]:
    return {
        "shop_id": sa.bindparam("link_shop_id"),
        "user_id": sa.bindparam("link_user_id"),
        "vehicle_id": sa.bindparam("link_vehicle_id"),
        "last_decoded_at": sa.bindparam("now"),
    }


def _stale_before() -> Any:
    return sa.bindparam("stale_before", type_=UserVehicle.__table__.c.last_decoded_at.type)


def _sqlite_link() -> Any:
    """One upsert: SQLite's transaction holds the database's write lock anyway, so no row lock is at stake."""
    table = UserVehicle.__table__
    insert = sqlite.insert(table)
    return insert.values(_link_values()).on_conflict_do_update(
        index_elements=[table.c.shop_id, table.c.vehicle_id],
        set_={"user_id": insert.excluded.user_id, "last_decoded_at": insert.excluded.last_decoded_at},
        where=table.c.last_decoded_at < _stale_before(),
    )


def _postgresql_log_and_link() -> Any:
    """One statement, one round trip: the log row and a stale link's move as data-modifying CTEs, then the link's
    insert that does nothing when it exists. An upsert would lock the link's row even when it is fresh, so one
    dealer's concurrent decodes of a VIN would queue on it."""
    table = UserVehicle.__table__
    moved = (
        sa.update(table)
        .where(
            table.c.shop_id == sa.bindparam("link_shop_id"),
            table.c.vehicle_id == sa.bindparam("link_vehicle_id"),
            table.c.last_decoded_at < _stale_before(),
        )
        .values(user_id=sa.bindparam("link_user_id"), last_decoded_at=sa.bindparam("now"))
        .cte("moved")
    )
    # Log rows and history links need not wait for their WAL flush: a crash can lose their last fraction of a second,
    # never corrupt anything (SQLite's synchronous=NORMAL is the same trade). Set inside the statement, so it holds
    # when the statement is its own transaction too; the link's row is selected from it, so it is evaluated.
    not_durable = sa.select(sa.func.set_config("synchronous_commit", "off", True).label("set")).cte("not_durable")
    link = sa.select(
        sa.bindparam("link_shop_id", type_=table.c.shop_id.type),
        sa.bindparam("link_user_id", type_=table.c.user_id.type),
        sa.bindparam("link_vehicle_id", type_=table.c.vehicle_id.type),
        sa.bindparam("now", type_=table.c.last_decoded_at.type),
    ).select_from(not_durable)
    insert = postgresql.insert(table).from_select(["shop_id", "user_id", "vehicle_id", "last_decoded_at"], link)
    return insert.on_conflict_do_nothing(index_elements=[table.c.shop_id, table.c.vehicle_id]).add_cte(
        not_durable, _log_cte(), moved
    )


_LOG_AND_LINK_ALONE = AutocommitStatement(_postgresql_log_and_link)


def _log_cte() -> Any:
    table = QueryLog.__table__
    columns = [column for column in table.c if column.name in LOG_COLUMNS]
    return (
        sa.insert(table)
        .values({column.name: sa.bindparam(f"log_{column.name}", type_=column.type) for column in columns})
        .cte("log")
    )


# The query log's error_message for each failed answer's kind.
ERROR_LOG_TEXT = {
    "unknown": "vin_not_recognised",
    "no_catalog": "identified_no_catalog",
    "brand_unsupported": "brand_unsupported",
    "aborted": "aborted",
    "unavailable": "sources_unavailable",
    "busy": "decode_busy",
    "store_down": "decode_unavailable",
}


def vehicle_row(vin: str, car: Car, brand_id: int, brand_name: str, candidate_key: str = "") -> dict[str, Any]:
    """The vehicle row a decode stores for a source's car (the demo seed stores the same)."""
    return {
        "vin": vin,
        "candidate_key": candidate_key,
        "brand_id": brand_id,
        "brand_name": brand_name,
        "model": car.model,
        "year": car.year,
        "engine": car.engine,
        "source": car.source,
        "raw_data": {
            "carId": car.car_id,
            "catalogId": car.catalog_id,
            "criteria": car.criteria,
            "parameters": car.parameters,
            **car.raw,
        },
        "created_at": utcnow(),
    }
