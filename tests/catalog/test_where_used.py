"""Where-used: every stored vehicle and picture carrying an OEM code (spaces, dashes and case ignored), as far as the
caller's plan opens them; the API, the parts table's panel and the demo, which has none."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count
from urllib.parse import quote

import pytest
from bs4 import BeautifulSoup

from app.billing.models import Brand
from app.catalog import store
from app.catalog.providers import Node, PartLine
from app.extensions import db
from app.vehicles.models import Vehicle
from tests.support.markup import the

FRAGMENT = {"HX-Request": "true"}
VINS = (f"WVWZZZTEST{number:07d}" for number in count(1))


@dataclass(frozen=True)
class Stored:
    vehicle_id: int
    leaf_id: int
    part_ids: list[int]  # in the order of the lines given


def store_vehicle(brand: Brand | None, lines: list[PartLine], model: str = "Golf") -> Stored:
    """A vehicle with one group and one picture holding `lines`, stored by the catalog's own store."""
    vehicle = Vehicle(
        vin=next(VINS),
        brand_id=brand.id if brand else None,
        brand_name=brand.name if brand else "Tofaş",
        model=model,
        year=2017,
        source="portal",
    )
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "portal", None, [Node("1", "Motor")])
    root = store.roots(vehicle.id)[0]
    store.save_nodes(vehicle.id, "portal", root.id, [Node("11", "Filtreler {111-010}", is_leaf=True)])
    leaf = store.children(root.id)[0]
    store.save_parts(vehicle.id, leaf.id, "portal", lines)
    db.session.commit()
    return Stored(vehicle.id, leaf.id, [part.id for part in store.parts(leaf.id)])


def where_used(client, code: str, **params: str):
    query = "&".join(f"{name}={value}" for name, value in params.items())
    return client.get(f"/api/parts/{quote(code, safe='')}/where-used{'?' + query if query else ''}")


