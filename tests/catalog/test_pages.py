"""The vehicle page's catalog through HTTP: the tree, deep links with breadcrumbs, the schema picture with hotspots,
the parts table, the HTMX fragments (with and without HX-Request), loadError with its retry, references, search, and
who may see it."""

from __future__ import annotations

import html as html_lib
import re

import pytest
import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.core.fragments import EXTENSION_KEY as FRAGMENT_CACHE
from app.core.i18n import LOCALE_COOKIE
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from tests.catalog.test_categories import first_leaf, get, run_prefetch
from tests.support.markup import the

HX = {"HX-Request": "true"}


def page(client, path: str, status: int = 200, headers: dict | None = None) -> str:
    response = client.get(path, headers=headers or {})
    assert response.status_code == status, response.get_data(as_text=True)[:2000]
    return response.get_data(as_text=True)


def fragment(client, path: str) -> str:
    response = client.get(path, headers=HX)
    assert response.status_code == 200
    assert "HX-Request" in response.headers.get("Vary", "")
    text = response.get_data(as_text=True)
    assert "<html" not in text and "<body" not in text
    return text


def text_of(html: str) -> str:
    return html_lib.unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def in_table_order(parts: list[dict]) -> list[dict]:
    """The rows as the leaf's page lists them: those that fit the vehicle (or may), then those that do not."""
    return [part for part in parts if part["fit"]["status"] != "no"] + [
        part for part in parts if part["fit"]["status"] == "no"
    ]


def main_area(html: str) -> str:
    start = html.index('<section id="catalog-main"')
    return html[start : html.index("</section>", start)]


def without_csrf_tokens(html: str) -> str:
    """The signed CSRF token carries the second it was signed in: two renders a second apart differ only there."""
    return re.sub(r'name="csrf_token" value="[^"]+"', 'name="csrf_token" value=""', html)


def tree_area(html: str) -> str:
    start = html.index('<nav class="catalog-tree')
    return html[start : html.index("</nav>", start)]


# --- the page -----------------------------------------------------------------------------------------------------


def test_the_vehicle_page_shows_the_facts_the_tree_and_the_root_groups(client, bmw, upstreams):
    html = page(client, f"/vehicles/{bmw}")

    roots = get(client, f"/api/vehicles/{bmw}/categories")["categories"]
    tree = tree_area(html)
    assert "<h1" in html and "BMW" in html and "WBA8E9G50GNU00004" in html
    assert [root["name"] for root in roots][:3] == ["Motor", "Yakıt sistemi", "Egzoz sistemi"]
    for root in roots:
        url = f"/vehicles/{bmw}/categories/{root['id']}"
        assert f'href="{url}" hx-get="{url}" hx-target="#catalog-main"' in tree
        assert f'hx-get="{url}/children"' in tree  # groups open their branch by HTMX
        assert 'aria-expanded="false"' in tree
    assert "Montaj grupları" in tree
    assert "Bir montaj grubu seçin" in main_area(html)
    assert f'action="/vehicles/{bmw}" method="get"' in html and 'name="q"' in html
    assert the(html, 'script[src="/static/js/catalog.js"]').has_attr("defer")
    assert "<script>" not in html.replace(f"<script>{_theme_script(client)}</script>", "")  # nothing inline


def _theme_script(client) -> str:
    return str(client.application.jinja_env.globals["theme_script"])


def test_sibling_drawings_share_one_kept_tree_each_marking_only_its_own_category(app, client, bmw, upstreams):
    """The tree is kept without its current category (app.catalog.views.tree_html): two drawings of one group are
    one kept tree, and each page marks its own link, and only it."""
    leaf = first_leaf(client, bmw)
    parent = leaf["ancestors"][-1]["id"]
    siblings = [child["id"] for child in get(client, f"/api/vehicles/{bmw}/categories/{parent}")["children"]]
    assert len(siblings) >= 2
    for category_id in siblings[:2]:  # fetched, so the tree's counts stay as they are
        get(client, f"/api/vehicles/{bmw}/categories/{category_id}")
    kept = app.extensions[FRAGMENT_CACHE]
    kept.clear()

    for category_id in siblings[:2] * 2:
        tree = tree_area(page(client, f"/vehicles/{bmw}/categories/{category_id}"))
        marked = re.findall(r'data-category-id="(\d+)"[^>]*aria-current="page"', tree)
        assert marked == [str(category_id)] and tree.count('aria-current="page"') == 1

    trees = [html for html in kept._entries.values() if 'class="catalog-tree' in html]
    assert len(trees) == 1 and 'aria-current="page"' not in trees[0]


