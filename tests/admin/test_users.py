"""The admins' users and referrals through HTTP: search by name or e-mail (wildcards taken literally), filters by
status and live plan, one user's page with subscriptions, payments, decodes, sessions and referrals, the referrals
list with search and pagination, and who may see them."""

from __future__ import annotations

from app.admin.users import services as admin_users
from app.extensions import db
from app.referrals import services as referrals
from app.vehicles.models import QueryLog


def names(answer) -> list[str]:
    return [item["name"] for item in answer.get_json()["items"]]


def test_users_are_found_by_name_e_mail_status_and_plan(client, create_user, sign_in, make_subscription):
    ayse = create_user(name="Ayşe Yedek Parça", email="ayse@parca.example")
    make_subscription(ayse, "active", plan_key="full")
    create_user(name="Mehmet Oto", email="mehmet@oto.example", status="suspended")
    create_user(name="Yüzde %_ Bayi", email="yuzde@example.com")
    sign_in(create_user(name="Yönetici", role="admin").email)

    assert names(client.get("/api/admin/users?q=parca.example")) == ["Ayşe Yedek Parça"]
    assert names(client.get("/api/admin/users?q=MEHMET")) == ["Mehmet Oto"]
    assert names(client.get("/api/admin/users?q=%25_")) == ["Yüzde %_ Bayi"]  # not every name
    assert names(client.get("/api/admin/users?status=suspended")) == ["Mehmet Oto"]
    assert names(client.get("/api/admin/users?plan=full")) == ["Ayşe Yedek Parça"]
    assert client.get("/api/admin/users?status=gone").status_code == 400
    assert client.get("/api/admin/users?q=parca").get_json()["items"][0]["plan"] == "full"


def test_a_user_s_page_has_the_subscription_payments_decodes_sessions_and_referrals(
    client, create_user, sign_in, make_subscription
):
    dealer = create_user(name="Usta Bayi")
    make_subscription(dealer, "active", plan_key="single")
    referrals.apply(create_user(name="Çırak", email_verified=False), dealer.referral_code)
    db.session.add(QueryLog(user_id=dealer.id, vin="WVWZZZ1KZAW000001", source="catapi", success=True,
                            response_time_ms=90, timings={"result_kind": "vehicle"}))  # fmt: skip
    db.session.commit()
    sign_in(dealer.email)
    sign_in(create_user(role="admin").email)

    detail = client.get(f"/api/admin/users/{dealer.id}").get_json()
    page = client.get(f"/admin/users/{dealer.id}").get_data(as_text=True)

    assert detail["user"]["name"] == "Usta Bayi" and detail["subscriptions"][0]["plan"] == "single"
    assert detail["decodes"][0]["resultKind"] == "vehicle" and len(detail["sessions"]) == 1
    assert detail["referrals"][0]["referee"]["name"] == "Çırak"
    assert "Usta Bayi" in page and "WVWZZZ1KZAW000001" in page
    assert client.get("/api/admin/users/not-a-uuid").status_code == 404


def test_referrals_are_listed_with_search_and_pages(client, create_user, sign_in, monkeypatch):
    monkeypatch.setattr(admin_users, "PAGE_SIZE", 2)
    referrer = create_user(name="Usta")
    for name in ("Ali", "Veli", "Deli"):
        referrals.apply(create_user(name=name, email_verified=False), referrer.referral_code)
    sign_in(create_user(role="admin").email)

    first = client.get("/api/admin/referrals").get_json()
    second = client.get("/api/admin/referrals?page=2").get_json()
    found = client.get("/api/admin/referrals?q=veli").get_json()

    assert len(first["items"]) == 2 and first["hasMore"] and len(second["items"]) == 1 and not second["hasMore"]
    assert [item["referee"]["name"] for item in found["items"]] == ["Veli"]
    assert "Veli" in client.get("/admin/referrals?q=veli").get_data(as_text=True)


def test_only_admins_see_users(client, create_user, sign_in):
    assert client.get("/api/admin/users").status_code == 401
    sign_in(create_user().email)
    assert client.get("/api/admin/users").status_code == 403
    assert client.get("/admin/users").status_code == 403
    assert client.get("/api/admin/referrals").status_code == 403
