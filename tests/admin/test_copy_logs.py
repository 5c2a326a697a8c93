"""Admin: the OEM copy log (filters, pagination, newest first) and the most copied codes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.catalog.models import Category, OemCopy, Part
from app.core.db import utcnow
from app.extensions import db
from app.vehicles.models import Vehicle


@pytest.fixture
def admin_client(client, create_user, sign_in):
    sign_in(create_user(role="admin").email)
    return client


@pytest.fixture
def catalog():
    """Two vehicles with a part each."""

    def vehicle(vin: str, brand: str, model: str, part_name: str, code: str) -> tuple[Vehicle, Part]:
        car = Vehicle(vin=vin, brand_name=brand, model=model, source="portal")
        db.session.add(car)
        db.session.flush()
        leaf = Category(vehicle_id=car.id, source="portal", external_id="1", name="Frenler", is_leaf=True)
        db.session.add(leaf)
        db.session.flush()
        part = Part(vehicle_id=car.id, category_id=leaf.id, oem_code=code, name=part_name, label=part_name)
        db.session.add(part)
        db.session.flush()
        return car, part

    bmw = vehicle("WBA8E9G50GNU00004", "BMW", "3 Series", "Fren diski, ön", "34 11 6 860 242")
    golf = vehicle("WVWZZZAUZHW100001", "Volkswagen", "Golf", "Yağ filtresi", "04E 115 561 H")
    db.session.commit()
    return {"bmw": bmw, "golf": golf}


def log(user, vehicle_part, at: datetime) -> OemCopy:
    car, part = vehicle_part
    row = OemCopy(user_id=user.id, vehicle_id=car.id, part_id=part.id, oem_code=part.oem_code, created_at=at)
    db.session.add(row)
    db.session.commit()
    return row


def listing(client, **params) -> dict:
    response = client.get("/api/admin/copy-logs", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("path", ["/api/admin/copy-logs", "/api/admin/copy-logs/top-codes"])
def test_only_admins_read_the_copy_log(client, create_user, sign_in, path):
    assert client.get(path).status_code == 401
    sign_in(create_user().email)

    response = client.get(path)

    assert response.status_code == 403 and response.get_json()["error"]["code"] == "forbidden"


def test_the_log_is_newest_first_with_user_vehicle_and_part(admin_client, create_user, catalog):
    dealer = create_user(email="usta@oto.example")
    now = utcnow()
    older = log(dealer, catalog["bmw"], now - timedelta(hours=2))
    newer = log(dealer, catalog["golf"], now - timedelta(hours=1))

    result = listing(admin_client)

    assert [item["id"] for item in result["items"]] == [newer.id, older.id]
    assert result["total"] == 2 and result["hasMore"] is False
    item = result["items"][1]
    assert item["oemCode"] == "34 11 6 860 242"
    assert item["user"] == {"id": str(dealer.id), "email": "usta@oto.example", "name": dealer.name}
    car, part = catalog["bmw"]
    assert item["vehicle"] == {"id": car.id, "vin": car.vin, "brand": "BMW", "model": "3 Series"}
    assert item["part"] == {"id": part.id, "name": "Fren diski, ön"}
    assert datetime.fromisoformat(item["createdAt"]) == older.created_at


def test_a_row_outlives_its_vehicle_and_user(admin_client, create_user, catalog):
    dealer = create_user()
    row = log(dealer, catalog["bmw"], utcnow())
    db.session.delete(catalog["bmw"][0])
    db.session.delete(dealer)
    db.session.commit()

    (item,) = listing(admin_client)["items"]

    assert item["id"] == row.id and item["oemCode"] == "34 11 6 860 242"
    assert item["user"] is None and item["vehicle"] is None and item["part"] is None


def test_filters_by_user_vehicle_and_code(admin_client, create_user, catalog):
    usta, kalfa = create_user(email="usta@oto.example"), create_user(email="kalfa@parca.example")
    now = utcnow()
    a = log(usta, catalog["bmw"], now)
    b = log(kalfa, catalog["bmw"], now)
    c = log(kalfa, catalog["golf"], now)

    def ids(**params) -> set[int]:
        return {item["id"] for item in listing(admin_client, **params)["items"]}

    assert ids(user=str(kalfa.id)) == {b.id, c.id}
    assert ids(user="USTA@oto") == {a.id}  # part of the e-mail, any case
    assert ids(user="parca.example", vehicleId=catalog["bmw"][0].id) == {b.id}
    assert ids(code="34116860242") == ids(code="34-11 6.860") == ids(code="860 242") == {a.id, b.id}
    assert ids(code="04e115") == {c.id}
    assert ids(user="nobody@example.com") == set()
    assert listing(admin_client, user="kalfa")["total"] == 2


def test_dates_are_istanbul_days_and_to_includes_its_day(admin_client, create_user, catalog):
    dealer = create_user()
    # 21 Nov in Istanbul (UTC+3) runs from 20 Nov 21:00 UTC to 21 Nov 21:00 UTC.
    before = log(dealer, catalog["bmw"], datetime(2026, 11, 20, 20, 59, tzinfo=UTC))
    first = log(dealer, catalog["bmw"], datetime(2026, 11, 20, 21, 0, tzinfo=UTC))
    last = log(dealer, catalog["bmw"], datetime(2026, 11, 21, 20, 59, tzinfo=UTC))
    after = log(dealer, catalog["bmw"], datetime(2026, 11, 21, 21, 0, tzinfo=UTC))

    def ids(**params) -> list[int]:
        return [item["id"] for item in listing(admin_client, **params)["items"]]

    assert ids(**{"from": "2026-11-21", "to": "2026-11-21"}) == [last.id, first.id]
    assert ids(**{"from": "2026-11-22"}) == [after.id]
    assert ids(to="2026-11-20") == [before.id]


def test_pages_of_the_log(admin_client, create_user, catalog):
    dealer = create_user()
    start = utcnow() - timedelta(hours=1)
    rows = [log(dealer, catalog["golf"], start + timedelta(minutes=minute)) for minute in range(5)]
    newest_first = [row.id for row in reversed(rows)]

    pages = [listing(admin_client, page=page, pageSize=2) for page in (1, 2, 3, 4)]

    assert [[item["id"] for item in page["items"]] for page in pages] == [
        newest_first[:2],
        newest_first[2:4],
        newest_first[4:],
        [],
    ]
    assert [page["hasMore"] for page in pages] == [True, True, False, False]
    assert all(page["total"] == 5 and page["pageSize"] == 2 for page in pages)
    assert listing(admin_client)["pageSize"] == 50


@pytest.mark.parametrize(
    "params",
    [{"pageSize": 101}, {"pageSize": 0}, {"page": 0}, {"page": "x"}, {"vehicleId": "abc"}, {"from": "22.11.2026"}],
)
def test_bad_parameters_are_refused_in_turkish(admin_client, params):
    response = admin_client.get("/api/admin/copy-logs", query_string=params, headers={"Accept-Language": "tr"})

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_parameter"
    assert "sayı" in response.get_json()["error"]["message"] or "tarih" in response.get_json()["error"]["message"]


def test_the_most_copied_codes_of_the_window(admin_client, create_user, catalog):
    usta, kalfa = create_user(), create_user()
    now = utcnow()
    for user in (usta, usta, kalfa):
        log(user, catalog["golf"], now - timedelta(days=1))
    log(usta, catalog["bmw"], now - timedelta(days=2))
    log(usta, catalog["bmw"], now - timedelta(days=40))  # outside the 30-day window
    latest = log(kalfa, catalog["golf"], now - timedelta(hours=1))

    response = admin_client.get("/api/admin/copy-logs/top-codes")
    narrow = admin_client.get("/api/admin/copy-logs/top-codes", query_string={"days": 60, "limit": 1})

    result = response.get_json()
    assert result["days"] == 30
    assert [(item["oemCode"], item["copies"], item["users"]) for item in result["items"]] == [
        ("04E 115 561 H", 4, 2),
        ("34 11 6 860 242", 1, 1),
    ]
    assert result["items"][0]["partName"] == "Yağ filtresi"
    assert datetime.fromisoformat(result["items"][0]["lastCopiedAt"]) == latest.created_at
    assert [(item["oemCode"], item["copies"]) for item in narrow.get_json()["items"]] == [("04E 115 561 H", 4)]


@pytest.mark.parametrize("params", [{"days": 0}, {"days": 366}, {"limit": 101}, {"limit": "many"}])
def test_bad_top_code_parameters_are_refused(admin_client, params):
    response = admin_client.get("/api/admin/copy-logs/top-codes", query_string=params)

    assert response.status_code == 400 and response.get_json()["error"]["code"] == "invalid_parameter"