def found(client, code: str, **params: str) -> dict:
    response = where_used(client, code, **params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def listed(answer: dict) -> dict[int, list[int]]:
    return {vehicle["id"]: [part["id"] for part in vehicle["parts"]] for vehicle in answer["vehicles"]}


@pytest.fixture
def brands(billing_catalog) -> list[Brand]:
    """Two active brands: the first is the one the single-brand plan covers."""
    return billing_catalog.brands[:2]


@pytest.fixture
def two_golfs(brands) -> tuple[Stored, Stored]:
    """Two vehicles of one brand writing the same code differently, beside codes of their own."""
    first = store_vehicle(
        brands[0], [PartLine("1K0 129 620 D", "Hava filtresi", position="3"), PartLine("03L 115 562", "Yağ filtresi")]
    )
    second = store_vehicle(
        brands[0], [PartLine("06A 905 161 B", "Bobin"), PartLine("1k0-129-620-d", "HAVA FİLTRESİ", position="7")]
    )
    return first, second


# --- the API -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["1K0129620D", "1k0 129 620 d", "1K0-129-620-D", " 1K0.129.620 D "])
def test_a_code_is_found_in_every_vehicle_whatever_its_spaces_dashes_and_case(client, dealer, brands, two_golfs, typed):
    first, second = two_golfs

    answer = found(client, typed)

    assert listed(answer) == {first.vehicle_id: [first.part_ids[0]], second.vehicle_id: [second.part_ids[1]]}
    assert answer["searchCode"] == "1k0129620d"
    assert (answer["vehicleCount"], answer["partCount"], answer["hiddenVehicleCount"]) == (2, 2, 0)
    assert answer["truncated"] is False
    vehicle = answer["vehicles"][0]
    assert (vehicle["model"], vehicle["year"], vehicle["brandId"]) == ("Golf", 2017, brands[0].id)
    assert vehicle["vin"].startswith("WVWZZZTEST")
    part = vehicle["parts"][0]
    assert part["oemCode"] in {"1K0 129 620 D", "1k0-129-620-d"}
    assert part["leaf"]["name"] == "Filtreler {111-010}"
    assert [step["name"] for step in part["ancestors"]] == ["Motor"]


def test_a_code_nobody_carries_finds_nothing(client, dealer, two_golfs):
    answer = found(client, "9999 999")

    assert answer["vehicles"] == [] and answer["vehicleCount"] == answer["partCount"] == 0


def test_a_part_of_a_longer_code_is_not_a_use(client, dealer, two_golfs):
    assert found(client, "1K0 129 620")["vehicles"] == []  # the same code without its D is another part


def test_reference_rows_are_no_use_of_their_n_a(client, dealer, brands):
    store_vehicle(brands[0], [PartLine("N/A", "bk. tablo: 109-010", reference_code="109-010")])

    for typed in ("N/A", "n-a"):
        assert found(client, typed)["vehicles"] == []


def test_a_code_with_slashes_is_one_code(client, dealer, brands):
    stored = store_vehicle(brands[0], [PartLine("N 910 455 01/02", "Cıvata")])

    for path in ("/api/parts/N%20910%20455%2001/02/where-used", "/api/parts/N91045501%2F02/where-used"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert listed(response.get_json()) == {stored.vehicle_id: stored.part_ids}


def test_the_limit_cuts_the_rows_and_says_so(client, dealer, brands):
    stored = [store_vehicle(brands[0], [PartLine("5Q0 615 301", "Fren diski")]) for _ in range(3)]

    answer = found(client, "5Q0615301", limit="2")

    assert sum(len(parts) for parts in listed(answer).values()) == 2
    assert answer["truncated"] is True and answer["partCount"] == 3 and answer["vehicleCount"] == 3
    assert set(listed(found(client, "5Q0615301"))) == {item.vehicle_id for item in stored}


# --- access --------------------------------------------------------------------------------------------------------


@pytest.fixture
def three_brands(brands) -> dict[str, Stored]:
    """The same code in a vehicle of the first brand, of the second, and of none."""
    line = PartLine("8W0 698 151", "Fren balatası")
    return {
        "covered": store_vehicle(brands[0], [line]),
        "other": store_vehicle(brands[1], [line], model="A4"),
        "no brand": store_vehicle(None, [line], model="Doblo"),
    }


def test_a_single_brand_plan_lists_its_brand_and_counts_the_others(
    client, create_user, make_subscription, sign_in, three_brands
):
    user = create_user()
    make_subscription(user, "active", plan_key="single")
    sign_in(user.email)

    answer = found(client, "8W0698151")

    assert set(listed(answer)) == {three_brands["covered"].vehicle_id, three_brands["no brand"].vehicle_id}
    assert answer["vehicleCount"] == 2 and answer["hiddenVehicleCount"] == 1
    assert "A4" not in str(answer)  # a hidden vehicle is counted, never named


def test_without_a_plan_only_vehicles_without_a_brand_are_listed(client, create_user, sign_in, three_brands):
    user = create_user()
    sign_in(user.email)

    answer = found(client, "8w0-698-151")

    assert set(listed(answer)) == {three_brands["no brand"].vehicle_id}
    assert answer["hiddenVehicleCount"] == 2


def test_an_admin_sees_every_vehicle(client, create_user, sign_in, three_brands):
    admin = create_user(role="admin")
    sign_in(admin.email)

    answer = found(client, "8W0698151")

    assert set(listed(answer)) == {stored.vehicle_id for stored in three_brands.values()}
    assert answer["hiddenVehicleCount"] == 0


def test_where_used_needs_a_session(client):
    response = where_used(client, "8W0698151")

    assert response.status_code == 401 and response.get_json()["error"]["code"] == "unauthorized"


# --- bad input -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (" ", "Bir OEM kodu yazın: harfleri ve rakamları, boşluklu ya da boşluksuz."),
        ("- . -", "Bir OEM kodu yazın: harfleri ve rakamları, boşluklu ya da boşluksuz."),
        ("🙂\u0307", "Bir OEM kodu yazın: harfleri ve rakamları, boşluklu ya da boşluksuz."),
        ("Фильтр", "Bir OEM kodu yazın: harfleri ve rakamları, boşluklu ya da boşluksuz."),
        ("A" * 61, "Bir OEM kodu en fazla 60 harf ve rakamdan oluşur."),
        ("1 " * 51, "Bir OEM kodu en fazla 60 harf ve rakamdan oluşur."),
        ("9" * 5000, "Bir OEM kodu en fazla 60 harf ve rakamdan oluşur."),
    ],
)
def test_a_code_with_nothing_to_look_up_or_too_long_is_a_turkish_400(client, dealer, code, message):
    response = where_used(client, code)

    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "invalid_code", "message": message}


def test_a_code_of_sixty_letters_and_digits_is_looked_up(client, dealer):
    assert found(client, "A" * 60)["vehicles"] == []


def test_odd_bytes_in_the_code_are_a_400(client, dealer):
    for path in ("/api/parts/1K0%00129/where-used", "/api/parts/%FF%FE/where-used", "/api/parts/%ED%A0%80/where-used"):
        response = client.get(path)
        assert response.status_code == 400, path
        assert response.get_json()["error"]["code"] in {"invalid_characters", "invalid_code"}


