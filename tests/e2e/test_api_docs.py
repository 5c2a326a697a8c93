"""The API reference in a real browser: Swagger UI, vendored and started from a static script, renders the generated
document under the site's Content-Security-Policy."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def test_the_api_reference_renders_every_operation_without_csp_errors(live_server, page):
    page.goto(live_server + "/api/docs")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Parça Bul API")
    expect(page.locator(".swagger-ui .opblock-summary-path", has_text="/api/vehicles/decode")).to_be_visible()
    assert page.locator(".swagger-ui .opblock").count() > 40
    assert page.console_errors == []
