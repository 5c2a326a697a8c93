"""A shop's suppliers through the API: each role, each refusal in Turkish, another shop's 404, secrets never shown,
closing the shop."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.shops.models import Shop
from app.suppliers.models import Supplier
from tests.conftest import SITE
from tests.suppliers.conftest import create_supplier, supplier_body
from tests.support.route_walk import shop_members


@pytest.mark.parametrize("role", ["manager", "owner"])
def test_a_manager_or_owner_adds_changes_and_deletes_a_supplier(shop, role):
    client = shop[role].client

    made = create_supplier(client)
    assert (made["name"], made["currency"], made["discountPercent"]) == ("Başbuğ Otomotiv", "TRY", "12.50")
    assert (made["orderCutoff"], made["source"], made["activeImportId"]) == ("14:00", "upload", None)

    changed = client.patch(
        f"/api/suppliers/{made['id']}", json={"currency": "EUR", "orderCutoff": "9.30"}, headers=SITE
    )
    assert changed.status_code == 200
    assert (changed.get_json()["currency"], changed.get_json()["orderCutoff"]) == ("EUR", "09:30")
    assert changed.get_json()["name"] == "Başbuğ Otomotiv"

    discount = client.put(f"/api/suppliers/{made['id']}/discounts/Bosch", json={"discountPercent": 20}, headers=SITE)
    assert discount.get_json()["brandDiscounts"] == [{"brand": "Bosch", "discountPercent": "20.00"}]
    again = client.put(f"/api/suppliers/{made['id']}/discounts/BOSCH", json={"discountPercent": "22,5"}, headers=SITE)
    assert again.get_json()["brandDiscounts"] == [{"brand": "BOSCH", "discountPercent": "22.50"}]
    removed = client.delete(f"/api/suppliers/{made['id']}/discounts/bosch", headers=SITE)
    assert removed.status_code == 200 and removed.get_json()["brandDiscounts"] == []

    assert [item["id"] for item in client.get("/api/suppliers").get_json()["items"]] == [made["id"]]
    assert client.delete(f"/api/suppliers/{made['id']}", headers=SITE).status_code == 200
    assert client.get(f"/api/suppliers/{made['id']}").status_code == 404


def test_a_clerk_is_refused(shop):
    made = create_supplier(shop["manager"].client)
    clerk = shop["clerk"].client
    assert clerk.get("/api/suppliers").status_code == 403
    assert clerk.post("/api/suppliers", json=supplier_body(name="Dinamik"), headers=SITE).status_code == 403
    assert clerk.patch(f"/api/suppliers/{made['id']}", json={"name": "X"}, headers=SITE).status_code == 403
    assert clerk.delete(f"/api/suppliers/{made['id']}", headers=SITE).status_code == 403
    assert db.session.get(Supplier, made["id"]).name == "Başbuğ Otomotiv"


@pytest.mark.parametrize(
    ("change", "code", "turkish"),
    [
        ({"currency": "XYZ"}, "invalid_currency", "para birimi"),
        ({"discountPercent": "101"}, "invalid_discount", "0 ile 100"),
        ({"discountPercent": -1}, "invalid_discount", "0 ile 100"),
        ({"discountPercent": "yüzde"}, "invalid_discount", "0 ile 100"),
        ({"orderCutoff": "25:00"}, "invalid_cutoff", "SS:DD"),
        ({"orderEmail": "siparis"}, "invalid_email", "e-posta"),
        ({"name": ""}, "missing_field", "adını"),
        ({"source": "url", "url": "ftp://liste.example/x.csv"}, "invalid_url", "http"),
        ({"source": "url", "url": "https://kullanici:sifre@liste.example/x.csv"}, "invalid_url", "http"),
        ({"source": "url", "url": "https://liste.example/x", "authKind": "basic"}, "missing_field", "kullanıcı"),
        ({"source": "url", "url": "https://liste.example/x", "authKind": "token"}, "invalid_header", "başlık"),
    ],
)
def test_a_wrong_term_is_refused_in_turkish(shop, change, code, turkish):
    client = shop["manager"].client
    response = client.post("/api/suppliers", json=supplier_body(**change), headers=SITE)
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["error"]["code"] == code and turkish.casefold() in body["error"]["message"].casefold(), body
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Supplier)) == 0


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/liste.csv",
        "http://10.1.2.3/x",
        "http://localhost/x",
        "http://[::1]/x",
        "http://169.254.169.254/latest/meta-data",
    ],
)
def test_a_private_address_is_refused_unless_allowed(app, shop, monkeypatch, url):
    monkeypatch.setitem(app.config, "SUPPLIER_PULL_ALLOW_PRIVATE", False)
    response = shop["manager"].client.post("/api/suppliers", json=supplier_body(source="url", url=url), headers=SITE)
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "private_address"
    assert "özel ağ" in response.get_json()["error"]["message"]


def test_a_name_is_unique_in_the_shop(shop):
    client = shop["manager"].client
    create_supplier(client)
    response = client.post("/api/suppliers", json=supplier_body(name="başbuğ otomotiv"), headers=SITE)
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "name_taken"


def test_secrets_are_never_shown_back(app, shop):
    client = shop["manager"].client
    token, password = "gizli-token-9f8e7d", "gizli-parola-1a2b3c"
    made = create_supplier(
        client,
        source="url",
        url="https://b2b.example/liste.xml",
        authKind="token",
        authHeader="X-Api-Key",
        authSecret=token,
    )
    assert made["hasSecret"] and made["authHeader"] == "X-Api-Key"
    kept = db.session.get(Supplier, made["id"]).auth_secret
    assert token not in kept
    changed = client.patch(f"/api/suppliers/{made['id']}", json={"pullIntervalMinutes": 60}, headers=SITE)
    assert changed.status_code == 200 and changed.get_json()["hasSecret"]
    db.session.expire_all()
    assert db.session.get(Supplier, made["id"]).auth_secret == kept  # left out: the stored one stays
    basic = {"authKind": "basic", "authUser": "bayi", "authSecret": password}
    client.patch(f"/api/suppliers/{made['id']}", json=basic, headers=SITE)
    paths = [
        "/api/suppliers",
        f"/api/suppliers/{made['id']}",
        "/dukkan/tedarikciler",
        f"/dukkan/tedarikciler/{made['id']}",
    ]
    answers = [client.get(path) for path in paths]
    assert [answer.status_code for answer in answers] == [200] * 4
    assert not any(token in text or password in text for text in (answer.get_data(as_text=True) for answer in answers))


def test_another_shop_gets_404(app, shop):
    made = create_supplier(shop["manager"].client)
    other = shop_members(app, "baska")["owner"].client
    assert other.get(f"/api/suppliers/{made['id']}").status_code == 404
    assert other.patch(f"/api/suppliers/{made['id']}", json={"name": "Benim"}, headers=SITE).status_code == 404
    assert other.delete(f"/api/suppliers/{made['id']}", headers=SITE).status_code == 404
    response = other.put(f"/api/suppliers/{made['id']}/discounts/Bosch", json={"discountPercent": 5}, headers=SITE)
    assert response.status_code == 404
    assert other.get("/api/suppliers").get_json()["items"] == []
    db.session.expire_all()
    assert db.session.get(Supplier, made["id"]).name == "Başbuğ Otomotiv"


def test_closing_the_shop_removes_its_suppliers(shop):
    owner = shop["owner"]
    made = create_supplier(owner.client)
    shop_name = db.session.get(Shop, owner.user.shop_id).name
    closed = owner.client.delete("/api/shop", json={"confirmation": shop_name}, headers=SITE)
    assert closed.status_code == 200, closed.get_json()
    db.session.expire_all()
    assert db.session.get(Supplier, made["id"]) is None
