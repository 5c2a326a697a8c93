"""The migration that gives billing to the shop, on a database with data (SQLite and PostgreSQL): each existing
subscription and payment belongs to its user's one-person shop, subscriptions get their plan's included seats, the
seeded plans their seat prices; the downgrade keeps every row with its user."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade

from app.core.db import UTCDateTime
from app.extensions import db
from tests.core.test_migrations import empty_database_url  # noqa: F401 - the fixture used here
from tests.vehicles.test_candidate_picks_migration import add_user

REVISION = "d5a1c0ffee13"
NOW = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)

PLAN = sa.table(
    "plan", *(sa.column(name) for name in ("id", "key", "name", "brand_count", "monthly_price", "yearly_price")),
    sa.column("active"), sa.column("sort_order"),
)  # fmt: skip
SUBSCRIPTION = sa.table(
    "subscription", sa.column("id", sa.Uuid), sa.column("user_id", sa.Uuid), sa.column("plan_id"),
    sa.column("status"), sa.column("billing_period"), sa.column("start_date", UTCDateTime),
    sa.column("end_date", UTCDateTime), sa.column("created_at", UTCDateTime), sa.column("updated_at", UTCDateTime),
)  # fmt: skip
SUBSCRIPTION_AFTER = sa.table(
    "subscription", *(sa.column(column.name, column.type) for column in SUBSCRIPTION.c), sa.column("shop_id", sa.Uuid)
)
PAYMENT = sa.table(
    "payment", sa.column("id", sa.Uuid), sa.column("user_id", sa.Uuid), sa.column("subscription_id", sa.Uuid),
    sa.column("amount"), sa.column("currency"), sa.column("status"), sa.column("method"),
    sa.column("refunded_amount"), sa.column("created_at", UTCDateTime), sa.column("updated_at", UTCDateTime),
)  # fmt: skip


def one_person_shop(email: str, name: str) -> uuid.UUID:
    """A user owning a shop whose id is theirs, as the shops revision (SHOPS) leaves every user."""
    user_id = add_user(email, name)
    shop = sa.table("shop", sa.column("id", sa.Uuid), sa.column("name"), sa.column("created_at", UTCDateTime))
    db.session.execute(sa.insert(shop).values(id=user_id, name=name, created_at=NOW))
    user = sa.table("user", sa.column("id", sa.Uuid), sa.column("shop_id", sa.Uuid))
    db.session.execute(sa.update(user).where(user.c.id == user_id).values(shop_id=user_id))
    return user_id


def add_subscription(user_id: uuid.UUID | None, plan_id: int, status: str) -> uuid.UUID:
    subscription_id = uuid.uuid4()
    dates = {"start_date": NOW - timedelta(days=3), "end_date": NOW + timedelta(days=27)}
    db.session.execute(
        sa.insert(SUBSCRIPTION).values(
            id=subscription_id, user_id=user_id, plan_id=plan_id, status=status, billing_period="monthly",
            created_at=NOW, updated_at=NOW, **dates,
        )
    )  # fmt: skip
    return subscription_id


def add_payment(user_id: uuid.UUID | None, subscription_id: uuid.UUID) -> uuid.UUID:
    payment_id = uuid.uuid4()
    db.session.execute(
        sa.insert(PAYMENT).values(
            id=payment_id, user_id=user_id, subscription_id=subscription_id, amount=79_900, currency="TRY",
            status="completed", method="card", refunded_amount=0, created_at=NOW, updated_at=NOW,
        )
    )  # fmt: skip
    return payment_id


def rows(sql: str) -> list[tuple]:
    return [tuple(row) for row in db.session.execute(sa.text(sql))]


def as_uuid(value) -> uuid.UUID | None:
    return None if value is None else value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


@pytest.mark.no_isolation
def test_billing_rows_move_to_the_users_shop_with_seats_and_the_downgrade_keeps_them(make_app, empty_database_url):  # noqa: F811
    app = make_app(SQLALCHEMY_DATABASE_URI=empty_database_url)
    with app.app_context():
        script = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())
        before = script.get_revision(REVISION).down_revision
        upgrade(revision=before)
        dealer, partner = one_person_shop("bayi@example.com", "Bayi"), one_person_shop("ortak@example.com", "Ortak")
        db.session.execute(
            sa.insert(PLAN).values(
                [
                    {"id": 1, "key": "trio", "name": "Üç Marka", "brand_count": 3, "monthly_price": 79_900,
                     "yearly_price": 799_000, "active": True, "sort_order": 0},
                    {"id": 2, "key": "kendi", "name": "Elle", "brand_count": 1, "monthly_price": 1_000,
                     "yearly_price": 10_000, "active": True, "sort_order": 1},
                ]
            )
        )  # fmt: skip
        live = add_subscription(dealer, 1, "active")
        other = add_subscription(partner, 2, "pending")
        orphan = add_subscription(None, 1, "expired")  # its user deleted the account
        paid = add_payment(dealer, live)
        add_payment(None, orphan)
        db.session.commit()
        upgrade(revision=REVISION)

        subscriptions = {
            as_uuid(row[0]): row[1:] for row in rows("SELECT id, shop_id, user_id, seats FROM subscription")
        }
        assert {key: (as_uuid(shop), as_uuid(user), seats) for key, (shop, user, seats) in subscriptions.items()} == {
            live: (dealer, dealer, 2),  # the trio plan includes two seats
            other: (partner, partner, 1),  # a plan added by hand: one
            orphan: (None, None, 2),
        }
        payments = {
            as_uuid(row[0]): (as_uuid(row[1]), row[2], row[3])
            for row in rows("SELECT id, shop_id, purpose, seats FROM payment")
        }
        assert payments[paid] == (dealer, "plan", 2)
        assert len(payments) == 2
        assert rows("SELECT key, included_seats, monthly_seat_price, yearly_seat_price FROM plan ORDER BY id") == [
            ("trio", 2, 14_900, 149_000),
            ("kendi", 1, 0, 0),
        ]
        db.session.remove()  # its transaction may hold SQLite's write lock (a job's begin_writes earlier in the thread)
        indexes = {index["name"]: index for index in sa.inspect(db.engine).get_indexes("subscription")}
        for name in ("uq_subscription_one_live_per_shop", "uq_subscription_one_pending_per_shop"):
            assert (indexes[name]["column_names"], bool(indexes[name]["unique"])) == (["shop_id"], True)
        assert "uq_subscription_one_live_per_user" not in indexes
        db.session.remove()

        downgrade(revision=before)

        assert sorted(rows("SELECT status FROM subscription")) == [("active",), ("expired",), ("pending",)]
        assert {as_uuid(user) for (user,) in rows("SELECT user_id FROM payment")} == {dealer, None}
        db.session.remove()  # the reads' transaction holds SQLite's write lock, which the inspector's connection needs
        assert "seats" not in {column["name"] for column in sa.inspect(db.engine).get_columns("subscription")}
        db.session.remove()
