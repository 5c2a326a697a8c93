"""A supplier line close to a known catalog number (another index letter) is a suggestion with its reason, never an
offer; a manager confirms it (then it is an offer, list after list) or rejects it (never asked again). A clerk may
not decide, another shop's suggestion is not found."""

from __future__ import annotations

import pytest

from app.extensions import db
from app.suppliers.models import SupplierSuggestion
from app.suppliers.offers import offers_for_codes
from tests.billing.conftest import billing_catalog  # noqa: F401 - fixture used here
from tests.catalog.test_query_counts import SHARED_CODE, brand, catalog_of  # noqa: F401 - fixture used here
from tests.conftest import SITE
from tests.shelf.conftest import csv_bytes
from tests.suppliers.conftest import HEADER, create_supplier, import_list
from tests.support.route_walk import shop_members

KEY = "1k0129620d"  # SHARED_CODE folded: the known number
NEAR = ["YK-77", "Febi", "Hava filtresi", "900", "TL", "3", "VW 1K0 129 620 E", ""]  # another index letter
EXACT = ["YK-78", "Mann", "Hava filtresi", "950", "TL", "2", SHARED_CODE, ""]


@pytest.fixture
def drawing(brand):  # noqa: F811
    return catalog_of(brand, 1)


def suggestions_of(client, supplier_id: int):
    return client.get(f"/api/suppliers/{supplier_id}/suggestions", headers=SITE)


def decide(client, supplier_id: int, suggestion_id: int, what: str):
    return client.post(f"/api/suppliers/{supplier_id}/suggestions/{suggestion_id}/{what}", headers=SITE)


def offered_codes(app, shop) -> list[str]:
    with app.app_context():
        offers = offers_for_codes(shop["manager"].user.shop_id, [SHARED_CODE])
    return [offer.own_code for offer in offers.get(KEY, ())]


def test_a_near_miss_is_a_suggestion_until_confirmed_and_stays_confirmed(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    assert import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR]))["status"] == "done"

    answer = suggestions_of(manager, supplier["id"])
    assert answer.status_code == 200, answer.get_json()
    (item,) = answer.get_json()["items"]
    assert (item["ownCode"], item["number"], item["candidate"], item["status"]) == (
        "YK-77",
        "1K0129620E",
        "1K0129620D",
        "pending",
    )
    assert item["reason"] in ("similar_number", "brand_hint") and item["reasonText"]
    assert (item["brand"], item["name"], item["oeText"]) == ("Febi", "Hava filtresi", "VW 1K0 129 620 E")
    assert offered_codes(app, shop) == []  # a suggestion is no offer

    confirmed = decide(manager, supplier["id"], item["id"], "confirm")
    assert confirmed.status_code == 200, confirmed.get_json()
    assert confirmed.get_json()["status"] == "confirmed"
    assert offered_codes(app, shop) == ["YK-77"]
    assert suggestions_of(manager, supplier["id"]).get_json()["items"] == []
    assert decide(manager, supplier["id"], item["id"], "reject").status_code == 409  # decided once

    import_list(manager, supplier["id"], csv_bytes([HEADER, [*NEAR[:3], "880", *NEAR[4:]]]))  # the list refreshed
    assert offered_codes(app, shop) == ["YK-77"]
    assert suggestions_of(manager, supplier["id"]).get_json()["items"] == []


def test_a_rejected_suggestion_is_never_an_offer_nor_asked_again(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR, EXACT]))
    (item,) = suggestions_of(manager, supplier["id"]).get_json()["items"]  # the exact one is automatic, not asked
    assert offered_codes(app, shop) == ["YK-78"]

    rejected = decide(manager, supplier["id"], item["id"], "reject")
    assert rejected.status_code == 200 and rejected.get_json()["status"] == "rejected"
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR, EXACT]))

    assert suggestions_of(manager, supplier["id"]).get_json()["items"] == []
    assert offered_codes(app, shop) == ["YK-78"]
    with app.app_context():
        assert db.session.query(SupplierSuggestion).count() == 1


def test_a_clerk_may_not_decide_and_another_shop_finds_nothing(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR]))
    (item,) = suggestions_of(manager, supplier["id"]).get_json()["items"]
    clerk = shop["clerk"].client

    assert suggestions_of(clerk, supplier["id"]).status_code == 403
    assert decide(clerk, supplier["id"], item["id"], "confirm").status_code == 403

    other = shop_members(app, "diger")["manager"].client
    assert suggestions_of(other, supplier["id"]).status_code == 404
    assert decide(other, supplier["id"], item["id"], "confirm").status_code == 404
    elsewhere = create_supplier(other)
    assert decide(other, elsewhere["id"], item["id"], "confirm").status_code == 404  # not its supplier's
    assert decide(manager, supplier["id"], item["id"] + 1000, "confirm").status_code == 404
    assert decide(manager, supplier["id"] + 1000, item["id"], "reject").status_code == 404
    assert offered_codes(app, shop) == []
    assert suggestions_of(manager, supplier["id"]).get_json()["items"][0]["status"] == "pending"


