"""The brand-access guard, on a tiny brand-bound route of a test app (after authentication, like real routes)."""

import pytest
import sqlalchemy as sa
from flask import Blueprint, jsonify

from app.billing.access import requires_brand_access
from app.billing.models import Subscription
from app.core.security import shop_role
from app.extensions import db
from tests.conftest import PASSWORD, SITE
from tests.support.queries import statements_of

probe = Blueprint("brand_probe", __name__, url_prefix="/api/test-brands")


@probe.get("/<int:brand_id>")
@shop_role("clerk")  # the counter's data: every member (an undeclared view is refused to everyone)
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


# --- the coverage kept beside the signed-in session (app.billing.subscriptions.queries.brand_coverage) ------------


def _subscription_reads(app, action) -> list[str]:
    return [statement for statement in statements_of(app, action)[1] if "subscription" in statement]


def _open(probe_client, brand) -> int:
    return probe_client.get(f"/api/test-brands/{brand.id}").status_code


def test_an_open_brand_asked_again_reads_no_subscription(app, probe_client, signed_in, make_subscription):
    subscription = make_subscription(signed_in(), "active", "trio")
    assert _open(probe_client, subscription.brands[0]) == 200
    assert _open(probe_client, subscription.brands[0]) == 200

    reads = _subscription_reads(app, lambda: _open(probe_client, subscription.brands[0]))

    assert reads == []
    assert _subscription_reads(app, lambda: _open(probe_client, subscription.brands[1])) != []  # another brand: read


def test_a_brand_taken_out_of_the_plan_is_refused_at_once(probe_client, signed_in, make_subscription):
    subscription = make_subscription(signed_in(), "active", "trio")
    dropped = subscription.brands[2]
    assert [_open(probe_client, dropped) for _ in range(2)] == [200, 200]

    subscription.brands = subscription.brands[:2]
    db.session.commit()

    assert _open(probe_client, dropped) == 403
    assert _open(probe_client, subscription.brands[0]) == 200


def test_a_subscription_ended_by_a_statement_ends_access_at_once(probe_client, signed_in, make_subscription):
    subscription = make_subscription(signed_in(), "active", "single")
    brand = subscription.brands[0]
    assert [_open(probe_client, brand) for _ in range(2)] == [200, 200]

    # As the period-end job does: an UPDATE statement, not a changed object.
    db.session.execute(sa.update(Subscription).where(Subscription.id == subscription.id).values(status="expired"))
    db.session.commit()

    response = probe_client.get(f"/api/test-brands/{brand.id}")
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "subscription_required"


def test_a_new_subscription_opens_its_brands_at_once(probe_client, signed_in, make_subscription, billing_catalog):
    user = signed_in()
    brand = billing_catalog.brands[0]
    assert [_open(probe_client, brand) for _ in range(2)] == [403, 403]

    make_subscription(user, "trial", "single")

    assert _open(probe_client, brand) == 200


def test_a_retired_brand_is_closed_to_the_full_plan_at_once(probe_client, signed_in, make_subscription):
    subscription = make_subscription(signed_in(), "active", "full")
    retired = subscription.brands[1]
    assert [_open(probe_client, retired) for _ in range(2)] == [200, 200]

    retired.active = False
    db.session.commit()

    response = probe_client.get(f"/api/test-brands/{retired.id}")
    assert response.get_json()["error"]["code"] == "brand_not_in_plan"


def test_kept_coverage_is_the_dealers_own(make_app, create_user, make_subscription, billing_catalog):
    """Two dealers of one process, one with a plan and one without: each gets their own answer, asked in turns."""
    application = make_app()
    application.register_blueprint(probe)
    brand = billing_catalog.brands[0]
    clients = {}
    for name, status in (("paying", "active"), ("lapsed", "expired")):
        user = create_user()
        make_subscription(user, status, "single", days_left=20 if status == "active" else -1)
        clients[name] = application.test_client()
        signed = clients[name].post(
            "/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE
        )
        assert signed.status_code == 200

    answers = [(name, _open(client, brand)) for _ in range(3) for name, client in clients.items()]

    assert answers == [("paying", 200), ("lapsed", 403)] * 3
