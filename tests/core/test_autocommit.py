"""A hot write run alone on the driver (app.core.autocommit): its own transaction on PostgreSQL, errors as
SQLAlchemy's, pooled connections given back in transactions; elsewhere it runs nothing and says so."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from app.core.autocommit import AutocommitStatement
from app.core.db import utcnow
from app.extensions import db
from app.vehicles.models import QueryLog
from tests.support.committed_dealer import committed_dealer


def _log_insert() -> sa.Executable:
    table = QueryLog.__table__
    return sa.insert(table).values(
        user_id=sa.bindparam("user_id", type_=table.c.user_id.type),
        vin=sa.bindparam("vin"),
        success=sa.literal(True),
        response_time_ms=sa.literal(1),
        timings=sa.bindparam("timings", type_=table.c.timings.type),
        created_at=sa.bindparam("created_at", type_=table.c.created_at.type),
    )


def _values(user_id: uuid.UUID | None) -> dict:
    return {"user_id": user_id, "vin": "WVWZZZAUZHW100001", "timings": {"wmi": "WVW"}, "created_at": utcnow()}


@pytest.mark.no_isolation
def test_runs_alone_on_postgresql_and_gives_its_connection_back_in_transactions(app):
    statement = AutocommitStatement(_log_insert)
    with committed_dealer(app) as dealer, app.app_context():
        committed_user = dealer.id
        mine = sa.select(sa.func.count()).select_from(QueryLog).where(QueryLog.user_id == committed_user)
        if db.engine.dialect.name != "postgresql":
            assert statement.run(db.session, _values(committed_user)) is False  # nothing run: the caller writes
            assert db.session.scalar(mine) == 0
            return
        assert statement.run(db.session, _values(committed_user)) is True
        db.session.rollback()  # the session's own transaction has no part in the row
        stored = db.session.execute(sa.select(QueryLog.vin, QueryLog.timings).where(QueryLog.user_id == committed_user))
        assert [tuple(row) for row in stored] == [("WVWZZZAUZHW100001", {"wmi": "WVW"})]
        with pytest.raises(sa.exc.IntegrityError):  # the driver's error, as SQLAlchemy's (the app maps those)
            statement.run(db.session, _values(uuid.uuid4()))  # no such user
        db.session.remove()
        pooled = [db.engine.connect() for _ in range(db.engine.pool.checkedin())]  # every idle one
        assert pooled
        assert [connection.connection.driver_connection.autocommit for connection in pooled] == [False] * len(pooled)
        for connection in pooled:
            connection.close()
        assert db.session.scalar(mine) == 1
        db.session.remove()


def test_in_a_transaction_it_does_not_own_it_runs_nothing(app):
    """The test suite's sessions join an outer transaction: the caller's own transaction path must write instead."""
    with app.app_context():
        assert AutocommitStatement(_log_insert).run(db.session, _values(uuid.uuid4())) is False
