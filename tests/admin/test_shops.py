"""The admins' shops through HTTP: the list with members, seats, branches, live plan and decodes of the last 30 days,
search by shop or member, one shop's page with its members (role, branch), branches and subscriptions, the
dashboard's shop figures, and who may see them."""

from __future__ import annotations

from datetime import timedelta

from app.core.db import utcnow
from app.extensions import db
from app.vehicles.models import QueryLog
from tests.support.shops import staffed_shop


def decode(user, days_ago: int = 0) -> None:
    when = utcnow() - timedelta(days=days_ago)
    db.session.add(QueryLog(user_id=user.id, vin="WVWZZZ1KZAW000001", source="catapi", success=True,
                            response_time_ms=90, timings={}, created_at=when))  # fmt: skip


def test_shops_are_listed_with_members_seats_branches_plan_and_usage(client, create_user, sign_in, make_subscription):
    shop = staffed_shop(create_user)
    make_subscription(shop.owner, "active", plan_key="full")
    decode(shop.owner), decode(shop.clerk), decode(shop.clerk, days_ago=45)  # the last one is too old to count
    loner = create_user(name="Tek Kişilik Bayi")
    db.session.commit()
    sign_in(create_user(name="Yönetici", role="admin").email)

    items = {item["name"]: item for item in client.get("/api/admin/shops").get_json()["items"]}
    by_member = client.get("/api/admin/shops?q=clerk@kadikoy").get_json()["items"]
    page = client.get("/admin/shops").get_data(as_text=True)

    staffed = items["Kadıköy Oto"]
    assert (staffed["members"], staffed["seats"]["inUse"], staffed["branches"]) == (3, 3, 2)
    assert (staffed["plan"], staffed["decodesLast30Days"]) == ("full", 2)
    alone = items[loner.name]
    assert (alone["members"], alone["plan"], alone["decodesLast30Days"]) == (1, None, 0)
    assert [item["name"] for item in by_member] == ["Kadıköy Oto"]
    assert "Kadıköy Oto" in page and "Tek Kişilik Bayi" in page


def test_a_shop_s_page_names_its_members_with_role_and_branch(client, create_user, sign_in, make_subscription):
    shop = staffed_shop(create_user)
    make_subscription(shop.owner, "trial", plan_key="single")
    sign_in(create_user(role="admin").email)

    detail = client.get(f"/api/admin/shops/{shop.owner.shop_id}").get_json()
    page = client.get(f"/admin/shops/{shop.owner.shop_id}").get_data(as_text=True)

    members = [(item["name"], item["email"], item["role"], item["branch"]) for item in detail["members"]]
    assert members == [
        ("Kadıköy Oto", shop.owner.email, "owner", detail["branches"][0]["name"]),
        ("Kadıköy Oto manager", shop.manager.email, "manager", "Ümraniye"),
        ("Kadıköy Oto clerk", shop.clerk.email, "clerk", "Ümraniye"),
    ]
    assert [branch["name"] for branch in detail["branches"]][1:] == ["Ümraniye"] and len(detail["branches"]) == 2
    assert detail["shop"]["plan"] == "single" and detail["subscriptions"][0]["status"] == "trial"
    assert shop.clerk.email in page and "Alemdağ Cd. 5" in page
    assert client.get("/api/admin/shops/not-a-uuid").status_code == 404
    assert client.get("/api/admin/shops/00000000-0000-0000-0000-000000000000").status_code == 404


def test_the_dashboard_counts_shops_members_and_seats(client, create_user, sign_in):
    staffed_shop(create_user)
    admin = create_user(role="admin")
    sign_in(admin.email)

    figures = client.get("/api/admin/dashboard").get_json()["shops"]
    page = client.get("/admin").get_data(as_text=True)

    assert figures == {"shops": 2, "members": 4, "seatsInUse": 4}  # the staffed shop, the admin's own
    assert 'id="tile-shops">2<' in page


def test_only_admins_see_shops(client, create_user, sign_in):
    shop = staffed_shop(create_user)
    assert client.get("/api/admin/shops").status_code == 401
    sign_in(shop.owner.email)
    for url in ("/api/admin/shops", f"/api/admin/shops/{shop.owner.shop_id}", "/admin/shops",
                f"/admin/shops/{shop.owner.shop_id}"):  # fmt: skip
        assert client.get(url).status_code == 403, url
