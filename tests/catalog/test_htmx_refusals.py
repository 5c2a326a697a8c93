"""One mechanism for refusals answered to HTMX (issue 40, item 3; core.htmx.swappable): every view that answers a
refusal to HTMX with 200 (htmx swaps no error status) marks it with X-Refused, on which the request's writes are
rolled back; without HTMX the same request answers its 4xx. Walked over the vehicle page, where-used, the fit
answer's forms, "Teklife ekle", the VIN report and the public VIN preview."""

from __future__ import annotations

import pytest

from tests.catalog.test_fit_pages import golf, leaf_url, oil_filter, question_form  # noqa: F401 - golf is a fixture
from tests.catalog.test_pages import HX, main_area, page
from tests.conftest import csrf_token_from


def requests(client, golf: int) -> dict[str, tuple]:  # noqa: F811
    """Each refused request: (method, path, form fields or None, the code it is refused with)."""
    detail = oil_filter(client, golf)
    html = page(client, leaf_url(golf, detail))
    action, fields = question_form(main_area(html))
    token = csrf_token_from(html)
    return {
        "a category not found": ("GET", f"/vehicles/{golf}/categories/999999", None, "category_not_found"),
        "where-used of no such part": ("GET", f"/vehicles/{golf}/parts/999999/where-used", None, "part_not_found"),
        "a bad fit answer": ("POST", action, {**fields, "csrf_token": token, "value": '"four"'}, "invalid_answer"),
        "a part of no such row to a quote": (
            "POST", f"/teklifler/vehicles/{golf}/parts/999999", {"csrf_token": token}, "part_not_found",
        ),
        "a VIN report without a VIN": ("POST", "/vin/report", {"csrf_token": token, "vin": "x"}, "invalid_vin"),
        "a public VIN preview of no VIN": ("GET", "/vin/preview?vin=x", None, "invalid_vin"),
    }  # fmt: skip


@pytest.mark.parametrize(
    "name",
    [
        "a category not found",
        "where-used of no such part",
        "a bad fit answer",
        "a part of no such row to a quote",
        "a VIN report without a VIN",
        "a public VIN preview of no VIN",
    ],
)
def test_a_refusal_answered_to_htmx_with_200_is_marked_refused(client, golf, name):  # noqa: F811
    method, path, form, code = requests(client, golf)[name]

    swapped = client.open(path, method=method, data=form, headers=HX)

    assert swapped.status_code == 200, swapped.get_data(as_text=True)[:500]
    assert swapped.headers.get("X-Refused") == code
    assert "HX-Request" in swapped.headers["Vary"]
