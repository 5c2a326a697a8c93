"""The shop's suppliers' offers on the catalog's part rows: each row of a drawing (page and API), each search hit and
the where-used panel show the lines of the shop's suppliers' lists in use answering to the number or to a direct
equivalent, at the shop's price (discount, TCMB rate, KDV as set), with stock and delivery, the cheapest and the
fastest marked; another shop sees none of it, the kept views and fragments notwithstanding; the offers cost the same
few queries for a page of any size."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest

from app.extensions import db
from app.suppliers.currency.services import ISTANBUL, istanbul_today
from app.suppliers.models import OfferSettings, SupplierBrandDiscount
from app.suppliers.offers import arrival
from tests.catalog.test_query_counts import SHARED_CODE, brand, catalog_of  # noqa: F401 - fixture used here
from tests.catalog.test_shelf import category_page, other_client, shown_text  # noqa: F401 - fixture used here
from tests.conftest import SITE
from tests.support.suppliers import rate, supplier_list

KEY = "1k0129620d"  # SHARED_CODE folded
FILTER_TRY = {
    "own": "BSB-1001",
    "brand": "Bosch",
    "name": "Hava filtresi",
    "price": "1000",
    "stock": 4,
    "oe": [SHARED_CODE],
}
FILTER_EUR = {"own": "MN-C35", "brand": "Mann", "name": "Hava filtresi", "price": "20", "currency": "EUR", "stock": 0,
              "oem": "1K0 129 620 D"}  # fmt: skip
EQUIVALENT = {"own": "FEBI-48", "brand": "Febi", "name": "Filtre", "price": "700", "stock_text": "Var"}


@pytest.fixture
def drawing(brand):  # noqa: F811
    return catalog_of(brand, 3)


@pytest.fixture
def suppliers(dealer):
    """Two suppliers of the dealer's shop answering to the drawing's first number: Anadolu (TRY, 10 % off, Bosch 20 %
    off) and Ege (EUR at 40 TRY, none in stock); Anadolu also holds a Febi filter only an equivalent link reaches."""
    rate("EUR", "40", istanbul_today())
    anadolu = supplier_list(dealer, "Anadolu", [FILTER_TRY, EQUIVALENT], discount_percent=Decimal(10),
                            order_cutoff="23:59", delivery_promise="aynı gün")  # fmt: skip
    ege = supplier_list(dealer, "Ege", [FILTER_EUR], currency="EUR", discount_percent=Decimal(5))
    return anadolu, ege


def category_api(client, drawing) -> dict:
    answer = client.get(f"/api/vehicles/{drawing.vehicle_id}/categories/{drawing.leaf_id}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_a_drawing_row_shows_each_suppliers_line_at_the_shops_price(client, dealer, drawing, suppliers):
    offers = category_api(client, drawing)["offers"]

    assert list(offers["byNumber"]) == [KEY]
    found = offers["byNumber"][KEY]
    assert [(o["supplierName"], o["ownCode"], o["match"], o["net"], o["inStock"]) for o in found] == [
        ("Anadolu", "BSB-1001", "oe", "900.00", True),  # 1000 less 10 %
        ("Ege", "MN-C35", "oem", "760.00", False),  # 20 EUR x 40 less 5 %, none in stock: after
    ]
    assert found[1]["rate"] == "40.000000" and found[1]["listPrice"] == "20.00" and not found[1]["rateStale"]
    assert found[0]["cheapest"] and not found[1]["cheapest"]  # the dearer one in stock is the cheapest to have
    assert found[0]["price"] == found[0]["net"] and not found[0]["withKdv"]


def test_a_brand_discount_and_kdv_as_the_shop_set_them(client, dealer, drawing, suppliers):
    db.session.add(OfferSettings(shop_id=dealer.shop_id, with_kdv=True, kdv_rate=Decimal(20)))
    db.session.add(SupplierBrandDiscount(supplier_id=suppliers[0][0], brand_key="bosch", brand="Bosch",
                                         discount_percent=Decimal(20)))  # fmt: skip
    db.session.commit()

    anadolu = category_api(client, drawing)["offers"]["byNumber"][KEY][0]

    assert (anadolu["discountPercent"], anadolu["net"], anadolu["price"], anadolu["withKdv"]) == (
        "20.00",
        "800.00",
        "960.00",
        True,
    )


def test_an_equivalents_line_is_offered_and_says_where_the_link_came_from(client, dealer, drawing, suppliers):
    body = {"a": SHARED_CODE, "b": "FEBI-48", "type": "same", "bBrand": "Febi"}
    assert client.post("/api/equivalents/links", json=body, headers=SITE).status_code == 201

    found = category_api(client, drawing)["offers"]["byNumber"][KEY]
    febi = next(offer for offer in found if offer["ownCode"] == "FEBI-48")

    assert (febi["number"], febi["via"], febi["net"], febi["inStock"]) == ("febi48", "member", "630.00", True)
    assert febi["cheapest"]
    page = shown_text(category_page(client, drawing))
    assert "3 teklif" in page and "en ucuz 630,00 ₺ Anadolu" in page
    assert "muadil FEBI48, kaynak: dükkânınızdan bir üyenin onayı" in page


def test_the_page_shows_the_line_and_another_shop_sees_none_of_it(client, dealer, drawing, suppliers, other_client):  # noqa: F811
    page = shown_text(category_page(client, drawing))
    assert "2 teklif" in page and "en ucuz 900,00 ₺ Anadolu" in page
    assert "760,00 ₺ (KDV hariç)" in page and "Stok yok" in page

    _other, other = other_client
    theirs = category_page(other, drawing)
    assert "Anadolu" not in theirs and "data-offers" not in theirs
    assert other.get(f"/api/vehicles/{drawing.vehicle_id}/categories/{drawing.leaf_id}").get_json()["offers"] is None


def test_search_hits_and_where_used_carry_the_offers(client, dealer, drawing, suppliers):
    search = client.get(f"/api/categories/search/{drawing.vehicle_id}", query_string={"q": "1K0129620D"})
    assert search.status_code == 200, search.get_json()
    assert [o["supplierName"] for o in search.get_json()["offers"]["byNumber"][KEY]] == ["Anadolu", "Ege"]

    used = client.get("/api/parts/1K0129620D/where-used")
    assert used.status_code == 200, used.get_json()
    assert [o["ownCode"] for o in used.get_json()["offers"]["byNumber"][KEY]] == ["BSB-1001", "MN-C35"]


def test_an_order_placed_after_the_cut_off_arrives_the_next_working_day():
    friday = datetime(2026, 11, 27, 13, 0, tzinfo=ISTANBUL)
    assert arrival(time(14, 0), friday) == friday.date()
    assert arrival(time(12, 0), friday) == friday.date() + timedelta(days=3)  # Monday
    assert arrival(None, friday) is None


def test_any_number_finds_its_group_its_drawings_its_shelf_and_its_offers(client, dealer, drawing, suppliers):
    from tests.support.shelf import shelf_list

    shelf_list(dealer, [{"oem": "1K0 129 620 D", "own": "RAF-7", "price": "1500", "stock": 2}])
    body = {"a": SHARED_CODE, "b": "FEBI-48", "type": "same", "bBrand": "Febi"}
    assert client.post("/api/equivalents/links", json=body, headers=SITE).status_code == 201

    answer = client.get("/api/parts/FEBI-48/lookup")
    assert answer.status_code == 200, answer.get_json()
    found = answer.get_json()

    assert found["number"] == "FEBI48"
    assert [(item["key"], item["source"]) for item in found["group"]["equivalents"]] == [(KEY, "member")]
    assert [(item["key"], item["row"]["ownCode"]) for item in found["shelf"]] == [(KEY, "RAF-7")]
    assert sorted(found["offers"]["byNumber"]) == [KEY, "febi48"]
    assert found["whereUsedNumber"] == KEY.upper()  # FEBI-48 is on no drawing: its equivalent is
    assert [vehicle["id"] for vehicle in found["whereUsed"]["vehicles"]] == [drawing.vehicle_id]
    assert found["carriedBy"] == [{"key": KEY, "vehicles": 1}]

    page = shown_text(client.get("/muadil/febi48").get_data(as_text=True))
    assert "Rafınızda 1K0129620D Rafta 2 · 1.500,00 ₺ · kodunuz RAF-7" in page
    assert "FEBI48 3 teklif · en ucuz 630,00 ₺ Anadolu" in page
    assert "1K0129620D 1 araçta var. Alfa Romeo Golf" in page
    for refused in ("-.-", "X" * 61):
        answer = client.get(f"/api/parts/{refused}/lookup")
        assert answer.status_code == 400 and "numara" in answer.get_json()["error"]["message"].lower()


def test_offers_by_number_in_the_api(client, dealer, suppliers, other_client):  # noqa: F811
    answer = client.get("/api/suppliers/offers", query_string={"number": "1k0-129-620 d"})

    assert answer.status_code == 200, answer.get_json()
    found = answer.get_json()
    assert (found["number"], found["day"]) == ("1K0129620D", istanbul_today().isoformat())
    assert [(o["supplierName"], o["net"]) for o in found["offers"]] == [("Anadolu", "900.00"), ("Ege", "760.00")]
    for refused in ({}, {"number": "--"}, {"number": "9" * 61}):
        answer = client.get("/api/suppliers/offers", query_string=refused)
        assert answer.status_code == 400 and "numara" in answer.get_json()["error"]["message"].lower()
    _other, other = other_client
    assert other.get("/api/suppliers/offers", query_string={"number": SHARED_CODE}).get_json()["offers"] == []
