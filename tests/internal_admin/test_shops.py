"""The founder panel's shops through HTTP (X-Internal-Token): the list and one shop as the admin area shows them, and
a read-only impersonation that enters the shop as its owner (never a clerk), audited; no token, no shop."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from tests.conftest import SITE
from tests.support.shops import staffed_shop

TOKEN = "internal-test-token-shops"
BODY = {"reason": "Destek talebi", "founderId": "kurucu-1"}
PREFIX = "/api/internal/admin/shops"
HEADERS = {AUTH_HEADER: TOKEN}


@pytest.fixture(autouse=True)
def _internal_token(app, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)


def test_the_founder_lists_shops_and_reads_one(client, create_user, make_subscription):
    shop = staffed_shop(create_user)
    make_subscription(shop.owner, "active", plan_key="full")

    listed = client.get(f"{PREFIX}?q=kadikoy", headers=HEADERS).get_json()["items"]
    detail = client.get(f"{PREFIX}/{shop.owner.shop_id}", headers=HEADERS).get_json()

    assert [(item["name"], item["seats"]["inUse"], item["branches"], item["plan"]) for item in listed] == [
        ("Kadıköy Oto", 3, 2, "full")
    ]
    assert {(item["email"], item["role"]) for item in detail["members"]} == {
        (shop.owner.email, "owner"),
        (shop.manager.email, "manager"),
        (shop.clerk.email, "clerk"),
    }
    assert client.get(PREFIX).status_code == 401
    assert client.get(f"{PREFIX}/{shop.owner.shop_id}", headers={AUTH_HEADER: "wrong"}).status_code == 401
    assert client.get(f"{PREFIX}/not-a-uuid", headers=HEADERS).status_code == 404


def test_impersonation_enters_the_shop_as_its_owner_read_only(app, client, create_user):
    shop = staffed_shop(create_user)

    answer = client.post(f"{PREFIX}/{shop.owner.shop_id}/impersonate-readonly", json=BODY, headers=HEADERS)
    link = answer.get_json()["redirectUrl"].removeprefix(app.config["BASE_URL"])
    browser = app.test_client()
    opened = browser.get(link)
    write = browser.post("/api/referrals/apply", json={"code": "ABCDEFGH"}, headers=SITE)

    assert answer.status_code == 200 and opened.status_code == 302
    assert browser.get("/api/auth/get-session").get_json()["user"]["id"] == str(shop.owner.id)
    assert write.status_code == 403 and write.get_json()["error"]["code"] == "read_only_session"
    entry = db.session.scalar(sa.select(AuditEntry).where(AuditEntry.action == "shop.impersonate_readonly"))
    assert (entry.target_id, entry.founder_id, entry.outcome) == (str(shop.owner.shop_id), "kurucu-1", "ok")
    assert entry.after["ownerId"] == str(shop.owner.id)


def test_impersonation_is_refused_without_token_shop_reason_or_owner(client, create_user):
    shop = staffed_shop(create_user)
    url = f"{PREFIX}/{shop.owner.shop_id}/impersonate-readonly"

    assert client.post(url, json=BODY).status_code == 401
    assert client.post(f"{PREFIX}/00000000-0000-0000-0000-000000000000/impersonate-readonly", json=BODY,
                       headers=HEADERS).status_code == 404  # fmt: skip
    assert client.post(url, json={"founderId": "kurucu-1"}, headers=HEADERS).status_code == 400  # no reason
    admin = create_user(role="admin")  # an admin's own shop is never entered
    assert client.post(f"{PREFIX}/{admin.shop_id}/impersonate-readonly", json=BODY, headers=HEADERS).status_code == 403
