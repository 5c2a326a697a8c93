"""The move to shops loses nothing (SQLite and PostgreSQL): a database at the revision before the shops, filled with
several dealers' users, subscriptions, payments, stock lists, quotes, history, picks, fit answers and decodes, keeps
every row through the upgrade to head, makes each user the owner of a one-person shop with one branch, answers each
user's API calls as the rows say, and keeps every row through the downgrade back.

The rows are written with SQLAlchemy Core against the tables as they are at that revision (reflected), never through
the models, which describe head. Only row counts and the public API are checked: later migrations may add columns.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from app.accounts.services import hash_password
from app.extensions import db, redis_store
from tests.conftest import PASSWORD, SITE
from tests.support.databases import empty_database

BEFORE_SHOPS = "c4e1f7a2b9d3"
NOW = datetime.now(UTC).replace(microsecond=0)
NEW_TABLES = {"shop", "branch"}
SEEDED = ("user", "plan", "subscription", "payment", "vehicle", "user_vehicle", "vehicle_pick", "query_log", "quote",
          "quote_line", "quote_profile", "shelf_import", "shelf_item", "shelf_number", "shelf_active", "shelf_mapping",
          "fit_answer", "fit_preference", "oem_copy", "vin_request")  # fmt: skip


@dataclass
class Dealer:
    """One seeded user and what their API answers must say."""

    id: uuid.UUID
    email: str
    subscription: tuple[str, str] | None = None  # plan key, status
    payments: list[int] = field(default_factory=list)  # amounts, newest first
    history: list[str] = field(default_factory=list)  # VINs, last decoded first
    quotes: dict[int, tuple[str, list[str], str]] = field(default_factory=dict)  # id: customer, line names, gross
    shelf: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # number: stock, price, own code
    fit_answers: dict[int, dict[str, Any]] = field(default_factory=dict)  # vehicle id: {fact: value}
    fitting_only: bool = False
    picks: dict[str, int] = field(default_factory=dict)  # VIN: the vehicle id a decode of it answers


class Seeder:
    """Inserts rows into the reflected tables of the revision before the shops."""

    def __init__(self, connection: sa.Connection) -> None:
        self.connection = connection
        self.sqlite = connection.dialect.name == "sqlite"
        self.tables = sa.MetaData()
        self.tables.reflect(bind=connection, only=SEEDED, resolve_fks=False)

    def uid(self, value: uuid.UUID) -> Any:
        return value.hex if self.sqlite else value  # reflected CHAR(32) on SQLite, UUID on PostgreSQL

    def at(self, days_ago: float = 0) -> datetime:
        moment = NOW - timedelta(days=days_ago)
        return moment.replace(tzinfo=None) if self.sqlite else moment  # the app keeps naive UTC on SQLite

    def add(self, table: str, **values: Any) -> Any:
        values = {key: self.uid(value) if isinstance(value, uuid.UUID) else value for key, value in values.items()}
        result = self.connection.execute(self.tables.tables[table].insert().values(**values))
        return result.inserted_primary_key[0] if result.inserted_primary_key else None


def _seed(seed: Seeder) -> list[Dealer]:
    plans = {
        key: seed.add("plan", key=key, name=key.title(), brand_count=count, monthly_price=price,
                      yearly_price=price * 10, active=True, sort_order=order)
        for order, (key, count, price) in enumerate((("single", 1, 49_900), ("full", 0, 149_900)))
    }  # fmt: skip
    vehicles = [
        seed.add("vehicle", vin=vin, brand_id=None, brand_name="Volkswagen", model=model, year=2015, engine="CAXA",
                 source="catapi", raw_data={}, created_at=seed.at(20), candidate_key=key)
        for vin, model, key in (("WVWZZZ1KZAW000001", "Golf", ""), ("WVWZZZ3CZEE000002", "Passat", "catapi:77"),
                                ("WVWZZZ3CZEE000002", "Passat Variant", "catapi:78"))
    ]  # fmt: skip
    dealers = [_full_dealer(seed, plans, vehicles), _second_dealer(seed, plans, vehicles)]
    newcomer = Dealer(_user(seed, "yeni@bayi.example"), "yeni@bayi.example")  # signed up, nothing else yet
    return [*dealers, newcomer]


def _user(seed: Seeder, email: str) -> uuid.UUID:
    user_id = uuid.uuid4()
    seed.add("user", id=user_id, email=email, name=email.split("@")[0].title(), password_hash=hash_password(PASSWORD),
             email_verified=True, role="user", status="active", referral_credit_days=0,
             referral_code=uuid.uuid4().hex[:8].upper(), created_at=seed.at(60), updated_at=seed.at(60))  # fmt: skip
    return user_id


def _subscription(seed: Seeder, user_id: uuid.UUID, plan_id: int, status: str, ends_in: int) -> uuid.UUID:
    subscription_id = uuid.uuid4()
    seed.add("subscription", id=subscription_id, user_id=user_id, plan_id=plan_id, status=status,
             billing_period="monthly", start_date=seed.at(30), end_date=seed.at(-ends_in), created_at=seed.at(30),
             updated_at=seed.at(30))  # fmt: skip
    return subscription_id


def _payment(seed: Seeder, user_id: uuid.UUID, subscription_id: uuid.UUID, amount: int, days_ago: int) -> None:
    seed.add("payment", id=uuid.uuid4(), user_id=user_id, subscription_id=subscription_id, amount=amount,
             currency="TRY", status="completed", method="card", billing_period="monthly", refunded_amount=0,
             paid_at=seed.at(days_ago), created_at=seed.at(days_ago), updated_at=seed.at(days_ago))  # fmt: skip


def _decoded(seed: Seeder, user_id: uuid.UUID, vehicle_id: int, vin: str, days_ago: int) -> None:
    seed.add("user_vehicle", user_id=user_id, vehicle_id=vehicle_id, last_decoded_at=seed.at(days_ago))
    seed.add("query_log", user_id=user_id, vin=vin, brand_id=None, source="catapi", success=True, response_time_ms=120,
             timings={"result_kind": "vehicle"}, created_at=seed.at(days_ago))  # fmt: skip


def _quote(seed: Seeder, user_id: uuid.UUID, customer: str, lines: list[tuple[str, str, str]]) -> int:
    quote_id = seed.add("quote", user_id=user_id, vehicle_id=None, vin=None, vehicle_title="Golf 1.4 TSI",
                        customer=customer, status="draft", kdv_rate=Decimal("20.00"), created_at=seed.at(3),
                        updated_at=seed.at(3), version=1)  # fmt: skip
    for order, (name, quantity, price) in enumerate(lines):
        seed.add("quote_line", quote_id=quote_id, kind="free", name=name, quantity=Decimal(quantity),
                 unit_price=Decimal(price), sort_order=order, created_at=seed.at(3))  # fmt: skip
    return quote_id


def _shelf(seed: Seeder, user_id: uuid.UUID, rows: list[tuple[str, str, int, str]]) -> None:
    import_id = seed.add("shelf_import", user_id=user_id, filename="liste.csv", file_kind="csv", size_bytes=2048,
                         status="done", mapping={"oem_code": 0}, rows_total=len(rows), rows_done=len(rows),
                         rows_imported=len(rows), rows_failed=0, errors=[], created_at=seed.at(5),
                         started_at=seed.at(5), finished_at=seed.at(5))  # fmt: skip
    for line, (oem, own, stock, price) in enumerate(rows, start=2):
        item_id = seed.add("shelf_item", import_id=import_id, line=line, oem_code=oem, own_code=own, brand="Bosch",
                           name="Fren balatası", price=Decimal(price), currency="TRY", stock=stock)  # fmt: skip
        for kind, number in (("oem", oem), ("own", own)):
            key = "".join(character for character in number.lower() if character.isalnum())
            seed.add("shelf_number", item_id=item_id, kind=kind, key=key, import_id=import_id)
    seed.add(
        "shelf_active", user_id=user_id, import_id=import_id, activated_at=seed.at(5) + timedelta(microseconds=417)
    )
    seed.add("shelf_mapping", user_id=user_id, mapping={"oem_code": 0}, updated_at=seed.at(5))


def _full_dealer(seed: Seeder, plans: dict[str, int], vehicles: list[int]) -> Dealer:
    dealer = Dealer(_user(seed, "usta@bayi.example"), "usta@bayi.example")
    live = _subscription(seed, dealer.id, plans["full"], "active", ends_in=20)
    dealer.subscription = ("full", "active")
    _payment(seed, dealer.id, live, 149_900, days_ago=30)
    _payment(seed, dealer.id, live, 149_900, days_ago=1)
    dealer.payments = [149_900, 149_900]
    _decoded(seed, dealer.id, vehicles[0], "WVWZZZ1KZAW000001", days_ago=4)
    _decoded(seed, dealer.id, vehicles[2], "WVWZZZ3CZEE000002", days_ago=2)
    dealer.history = ["WVWZZZ3CZEE000002", "WVWZZZ1KZAW000001"]
    seed.add("vehicle_pick", user_id=dealer.id, vin="WVWZZZ3CZEE000002", vehicle_id=vehicles[2], picked_at=seed.at(2))
    dealer.picks = {"WVWZZZ3CZEE000002": vehicles[2]}
    first = _quote(seed, dealer.id, "Ahmet Usta", [("Fren balatası", "2", "450.00"), ("İşçilik", "1", "300.00")])
    second = _quote(seed, dealer.id, "Mehmet Bey", [("Yağ filtresi", "1", "150.00")])
    dealer.quotes = {first: ("Ahmet Usta", ["Fren balatası", "İşçilik"], "1440.00"),
                     second: ("Mehmet Bey", ["Yağ filtresi"], "180.00")}  # fmt: skip
    seed.add("quote_profile", user_id=dealer.id, shop_name="Usta Oto", phone="0212 000 00 00", kdv_rate=Decimal("20"))
    _shelf(seed, dealer.id, [("1K0 698 151", "BSH-1", 4, "450.00"), ("03C115561H", "MNN-7", 0, "150.50")])
    dealer.shelf = {"1K0698151": (4, "450.00", "BSH-1"), "MNN-7": (0, "150.50", "MNN-7")}
    seed.add("fit_answer", vehicle_id=vehicles[0], user_id=dealer.id, fact="engine_code", value="CAXA",
             answered_at=seed.at(4))  # fmt: skip
    seed.add("fit_answer", vehicle_id=vehicles[0], user_id=dealer.id, fact="aircon", value=True, answered_at=seed.at(4))
    dealer.fit_answers = {vehicles[0]: {"engine_code": "CAXA", "aircon": True}, vehicles[2]: {}}
    seed.add("fit_preference", user_id=dealer.id, fitting_only=True)
    dealer.fitting_only = True
    seed.add("oem_copy", user_id=dealer.id, vehicle_id=vehicles[0], part_id=None, oem_code="1K0698151",
             created_at=seed.at(4))  # fmt: skip
    seed.add("vin_request", user_id=dealer.id, vin="ZZZZZZ00000000001", kind="report", created_at=seed.at(6))
    return dealer


def _second_dealer(seed: Seeder, plans: dict[str, int], vehicles: list[int]) -> Dealer:
    dealer = Dealer(_user(seed, "cirak@bayi.example"), "cirak@bayi.example")
    ended = _subscription(seed, dealer.id, plans["single"], "expired", ends_in=-5)
    _payment(seed, dealer.id, ended, 49_900, days_ago=35)
    _subscription(seed, dealer.id, plans["single"], "trial", ends_in=10)
    dealer.subscription, dealer.payments = ("single", "trial"), [49_900]
    _decoded(seed, dealer.id, vehicles[0], "WVWZZZ1KZAW000001", days_ago=1)
    _decoded(seed, dealer.id, vehicles[1], "WVWZZZ3CZEE000002", days_ago=3)
    dealer.history = ["WVWZZZ1KZAW000001", "WVWZZZ3CZEE000002"]
    seed.add("vehicle_pick", user_id=dealer.id, vin="WVWZZZ3CZEE000002", vehicle_id=vehicles[1], picked_at=seed.at(3))
    dealer.picks = {"WVWZZZ3CZEE000002": vehicles[1]}
    only = _quote(seed, dealer.id, "Ayşe Hanım", [])
    dealer.quotes = {only: ("Ayşe Hanım", [], "0.00")}
    seed.add("fit_answer", vehicle_id=vehicles[0], user_id=dealer.id, fact="engine_code", value="CBZA",
             answered_at=seed.at(1))  # fmt: skip
    dealer.fit_answers = {vehicles[0]: {"engine_code": "CBZA"}}
    return dealer


def _counts(tables: set[str]) -> dict[str, int]:
    with db.engine.connect() as connection:
        return {name: connection.execute(sa.select(sa.func.count()).select_from(sa.table(name))).scalar_one()
                for name in sorted(tables)}  # fmt: skip


def _table_names() -> set[str]:
    return set(sa.inspect(db.engine).get_table_names()) - {"alembic_version"}


def _answers_as_seeded(app, dealer: Dealer) -> None:
    client = app.test_client()
    signed_in = client.post("/api/auth/sign-in/email", json={"email": dealer.email, "password": PASSWORD}, headers=SITE)
    assert signed_in.status_code == 200, signed_in.get_json()

    subscription = client.get("/api/subscriptions/me").get_json()
    if dealer.subscription is None:
        assert subscription is None
    else:
        assert (subscription["plan"]["key"], subscription["status"]) == dealer.subscription
    assert [item["amount"] for item in client.get("/api/payments/me").get_json()] == dealer.payments
    assert [item["vin"] for item in client.get("/api/vehicles/history").get_json()["items"]] == dealer.history
    listed = client.get("/api/quotes").get_json()["quotes"]
    assert {quote["id"]: quote["customer"] for quote in listed} == {
        key: value[0] for key, value in dealer.quotes.items()
    }
    for quote_id, (customer, lines, gross) in dealer.quotes.items():
        quote = client.get(f"/api/quotes/{quote_id}").get_json()
        assert (quote["customer"], [line["name"] for line in quote["lines"]], quote["totals"]["gross"]) == (
            customer, lines, gross
        )  # fmt: skip
    for number, (stock, price, own_code) in dealer.shelf.items():
        hit = client.get("/api/shelf/lookup", query_string={"number": number}).get_json()
        assert (hit["stock"], hit["price"], hit["ownCode"]) == (stock, price, own_code)
    if not dealer.shelf:
        assert client.get("/api/shelf/lookup?number=1K0698151").status_code == 404
    for vehicle_id, answers in dealer.fit_answers.items():
        fit = client.get(f"/api/vehicles/{vehicle_id}/fit").get_json()
        assert {answer["fact"]: answer["value"] for answer in fit["answers"]} == answers
    assert client.get("/api/fit/preference").get_json() == {"fittingOnly": dealer.fitting_only}
    # Last: a decode logs itself and moves the vehicle to the top of the history. A VIN with only candidates and no
    # brand of ours is answered from the dealer's own pick, with no upstream call.
    for vin, vehicle_id in dealer.picks.items():
        decoded = client.post("/api/vehicles/decode", json={"vin": vin}, headers=SITE).get_json()
        assert (decoded["result"], decoded["vehicle"]["id"]) == ("vehicle", vehicle_id)


def _one_shop_each(dealers: list[Dealer]) -> None:
    """Each user owns a shop of their own with one branch, and works in it."""
    user = sa.table("user", sa.column("id", sa.Uuid), sa.column("shop_id", sa.Uuid), sa.column("shop_role"),
                    sa.column("branch_id"))  # fmt: skip
    branch = sa.table("branch", sa.column("id"), sa.column("shop_id", sa.Uuid))
    with db.engine.connect() as connection:
        rows = connection.execute(
            sa.select(user.c.id, user.c.shop_id, user.c.shop_role, branch.c.shop_id)
            .outerjoin(branch, branch.c.id == user.c.branch_id)
        ).all()  # fmt: skip
        branches = connection.execute(sa.select(branch.c.shop_id, sa.func.count()).group_by(branch.c.shop_id)).all()
    assert {row[0] for row in rows} == {dealer.id for dealer in dealers}
    assert all(shop is not None and role == "owner" and branch_shop == shop for _id, shop, role, branch_shop in rows)
    assert len({row[1] for row in rows}) == len(dealers)
    assert sorted(count for _shop, count in branches) == [1] * len(dealers)


@pytest.mark.no_isolation
def test_the_move_to_shops_keeps_every_row_and_every_answer(make_app, tmp_path):
    with empty_database(tmp_path, "shops_migration") as url:
        app = make_app(SQLALCHEMY_DATABASE_URI=url)
        with app.app_context():
            try:
                redis_store.client.flushdb()  # no resolve cache of another test's VINs: the picks must answer
                upgrade(revision=BEFORE_SHOPS)
                with db.engine.begin() as connection:
                    dealers = _seed(Seeder(connection))
                old_tables = _table_names()
                seeded = _counts(old_tables)

                upgrade()
                assert _table_names() >= old_tables | NEW_TABLES
                assert _counts(old_tables) == seeded
                assert _counts(NEW_TABLES) == {"branch": len(dealers), "shop": len(dealers)}
                _one_shop_each(dealers)
                for dealer in dealers:
                    _answers_as_seeded(app, dealer)
                answered = _counts(old_tables)  # signing in wrote sessions, decoding logged; nothing else changed
                decodes = sum(len(dealer.picks) for dealer in dealers)
                assert {name: count for name, count in answered.items() if count != seeded[name]} == {
                    "session": seeded["session"] + len(dealers),
                    "query_log": seeded["query_log"] + decodes,
                }

                db.session.remove()
                downgrade(revision=BEFORE_SHOPS)
                assert _table_names() == old_tables
                assert _counts(old_tables) == answered
            finally:
                db.session.remove()
                db.engine.dispose()
