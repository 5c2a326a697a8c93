"""The stock list as a source: an import links each row's numbers for the shop, a number's group is found from any of
them, and the branch's next list replaces the links of the previous one."""

from __future__ import annotations

import sqlalchemy as sa

from app.equivalents.models import EquivalentLink
from app.extensions import db
from tests.equivalents.conftest import group, import_stock, keys_of


def test_a_list_links_each_row_s_numbers_found_from_any_of_them(shop_a):
    import_stock(shop_a["owner"])
    clerk = shop_a["clerk"]

    from_oem = group(clerk, "1K0 129 620 D")
    assert from_oem["number"] == "1K0129620D"
    assert keys_of(from_oem) == {"kd1001", "c27009", "f026400007"}
    assert {(item["relation"], item["source"], item["sourceLabel"]) for item in from_oem["equivalents"]} == {
        ("same", "shelf", "Stok listeniz")
    }
    assert keys_of(group(clerk, "C27009")) == {"1k0129620d", "kd1001", "f026400007"}
    assert keys_of(group(clerk, "kd-1001")) == {"1k0129620d", "c27009", "f026400007"}


def test_the_successor_replaces_the_row_s_number_read_both_ways(shop_a):
    import_stock(shop_a["owner"])
    clerk = shop_a["clerk"]

    from_new = group(clerk, "06A115561C")
    old = next(item for item in from_new["equivalents"] if item["key"] == "06a115561b")
    assert (old["relation"], old["relationLabel"], old["depth"]) == ("replaced_by", "Eski numara (yerine bu geldi)", 1)
    assert {"w71930", "kd1002"} <= keys_of(from_new)
    from_old = group(clerk, "06A-115-561.B")
    new = next(item for item in from_old["equivalents"] if item["key"] == "06a115561c")
    assert new["relation"] == "replaces"
    from_aftermarket = group(clerk, "W 719/30")
    assert next(item for item in from_aftermarket["equivalents"] if item["key"] == "06a115561c")["depth"] == 2


def test_the_branch_s_next_list_replaces_the_links_of_the_previous_one(shop_a):
    owner, clerk = shop_a["owner"], shop_a["clerk"]
    import_stock(owner)
    import_stock(owner, [["KD-1001", "1K0 129 620 D", "VW", "Hava filtresi", "1.250,50", "TL", "3", "LX 1566", ""]])

    assert keys_of(group(clerk, "1K0129620D")) == {"kd1001", "lx1566"}
    assert group(clerk, "C27009")["equivalents"] == []
    assert group(clerk, "06A115561C")["equivalents"] == []


def _links_stored() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(EquivalentLink))


def test_the_same_list_imported_again_records_each_link_once(shop_a):
    import_stock(shop_a["owner"])
    first = _links_stored()
    import_stock(shop_a["owner"])

    # Two rows of three links each (own code, aftermarket numbers, successor); the third row has one number only.
    assert _links_stored() == first == 6


def test_a_deleted_branch_takes_its_lists_links_with_it(shop_a):
    owner, clerk = shop_a["owner"], shop_a["clerk"]
    import_stock(owner)
    listed_branch = owner.send("GET", "/api/shop/branches").get_json()["currentBranchId"]
    other = owner.send("POST", "/api/shop/branches", {"name": "Kartal Şubesi"}).get_json()["id"]
    assert keys_of(group(clerk, "1K0 129 620 D")) == {"kd1001", "c27009", "f026400007"}

    deleted = owner.send("DELETE", f"/api/shop/branches/{listed_branch}?moveTo={other}")

    assert deleted.status_code == 200, deleted.get_json()
    assert group(clerk, "1K0 129 620 D")["equivalents"] == []
    assert group(clerk, "06A115561C")["equivalents"] == []
