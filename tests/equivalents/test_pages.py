"""The /muadil page: a number's group with where each equivalent came from, in Turkish; a manager's reject and link
forms (HTMX swaps the group, without JavaScript a redirect); a clerk reads only."""

from __future__ import annotations

from app.equivalents.services import NumberLink
from tests.equivalents.conftest import catalog_links, group, import_stock, keys_of

HX = {"HX-Request": "true"}


def test_the_page_shows_each_equivalent_and_its_source(shop_a):
    import_stock(shop_a["owner"])
    clerk = shop_a["clerk"]

    page = clerk.send("GET", "/muadil/1k0129620d")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in text
    assert "1K0129620D muadilleri" in text and "Stok listeniz" in text and "Aynı parça" in text
    assert "KD-1001" in text and "F026400007" in text
    assert "Reddet" not in text and "Numara bağla" not in text  # a clerk reads only
    fragment = clerk.client.get("/muadil/1k0129620d", headers=HX)
    assert "<html" not in fragment.get_data(as_text=True) and 'id="muadil-group"' in fragment.get_data(as_text=True)
    assert "HX-Request" in fragment.headers["Vary"]


def test_the_search_form_goes_to_the_number_s_group(shop_a):
    found = shop_a["clerk"].client.get("/muadil?numara=W+719/30")
    assert found.status_code == 303 and found.headers["Location"].endswith("/muadil/w71930")
    assert shop_a["clerk"].send("GET", "/muadil").status_code == 200


def test_a_manager_rejects_and_links_from_the_page(shop_a):
    catalog_links(NumberLink("3C0 698 151 A", "GDB 1550"))
    manager = shop_a["manager"]
    assert "Reddet" in manager.send("GET", "/muadil/3c0698151a").get_data(as_text=True)
    link_id = group(manager, "3C0698151A")["equivalents"][0]["links"][0]["id"]

    rejected = manager.send("POST", f"/muadil/3c0698151a/baglanti/{link_id}/reddet")
    assert rejected.status_code == 303
    assert "dükkânınız reddetti" in manager.send("GET", "/muadil/3c0698151a").get_data(as_text=True)
    assert keys_of(group(manager, "3C0698151A")) == set()

    linked = manager.client.post(
        "/muadil/3c0698151a/bagla",
        data={"b": "P 85 075", "type": "same", "csrf_token": manager.form_token},
        headers={**HX, "Origin": "http://localhost"},
    )
    assert linked.status_code == 200 and "P 85 075" in linked.get_data(as_text=True)
    assert keys_of(group(manager, "3C0698151A")) == {"p85075"}
    refused = manager.send("POST", "/muadil/3c0698151a/bagla", {"b": "3C0-698-151-A"})
    assert refused.status_code == 400 and "kendisine" in refused.get_data(as_text=True)
    assert shop_a["clerk"].send("POST", f"/muadil/3c0698151a/baglanti/{link_id}/geri-al").status_code == 403
    assert manager.send("POST", f"/muadil/3c0698151a/baglanti/{link_id}/geri-al").status_code == 303
    assert keys_of(group(manager, "3C0698151A")) == {"p85075", "gdb1550"}
