"""The quotes API through HTTP: a quote for the vehicle, part and free lines, totals with KDV, edits, the shared link
and its revocation, the settings, and bad input refused in Turkish without a 5xx."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tests.conftest import SITE
from tests.quotes.conftest import BROWSER, coded_parts
from tests.support.markup import the


def post(client, path: str, body: dict | None = None):
    return client.post(path, json=body, headers=SITE) if body is not None else client.post(path, headers=SITE)


@pytest.fixture
def quote(client, bmw):
    response = post(client, "/api/quotes", {"vehicleId": bmw, "customer": "Ahmet Usta"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_quote_for_the_vehicle_keeps_its_title_and_vin(client, quote, bmw):
    vehicle = client.get(f"/api/vehicles/{bmw}").get_json()

    assert quote["vehicleId"] == bmw and quote["vin"] == vehicle["vin"]
    assert quote["vehicleTitle"] and quote["status"] == "draft" and quote["kdvRate"] == "20.00"
    assert quote["share"]["state"] == "none" and quote["lines"] == []
    assert [item["id"] for item in client.get("/api/quotes").get_json()["quotes"]] == [quote["id"]]


def test_lines_and_totals_round_half_up_to_kurus(client, quote, leaf):
    part = coded_parts(leaf)[0]
    url = f"/api/quotes/{quote['id']}/lines"

    added = post(client, url, {"kind": "part", "partId": part["id"]}).get_json()
    line = added["lines"][0]
    assert (line["oemCode"], line["quantity"], line["unitPrice"]) == (
        part["oemCode"],
        f"{part['quantity'] or 1}.00",
        None,
    )
    assert added["totals"] == {"net": "0.00", "kdv": "0.00", "gross": "0.00", "unpriced": 1}

    edited = client.patch(f"{url}/{line['id']}", json={"quantity": "3", "unitPrice": "1.250,55"}, headers=SITE)
    post(client, url, {"kind": "free", "name": "İşçilik", "quantity": 1.5, "unitPrice": 333.33})
    answer = client.get(f"/api/quotes/{quote['id']}").get_json()

    assert edited.status_code == 200 and edited.get_json()["lines"][0]["total"] == "3751.65"
    # 3751.65 + 499.995 -> 500.00 (half up), net 4251.65, KDV 20 % = 850.33, gross 5101.98
    assert [item["total"] for item in answer["lines"]] == ["3751.65", "500.00"]
    assert answer["totals"] == {"net": "4251.65", "kdv": "850.33", "gross": "5101.98", "unpriced": 0}

    deleted = client.delete(f"{url}/{line['id']}", headers=SITE).get_json()
    assert [item["name"] for item in deleted["lines"]] == ["İşçilik"]


def test_the_kdv_rate_comes_from_the_dealer_s_settings(client, bmw):
    saved = client.put(
        "/api/quotes/settings",
        json={"shopName": "Yıldız Oto", "phone": "0212 555 00 00", "kdvRate": "10"},
        headers=SITE,
    )
    quote = post(client, "/api/quotes", {"vehicleId": bmw}).get_json()

    assert saved.get_json() == {"shopName": "Yıldız Oto", "phone": "0212 555 00 00", "kdvRate": "10.00"}
    assert quote["kdvRate"] == "10.00"


def test_a_shared_link_opens_without_an_account_once_recorded_and_revoked_gives_410(app, client, quote):
    post(client, f"/api/quotes/{quote['id']}/lines", {"kind": "free", "name": "Yağ", "unitPrice": "100"})
    shared = post(client, f"/api/quotes/{quote['id']}/share").get_json()
    stranger = app.test_client()

    first = stranger.get(shared["url"].replace("http://localhost", ""), headers=BROWSER)
    read = client.get(f"/api/quotes/{quote['id']}").get_json()
    stranger.post(the(first.get_data(as_text=True), "body")["data-opened-beacon"], headers=BROWSER)
    opened = client.get(f"/api/quotes/{quote['id']}").get_json()
    stranger.post(the(first.get_data(as_text=True), "body")["data-opened-beacon"], headers=BROWSER)
    again = client.get(f"/api/quotes/{quote['id']}").get_json()
    revoked = post(client, f"/api/quotes/{quote['id']}/revoke")
    gone = stranger.get(shared["url"].replace("http://localhost", ""))

    assert first.status_code == 200, (shared, first.get_data(as_text=True)[:600])
    assert "Yağ" in first.get_data(as_text=True)
    assert read["status"] == "sent"  # reading the page records nothing: its beacon does
    assert opened["status"] == "opened" and opened["share"]["firstOpenedAt"]
    assert again["share"]["firstOpenedAt"] == opened["share"]["firstOpenedAt"]
    assert revoked.status_code == 200 and gone.status_code == 410
    assert "artık" in gone.get_data(as_text=True)  # Turkish: no longer available


def test_the_shared_page_keeps_its_link_out_of_referrers_with_the_other_security_headers(app, client, quote):
    shared = post(client, f"/api/quotes/{quote['id']}/share").get_json()

    page = app.test_client().get(shared["url"].replace("http://localhost", ""))

    assert page.status_code == 200
    assert page.headers.getlist("Referrer-Policy") == ["no-referrer"]  # the view's own, not the site's default
    assert (
        page.headers["X-Frame-Options"] == "DENY"
        and "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    )


def test_a_quote_s_kdv_rate_is_changed_alone(client, quote, other_client):
    post(client, f"/api/quotes/{quote['id']}/lines", {"kind": "free", "name": "Yağ", "unitPrice": "200"})

    changed = client.patch(f"/api/quotes/{quote['id']}", json={"kdvRate": "1"}, headers=SITE)
    refused = client.patch(f"/api/quotes/{quote['id']}", json={"kdvRate": "-1"}, headers=SITE)
    foreign = other_client.patch(f"/api/quotes/{quote['id']}", json={"kdvRate": "0"}, headers=SITE)

    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["kdvRate"] == "1.00"
    assert changed.get_json()["totals"] == {"net": "200.00", "kdv": "2.00", "gross": "202.00", "unpriced": 0}
    assert refused.status_code == 400 and refused.get_json()["error"]["message"]
    assert foreign.status_code == 404
    assert client.get(f"/api/quotes/{quote['id']}").get_json()["kdvRate"] == "1.00"


BAD_AMOUNTS = [-1, "-0,01", 1_000_000_001, "1e5", "NaN", "Infinity", 10**400, True, "abc", "1,2,3", {"a": 1}, "9" * 50]


@pytest.mark.parametrize("price", BAD_AMOUNTS, ids=repr)
def test_absurd_prices_are_refused_in_turkish(client, quote, price):
    body = (
        json.dumps({"kind": "free", "name": "X", "unitPrice": price})
        if price != 10**400
        else ('{"kind": "free", "name": "X", "unitPrice": ' + "9" * 400 + "}")
    )
    response = client.post(f"/api/quotes/{quote['id']}/lines", data=body, content_type="application/json", headers=SITE)

    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["message"]
    assert client.get(f"/api/quotes/{quote['id']}").get_json()["lines"] == []


@pytest.mark.parametrize("quantity", [0, -2, 100_001, "NaN", "", None], ids=repr)
def test_absurd_quantities_are_refused(client, quote, leaf, quantity):
    part = coded_parts(leaf)[0]
    line = post(client, f"/api/quotes/{quote['id']}/lines", {"kind": "part", "partId": part["id"]}).get_json()["lines"][
        0
    ]

    response = client.patch(f"/api/quotes/{quote['id']}/lines/{line['id']}", json={"quantity": quantity}, headers=SITE)

    assert response.status_code == 400, response.get_json()
    assert client.get(f"/api/quotes/{quote['id']}").get_json()["lines"][0]["quantity"] == line["quantity"]


def test_json_nan_is_refused(client, quote):
    response = client.post(
        f"/api/quotes/{quote['id']}/lines",
        data='{"kind": "free", "name": "X", "quantity": NaN}',
        content_type="application/json",
        headers=SITE,
    )
    assert response.status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "part", "partId": 2**31},
        {"kind": "part", "partId": "1"},
        {"kind": "other"},
        {"kind": "free"},
        {"kind": "free", "name": "x" * 301},
        {"kind": "free", "name": "a\x00b"},
        {"kind": "free", "name": 5},
    ],
    ids=repr,
)
def test_bad_lines_are_refused(client, quote, body):
    response = post(client, f"/api/quotes/{quote['id']}/lines", body)
    assert 400 <= response.status_code < 500 and response.get_json()["error"]["message"]


def test_a_part_of_another_vehicle_is_not_found(client, quote):
    response = post(client, f"/api/quotes/{quote['id']}/lines", {"kind": "part", "partId": 999_999})
    assert response.status_code == 404


@pytest.mark.parametrize("rate", ["101", "-1", "yirmi", None])
def test_a_bad_kdv_rate_is_refused(client, dealer, rate):
    response = client.put("/api/quotes/settings", json={"kdvRate": rate}, headers=SITE)
    assert response.status_code == 400 and response.get_json()["error"]["message"]


def test_amounts_as_a_turkish_clerk_types_them(app):
    from app.quotes import amounts

    with app.test_request_context():
        parsed = [
            amounts.price(text) for text in ["1.250,50", "1250,5", "1,250.50", "1250.50", "₺ 1.250,50", "1.250 TL", "3"]
        ]
    assert parsed == [*[Decimal("1250.50")] * 5, Decimal("1250.00"), Decimal("3.00")]
