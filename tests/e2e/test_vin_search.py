"""Finding a vehicle by VIN in a real browser: live stage progress, the candidate picker, the vehicle page."""

import re

import pytest
from playwright.sync_api import expect

from app.sources.sandbox.catalog import VIN_COROLLA
from tests.support.committed_dealer import served_dealer

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


@pytest.fixture
def vin_live_server(make_app, upstreams):
    """A live server whose decode sources are the sandboxes, and a committed dealer with a Full plan on it."""
    app = make_app(**upstreams.settings)
    with served_dealer(app) as served:
        yield served


def sign_in(page, url: str, dealer) -> None:
    page.goto(url + "/login")
    page.get_by_label("E-posta").fill(dealer.email)
    page.get_by_label("Şifre").fill(dealer.password)
    page.get_by_role("button", name="Giriş yap").click()
    page.wait_for_url(url + "/")


def test_a_dealer_follows_the_decode_picks_a_candidate_and_lands_on_the_vehicle(vin_live_server, upstreams, page):
    url, dealer = vin_live_server
    upstreams.catapi.faults.latency_ms = 400  # slow enough to watch the stages
    sign_in(page, url, dealer)

    page.locator(".site-header").get_by_role("link", name="VIN sorgula").click()
    page.wait_for_url(url + "/vin")
    page.get_by_label("Şasi numarası (VIN)").fill(VIN_COROLLA)
    page.get_by_role("button", name="Aracı bul").click()

    stages = page.locator(".stage-list")
    expect(stages).to_be_visible()
    expect(stages).to_contain_text("Katalog API")
    expect(stages.locator(".stage-running").first).to_be_visible()  # a poll showed a source at work
    candidates = page.locator(".candidate-list .candidate")
    expect(candidates).to_have_count(2, timeout=15_000)
    expect(candidates.first).to_contain_text("Toyota Corolla")

    candidates.nth(1).get_by_role("button", name="Bu aracı seç").click()

    page.wait_for_url(re.compile(re.escape(url) + r"/vehicles/\d+"), timeout=15_000)
    expect(page.get_by_role("heading", level=1)).to_have_text("Toyota Corolla")
    expect(page.get_by_text(VIN_COROLLA)).to_be_visible()
    assert page.console_errors == []
