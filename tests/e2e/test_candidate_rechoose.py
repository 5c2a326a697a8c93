"""Choosing a candidate again in a real browser (issue 15, part 8): the vehicle page says which candidate was chosen,
"Bu araç değil" lists the VIN's candidates again with the current choice marked, and another choice replaces it."""

import re

import pytest
from playwright.sync_api import expect

from app.sources.sandbox.catalog import VIN_COROLLA
from tests.e2e.test_vin_search import sign_in, vin_live_server  # noqa: F401 - the fixture used here

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def choose(page, url: str, number: int) -> str:
    """Press the candidate's choose button and wait for its vehicle page; returns that page's path."""
    candidates = page.locator(".candidate-list .candidate")
    expect(candidates).to_have_count(2, timeout=15_000)
    candidates.nth(number).get_by_role("button").click()
    page.wait_for_url(re.compile(re.escape(url) + r"/vehicles/\d+$"), timeout=15_000)
    return page.url.removeprefix(url)


def test_a_dealer_says_not_this_vehicle_and_chooses_the_other_candidate(vin_live_server, upstreams, page):  # noqa: F811
    url, dealer = vin_live_server
    sign_in(page, url, dealer)
    page.goto(url + "/vin")
    page.get_by_label("Şasi numarası (VIN)").fill(VIN_COROLLA)
    page.get_by_role("button", name="Aracı bul").click()

    first = choose(page, url, 1)

    choice = page.locator(".candidate-choice")
    expect(choice).to_contain_text("Bu VIN birden fazla araçla eşleşiyor.")
    expect(choice).to_contain_text("Sizin seçtiğiniz araç bu.")
    choice.get_by_role("button", name="Bu araç değil").click()

    candidates = page.locator(".candidate-list .candidate")
    expect(candidates).to_have_count(2)
    expect(candidates.nth(1)).to_contain_text("Şu anki seçiminiz")
    expect(candidates.nth(1).get_by_role("button")).to_have_text("Bu araçta kal")
    expect(candidates.nth(0)).not_to_contain_text("Şu anki seçiminiz")

    second = choose(page, url, 0)

    assert second != first
    expect(page.locator(".candidate-choice")).to_contain_text("Sizin seçtiğiniz araç bu.")
    page.goto(url + "/vin")
    history = page.locator("#vin-history")
    expect(history.locator(f'a[href="{second}"]')).to_have_count(1)
    expect(history.locator(f'a[href="{first}"]')).to_have_count(0)
    assert page.console_errors == []
