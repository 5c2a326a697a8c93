"""Issue 30 in a real browser, on the sandbox Golf's oil filter drawing: the rows that do not fit wait collapsed and
their hotspots are dimmed, "Sadece uyanlar" hides them (and stays on), answering the drawing's question settles its
maybes, and a phone at 360 px shows the question, the switch and the rows without sideways scrolling.

With SCREENSHOTS=<dir> set, the first test saves docs/screenshots/fit.png there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_counter_clerk import screenshot
from tests.e2e.test_leaf_layout import DESKTOP, open_oil_filter

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

SELECTED = re.compile(r"\bis-selected\b")
DOORS_QUESTION = "Araç kaç kapılı?"  # what the oil filter drawing's maybes hang on (tests/catalog/test_fit_pages.py)


def fitting_now(main) -> int:
    """The rows the table shows as fitting: those of the first table that are not maybes."""
    return main.locator(".parts-table:not(.not-fitting-table) .part-row:not(.is-fit-maybe)").count()


def test_only_what_fits_hides_the_rows_that_do_not_fit_and_dims_their_hotspots(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    main = page.locator("#catalog-main")

    # The rows that do not fit wait under their summary, closed; their positions are dimmed on the picture.
    collapsed = main.locator("details.not-fitting")
    summary = collapsed.locator("summary")
    expect(summary).to_have_text(re.compile(r"^Bu araca uymayan parçalar \(\d+\)$"))
    hidden_count = int(re.search(r"\((\d+)\)", summary.inner_text()).group(1))
    expect(collapsed.locator(".part-row").first).to_be_hidden()
    dimmed = main.locator(".hotspot.is-not-fitting")
    assert dimmed.count() > 0
    summary.evaluate("element => element.scrollIntoView({ block: 'center' })")  # the picture stays in view beside it
    screenshot(page, "fit.png")

    # A dimmed hotspot still finds its rows: the summary opens on them.
    spot = dimmed.first
    position = spot.get_attribute("data-position")
    spot.click()
    expect(collapsed).to_have_attribute("open", "")
    row = collapsed.locator(f'.part-row[data-position="{position}"]').first
    expect(row).to_be_visible()
    expect(row).to_have_class(SELECTED)

    # "Sadece uyanlar": the rows that do not fit are gone, their hotspots dimmed and no longer links.
    switch = main.get_by_role("button", name="Sadece uyanlar")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(main.locator("details.not-fitting")).to_have_count(0)
    expect(main.locator(".part-row.is-fit-no")).to_have_count(0)
    expect(main.locator(".fit-hidden")).to_have_text(f"Uymayan {hidden_count} parça gizlendi.")
    expect(main.locator(f'.hotspot-empty.is-not-fitting[data-dimmed-position="{position}"]')).to_have_count(1)
    expect(main.locator(f'.hotspot[data-position="{position}"]')).to_have_count(0)

    # Remembered: the page loaded afresh keeps the switch on.
    page.reload()
    expect(main.get_by_role("button", name="Sadece uyanlar")).to_have_attribute("aria-pressed", "true")
    expect(main.locator(".part-row.is-fit-no")).to_have_count(0)
    main.get_by_role("button", name="Sadece uyanlar").click()  # off again for the next test's dealer
    expect(main.locator("details.not-fitting")).to_have_count(1)
    assert page.console_errors == []


def test_answering_the_question_settles_the_maybes_it_hangs_on(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size(DESKTOP)
    open_oil_filter(page, url, dealer)
    main = page.locator("#catalog-main")
    question = main.locator("form.fit-question")
    expect(question.locator("legend")).to_have_text(DOORS_QUESTION)
    maybes = main.locator(".part-row.is-fit-maybe")
    before = maybes.count()
    assert before > 0
    expect(maybes.first.locator(".fit-maybe")).to_contain_text("Belki: ")

    count = page.locator("#catalog-tree .tree-link[aria-current] ~ .fit-count")
    expect(count).to_have_text(f"{fitting_now(main)} uyan")  # the drawing's parts came with it: the tree counts them

    question.get_by_role("button", name="4", exact=True).click()

    answer = main.locator(".fit-answers li")
    expect(answer).to_have_count(1)
    expect(answer.locator(".fit-answer-text")).to_contain_text("4")
    expect(main.locator("form.fit-question legend", has_text=DOORS_QUESTION)).to_have_count(0)
    assert maybes.count() < before  # the rows that hung on the doors alone are settled
    expect(count).to_have_text(f"{fitting_now(main)} uyan")

    # Changed: the question is asked again and the maybes are back.
    answer.get_by_role("button", name=re.compile("^Değiştir")).click()
    expect(main.locator("form.fit-question legend")).to_have_text(DOORS_QUESTION)
    expect(maybes).to_have_count(before)
    assert page.console_errors == []


def test_a_phone_at_360_px_shows_the_question_the_switch_and_the_rows_without_sideways_scrolling(catalog_server, page):
    url, dealer, _app = catalog_server
    page.set_viewport_size({"width": 360, "height": 740})
    open_oil_filter(page, url, dealer)
    main = page.locator("#catalog-main")

    for element in (main.locator("form.fit-question"), main.get_by_role("button", name="Sadece uyanlar")):
        element.scroll_into_view_if_needed()
        expect(element).to_be_visible()
        box = element.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    option = main.locator("form.fit-question button").first
    assert option.bounding_box()["height"] >= 36  # a finger's target
    main.locator("details.not-fitting summary").click()
    expect(main.locator(".not-fitting-table .part-row").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.console_errors == []
