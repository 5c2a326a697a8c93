"""A part's stable link through HTTP: built from the group path, position and OEM code, it lands on the part even after
the catalog was fetched again under new ids, and a link that leads nowhere (or to a brand outside the plan) is a clear
4xx, never a 500."""

from __future__ import annotations

import html as html_lib
import re

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.catalog.models import Category
from app.extensions import db
from tests.catalog.test_categories import first_leaf
from tests.catalog.test_pages import main_area, page


def part_link(client, vehicle_id: int) -> tuple[str, dict]:
    """The first leaf's stable link (from its page) and a part of it that has a position and a code."""
    leaf = first_leaf(client, vehicle_id)
    html = page(client, f"/vehicles/{vehicle_id}/categories/{leaf['category']['id']}")
    link = html_lib.unescape(re.search(r'data-deep-link="([^"]+)"', html).group(1))
    part = next(part for part in leaf["parts"] if part["position"] and not part["reference"])
    return link, part


def selected_code(html: str) -> str:
    row = re.search(r'<tr class="part-row[^"]*\bis-selected\b[^>]*>(.*?)</tr>', main_area(html), flags=re.S)
    assert row, "no row is selected"
    return html_lib.unescape(re.search(r'<span class="oem-code">([^<]+)</span>', row.group(1)).group(1))


def test_a_part_link_lands_on_the_part_with_the_tree_opened(client, bmw, upstreams):
    link, part = part_link(client, bmw)
    assert re.fullmatch(rf"/vehicles/{bmw}/catalog/[a-z0-9-]+(/[a-z0-9-]+)+", link)

    html = page(client, f"{link}?pos={part['position']}&oem={part['oemCode']}")
    assert selected_code(html) == part["oemCode"]
    assert 'aria-current="page"' in html
    assert f'data-position="{part["position"]}"' in html


def test_the_link_survives_a_refetch_and_a_differently_written_code(client, bmw, upstreams):
    link, part = part_link(client, bmw)
    db.session.execute(sa.delete(Category).where(Category.vehicle_id == bmw))  # fetched again: new ids everywhere
    db.session.commit()

    code = part["oemCode"].lower().replace(" ", "-")
    html = page(client, f"{link}?pos={part['position']}&oem={code}")
    assert selected_code(html) == part["oemCode"]


def test_a_link_without_a_matching_part_still_opens_its_picture(client, bmw, upstreams):
    link, _part = part_link(client, bmw)
    html = page(client, f"{link}?pos=zz&oem=NOSUCHCODE")
    assert "is-selected" not in main_area(html) and "parts-table" in html


@pytest.mark.parametrize("suffix", ["nothing-here", "a/b/c/d/e/f/g/h/i/j/k/l/m/n", "x" * 3000, "motor/%C3%A7%C4%B1"])
def test_a_link_that_leads_nowhere_is_not_found_in_turkish(client, bmw, upstreams, suffix):
    html = page(client, f"/vehicles/{bmw}/catalog/{suffix}", status=404)
    assert "Bu bağlantı artık bu aracın kataloğunda bir gruba gitmiyor." in html


def test_a_link_with_odd_bytes_is_refused(client, bmw, upstreams):
    response = client.get(f"/vehicles/{bmw}/catalog/%00%ff")
    assert response.status_code == 400 and "<html" in response.get_data(as_text=True)


def test_a_plan_without_the_brand_gets_no_part_through_a_link(
    client, bmw, create_user, make_subscription, sign_in, upstreams
):
    link, part = part_link(client, bmw)
    other = create_user()
    make_subscription(other, "active", plan_key="single")
    sign_in(other.email)

    html = page(client, f"{link}?pos={part['position']}&oem={part['oemCode']}", status=403)
    assert "Bu marka planınıza dahil değil." in main_area(html) and part["oemCode"] not in main_area(html)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.text(min_size=1, max_size=80), position=st.text(max_size=30), code=st.text(max_size=60))
def test_any_link_gets_a_page_or_a_4xx(client, bmw, upstreams, path, position, code):
    response = client.get(f"/vehicles/{bmw}/catalog/x", query_string={"pos": position, "oem": code})
    assert response.status_code < 500
    response = client.get(f"/vehicles/{bmw}/catalog/" + "".join(ch for ch in path if ch not in "?#"))
    assert response.status_code < 500
