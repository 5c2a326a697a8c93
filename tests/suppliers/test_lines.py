"""Many numbers read at once over the shop's suppliers' lists in use, never another shop's or a list not in use."""

from __future__ import annotations

from decimal import Decimal

from app.suppliers.lines import lines_for_keys
from tests.shelf.conftest import csv_bytes
from tests.suppliers.conftest import HEADER, ROWS, create_supplier, import_list, start, upload
from tests.support.route_walk import shop_members


def test_many_numbers_in_one_query_over_the_lists_in_use(app, shop, manager):
    cheap = create_supplier(manager)
    dear = create_supplier(manager, name="Dinamik")
    import_list(manager, cheap["id"], csv_bytes([HEADER, *ROWS]))
    dearer = [[*ROWS[0][:3], "1.500,00", *ROWS[0][4:]]]
    import_list(manager, dear["id"], csv_bytes([HEADER, *dearer]))

    other = shop_members(app, "diger")["owner"]
    import_list(other.client, create_supplier(other.client)["id"], csv_bytes([HEADER, *ROWS]))
    waiting = upload(manager, dear["id"], csv_bytes([HEADER, ["YENI-1", "Febi", "Yeni", "1", "TL", "1", "", ""]]))
    start(manager, dear["id"], waiting.get_json()["id"], waiting.get_json()["suggestedMapping"])  # queued, not run

    with app.app_context():
        shop_id = shop["manager"].user.shop_id
        found = lines_for_keys(shop_id, ["1K0-129-620 D", "bsb 1003", "YENI-1", "yok-boyle"])

    assert set(found) == {"1k0129620d", "bsb1003"}
    offers = found["1k0129620d"]
    assert [(view.supplier_name, view.price, view.kind) for view in offers] == [
        ("Başbuğ Otomotiv", Decimal("1250.50"), "oe"),
        ("Dinamik", Decimal("1500.00"), "oe"),
    ]
    assert [(view.own_code, view.stock, view.stock_text, view.kind) for view in found["bsb1003"]] == [
        ("BSB-1003", 0, "Yok", "own")
    ]
