"""The shop's markup rules and offer settings through HTTP: the most specific rule wins, a scope set again replaces
its value, bad input refused in Turkish, a manager's only, another shop's rule not found; the page's forms."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.suppliers import markup
from tests.conftest import SITE
from tests.suppliers.conftest import create_supplier
from tests.support.route_walk import shop_members

RULES = "/api/suppliers/markup-rules"


def set_rule(client, **body):
    response = client.post(RULES, json=body, headers=SITE)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_most_specific_rule_wins(shop, manager):
    member = shop["manager"].user
    first = create_supplier(manager)["id"]
    second = create_supplier(manager, name="Martaş")["id"]
    cost = Decimal("100.00")

    assert markup.sale_price(member.shop_id, first, "Bosch", cost) == (cost, None)  # no rule: the cost, margin 0

    default = set_rule(manager, kind="percent", value="10")
    assert markup.sale_price(member.shop_id, first, "Bosch", cost)[0] == Decimal("110.00")
    by_supplier = set_rule(manager, supplierId=first, kind="fixed", value="7,5")
    assert markup.sale_price(member.shop_id, first, "Bosch", cost)[0] == Decimal("107.50")
    assert markup.sale_price(member.shop_id, second, "Bosch", cost)[0] == Decimal("110.00")
    by_brand = set_rule(manager, brand="BOSCH", kind="percent", value="25")
    assert markup.sale_price(member.shop_id, first, "bosch", cost)[0] == Decimal("125.00")
    assert markup.sale_price(member.shop_id, first, "Mann", cost)[0] == Decimal("107.50")
    both = set_rule(manager, supplierId=first, brand="Bosch", kind="percent", value="12,5")
    price, rule = markup.sale_price(member.shop_id, first, "Bosch", Decimal("99.99"))
    assert (price, rule.id) == (Decimal("112.49"), both["id"])  # 99.99 * 1.125 = 112.48875, half up
    assert markup.sale_price(member.shop_id, second, "Bosch", cost)[0] == Decimal("125.00")
    assert markup.sale_price(member.shop_id, None, None, cost)[0] == Decimal("110.00")

    listed = manager.get(RULES).get_json()["items"]
    assert {item["id"] for item in listed} == {default["id"], by_supplier["id"], by_brand["id"], both["id"]}
    assert {item["scope"] for item in listed} == {"default", "supplier", "brand", "supplier_brand"}
    assert both["supplierName"] == "Başbuğ Otomotiv" and both["value"] == "12.50"

    assert manager.delete(f"{RULES}/{both['id']}", headers=SITE).status_code == 200
    assert markup.sale_price(member.shop_id, first, "Bosch", cost)[0] == Decimal("125.00")


def test_a_scope_set_again_replaces_its_value(manager):
    first = set_rule(manager, brand="Bosch", kind="percent", value=10)
    again = set_rule(manager, brand=" bosch ", kind="fixed", value=15)

    assert again["id"] == first["id"] and (again["kind"], again["value"]) == ("fixed", "15.00")
    assert len(manager.get(RULES).get_json()["items"]) == 1


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"kind": "percent", "value": "1001"}, "invalid_markup", "0 ile 1000"),
        ({"kind": "percent", "value": "-1"}, "invalid_markup", "0 ile 1000"),
        ({"kind": "fixed", "value": "1000000,01"}, "invalid_markup", "1.000.000"),
        ({"kind": "fixed", "value": "on lira"}, "invalid_markup", "1.000.000"),
        ({"kind": "percent", "value": "NaN"}, "invalid_markup", "0 ile 1000"),
        ({"kind": "percent", "value": True}, "invalid_markup", "0 ile 1000"),
        ({"kind": "kat", "value": "10"}, "invalid_kind", "yüzde"),
        ({"brand": "x" * 81, "value": "10"}, "invalid_brand", "marka"),
        ({"supplierId": "abc", "value": "10"}, "invalid_field", "supplierId"),
    ],
)
def test_bad_input_is_refused_in_turkish(manager, body, code, words):
    response = manager.post(RULES, json=body, headers=SITE)

    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == code and words.lower() in error["message"].lower(), error


def test_a_clerk_is_refused_and_another_shop_s_rule_or_supplier_is_not_found(app, shop, manager):
    assert shop["clerk"].send("GET", RULES).status_code == 403
    assert shop["clerk"].send("POST", RULES, {"value": "10"}).status_code == 403
    assert shop["clerk"].send("GET", "/dukkan/tedarikciler/kar-kurallari").status_code == 403
    rule = set_rule(manager, value="10")
    supplier = create_supplier(manager)["id"]
    other = shop_members(app, "baska")["owner"]

    assert other.send("DELETE", f"{RULES}/{rule['id']}").status_code == 404
    assert other.send("POST", f"/dukkan/tedarikciler/kar-kurallari/{rule['id']}/sil").status_code == 404
    refused = other.send("POST", RULES, {"supplierId": supplier, "value": "5"})
    assert refused.status_code == 404 and refused.get_json()["error"]["code"] == "supplier_not_found"
    assert other.send("GET", RULES).get_json()["items"] == []
    assert [item["id"] for item in manager.get(RULES).get_json()["items"]] == [rule["id"]]


def test_offer_settings_are_read_and_changed(manager, shop):
    assert manager.get("/api/suppliers/offer-settings").get_json() == {"withKdv": False, "kdvRate": "20.00"}
    changed = manager.put("/api/suppliers/offer-settings", json={"withKdv": True, "kdvRate": "10,5"}, headers=SITE)
    assert changed.status_code == 200 and changed.get_json() == {"withKdv": True, "kdvRate": "10.50"}
    refused = manager.put("/api/suppliers/offer-settings", json={"kdvRate": "101"}, headers=SITE)
    assert refused.status_code == 400 and "0 ile 100" in refused.get_json()["error"]["message"]
    kept = manager.put("/api/suppliers/offer-settings", json={"withKdv": False}, headers=SITE).get_json()
    assert kept == {"withKdv": False, "kdvRate": "10.50"}
    assert shop["clerk"].send("PUT", "/api/suppliers/offer-settings", {"withKdv": True}).status_code == 403


def test_the_shop_has_one_kdv_rate_for_its_quotes_and_its_offers(manager):
    quote_settings = {"shopName": "Yıldız Oto", "phone": "0212 555 00 00", "kdvRate": "10"}
    assert manager.put("/api/quotes/settings", json=quote_settings, headers=SITE).status_code == 200
    assert manager.get("/api/suppliers/offer-settings").get_json()["kdvRate"] == "10.00"

    assert manager.put("/api/suppliers/offer-settings", json={"kdvRate": "18"}, headers=SITE).status_code == 200
    assert manager.get("/api/quotes/settings").get_json()["kdvRate"] == "18.00"
    assert manager.post("/api/quotes", json={}, headers=SITE).get_json()["kdvRate"] == "18.00"  # the next quote
    page = manager.get("/teklifler/ayarlar").get_data(as_text=True)
    assert 'name="kdv_rate" inputmode="decimal" required value="18"' in page


def test_the_page_sets_and_removes_rules_and_saves_the_offer_settings(shop, manager):
    member = shop["manager"]
    supplier = create_supplier(manager)["id"]
    page = member.send("GET", "/dukkan/tedarikciler/kar-kurallari")
    assert page.status_code == 200 and "Kâr kuralları" in page.get_data(as_text=True)
    assert "/dukkan/tedarikciler/kar-kurallari" in member.send("GET", "/dukkan/tedarikciler").get_data(as_text=True)

    refused = member.send("POST", "/dukkan/tedarikciler/kar-kurallari", {"kind": "percent", "value": "5000"})
    assert refused.status_code == 400 and "0 ile 1000" in refused.get_data(as_text=True)
    body = {"supplier_id": str(supplier), "brand": "Bosch", "kind": "fixed", "value": "12,50"}
    saved = member.send("POST", "/dukkan/tedarikciler/kar-kurallari", body)
    assert saved.status_code == 303
    [rule] = manager.get(RULES).get_json()["items"]
    assert (rule["supplierId"], rule["brand"], rule["kind"], rule["value"]) == (supplier, "Bosch", "fixed", "12.50")
    shown = member.send("GET", "/dukkan/tedarikciler/kar-kurallari").get_data(as_text=True)
    assert "Başbuğ Otomotiv" in shown and "Bosch" in shown

    settings = member.send("POST", "/dukkan/tedarikciler/kar-kurallari/ayarlar", {"with_kdv": "1", "kdv_rate": "18"})
    assert settings.status_code == 303
    assert manager.get("/api/suppliers/offer-settings").get_json() == {"withKdv": True, "kdvRate": "18.00"}
    bad = member.send("POST", "/dukkan/tedarikciler/kar-kurallari/ayarlar", {"kdv_rate": "yüz"})
    assert bad.status_code == 400 and "0 ile 100" in bad.get_data(as_text=True)

    removed = member.send("POST", f"/dukkan/tedarikciler/kar-kurallari/{rule['id']}/sil")
    assert removed.status_code == 303 and manager.get(RULES).get_json()["items"] == []


def test_a_race_of_two_first_settings_updates_the_winner_s_rule(shop, manager, monkeypatch):
    winner = set_rule(manager, brand="Mann", value="10")
    lookup = markup._rule_of_scope
    calls = []

    def late_lookup(shop_id, scope):  # the other request's insert not seen yet, then committed
        calls.append(scope)
        return None if len(calls) == 1 else lookup(shop_id, scope)

    monkeypatch.setattr(markup, "_rule_of_scope", late_lookup)
    rule = markup.set_rule(shop["manager"].user, {"brand": "MANN", "kind": "fixed", "value": "3"})

    assert (rule.id, rule.kind, rule.value) == (winner["id"], "fixed", Decimal("3.00")) and len(calls) == 2
