"""The public demo page through HTTP: the vehicle's facts, the tree, a category as a page and as a fragment, tree
branches, the search, the id guard, no upstream call, no copy log, the calls to register with their placements, the
analytics events of an anonymous visitor, and the page when there is no demo."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.catalog import store
from app.catalog.models import Category, Part
from app.core.i18n import LOCALE_COOKIE
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from tests.catalog.test_pages import fragment, main_area, page, text_of, tree_area
from tests.demo.conftest import upstream_calls
from tests.support.markup import the

HX = {"HX-Request": "true"}
MISSING = 987654321


def register_link(placement: str) -> str:
    return f'href="/demo/register?placement={placement}"'


# --- the page -----------------------------------------------------------------------------------------------------


def test_the_page_shows_the_masked_vin_the_catalog_size_the_tree_and_the_calls_to_register(client, golf):
    client.set_cookie(LOCALE_COOKIE, "en")  # the language switch's choice
    html = page(client, "/demo")

    categories, parts, pictures = store.counts(golf.vehicle_id)
    text = text_of(html)
    assert "<h1" in html and "Volkswagen Golf" in text
    assert "WVW" + "*" * 14 in text and VIN_GOLF[3:] not in html
    assert f"Groups {categories:,} Parts {parts:,} Schema pictures {pictures:,}" in text
    tree = tree_area(html)
    for root in golf.roots:
        url = f"/demo/categories/{root}"
        assert f'href="{url}" hx-get="{url}" hx-target="#catalog-main"' in tree
        assert f'hx-get="{url}/children"' in tree
    assert 'action="/demo" method="get"' in html and 'name="q"' in html
    assert register_link("banner") in html and register_link("footer") in html
    assert html.index(register_link("banner")) < html.index('id="catalog-main"') < html.index(register_link("footer"))
    assert "category_footer" not in main_area(html)  # only under a category
    assert "/vehicles/" not in html and "/api/" not in html  # nothing of the signed-in page, no copy log
    assert the(html, 'script[src="/static/js/catalog.js"]').has_attr("defer")


def test_a_leaf_page_has_its_picture_parts_and_a_call_to_register_with_the_tree_opened_down_to_it(client, golf):
    html = page(client, f"/demo/categories/{golf.leaf}")

    main, tree = main_area(html), tree_area(html)
    parts = store.parts(golf.leaf)
    assert 'class="schema-image" src="/storage/schemas/' in main and 'class="hotspot' in main
    assert main.count('class="copy-button"') == len([part for part in parts if not part.reference_code])
    assert all(f'data-copy="{part.oem_code}"' in main for part in parts if not part.reference_code)
    assert "data-copy-log" not in html
    assert register_link("category_footer") in main and 'data-placement="category_footer"' in main
    assert 'href="/demo" hx-get="/demo"' in main  # "All groups"
    for ancestor in golf.branch[:-1]:
        assert f'href="/demo/categories/{ancestor}" hx-get' in main  # the breadcrumbs
        assert f'aria-expanded="true"\n              aria-controls="tree-children-{ancestor}"' in tree
    assert f'data-category-id="{golf.leaf}" href="/demo/categories/{golf.leaf}"' in tree
    assert 'aria-current="page"' in tree


def test_a_category_answers_the_main_area_alone_to_htmx(client, golf):
    answer = fragment(client, f"/demo/categories/{golf.branch[0]}")

    assert answer.startswith("<title>") and '<section id="catalog-main"' in answer
    assert 'class="category-grid"' in answer and f'href="/demo/categories/{golf.branch[1]}"' in answer
    assert register_link("category_footer") in answer
    assert 'class="catalog-tree' not in answer and register_link("banner") not in answer


def test_a_branch_opens_as_its_node_with_its_stored_children(client, golf):
    group = golf.branch[0]

    answer = fragment(client, f"/demo/categories/{group}/children")
    without_htmx = client.get(f"/demo/categories/{group}/children")

    assert answer.lstrip().startswith(f'<li class="tree-node" id="tree-node-{group}">')
    assert f'aria-controls="tree-children-{group}"' in answer
    assert f'href="/demo/categories/{golf.branch[1]}"' in answer
    assert (without_htmx.status_code, without_htmx.location) == (303, f"/demo/categories/{group}")


def test_the_search_shows_stored_results_that_lead_to_their_picture(client, turkish_catalog):
    html = page(client, "/demo?q=filtre")
    answer = fragment(client, "/demo?q=filtre")

    parts = db.session.scalars(sa.select(Part).where(Part.category_id == turkish_catalog.leaf))
    found = {part.id for part in parts if "filtre" in part.name.lower() or "FİLTRE" in part.name}
    for result in (main_area(html), answer):
        assert "Arama: filtre" in result
        assert all(f'href="/demo/categories/{turkish_catalog.leaf}?part={part}"' in result for part in found)
        assert "data-copy-log" not in result
    assert 'value="filtre"' in html and "Bir montaj grubu seçin" not in html


def test_a_reference_links_to_its_picture_or_else_to_the_demo_search(client, turkish_catalog):
    leaf = turkish_catalog.leaf

    def refer(oem_code: str, code: str) -> None:
        db.session.execute(sa.update(Part).where(Part.oem_code == oem_code).values(reference_code=code))

    refer("06A 905 161 B", "111-010")  # the leaf's own picture
    refer("1K0 129 620 D", "999-010")  # no stored picture
    db.session.commit()
    main = main_area(page(client, f"/demo/categories/{leaf}"))

    assert f'href="/demo/categories/{leaf}" hx-get' in main
    assert 'href="/demo?q=999-010" hx-get="/demo?q=999-010"' in main


# --- the id guard and stored rows only ------------------------------------------------------------------------------


MESSAGE = "Bu araç için böyle bir kategori bulunamadı."


@pytest.mark.parametrize("whose", ["another vehicle's", "missing"])
def test_a_category_of_another_vehicle_or_none_is_a_404_page_with_the_tree(
    client, golf, other_vehicles_category, whose
):
    category_id = other_vehicles_category if whose == "another vehicle's" else MISSING

    html = page(client, f"/demo/categories/{category_id}", status=404)
    followed = client.get(f"/demo/categories/{category_id}/children", follow_redirects=True)

    assert MESSAGE in main_area(html) and "Motor" not in main_area(html)
    assert f'href="/demo/categories/{golf.roots[0]}"' in tree_area(html)
    assert followed.status_code == 404 and MESSAGE in followed.get_data(as_text=True)


@pytest.mark.parametrize("suffix", ["", "/children"])
def test_to_htmx_an_unknown_category_shows_in_the_main_area(client, golf, other_vehicles_category, suffix):
    response = client.get(f"/demo/categories/{other_vehicles_category}{suffix}", headers=HX)

    assert response.status_code == 200  # htmx swaps no error status
    assert response.headers["HX-Retarget"] == "#catalog-main"
    assert MESSAGE in response.get_data(as_text=True) and "Motor" not in response.get_data(as_text=True)


def test_no_page_ever_calls_an_upstream_even_for_a_category_not_stored(client, golf, upstreams):
    before = upstream_calls(upstreams)
    unfetched = golf.roots[1]  # its children were never stored

    group = main_area(page(client, f"/demo/categories/{unfetched}"))
    branch = fragment(client, f"/demo/categories/{unfetched}/children")
    for path in ("/demo", "/demo?q=filter", f"/demo/categories/{golf.leaf}", f"/demo/categories/{golf.leaf}?part=1"):
        page(client, path)
        fragment(client, path)

    assert upstream_calls(upstreams) == before
    assert 'class="category-grid"' in group and "category-card" not in group and "retry-form" not in group
    assert "Alt grup yok" in branch
    assert db.session.get(Category, unfetched).children_fetched_at is None


# --- calls to register and analytics ------------------------------------------------------------------------------


@pytest.mark.parametrize("placement", ["banner", "footer", "category_footer", "unavailable"])
def test_a_call_to_register_goes_to_the_registration_page(client, placement):
    response = client.get(f"/demo/register?placement={placement}")

    assert (response.status_code, response.location) == (303, "/register")


@pytest.fixture
def observed(make_app, posthog, turkish_catalog):
    """A client of an app that sends its analytics events to the fake PostHog server, on the hand-made demo."""
    app = make_app(
        POSTHOG_API_KEY="phc_test",
        POSTHOG_HOST=posthog.url,
        ANALYTICS_SYNC=True,
        DEMO_VEHICLE_ID=turkish_catalog.vehicle_id,
    )
    return app.test_client()


def properties_of(posthog, event: str) -> list[dict]:
    return [
        {key: value for key, value in item["properties"].items() if not key.startswith("$")}
        for item in posthog.named(event)
    ]


def test_the_page_reports_its_events_for_an_anonymous_visitor_kept_in_a_cookie(observed, posthog, turkish_catalog):
    root, leaf, vehicle = turkish_catalog.root, turkish_catalog.leaf, turkish_catalog.vehicle_id

    first = observed.get("/demo")
    for path in ("/demo", "/demo?q=filtre", f"/demo/categories/{root}", f"/demo/categories/{root}/children"):
        observed.get(path, headers=HX)  # "All groups", a search, a group in the main area, a tree branch
    observed.get(f"/demo/categories/{leaf}", headers=HX)
    later = observed.get(f"/demo/categories/{leaf}")  # a deep link, or a refresh
    observed.get(f"/demo/categories/{MISSING}")  # a 404 reports nothing
    observed.get(f"/demo/categories/{MISSING}", headers=HX)

    cookie = first.headers["Set-Cookie"]
    visitor = cookie.split(";")[0].removeprefix("demo_visitor=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/demo" in cookie
    assert "Set-Cookie" not in later.headers  # known from now on
    assert {item["distinct_id"] for item in posthog.events} == {visitor}
    assert "127.0.0.1" not in str(posthog.events)
    assert properties_of(posthog, "demo_loaded") == [{"vehicle_id": vehicle, "search": False}]
    group, leaf_clicked = (
        {"vehicle_id": vehicle, "category_id": root, "leaf": False},
        {"vehicle_id": vehicle, "category_id": leaf, "leaf": True, "opened_in": "main"},
    )
    assert properties_of(posthog, "demo_category_clicked") == [
        {**group, "opened_in": "main"},
        {**group, "opened_in": "tree"},
        leaf_clicked,
        leaf_clicked,
    ]
    viewed = {"vehicle_id": vehicle, "category_id": leaf, "leaf": True, "parts": 4, "schema": False}
    assert properties_of(posthog, "demo_category_detail_viewed") == [viewed, viewed]


def test_a_call_to_register_is_counted_by_its_placement_an_unknown_one_as_unknown(observed, posthog):
    for placement in ("banner", "footer", "category_footer", "elsewhere"):
        observed.get(f"/demo/register?placement={placement}")
    observed.get("/demo/register")

    placements = [item["placement"] for item in properties_of(posthog, "demo_to_register_click")]
    assert placements == ["banner", "footer", "category_footer", "unknown", "unknown"]


def test_a_visitor_cookie_that_is_not_one_of_ours_is_replaced(observed, posthog):
    observed.set_cookie("demo_visitor", "127.0.0.1", path="/demo")

    response = observed.get("/demo")

    visitor = response.headers["Set-Cookie"].split(";")[0].removeprefix("demo_visitor=")
    assert visitor != "127.0.0.1" and [item["distinct_id"] for item in posthog.events] == [visitor]


# --- no demo ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/demo", "/demo?q=filtre", "/demo/categories/1", "/demo/categories/1/children"])
def test_without_a_demo_vehicle_the_page_is_a_404_that_leads_to_the_registration(app, client, monkeypatch, path):
    monkeypatch.setitem(app.config, "DEMO_VEHICLE_ID", None)
    monkeypatch.setitem(app.config, "DEMO_VIN", "")

    response = client.get(path, headers=HX if path.endswith("/children") else {})

    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "Demo şu anda kullanılamıyor. Lütfen daha sonra tekrar deneyin." in html
    assert register_link("unavailable") in html


# --- public, GET only, throttled, linked from the landing page ------------------------------------------------------


def test_every_demo_page_is_public_and_read_only(app):
    rules = [rule for rule in app.url_map.iter_rules() if rule.rule == "/demo" or rule.rule.startswith("/demo/")]

    assert sorted(rule.rule for rule in rules) == [
        "/demo",
        "/demo/categories/<int:category_id>",
        "/demo/categories/<int:category_id>/children",
        "/demo/register",
    ]
    for rule in rules:
        assert getattr(app.view_functions[rule.endpoint], "is_public", False), rule.rule
        assert rule.methods - {"HEAD", "OPTIONS"} == {"GET"}, rule.rule


def test_the_pages_share_the_demo_budget_and_only_a_search_costs_the_search_budget(make_app, turkish_catalog):
    settings = {"RATELIMIT_ENABLED": True, "DEMO_VEHICLE_ID": turkish_catalog.vehicle_id}
    shared = make_app(**settings, DEMO_RATE_LIMIT="2 per minute").test_client()
    searching = make_app(**settings, DEMO_SEARCH_RATE_LIMIT="1 per minute").test_client()

    budget = [shared.get(path).status_code for path in ("/api/demo/vehicle", "/demo", "/demo/register")]
    searches = [searching.get(path).status_code for path in ("/demo", "/demo", "/demo?q=filtre", "/demo?q=yağ")]

    assert budget == [200, 200, 429]
    assert searches == [200, 200, 200, 429] and searching.get("/demo").status_code == 200


def test_the_landing_page_invites_to_the_demo(client):
    html = page(client, "/")

    assert 'href="/demo"' in html


def test_a_signed_in_dealer_sees_no_call_to_register(client, golf, create_user, sign_in):
    sign_in(create_user().email)

    whole = page(client, "/demo")
    leaf = page(client, f"/demo/categories/{golf.leaf}")

    for html in (whole, leaf):
        assert "/demo/register" not in html and "data-placement=" not in html
    assert 'href="/vin"' in whole and "Bu, demo aracıdır." in whole
