"""Logging a copied OEM code: the row written, the part checked against the vehicle, access, CSRF and the throttle."""

from __future__ import annotations

import sqlalchemy as sa

from app.catalog.models import Category, OemCopy, Part
from app.extensions import db
from app.sources.sandbox.catalog import VIN_CLIO
from tests.catalog.test_categories import first_leaf
from tests.conftest import PASSWORD, SITE


def copy(client, vehicle_id: int, part_id: int, headers: dict | None = None):
    return client.post(f"/api/vehicles/{vehicle_id}/parts/{part_id}/copy", json={}, headers=headers or SITE)


def copies() -> list[OemCopy]:
    return list(db.session.scalars(sa.select(OemCopy).order_by(OemCopy.id)))


def a_part(client, vehicle_id: int) -> dict:
    return next(part for part in first_leaf(client, vehicle_id)["parts"] if not part["reference"])


def test_a_copy_is_logged_with_user_vehicle_part_and_code(client, bmw, dealer, upstreams):
    part = a_part(client, bmw)

    response = copy(client, bmw, part["id"])

    assert response.status_code == 201
    assert response.get_json() == {"status": True, "oemCode": part["oemCode"]}
    (row,) = copies()
    assert (row.user_id, row.vehicle_id, row.part_id, row.oem_code) == (dealer.id, bmw, part["id"], part["oemCode"])
    assert row.created_at.tzinfo is not None


def test_every_copy_is_a_row(client, bmw, upstreams):
    part = a_part(client, bmw)

    statuses = [copy(client, bmw, part["id"]).status_code for _ in range(3)]

    assert statuses == [201, 201, 201] and len(copies()) == 3


def test_a_part_of_another_vehicle_or_none_is_not_found(client, bmw, decode_vin, upstreams):
    clio = decode_vin(VIN_CLIO).get_json()["vehicle"]["id"]
    part = a_part(client, bmw)

    for vehicle_id, part_id in ((clio, part["id"]), (bmw, 999999)):
        response = copy(client, vehicle_id, part_id)
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "part_not_found"
    assert copy(client, 999999, part["id"]).get_json()["error"]["code"] == "vehicle_not_found"
    assert copies() == []


def test_a_reference_row_has_no_code_to_copy(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)["category"]["id"]
    reference = Part(
        vehicle_id=bmw,
        category_id=leaf,
        oem_code="N/A",
        name="Fren diski, bk. tablo: 123-456",
        label="Fren diski",
        reference_code="123-456",
    )
    db.session.add(reference)
    db.session.commit()

    response = copy(client, bmw, reference.id)

    assert response.status_code == 422 and response.get_json()["error"]["code"] == "part_has_no_code"
    assert copies() == []


def test_copying_is_bound_to_the_plan_s_brands(client, bmw, upstreams, create_user, make_subscription, sign_in):
    part = a_part(client, bmw)
    other = create_user()
    make_subscription(other, "active", plan_key="single")
    sign_in(other.email)

    response = copy(client, bmw, part["id"])

    assert response.status_code == 403 and response.get_json()["error"]["code"] == "brand_not_in_plan"
    assert copies() == []


def test_a_copy_needs_a_session_and_a_same_site_json_call(client, bmw, upstreams):
    part = a_part(client, bmw)

    foreign = copy(client, bmw, part["id"], headers={"Origin": "https://evil.example"})
    no_origin = client.post(f"/api/vehicles/{bmw}/parts/{part['id']}/copy", json={})
    # An empty <form method="post">: no body, but its form type (data={} alone would send no type at all).
    form = client.post(
        f"/api/vehicles/{bmw}/parts/{part['id']}/copy", content_type="application/x-www-form-urlencoded", headers=SITE
    )
    client.post("/api/auth/sign-out", json={}, headers=SITE)
    signed_out = copy(client, bmw, part["id"])

    assert [foreign.status_code, no_origin.status_code, form.status_code] == [403, 403, 403]
    assert foreign.get_json()["error"]["code"] == "csrf_failed"
    assert signed_out.status_code == 401
    assert copies() == []


def test_copies_are_throttled_per_user(make_app, bmw, upstreams, create_user, make_subscription):
    part_id = _stored_part(bmw)
    app = make_app(OEM_COPY_RATE_LIMIT="2 per minute", RATELIMIT_ENABLED=True, **upstreams.settings)
    first, second = app.test_client(), app.test_client()
    for client, user in ((first, create_user()), (second, create_user())):
        make_subscription(user, "active", plan_key="full")
        signed = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
        assert signed.status_code == 200

    statuses = [copy(first, bmw, part_id).status_code for _ in range(3)]
    throttled = copy(first, bmw, part_id)

    assert statuses == [201, 201, 429]
    assert throttled.get_json()["error"]["code"] == "rate_limited"
    assert copy(second, bmw, part_id).status_code == 201  # another dealer at the same address is not held up
    assert len(copies()) == 3


def _stored_part(vehicle_id: int) -> int:
    category = Category(vehicle_id=vehicle_id, source="portal", external_id="test", name="Test", is_leaf=True)
    db.session.add(category)
    db.session.flush()
    part = Part(vehicle_id=vehicle_id, category_id=category.id, oem_code="11 22 3 456 789", name="Test", label="Test")
    db.session.add(part)
    db.session.commit()
    return part.id