def test_the_managers_page_lists_a_suggestion_with_its_reason_and_confirms_it(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR]))
    (item,) = suggestions_of(manager, supplier["id"]).get_json()["items"]

    page = manager.get(f"/dukkan/tedarikciler/{supplier['id']}/oneriler")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "YK-77" in html and "1K0129620D" in html and "VW 1K0 129 620 E" in html
    assert "bir karakter" in html  # the reason, in Turkish
    assert shop["clerk"].client.get(f"/dukkan/tedarikciler/{supplier['id']}/oneriler").status_code == 403

    confirmed = manager.post(
        f"/dukkan/tedarikciler/{supplier['id']}/oneriler/{item['id']}/onayla",
        data={"csrf_token": shop["manager"].form_token},
    )
    assert confirmed.status_code == 303
    assert offered_codes(app, shop) == ["YK-77"]
    assert "YK-77" not in manager.get(f"/dukkan/tedarikciler/{supplier['id']}/oneriler").get_data(as_text=True)


NEAR_TOO = ["YK-79", "Febi", "Hava filtresi", "910", "TL", "1", "VW 1K0 129 620 C", ""]  # the other side


def decide_many(client, supplier_id: int, body):
    return client.post(f"/api/suppliers/{supplier_id}/suggestions/decide", json=body, headers=SITE)


def test_many_suggestions_are_confirmed_at_once_and_each_only_once(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR, NEAR_TOO]))
    ids = [item["id"] for item in suggestions_of(manager, supplier["id"]).get_json()["items"]]
    assert len(ids) == 2

    confirmed = decide_many(manager, supplier["id"], {"ids": [*ids, ids[0], 999999], "decision": "confirm"})
    assert confirmed.status_code == 200, confirmed.get_json()
    assert confirmed.get_json() == {"decided": 2}
    assert sorted(offered_codes(app, shop)) == ["YK-77", "YK-79"]
    assert decide_many(manager, supplier["id"], {"ids": ids, "decision": "reject"}).get_json() == {"decided": 0}
    assert suggestions_of(manager, supplier["id"]).get_json()["items"] == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ids": [1], "decision": "maybe"}, "invalid_decision"),
        ({"ids": [1]}, "invalid_decision"),
        ({"ids": [], "decision": "confirm"}, "invalid_suggestions"),
        ({"ids": "1,2", "decision": "confirm"}, "invalid_suggestions"),
        ({"ids": [0], "decision": "reject"}, "invalid_suggestions"),
        ({"ids": [True], "decision": "reject"}, "invalid_suggestions"),
        ({"ids": [2**40], "decision": "reject"}, "invalid_suggestions"),
        ({"ids": list(range(1, 502)), "decision": "reject"}, "invalid_suggestions"),
    ],
)
def test_a_bad_decision_is_refused_in_turkish(manager, body, code):
    supplier = create_supplier(manager)
    refused = decide_many(manager, supplier["id"], body)
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == code
    assert "öneri" in refused.get_json()["error"]["message"].lower()


def test_a_clerk_or_another_shop_cannot_decide_many(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR]))
    ids = [item["id"] for item in suggestions_of(manager, supplier["id"]).get_json()["items"]]
    body = {"ids": ids, "decision": "confirm"}

    assert decide_many(shop["clerk"].client, supplier["id"], body).status_code == 403
    other = shop_members(app, "diger")["manager"].client
    assert decide_many(other, supplier["id"], body).status_code == 404
    elsewhere = create_supplier(other)
    assert decide_many(other, elsewhere["id"], body).get_json() == {"decided": 0}  # not its supplier's
    assert offered_codes(app, shop) == []


def test_the_page_rejects_the_ticked_suggestions(app, shop, manager, drawing):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, NEAR, NEAR_TOO]))
    ids = [item["id"] for item in suggestions_of(manager, supplier["id"]).get_json()["items"]]
    page = f"/dukkan/tedarikciler/{supplier['id']}/oneriler"
    assert 'form="bulk-decisions"' in manager.get(page).get_data(as_text=True)

    token = shop["manager"].form_token
    nothing = manager.post(f"{page}/toplu", data={"csrf_token": token, "decision": "reject"}, follow_redirects=True)
    assert "1 ile 500 arasında öneri seçin" in nothing.get_data(as_text=True)
    done = manager.post(
        f"{page}/toplu", data={"csrf_token": token, "decision": "reject", "ids": [str(i) for i in ids]},
        follow_redirects=True,
    )  # fmt: skip
    assert "2 öneri reddedildi." in done.get_data(as_text=True)
    assert suggestions_of(manager, supplier["id"]).get_json()["items"] == []
    assert offered_codes(app, shop) == []
