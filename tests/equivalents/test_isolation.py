"""A shop's links are its own: another shop never sees them (API or page) nor can reject them; a rejection hides a
link for the rejecting shop only; a member's confirmation is the shop's."""

from __future__ import annotations

from app.equivalents.services import NumberLink
from tests.equivalents.conftest import catalog_links, group, import_stock, keys_of


def test_another_shop_never_sees_the_first_shop_s_links(shop_a, shop_b):
    import_stock(shop_a["owner"])
    link_id = group(shop_a["clerk"], "C27009")["equivalents"][0]["links"][0]["id"]

    for member in shop_b.values():
        assert group(member, "1K0129620D")["equivalents"] == []
        page = member.send("GET", "/muadil/1k0129620d").get_data(as_text=True)
        assert "C27009" not in page.upper().replace(" ", "") and "KD-1001" not in page
    manager = shop_b["manager"]
    for method in ("POST", "DELETE"):
        refused = manager.send(method, f"/api/equivalents/links/{link_id}/reject")
        assert refused.status_code == 404 and refused.get_json()["error"]["code"] == "link_not_found"
    refused_page = manager.send("POST", f"/muadil/1k0129620d/baglanti/{link_id}/reddet")
    assert refused_page.status_code == 404
    assert keys_of(group(shop_a["clerk"], "C27009")) == {"1k0129620d", "kd1001", "f026400007"}


def test_a_rejection_hides_a_link_for_the_rejecting_shop_only(shop_a, shop_b):
    catalog_links(NumberLink("8E0 615 301 AA", "8E0615301AB", "replaces"), NumberLink("8E0615301AA", "BRE-1234"))
    shown = group(shop_a["clerk"], "8E0615301AA")
    assert keys_of(shown) == {"8e0615301ab", "bre1234"}
    link_id = next(item["links"][0]["id"] for item in shown["equivalents"] if item["key"] == "bre1234")

    assert shop_a["clerk"].send("POST", f"/api/equivalents/links/{link_id}/reject").status_code == 403
    rejected = shop_a["manager"].send("POST", f"/api/equivalents/links/{link_id}/reject")
    assert rejected.status_code == 200 and rejected.get_json()["rejected"] is True
    assert shop_a["manager"].send("POST", f"/api/equivalents/links/{link_id}/reject").status_code == 200  # again

    after = group(shop_a["clerk"], "8E0615301AA")
    assert keys_of(after) == {"8e0615301ab"}
    assert [(item["key"], item["rejected"]) for item in after["equivalents"] if item["rejected"]] == [("bre1234", True)]
    assert keys_of(group(shop_a["clerk"], "BRE1234")) == set()
    assert keys_of(group(shop_b["clerk"], "8E0615301AA")) == {"8e0615301ab", "bre1234"}

    assert shop_a["manager"].send("DELETE", f"/api/equivalents/links/{link_id}/reject").status_code == 200
    assert keys_of(group(shop_a["clerk"], "8E0615301AA")) == {"8e0615301ab", "bre1234"}


def test_a_manager_confirms_a_link_for_the_shop_once(shop_a, shop_b):
    body = {"a": "5Q0 615 301 F", "b": "ATE 24.0125-0192.1", "type": "same", "bBrand": "ATE"}
    assert shop_a["clerk"].send("POST", "/api/equivalents/links", body).status_code == 403
    first = shop_a["manager"].send("POST", "/api/equivalents/links", body)
    second = shop_a["owner"].send("POST", "/api/equivalents/links", body)

    assert first.status_code == second.status_code == 201
    assert first.get_json()["id"] == second.get_json()["id"]
    shown = group(shop_a["clerk"], "5Q0615301F")
    assert [(i["key"], i["brand"], i["source"], i["sourceLabel"]) for i in shown["equivalents"]] == [
        ("ate24012501921", "ATE", "member", "Dükkânınızın onayı")
    ]
    assert group(shop_b["clerk"], "5Q0615301F")["equivalents"] == []


def test_confirming_a_link_the_shop_rejected_lifts_the_rejection(shop_a):
    catalog_links(NumberLink("1J0 129 620", "C 2 7 1 0 7"))
    link_id = group(shop_a["clerk"], "1J0129620")["equivalents"][0]["links"][0]["id"]
    shop_a["manager"].send("POST", f"/api/equivalents/links/{link_id}/reject")
    assert keys_of(group(shop_a["clerk"], "1J0129620")) == set()

    shop_a["manager"].send("POST", "/api/equivalents/links", {"a": "C27107", "b": "1J0129620"})

    assert keys_of(group(shop_a["clerk"], "1J0129620")) == {"c27107"}
