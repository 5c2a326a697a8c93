"""Offers kept in the process between requests (app.suppliers.offer_cache) never outlive what they were made of: each
change a manager makes, a new list in use, the day's rates, an equivalent link added or rejected, a statement sent
outside the ORM, the supplier's cut-off passing, shows on the next page; a kept page sends no statement for its
offers; and two shops offering the same number each see their own."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.suppliers import offers as offers_module
from app.suppliers.currency.models import CurrencyRate
from app.suppliers.currency.services import ISTANBUL
from app.suppliers.models import Supplier
from tests.catalog.test_offers import FILTER_TRY, KEY, category_api, drawing, suppliers  # noqa: F401 - fixtures
from tests.catalog.test_query_counts import brand  # noqa: F401 - fixture used here
from tests.catalog.test_shelf import category_page, other_client, shown_text  # noqa: F401 - fixture used here
from tests.conftest import SITE
from tests.support.queries import keep_session, statements_of
from tests.support.suppliers import supplier_list


def offered(client, drawing) -> list[tuple[str, str | None, str | None]]:  # noqa: F811
    """(supplier, own code, price as shown) of the drawing's first number's offers, through the API."""
    found = (category_api(client, drawing)["offers"] or {"byNumber": {}})["byNumber"].get(KEY, [])
    return [(offer["supplierName"], offer["ownCode"], offer["price"]) for offer in found]


def test_each_change_a_manager_makes_shows_on_the_next_page(client, dealer, drawing, suppliers):  # noqa: F811
    anadolu, ege = suppliers[0][0], suppliers[1][0]
    assert offered(client, drawing) == [("Anadolu", "BSB-1001", "900.00"), ("Ege", "MN-C35", "760.00")]
    assert offered(client, drawing) == [("Anadolu", "BSB-1001", "900.00"), ("Ege", "MN-C35", "760.00")]  # kept

    assert client.patch(f"/api/suppliers/{anadolu}", json={"discountPercent": 30}, headers=SITE).status_code == 200
    assert offered(client, drawing)[0] == ("Anadolu", "BSB-1001", "700.00")

    body = {"discountPercent": 40}
    assert client.put(f"/api/suppliers/{anadolu}/discounts/Bosch", json=body, headers=SITE).status_code == 200
    assert offered(client, drawing)[0] == ("Anadolu", "BSB-1001", "600.00")

    body = {"withKdv": True, "kdvRate": "20"}
    assert client.put("/api/suppliers/offer-settings", json=body, headers=SITE).status_code == 200
    assert offered(client, drawing) == [("Anadolu", "BSB-1001", "720.00"), ("Ege", "MN-C35", "912.00")]

    assert client.delete(f"/api/suppliers/{ege}", headers=SITE).status_code == 200
    assert offered(client, drawing) == [("Anadolu", "BSB-1001", "720.00")]


def test_a_new_list_in_use_and_the_days_new_rate_show_at_once(client, dealer, drawing, suppliers):  # noqa: F811
    assert offered(client, drawing)[1] == ("Ege", "MN-C35", "760.00")

    todays = db.session.scalar(sa.select(CurrencyRate).where(CurrencyRate.currency == "EUR"))
    todays.try_per_unit = Decimal(50)  # the day's bulletin read again
    db.session.commit()
    assert offered(client, drawing)[1] == ("Ege", "MN-C35", "950.00")  # 20 EUR x 50 less 5 %

    supplier_list(dealer, "Marmara", [{**FILTER_TRY, "own": "MRM-1", "price": "500"}])
    assert offered(client, drawing)[0] == ("Marmara", "MRM-1", "500.00")


def test_an_equivalent_link_added_then_rejected_shows_at_once(client, dealer, drawing, suppliers):  # noqa: F811
    assert "FEBI-48" not in [own for _supplier, own, _price in offered(client, drawing)]

    body = {"a": KEY, "b": "FEBI-48", "type": "same", "bBrand": "Febi"}
    link = client.post("/api/equivalents/links", json=body, headers=SITE)
    assert link.status_code == 201, link.get_json()
    assert ("Anadolu", "FEBI-48", "630.00") in offered(client, drawing)

    rejected = client.post(f"/api/equivalents/links/{link.get_json()['id']}/reject", headers=SITE)
    assert rejected.status_code == 200, rejected.get_json()
    assert "FEBI-48" not in [own for _supplier, own, _price in offered(client, drawing)]


def test_a_change_sent_as_plain_sql_shows_too(client, dealer, drawing, suppliers):  # noqa: F811
    anadolu = suppliers[0][0]
    assert offered(client, drawing)[0] == ("Anadolu", "BSB-1001", "900.00")

    db.session.execute(sa.update(Supplier).where(Supplier.id == anadolu).values(discount_percent=Decimal(50)))
    db.session.commit()
    assert offered(client, drawing)[0] == ("Anadolu", "BSB-1001", "500.00")

    plain = sa.text("UPDATE supplier SET discount_percent = 25 WHERE id = :id")
    db.session.connection().execute(plain, {"id": anadolu})
    db.session.commit()
    assert offered(client, drawing)[0] == ("Anadolu", "BSB-1001", "750.00")


def test_the_delivery_day_turns_at_the_suppliers_cut_off(client, dealer, drawing, monkeypatch):  # noqa: F811
    supplier_list(dealer, "Anadolu", [FILTER_TRY], order_cutoff="14:00", delivery_promise="aynı gün")
    tuesday = datetime(2026, 12, 1, 13, 59, tzinfo=ISTANBUL)
    monkeypatch.setattr(offers_module, "istanbul_now", lambda: tuesday)

    def arrives() -> str:
        return category_api(client, drawing)["offers"]["byNumber"][KEY][0]["arrivesOn"]

    assert arrives() == "2026-12-01"
    tuesday = datetime(2026, 12, 1, 14, 0, tzinfo=ISTANBUL)
    assert arrives() == "2026-12-02"  # the kept offer is not kept past the cut-off
    tuesday = datetime(2026, 12, 1, 23, 0, tzinfo=ISTANBUL)
    assert arrives() == "2026-12-02"


def test_a_kept_page_sends_no_statement_for_its_offers(app, client, dealer, drawing, suppliers):  # noqa: F811
    keep_session(client)
    path = f"/api/vehicles/{drawing.vehicle_id}/categories/{drawing.leaf_id}"
    client.get(path)
    _first, computed = statements_of(app, lambda: client.get(path))  # the offers kept by the request before
    response, kept = statements_of(app, lambda: client.get(path))

    assert response.get_json()["offers"]["byNumber"][KEY]
    assert not [sql for sql in kept if "supplier_line" in sql or "equivalent_link" in sql], kept
    assert len(kept) == len(computed)


@pytest.mark.parametrize("first", ["dealer", "other"])
def test_two_shops_offering_the_same_number_each_see_their_own(
    client,
    dealer,
    drawing,  # noqa: F811
    suppliers,  # noqa: F811
    other_client,  # noqa: F811
    first,
):
    other_user, other = other_client
    supplier_list(other_user, "Başka Tedarikçi", [{**FILTER_TRY, "own": "OTR-9", "price": "111"}])
    order = [(client, "Anadolu"), (other, "Başka Tedarikçi")]
    for viewer, supplier in order if first == "dealer" else order[::-1]:
        for _ in range(2):
            shown = offered(viewer, drawing)
            assert {name for name, _own, _price in shown} == ({supplier} | ({"Ege"} if viewer is client else set()))
    page = shown_text(category_page(other, drawing))
    assert "Başka Tedarikçi" in page and "Anadolu" not in page and "Ege" not in page


def test_without_a_cache_a_page_reads_its_offers_each_time(app, client, dealer, drawing, suppliers, monkeypatch):  # noqa: F811
    monkeypatch.delitem(app.extensions, "offer_cache")  # OFFER_CACHE_SIZE=0
    keep_session(client)
    path = f"/api/vehicles/{drawing.vehicle_id}/categories/{drawing.leaf_id}"
    client.get(path)
    response, statements = statements_of(app, lambda: client.get(path))

    assert response.get_json()["offers"]["byNumber"][KEY]
    assert [sql for sql in statements if "supplier_line" in sql]
