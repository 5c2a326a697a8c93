"""A supplier's offer on the quote through HTTP: its cost kept (the list's price less the supplier's discount, in TRY
at the day's rate), its price by the shop's markup rule, the margin on the dealer's page and JSON, never on the
customer's link; a gone offer, another shop's and a sent quote refused."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from app.extensions import db
from app.suppliers.currency.models import CurrencyRate
from app.suppliers.currency.services import istanbul_today
from tests.conftest import SITE, csrf_token_from
from tests.quotes.conftest import BROWSER, coded_parts
from tests.shelf.conftest import csv_bytes
from tests.suppliers.conftest import HEADER, ROWS, create_supplier, import_list, lines_of

KURUS = Decimal("0.01")
SUPPLIER = "Başbuğ Otomotiv"  # its general discount: 12,5 %
EUR_RATE = Decimal("36.123456")


def post(client, path: str, body: dict | None = None):
    return client.post(path, json=body, headers=SITE) if body is not None else client.post(path, headers=SITE)


@pytest.fixture
def offers(client, dealer):
    """The dealer's supplier with its list in use: its lines by own code."""
    supplier = create_supplier(client)
    done = import_list(client, supplier["id"], csv_bytes([HEADER, *ROWS]))
    assert done["status"] == "done", done
    return supplier["id"], {line.own_code: line.id for line in lines_of(done["id"])}


