"""Quotes of the shop: every member sees, edits and sends the quotes colleagues started; a clerk's part line is priced
from his branch's list; a quote carries its branch's name, address and phone, frozen when sent; the quote settings are
the shop's, changed by a manager or the owner only."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from tests.conftest import SITE
from tests.quotes.conftest import coded_parts
from tests.support.payments import sign_in_client
from tests.support.shelf import shelf_list
from tests.support.shops import add_branch, rename_branch, signed_in_colleague


@pytest.fixture
def member_client(app, create_user, dealer):
    """`member_client(role, branch=None)`: a member of the dealer's shop, signed in on a client of his own."""
    return lambda role, branch=None: signed_in_colleague(app, create_user, dealer, role, branch)


@pytest.fixture
def umraniye(dealer):
    rename_branch(dealer.branch_id, "Kadıköy", "Moda Cad. 1, Kadıköy", "0216 111 11 11")
    return add_branch(dealer.shop_id, "Ümraniye", "Alemdağ Cad. 5, Ümraniye", "0216 555 55 55")


def post(client, path: str, body: dict | None = None):
    return client.post(path, json=body if body is not None else {}, headers=SITE)


def test_a_clerk_quotes_from_his_branch_list(dealer, bmw, leaf, umraniye, member_client):
    part = coded_parts(leaf)[0]
    shelf_list(dealer, [{"oem": part["oemCode"], "price": "1000", "stock": 1}])
    shelf_list(dealer, [{"oem": part["oemCode"], "price": "1250.50", "stock": 3}], branch_id=umraniye.id)
    clerk, clerk_client = member_client("clerk", umraniye)

    quote = post(clerk_client, "/api/quotes", {"vehicleId": bmw}).get_json()
    added = post(clerk_client, f"/api/quotes/{quote['id']}/lines", {"kind": "part", "partId": part["id"]})

    assert added.status_code == 201, added.get_json()
    assert added.get_json()["lines"][0]["unitPrice"] == "1250.50"
    assert quote["branch"] == {"name": "Ümraniye", "address": "Alemdağ Cad. 5, Ümraniye", "phone": "0216 555 55 55"}


def test_colleagues_see_edit_and_send_the_shop_s_quotes(client, dealer, bmw, member_client):
    quote = post(client, "/api/quotes", {"vehicleId": bmw, "customer": "Ahmet Usta"}).get_json()
    _clerk, clerk_client = member_client("clerk")

    listed = clerk_client.get("/api/quotes").get_json()["quotes"]
    line = post(clerk_client, f"/api/quotes/{quote['id']}/lines", {"kind": "free", "name": "İşçilik", "unitPrice": "5"})
    page = clerk_client.get(f"/teklifler/{quote['id']}")
    shared = post(clerk_client, f"/api/quotes/{quote['id']}/share")

    assert [item["id"] for item in listed] == [quote["id"]]
    assert line.status_code == 201 and page.status_code == 200 and "İşçilik" in page.get_data(as_text=True)
    assert shared.status_code == 200
    assert client.get(f"/api/quotes/{quote['id']}").get_json()["status"] == "sent"
    assert f"/teklifler/{quote['id']}" in clerk_client.get("/teklifler").get_data(as_text=True)


def test_only_a_manager_or_the_owner_changes_the_quote_settings(client, dealer, member_client):
    _clerk, clerk_client = member_client("clerk")
    _manager, manager_client = member_client("manager")
    settings = {"shopName": "Yıldız Oto", "phone": "0216 000 00 00", "kdvRate": "10"}

    refused = clerk_client.put("/api/quotes/settings", json=settings, headers=SITE)
    refused_page = clerk_client.get("/teklifler/ayarlar")
    saved = manager_client.put("/api/quotes/settings", json=settings, headers=SITE)

    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "forbidden"
    assert refused_page.status_code == 403
    assert saved.status_code == 200
    assert clerk_client.get("/api/quotes/settings").get_json()["shopName"] == "Yıldız Oto"  # the shop's settings
    assert post(client, "/api/quotes").get_json()["kdvRate"] == "10.00"  # the owner's next quote uses them
    assert client.put("/api/quotes/settings", json={**settings, "kdvRate": "20"}, headers=SITE).status_code == 200


def test_a_quote_carries_its_branch_frozen_when_sent(app, client, dealer, umraniye):
    quote = post(client, "/api/quotes").get_json()
    post(client, f"/api/quotes/{quote['id']}/lines", {"kind": "free", "name": "Yağ", "unitPrice": "100"})
    draft_page = client.get(f"/teklifler/{quote['id']}").get_data(as_text=True)
    shared = post(client, f"/api/quotes/{quote['id']}/share").get_json()
    rename_branch(dealer.branch_id, "Moda", "Yeni adres", "0216 999 99 99")

    link = app.test_client().get(shared["url"].replace("http://localhost", "")).get_data(as_text=True)
    printed = client.get(f"/teklifler/{quote['id']}/print").get_data(as_text=True)
    sent = client.get(f"/api/quotes/{quote['id']}").get_json()
    version = post(client, f"/api/quotes/{quote['id']}/versions").get_json()

    assert "Kadıköy" in draft_page and "Moda Cad. 1, Kadıköy" in draft_page
    for shown in (link, printed):
        assert "Kadıköy" in shown and "Moda Cad. 1, Kadıköy" in shown and "0216 111 11 11" in shown
        assert "Yeni adres" not in shown
    assert sent["branch"] == {"name": "Kadıköy", "address": "Moda Cad. 1, Kadıköy", "phone": "0216 111 11 11"}
    assert version["branch"]["name"] == "Moda"  # a new version is a draft: the branch as it is now


def test_another_shop_sees_nothing_of_the_quotes(app, client, dealer, create_user):
    quote = post(client, "/api/quotes").get_json()
    stranger = create_user()
    other = app.test_client()
    sign_in_client(other, stranger.email)

    assert other.get(f"/api/quotes/{quote['id']}").status_code == 404
    assert other.get(f"/teklifler/{quote['id']}").status_code == 404
    assert other.get(f"/teklifler/{quote['id']}/print").status_code == 404
    assert other.get("/api/quotes").get_json()["quotes"] == []


def test_a_quote_started_by_a_member_who_left_carries_the_shops_name(client, dealer, member_client):
    clerk, clerk_client = member_client("clerk")
    clerk.name = "Ayrılan Tezgâhtar"
    quote = post(clerk_client, "/api/quotes", {"customer": "Sadık Müşteri"}).get_json()
    post(clerk_client, f"/api/quotes/{quote['id']}/lines", {"kind": "free", "name": "Yağ", "unitPrice": "100"})

    removed = client.delete(f"/api/shop/members/{clerk.id}", headers=SITE)
    shared = post(client, f"/api/quotes/{quote['id']}/share").get_json()

    assert removed.status_code == 200
    text = unquote(shared["whatsappUrl"])
    assert text.split("https://wa.me/?text=", 1)[1].startswith(f"{dealer.name}: ")  # the shop's, by its owner's name
    assert "Ayrılan Tezgâhtar" not in text