def test_a_deep_link_shows_breadcrumbs_and_parts_with_the_tree_opened_down_to_it(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    url = f"/vehicles/{bmw}/categories/{leaf['category']['id']}"

    html = page(client, url)

    main, tree = main_area(html), tree_area(html)
    crumbs = main[main.index('<nav class="catalog-crumbs"') : main.index("</nav>")]
    assert f'href="/vehicles/{bmw}"' in crumbs and "Tüm gruplar" in crumbs
    for ancestor in leaf["ancestors"]:
        assert f'href="/vehicles/{bmw}/categories/{ancestor["id"]}"' in crumbs and ancestor["name"] in crumbs
        assert f'id="tree-children-{ancestor["id"]}"' in tree  # opened, its children listed
    assert re.search(rf'data-category-id="{leaf["category"]["id"]}"[^>]*aria-current="page"', tree)
    assert f'data-category-id="{leaf["category"]["id"]}"' in main
    assert leaf["category"]["illustrationCode"] in main and "{" + leaf["category"]["illustrationCode"] not in main
    rows = re.findall(r'<tr class="part-row', main)
    assert len(rows) == len(leaf["parts"])
    for part in leaf["parts"]:
        if part["reference"] is None:
            assert f'data-copy="{part["oemCode"]}"' in main
            assert f'data-copy-log="/api/vehicles/{bmw}/parts/{part["id"]}/copy"' in main
    for header in ("Poz.", "OEM numarası", "Parça", "Açıklama", "Model kodları"):
        assert f">{header}</th>" in main
    assert f"<title>{leaf['category']['name'].split(' {')[0]} · BMW" in html


def test_the_table_shows_each_part_s_quantity_after_its_name(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    main = main_area(page(client, f"/vehicles/{bmw}/categories/{leaf['category']['id']}"))

    heads = re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", main)
    assert heads[2:4] == ["Parça", '<abbr title="Adet">Adet</abbr>']
    cells = re.findall(r'<td class="part-quantity" data-label="Adet">([^<]*)</td>', main)  # the phone card's label
    expected = ["" if part["quantity"] is None else str(part["quantity"]) for part in in_table_order(leaf["parts"])]
    assert cells == expected and {"1", "2"} <= set(cells)
    client.set_cookie(LOCALE_COOKIE, "en")  # the language switch's choice
    english = main_area(page(client, f"/vehicles/{bmw}/categories/{leaf['category']['id']}"))
    assert '<abbr title="Quantity">Qty.</abbr></th>' in english and 'data-label="Qty."' in english


def test_a_page_shown_again_follows_every_change_of_its_data_and_language(client, bmw, upstreams):
    """Rendered catalog fragments are kept (app.core.fragments) by what they were rendered from: never stale."""
    leaf = first_leaf(client, bmw)
    url = f"/vehicles/{bmw}/categories/{leaf['category']['id']}"
    first, again = main_area(page(client, url)), main_area(page(client, url))
    assert 'name="csrf_token" value="' in first and without_csrf_tokens(first) == without_csrf_tokens(again)

    part = next(part for part in leaf["parts"] if part["reference"] is None)
    db.session.execute(
        sa.update(Part)
        .where(Part.id == part["id"])
        .values(name="Krümmer gasket <b>", name_tr="Krümmer gasket <b>", label="Krümmer gasket <b>")
    )
    db.session.commit()
    changed = main_area(page(client, url))
    client.set_cookie(LOCALE_COOKIE, "en")
    english = main_area(page(client, url))

    assert "Krümmer gasket &lt;b&gt;" in changed and changed != first
    assert english != changed and ">Part</th>" in english


def test_unavailable_rows_are_shown_dimmed(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    unavailable = [part for part in leaf["parts"] if part["unavailable"]]
    assert unavailable, "the sandbox leaf has an unavailable row"

    main = main_area(page(client, f"/vehicles/{bmw}/categories/{leaf['category']['id']}"))

    assert main.count("part-row is-unavailable") == len(unavailable)
    assert "mevcut değil" in main


def test_a_group_shows_its_children_as_cards(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    detail = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}")

    main = main_area(page(client, f"/vehicles/{bmw}/categories/{motor['id']}"))

    assert 'class="category-grid"' in main and "<table" not in main
    for child in detail["children"]:
        url = f"/vehicles/{bmw}/categories/{child['id']}"
        assert f'href="{url}" hx-get="{url}"' in main and 'hx-push-url="true"' in main


# --- fragments ----------------------------------------------------------------------------------------------------


def test_the_category_route_answers_the_main_area_alone_to_htmx(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    text = fragment(client, f"/vehicles/{bmw}/categories/{leaf['category']['id']}")

    assert text.lstrip().startswith("<title>") and "</title>" in text
    assert text.split("</title>", 1)[1].lstrip().startswith('<section id="catalog-main"')
    assert "catalog-tree" not in text and leaf["parts"][0]["label"] in text


def test_a_tree_branch_loads_as_its_node_opened(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    url = f"/vehicles/{bmw}/categories/{motor['id']}/children"

    text = fragment(client, url)

    children = get(client, f"/api/vehicles/{bmw}/categories/{motor['id']}/children")["categories"]
    assert text.lstrip().startswith(f'<li class="tree-node" id="tree-node-{motor["id"]}"')
    assert f'id="tree-toggle-{motor["id"]}" aria-expanded="true"' in text  # same id: htmx keeps the focus on it
    assert f'hx-get="{url}"' not in text  # opened: the toggle now only shows and hides
    for child in children:
        assert f'data-category-id="{child["id"]}"' in text
    without_htmx = client.get(url)
    assert without_htmx.status_code == 303
    assert without_htmx.headers["Location"] == f"/vehicles/{bmw}/categories/{motor['id']}"


def test_the_vehicle_route_answers_the_root_groups_or_the_page(client, bmw, upstreams):
    text = fragment(client, f"/vehicles/{bmw}")

    assert '<section id="catalog-main"' in text and "Motor" in text and "catalog-tree" not in text
    assert (
        client.get(f"/vehicles/{bmw}", headers={**HX, "HX-History-Restore-Request": "true"})
        .get_data(as_text=True)
        .lstrip()
        .startswith("<!doctype html>")
    )


# --- loadError ----------------------------------------------------------------------------------------------------


def test_a_failed_upstream_shows_a_turkish_message_and_a_retry_button(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    url = f"/vehicles/{bmw}/categories/{motor['id']}"
    upstreams.portal.faults.error_rate = 1.0

    html = page(client, url)
    text = fragment(client, url)

    for answer in (main_area(html), text):
        assert "alt grupları şu anda katalogdan yüklenemedi" in answer
        form = the(answer, "form.retry-form")
        assert (form["action"], form["method"], form["hx-get"], form["hx-target"]) == (url, "get", url, "#catalog-main")
        assert ">Yeniden dene</button>" in answer
    upstreams.portal.faults.error_rate = 0.0
    assert "yüklenemedi" not in fragment(client, url)  # the retry works once the upstream answers


def test_a_branch_that_fails_to_load_stays_closed_with_a_message(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    upstreams.portal.faults.error_rate = 1.0

    text = fragment(client, f"/vehicles/{bmw}/categories/{motor['id']}/children")

    assert 'aria-expanded="false"' in text and f'hx-get="/vehicles/{bmw}/categories/{motor["id"]}/children"' in text
    assert "Yüklenemedi" in text


# --- the schema picture and references ----------------------------------------------------------------------------


def test_a_leaf_with_a_picture_has_a_hotspot_over_each_numbered_callout(client, dealer, decode_vin, upstreams):
    golf = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    leaf = first_leaf(client, golf)
    schema = leaf["schema"]

    main = main_area(page(client, f"/vehicles/{golf}/categories/{leaf['category']['id']}"))

    image = the(main, "img.schema-image")
    assert (image["src"], image["width"]) == (schema["imageUrl"], str(schema["width"]))
    assert f'viewBox="0 0 {schema["width"]} {schema["height"]}"' in main
    row_pattern = r'<tr class="part-row[^"]*" id="(pos-\d+)" tabindex="-?[01]" data-position="([^"]+)"'
    anchors = dict(re.findall(row_pattern, main))
    linked = re.findall(r'<a class="hotspot[^"]*" href="#(pos-\d+)" data-position="([^"]+)"', main)  # dimmed too
    assert linked and len(linked) == len({spot["position"] for spot in schema["hotspots"]} & set(anchors.values()))
    for anchor, position in linked:
        assert anchors[anchor] == position  # each hotspot leads to the first row at its position
    spot = schema["hotspots"][0]
    assert f'<rect x="{spot["x1"]}" y="{spot["y1"]}" width="{spot["x2"] - spot["x1"]}"' in main
    assert "style=" not in main  # the CSP allows no inline style


def test_a_reference_row_links_to_its_picture_or_else_to_the_page_that_finds_it(client, bmw, upstreams):
    run_prefetch(bmw)
    reference = db.session.scalars(
        sa.select(Part).where(Part.vehicle_id == bmw, Part.reference_code.is_not(None))
    ).first()
    target = db.session.scalar(
        sa.select(Category.id).where(Category.vehicle_id == bmw, Category.illustration_code == reference.reference_code)
    )
    url = f"/vehicles/{bmw}/categories/{reference.category_id}"

    linked = main_area(page(client, url))
    db.session.execute(sa.update(Category).where(Category.id == target).values(illustration_code=None))
    db.session.commit()
    searched = main_area(page(client, url))

    assert (
        f'href="/vehicles/{bmw}/categories/{target}"' in linked
        and f"Şemaya bakın: {reference.reference_code}" in linked
    )
    assert f'href="/vehicles/{bmw}/references/{reference.reference_code}"' in searched
    assert f"Şemaya bakın: {reference.reference_code}" in searched
    assert "part-row is-reference" in linked
    # The whole tree is stored and no picture carries the code any more: the page that finds it opens the search.
    followed = client.get(f"/vehicles/{bmw}/references/{reference.reference_code}")
    assert followed.status_code == 303
    assert followed.headers["Location"] == f"/vehicles/{bmw}?q={reference.reference_code}"


# --- search -------------------------------------------------------------------------------------------------------


def test_the_search_shows_groups_and_parts_that_lead_to_their_picture(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    part = next(part for part in leaf["parts"] if part["reference"] is None)

    html = page(client, f"/vehicles/{bmw}?q={part['oemCode']}")
    text = fragment(client, f"/vehicles/{bmw}?q={part['oemCode']}")

    main = main_area(html)
    target = f"/vehicles/{bmw}/categories/{leaf['category']['id']}?part={part['id']}"
    for answer in (main, text):
        assert f'href="{target}"' in answer and f'data-copy="{part["oemCode"]}"' in answer
        assert f"Arama: {part['oemCode']}" in text_of(answer)
    assert f'value="{part["oemCode"]}"' in html  # the box keeps the query
    assert "Motor" in tree_area(html)  # the tree stays beside the results
    selected = main_area(page(client, target))
    assert re.search(rf'<tr class="part-row[^"]*is-selected"[^>]*data-position="{part["position"]}"', selected)


def test_a_search_that_finds_nothing_says_so(client, bmw, upstreams):
    main = main_area(page(client, f"/vehicles/{bmw}?q=zzzqqq"))

    assert "“zzzqqq” için bir şey bulunamadı." in text_of(main)


# --- who may see it -----------------------------------------------------------------------------------------------


def test_a_plan_without_the_brand_sees_the_vehicle_but_not_its_catalog(
    client, bmw, create_user, make_subscription, sign_in, upstreams
):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    other = create_user()
    make_subscription(other, "active", plan_key="single")
    sign_in(other.email)

    for path in (f"/vehicles/{bmw}", f"/vehicles/{bmw}/categories/{motor['id']}"):
        html = page(client, path, status=403)
        assert "WBA8E9G50GNU00004" in html and "catalog-tree" not in html
        assert "Bu marka planınıza dahil değil." in main_area(html) and 'href="/plans"' in main_area(html)
        assert "Motor" not in main_area(html)
    text = fragment(client, f"/vehicles/{bmw}/categories/{motor['id']}")
    assert "Bu marka planınıza dahil değil." in text and "Motor" not in text
    branch = client.get(f"/vehicles/{bmw}/categories/{motor['id']}/children", headers=HX)
    assert branch.status_code == 200 and branch.headers["HX-Retarget"] == "#catalog-main"
    assert "Bu marka planınıza dahil değil." in branch.get_data(as_text=True)


@pytest.mark.parametrize("other_vehicle", [True, False])
def test_a_category_of_another_vehicle_or_none_is_not_found(client, bmw, decode_vin, upstreams, other_vehicle):
    golf = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    path = f"/vehicles/{golf}/categories/{motor['id']}" if other_vehicle else f"/vehicles/{bmw}/categories/999999"

    html = page(client, path, status=404)
    text = fragment(client, path)

    assert "Bu araç için böyle bir kategori bulunamadı." in main_area(html)
    assert "catalog-tree" in html  # the dealer can go on from the tree
    assert "Bu araç için böyle bir kategori bulunamadı." in text
    assert client.get(f"/vehicles/{golf}/categories/{motor['id']}/children", headers=HX).headers["HX-Retarget"]


def test_an_unknown_vehicle_is_the_404_page(client, dealer):
    for path in ("/vehicles/999999", "/vehicles/999999/categories/1"):
        assert "Sayfa bulunamadı" in page(client, path, status=404)
