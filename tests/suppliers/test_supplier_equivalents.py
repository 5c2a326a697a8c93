"""A supplier's list in use feeds the shop's equivalents: each line's own code is the same part as the OEM numbers its
OEM column and OE field hold exactly and as its EAN, said to come from a supplier's OE field; the supplier's next list
replaces them; another shop never sees them."""

from __future__ import annotations

from tests.shelf.conftest import csv_bytes
from tests.suppliers.conftest import HEADER, ROWS, create_supplier, import_list
from tests.support.route_walk import shop_members


def group_keys(client, number: str) -> dict[str, str]:
    answer = client.get(f"/api/equivalents/{number}")
    assert answer.status_code == 200, answer.get_json()
    return {item["key"]: item["source"] for item in answer.get_json()["equivalents"]}


def test_a_lines_oe_numbers_and_ean_are_its_own_codes_equivalents(app, shop, manager):
    supplier = create_supplier(manager)
    with_ean = [*ROWS[:1], [*ROWS[1][:7], "4009026000007"], *ROWS[2:]]  # a valid GTIN; the fixture's is not one
    assert import_list(manager, supplier["id"], csv_bytes([HEADER, *with_ean]))["status"] == "done"

    assert group_keys(manager, "1K0 129 620 D") == {"bsb1001": "supplier", "8p0129620": "supplier"}
    assert group_keys(manager, "BSB-1002") == {"06a115561b": "supplier", "4009026000007": "supplier"}
    assert group_keys(manager, "4009026000007") == {"bsb1002": "supplier", "06a115561b": "supplier"}

    other = shop_members(app, "baska")["owner"].client
    assert group_keys(other, "1K0 129 620 D") == {}


def test_the_suppliers_next_list_replaces_its_links(app, shop, manager):
    supplier = create_supplier(manager)
    import_list(manager, supplier["id"], csv_bytes([HEADER, *ROWS]))
    changed = [["BSB-1001", "Bosch", "Hava filtresi", "1.250,50", "TL", "Var", "VW 1K0 129 620 E", ""]]
    import_list(manager, supplier["id"], csv_bytes([HEADER, *changed]))

    assert group_keys(manager, "1K0129620D") == {}
    assert group_keys(manager, "1K0129620E") == {"bsb1001": "supplier"}