@pytest.fixture
def quote(client, bmw):
    response = post(client, "/api/quotes", {"vehicleId": bmw, "customer": "Ahmet Usta"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _net(amount: Decimal, discount: Decimal = Decimal("12.5")) -> Decimal:
    return (amount * (100 - discount) / 100).quantize(KURUS, ROUND_HALF_UP)


def test_an_offer_keeps_its_cost_sells_by_the_rule_and_the_margin_stays_the_dealer_s(app, client, offers, quote, leaf):
    supplier_id, lines = offers
    part = coded_parts(leaf)[0]
    rules = "/api/suppliers/markup-rules"
    assert post(client, rules, {"kind": "percent", "value": "5"}).status_code == 200
    assert post(client, rules, {"supplierId": supplier_id, "brand": "bosch", "value": "20"}).status_code == 200

    added = post(client, f"/api/quotes/{quote['id']}/lines", {"offer": lines["BSB-1001"], "partId": part["id"]})

    assert added.status_code == 201, added.get_json()
    [line] = added.get_json()["lines"]
    cost = _net(Decimal("1250.50"))  # 1094.19
    sale = (cost * Decimal("1.2")).quantize(KURUS, ROUND_HALF_UP)  # the supplier and brand's rule: 1313.03
    assert (line["partId"], line["oemCode"], line["name"]) == (part["id"], part["oemCode"], line["name"])
    assert line["offer"] == {
        "supplierId": supplier_id,
        "supplierName": SUPPLIER,
        "lineId": lines["BSB-1001"],
        "brand": "Bosch",
        "code": "BSB-1001",
        "unitCost": str(cost),
    }
    quantity = Decimal(line["quantity"])
    assert line["unitPrice"] == str(sale)
    margin = (quantity * sale).quantize(KURUS) - (quantity * cost).quantize(KURUS)
    assert line["margin"]["amount"] == str(margin) and line["margin"]["cost"] == str((quantity * cost).quantize(KURUS))
    assert line["margin"]["percent"] == "16.7"  # of the sale
    assert added.get_json()["margin"] == line["margin"]

    page = client.get(f"/teklifler/{quote['id']}").get_data(as_text=True)
    assert SUPPLIER in page and "1.094,19 ₺" in page and "1.313,03 ₺" in page and "% 16,7" in page

    edited = client.patch(
        f"/api/quotes/{quote['id']}/lines/{line['id']}", json={"unitPrice": "1.500", "quantity": "1"}, headers=SITE
    ).get_json()["lines"][0]
    assert edited["offer"]["unitCost"] == str(cost) and edited["margin"]["amount"] == "405.81"

    shared = post(client, f"/api/quotes/{quote['id']}/share").get_json()
    customer = app.test_client().get(shared["url"].replace("http://localhost", ""), headers=BROWSER)
    html = customer.get_data(as_text=True)
    assert customer.status_code == 200 and "1.500,00 ₺" in html  # the sale price is the customer's
    for secret in (SUPPLIER, "Başbuğ", "BSB-1001", "1.094,19", "1094.19", "405,81", "405.81", "Maliyet", "Kâr"):
        assert secret not in html, secret
    printed = client.get(f"/teklifler/{quote['id']}/print").get_data(as_text=True)
    csv_text = client.get(f"/teklifler/{quote['id']}/teklif.csv").get_data(as_text=True)
    for secret in (SUPPLIER, "1.094,19", "1094,19", "405,81"):
        assert secret not in printed and secret not in csv_text, secret

    refused = post(client, f"/api/quotes/{quote['id']}/lines", {"offer": lines["BSB-1001"]})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "quote_sent"
    version = post(client, f"/api/quotes/{quote['id']}/versions").get_json()
    assert version["lines"][0]["offer"]["unitCost"] == str(cost)


def test_a_euro_offer_from_the_catalog_costs_at_the_day_s_rate_and_without_a_rule_sells_at_cost(
    client, bmw, offers, leaf
):
    db.session.add(CurrencyRate(currency="EUR", rate_date=istanbul_today(), try_per_unit=EUR_RATE))
    db.session.commit()
    _supplier_id, lines = offers
    part = coded_parts(leaf)[0]
    page = client.get(f"/vehicles/{bmw}/categories/{leaf['category']['id']}").get_data(as_text=True)
    token = csrf_token_from(page)
    action = f"/teklifler/vehicles/{bmw}/parts/{part['id']}"
    fields = {"csrf_token": token, "offer": str(lines["BSB-1002"])}

    first = client.post(action, data=fields, headers={"HX-Request": "true"})
    again = client.post(action, data=fields, headers={"HX-Request": "true"})

    assert first.status_code == 200 and f'name="offer" value="{lines["BSB-1002"]}"' in first.get_data(as_text=True)
    assert again.status_code == 200
    quote = client.get("/api/quotes").get_json()["quotes"][0]
    [line] = quote["lines"]  # the same offer added again: its quantity grows
    cost = _net((Decimal("245.00") * EUR_RATE).quantize(KURUS, ROUND_HALF_UP))
    assert line["offer"]["unitCost"] == str(cost) and line["unitPrice"] == str(cost)
    assert Decimal(line["quantity"]) == 2 * Decimal(part["quantity"] or 1)
    assert line["margin"]["amount"] == "0.00"
    html = client.get(f"/teklifler/{quote['id']}").get_data(as_text=True)
    assert "kâr kuralı uygulanmadı" in html

    plain = client.post(action, data={"csrf_token": token}, headers={"HX-Request": "true"})
    assert plain.status_code == 200 and len(client.get(f"/api/quotes/{quote['id']}").get_json()["lines"]) == 2
    bad = client.post(action, data={"csrf_token": token, "offer": "abc"}, headers={"HX-Request": "true"})
    assert bad.status_code == 400 or bad.headers.get("X-Refused")


def test_a_gone_or_another_shop_s_offer_is_not_found_in_turkish(client, other_client, offers, quote, bmw):
    _supplier_id, lines = offers
    other_quote = post(other_client, "/api/quotes", {}).get_json()

    gone = post(client, f"/api/quotes/{quote['id']}/lines", {"offer": 987654})
    theirs = post(other_client, f"/api/quotes/{other_quote['id']}/lines", {"offer": lines["BSB-1001"]})
    bad = post(client, f"/api/quotes/{quote['id']}/lines", {"offer": "BSB-1001"})
    no_vehicle = post(other_client, f"/api/quotes/{other_quote['id']}/lines", {"offer": 1, "partId": 1})

    assert gone.status_code == 404 and gone.get_json()["error"]["message"].startswith("Bu teklif artık yok")
    assert theirs.status_code == 404 and theirs.get_json()["error"]["code"] == "offer_not_found"
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "invalid_field"
    assert no_vehicle.status_code == 404  # the offer is looked for first: another shop's line is not found
    assert client.get(f"/api/quotes/{quote['id']}").get_json()["lines"] == []


def test_an_offer_without_a_part_is_named_by_the_offer(client, offers):
    _supplier_id, lines = offers
    quote = post(client, "/api/quotes", {}).get_json()

    added = post(client, f"/api/quotes/{quote['id']}/lines", {"offer": lines["BSB-1003"], "quantity": "2"})

    [line] = added.get_json()["lines"]
    assert (line["name"], line["oemCode"], line["partId"], line["quantity"]) == ("SKF Rulman", "BSB-1003", None, "2.00")
    assert line["unitPrice"] == line["offer"]["unitCost"] == str(_net(Decimal(99)))


def test_a_part_line_shows_its_offers_and_one_chosen_brings_its_cost_and_price(client, dealer, bmw, leaf):
    from tests.support.suppliers import supplier_list

    part = coded_parts(leaf)[0]
    _supplier, lines = supplier_list(dealer, "Anadolu", [{"own": "AND-1", "oem": part["oemCode"], "price": "200"}],
                                     discount_percent=Decimal(10))  # fmt: skip
    assert post(client, "/api/suppliers/markup-rules", {"kind": "percent", "value": "25"}).status_code == 200
    page = client.get(f"/vehicles/{bmw}/categories/{leaf['category']['id']}").get_data(as_text=True)
    token = csrf_token_from(page)
    client.post(f"/teklifler/vehicles/{bmw}/parts/{part['id']}", data={"csrf_token": token})
    quote = client.get("/api/quotes").get_json()["quotes"][0]
    [line] = quote["lines"]

    shown = client.get(f"/teklifler/{quote['id']}").get_data(as_text=True)
    assert "data-offers" in shown and "180,00\N{NO-BREAK SPACE}₺ (KDV hariç)" in shown  # 200 less 10 %
    choose = f"/teklifler/{quote['id']}/lines/{line['id']}/offer"
    answer = client.post(
        choose, data={"csrf_token": token, "offer": str(lines["AND-1"])}, headers={"HX-Request": "true"}
    )

    assert answer.status_code == 200
    [chosen] = client.get(f"/api/quotes/{quote['id']}").get_json()["lines"]
    assert chosen["id"] == line["id"] and chosen["offer"]["unitCost"] == "180.00" and chosen["unitPrice"] == "225.00"
    assert "data-offers" not in answer.get_data(as_text=True)  # a line with its supplier offers no more
    refused = client.post(choose, data={"csrf_token": token, "offer": ""})  # a page keeps its 4xx
    assert refused.status_code == 400 and "Bir teklif seçin." in refused.get_data(as_text=True)
