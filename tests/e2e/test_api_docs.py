"""The API reference in a real browser: Swagger UI, vendored and started from a static script, renders the generated
document under the site's Content-Security-Policy: every tag listed closed, each one opening to its operations."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]


def test_the_api_reference_renders_every_operation_without_csp_errors(live_server, page):
    page.goto(live_server + "/api/docs")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Parça Bul API")
    tags = page.locator(".swagger-ui .opblock-tag")
    expect(tags.filter(has_text="vehicles")).to_be_visible()
    names = tags.all_inner_texts()
    assert {"vehicles", "catalog", "quotes", "shelf", "shops", "billing"} <= {name.split()[0] for name in names}
    operations = 0
    for tag in page.locator(".swagger-ui .opblock-tag").all():
        tag.click()  # open it, count its operations, close it again
        expect(tag).to_have_attribute("data-is-open", "true")
        operations += page.locator(".swagger-ui .opblock").count()
        if tag.get_attribute("data-tag") == "vehicles":
            expect(page.locator(".opblock-summary-path", has_text="/api/vehicles/decode")).to_be_visible()
        tag.click()
        expect(tag).to_have_attribute("data-is-open", "false")
    assert operations > 100
    assert page.console_errors == []
