"""The brand-access guard, on a tiny brand-bound route of a test app (after authentication, like real routes)."""

import pytest
from flask import Blueprint, jsonify

from app.billing.access import requires_brand_access
from app.extensions import db
from tests.conftest import PASSWORD, SITE

probe = Blueprint("brand_probe", __name__, url_prefix="/api/test-brands")


@probe.get("/<int:brand_id>")
@requires_brand_access(lambda kwargs: kwargs["brand_id"])
def brand_data(brand_id: int):
    return jsonify(brandId=brand_id)


@pytest.fixture
def probe_client(make_app):
    application = make_app()
    application.register_blueprint(probe)
    return application.test_client()


@pytest.fixture
def signed_in(create_user, probe_client):
    """Factory: a user (with `overrides`) signed in on the probe app's client."""

    def make(**overrides):
        user = create_user(**overrides)
        response = probe_client.post(
            "/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE
        )
        assert response.status_code == 200
        return user

    return make


def test_a_visitor_is_asked_to_sign_in_first(probe_client, billing_catalog):
    response = probe_client.get(f"/api/test-brands/{billing_catalog.brands[0].id}")

    assert response.status_code == 401


@pytest.mark.parametrize("status", [None, "pending", "cancelled", "expired"])
def test_without_a_live_subscription_a_subscription_is_required(
    probe_client, signed_in, make_subscription, billing_catalog, status
):
    user = signed_in()
    if status:
        make_subscription(user, status)

    response = probe_client.get(f"/api/test-brands/{billing_catalog.brands[0].id}")

    assert response.status_code == 403
    assert response.get_json()["error"] == {
        "code": "subscription_required",
        "message": "Bunu görmek için aktif bir aboneliğiniz olmalı.",
    }


def test_an_ended_active_subscription_gives_no_access(probe_client, signed_in, make_subscription, billing_catalog):
    make_subscription(signed_in(), "active", days_left=-1)

    response = probe_client.get(f"/api/test-brands/{billing_catalog.brands[0].id}")

    assert response.get_json()["error"]["code"] == "subscription_required"


@pytest.mark.parametrize("status", ["active", "trial"])
def test_a_brand_in_the_plan_is_open(probe_client, signed_in, make_subscription, status):
    subscription = make_subscription(signed_in(), status, "trio")

    response = probe_client.get(f"/api/test-brands/{subscription.brands[2].id}")

    assert response.status_code == 200
    assert response.get_json() == {"brandId": subscription.brands[2].id}


def test_a_brand_outside_the_plan_is_refused(probe_client, signed_in, make_subscription, billing_catalog):
    make_subscription(signed_in(), "active", "single")

    response = probe_client.get(f"/api/test-brands/{billing_catalog.brands[-1].id}")

    assert response.status_code == 403
    assert response.get_json()["error"] == {
        "code": "brand_not_in_plan",
        "message": "Bu marka planınıza dahil değil.",
    }


def test_the_full_plan_opens_every_active_brand(probe_client, signed_in, make_subscription, billing_catalog):
    subscription = make_subscription(signed_in(), "active", "full")
    subscription.brands = []  # the plan opens them, not a brand set
    retired = billing_catalog.brands[0]
    retired.active = False
    db.session.commit()

    answers = {brand.id: probe_client.get(f"/api/test-brands/{brand.id}") for brand in billing_catalog.brands}

    assert len(answers) > 3
    assert {brand_id for brand_id, answer in answers.items() if answer.status_code == 200} == {
        brand.id for brand in billing_catalog.brands[1:]
    }
    assert answers[retired.id].get_json()["error"]["code"] == "brand_not_in_plan"


def test_an_admin_passes_without_a_subscription(probe_client, signed_in, billing_catalog):
    signed_in(role="admin")

    assert probe_client.get(f"/api/test-brands/{billing_catalog.brands[0].id}").status_code == 200


def test_the_refusal_is_in_english_when_asked(probe_client, signed_in, billing_catalog):
    signed_in()

    response = probe_client.get(f"/api/test-brands/{billing_catalog.brands[0].id}", headers={"Accept-Language": "en"})

    assert response.get_json()["error"]["message"] == "You need an active subscription to see this."