@pytest.mark.parametrize("limit", ["0", "201", "-1", "abc", "1.5", str(2**63)])
def test_a_limit_out_of_range_is_a_400(client, dealer, limit):
    response = where_used(client, "1K0129620", limit=limit)

    assert response.status_code == 400 and response.get_json()["error"]["code"] == "invalid_parameter"


def test_the_refusal_is_in_english_when_asked(client, dealer):
    response = client.get("/api/parts/---/where-used", headers={"Accept-Language": "en"})

    assert (
        response.get_json()["error"]["message"] == "Type an OEM code: its letters and digits, with or without spaces."
    )


# --- the parts table's panel ---------------------------------------------------------------------------------------


def panel_path(stored: Stored, index: int = 0) -> str:
    return f"/vehicles/{stored.vehicle_id}/parts/{stored.part_ids[index]}/where-used"


def test_the_leaf_page_offers_used_in_on_each_coded_row(client, dealer, two_golfs):
    first, _second = two_golfs

    html = client.get(f"/vehicles/{first.vehicle_id}/categories/{first.leaf_id}").get_data(as_text=True)

    for part_id in first.part_ids:
        url = f"/vehicles/{first.vehicle_id}/parts/{part_id}/where-used"
        link = the(html, f'a.where-used-link[href="{url}"]')
        assert (link["hx-get"], link["hx-swap"]) == (url, "outerHTML")
    assert "Kullanıldığı yerler" in html


def test_the_panel_lists_the_vehicles_with_links_to_the_part_in_its_picture(client, dealer, two_golfs):
    first, second = two_golfs

    response = client.get(panel_path(first), headers=FRAGMENT)

    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Vary" in response.headers and "<html" not in html
    panel = BeautifulSoup(html, "html.parser").find()
    assert panel.name == "details" and panel["class"] == ["where-used"] and panel.has_attr("open")
    assert the(html, "summary.where-used-toggle").has_attr("autofocus")  # the focus moves from the link to the summary
    for stored, index in ((first, 0), (second, 1)):
        part_id = stored.part_ids[index]
        assert f'href="/vehicles/{stored.vehicle_id}/categories/{stored.leaf_id}?part={part_id}"' in html
        assert f'href="/vehicles/{stored.vehicle_id}"' in html
    assert "1K0 129 620 D 2 araçta var." in html
    assert 'aria-current="true"' in html and "(bu satır)" in html
    assert "· Poz. 3</span>" in html and "· Poz. 7</span>" in html


def test_without_htmx_the_panel_is_a_page(client, dealer, two_golfs):
    first, second = two_golfs

    response = client.get(panel_path(first))

    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" in html
    assert "1K0 129 620 D nerelerde kullanılıyor" in html
    assert not the(html, "summary.where-used-toggle").has_attr("autofocus")  # a page load moves no focus
    assert f"/vehicles/{second.vehicle_id}/categories/{second.leaf_id}?part={second.part_ids[1]}" in html


def test_the_panel_counts_what_the_plan_hides_and_links_to_the_plans(
    client, create_user, make_subscription, sign_in, three_brands
):
    user = create_user()
    make_subscription(user, "active", plan_key="single")
    sign_in(user.email)

    html = client.get(panel_path(three_brands["covered"]), headers=FRAGMENT).get_data(as_text=True)

    assert "Planınızda olmayan markalardan 1 araçta daha var." in html
    assert 'href="/plans"' in html
    assert f"/vehicles/{three_brands['other'].vehicle_id}" not in html


def test_the_panel_of_a_vehicle_outside_the_plan_is_refused(
    client, create_user, make_subscription, sign_in, three_brands
):
    user = create_user()
    make_subscription(user, "active", plan_key="single")
    sign_in(user.email)

    fragment = client.get(panel_path(three_brands["other"]), headers=FRAGMENT)
    page = client.get(panel_path(three_brands["other"]))

    assert fragment.status_code == 200 and "Bu marka planınıza dahil değil." in fragment.get_data(as_text=True)
    assert page.status_code == 403


def test_a_part_of_another_vehicle_is_not_found(client, dealer, two_golfs):
    first, second = two_golfs
    path = f"/vehicles/{first.vehicle_id}/parts/{second.part_ids[0]}/where-used"

    fragment = client.get(path, headers=FRAGMENT)

    assert "Bu araçta böyle bir parça bulunamadı." in fragment.get_data(as_text=True)
    assert client.get(path).status_code == 404


def test_the_demo_offers_no_used_in(client, app, dealer, two_golfs, monkeypatch):
    first, _second = two_golfs
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", first.vehicle_id)

    html = client.get(f"/demo/categories/{first.leaf_id}").get_data(as_text=True)

    assert "1K0 129 620 D" in html  # the parts table is there
    assert "where-used" not in html and "Kullanıldığı yerler" not in html
