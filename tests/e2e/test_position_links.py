"""A `#pos-N` link into the drawing on screen (issue 40): following it marks that position's rows and brings the first
into view, whatever row the clerk had selected before; back and forward move the marking with the address."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_leaf_layout import open_oil_filter

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

SELECTED = re.compile(r"\bis-selected\b")
SHORT_SCREEN = {"width": 1366, "height": 420}  # the list runs past the bottom: a row can be out of view


def expect_marked(page, anchor: str) -> None:
    """The row `anchor` names is selected and in view, with every row and the hotspot of its position, and no other."""
    main = page.locator("#catalog-main")
    row = main.locator(f"#{anchor}")
    position = row.get_attribute("data-position")
    expect(row).to_have_class(SELECTED)
    expect(row).to_be_in_viewport()
    expect(main.locator(".part-row.is-selected")).to_have_count(
        main.locator(f'.part-row[data-position="{position}"]').count()
    )
    expect(main.locator(f'.hotspot[data-position="{position}"]')).to_have_class(SELECTED)
    expect(main.locator(f'.hotspot.is-selected:not([data-position="{position}"])')).to_have_count(0)


def test_a_pos_link_into_the_drawing_on_screen_marks_its_row_and_back_and_forward_follow(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(SHORT_SCREEN)
    open_oil_filter(page, url, dealer)
    leaf_url = page.url
    anchored = page.locator("#catalog-main .part-row[id^='pos-']:visible")
    anchors = [anchored.nth(index).get_attribute("id") for index in range(anchored.count())]
    assert len(anchors) >= 3
    first, middle, last = anchors[0], anchors[len(anchors) // 2], anchors[-1]

    page.locator(f"#{first}").click()  # the clerk selects a row
    expect(page.locator(f"#{first}")).to_have_class(SELECTED)

    page.goto(f"{leaf_url}#{last}")  # a link to another position of the same drawing: the page stays
    expect_marked(page, last)
    page.goto(f"{leaf_url}#{middle}")
    expect_marked(page, middle)
    expect(page.locator(f"#{last}")).not_to_have_class(SELECTED)

    page.go_back()
    expect(page).to_have_url(f"{leaf_url}#{last}")
    expect_marked(page, last)
    page.go_forward()
    expect(page).to_have_url(f"{leaf_url}#{middle}")
    expect_marked(page, middle)
    assert page.console_errors == []
