"""The admin tools in a real browser: an admin sees the dashboard's charts drawn from seeded data; a founder's
impersonation link opens a dealer's vehicle page with the read-only banner, and a write there is refused."""

from __future__ import annotations

import re
import uuid

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from app.accounts.models import User
from app.accounts.services import create_user
from app.core.db import utcnow
from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import QueryLog
from tests.conftest import PASSWORD
from tests.e2e.test_leaf_layout import DESKTOP
from tests.e2e.test_vin_search import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

TOKEN = "internal-e2e-token"


@pytest.fixture
def admin(catalog_server):
    """A committed admin and a few decode log rows, removed afterwards."""
    _url, _dealer, app = catalog_server
    email = f"yonetici-{uuid.uuid4().hex[:8]}@example.com"
    with app.app_context():
        create_user(email=email, name="Yönetici", password=PASSWORD, role="admin", email_verified=True)
        for index in range(6):
            db.session.add(QueryLog(vin=f"WVWZZZE2E000000{index:02d}", source="catapi", success=True,
                                    response_time_ms=120, timings={"result_kind": "vehicle", "catapi_ms": 100 + index},
                                    created_at=utcnow()))  # fmt: skip
        db.session.commit()
        db.session.remove()
    yield email
    with app.app_context():
        db.session.execute(sa.delete(QueryLog).where(QueryLog.vin.like("WVWZZZE2E%")))
        db.session.execute(sa.delete(User).where(User.email == email))
        db.session.execute(sa.delete(AuditEntry).where(AuditEntry.founder_id == "kurucu-e2e"))
        db.session.commit()
        db.session.remove()


def test_an_admin_sees_the_dashboard_charts_drawn(catalog_server, admin, page):
    url, _dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    page.goto(url + "/login")
    page.get_by_label("E-posta").fill(admin)
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Giriş yap").click()
    page.wait_for_url(url + "/")

    page.goto(url + "/admin")

    for chart in ("chart-users", "chart-decodes", "chart-sources"):
        expect(page.locator(f"#{chart}")).to_have_attribute("data-drawn", "true")
    chart = "document.getElementById('chart-decodes').chart"
    drawn = page.evaluate(f"{chart}.data.datasets.flatMap((set) => set.data).reduce((a, b) => a + b, 0)")
    assert drawn >= 6
    assert page.console_errors == []


@pytest.fixture
def founder_trail(catalog_server):
    """The audit entries the founder's calls of a test commit, removed afterwards."""
    yield
    _url, _dealer, app = catalog_server
    with app.app_context():
        db.session.execute(sa.delete(AuditEntry).where(AuditEntry.founder_id == "kurucu-e2e"))
        db.session.commit()
        db.session.remove()


@pytest.mark.usefixtures("founder_trail")
def test_an_impersonation_link_shows_the_dealer_s_vehicle_read_only(catalog_server, page):
    url, dealer, app = catalog_server
    app.config["INTERNAL_API_TOKEN"] = TOKEN
    app.config["BASE_URL"] = url
    page.set_viewport_size(DESKTOP)
    sign_in(page, url, dealer)  # the dealer decodes a car, so it is in their history
    page.goto(url + "/vin")
    page.get_by_label("Şasi numarası (VIN)").fill(VIN_GOLF)
    page.get_by_role("button", name="Aracı bul").click()
    page.wait_for_url(re.compile(r"/vehicles/\d+$"))
    vehicle_path = page.url.removeprefix(url)
    page.context.clear_cookies()

    founder = app.test_client()
    opened = founder.post(
        f"/api/internal/admin/users/{dealer.id}/impersonate-readonly",
        json={"reason": "Destek talebi", "founderId": "kurucu-e2e", "ttlMinutes": 10},
        headers={AUTH_HEADER: TOKEN},
    ).get_json()
    page.goto(opened["redirectUrl"])
    page.wait_for_url(url + "/")
    page.goto(url + vehicle_path)

    banner = page.locator(".impersonation-banner")
    expect(banner).to_contain_text("salt okunur")
    expect(banner).to_contain_text(dealer.email)
    expect(page.locator("h1")).to_contain_text("Volkswagen")
    refused = page.evaluate(
        """async () => {
            const answer = await fetch('/api/referrals/apply', {method: 'POST', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify({code: 'ABCDEFGH'})});
            return [answer.status, (await answer.json()).error.code];
        }"""
    )
    assert refused == [403, "read_only_session"]
