"""The landing page in a real browser: the policy lets our own scripts run, the switches work."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def test_landing_runs_its_scripts_under_the_csp_without_errors(live_server, page):
    page.goto(live_server + "/")

    assert page.locator("h1").inner_text() == "Şasi numarasıyla doğru parçayı bulun"
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.console_errors == []


def test_theme_choice_survives_a_reload(live_server, page):
    page.goto(live_server + "/")
    before = page.evaluate("document.documentElement.getAttribute('data-theme')")

    page.get_by_role("button", name="Açık ve koyu tema arasında geç").click()
    chosen = page.evaluate("document.documentElement.getAttribute('data-theme')")
    page.reload()

    assert chosen in {"dark", "light"} and chosen != before
    assert page.evaluate("document.documentElement.getAttribute('data-theme')") == chosen
    assert page.console_errors == []


def test_language_switch_turns_the_page_english_and_back(live_server, page):
    page.goto(live_server + "/?from=test")

    page.get_by_role("button", name="EN").click()
    page.wait_for_url(live_server + "/?from=test")
    assert page.locator("h1").inner_text() == "Find the right part by VIN"

    page.get_by_role("button", name="TR").click()
    page.wait_for_url(live_server + "/?from=test")
    assert page.locator("h1").inner_text() == "Şasi numarasıyla doğru parçayı bulun"
    assert page.console_errors == []
