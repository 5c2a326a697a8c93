"""A refused change changes nothing (issue 40, item 3): a line edit refused on the page (HTMX answers a refusal with
200, as htmx swaps no error status) or by the API leaves the stored line as it was, never half changed; one that is
taken changes every field it names."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.extensions import db
from app.quotes import amounts
from app.quotes.models import QuoteLine
from tests.conftest import SITE, csrf_token_from
from tests.support.markup import elements

HX = {"HX-Request": "true"}


@pytest.fixture
def line(client, bmw):
    """A free line on a draft quote: (quote id, line id, the page's form token)."""
    quote = client.post("/api/quotes", json={"vehicleId": bmw}, headers=SITE).get_json()
    added = client.post(
        f"/api/quotes/{quote['id']}/lines",
        json={"kind": "free", "name": "Yağ filtresi", "quantity": "1", "unitPrice": "100"},
        headers=SITE,
    ).get_json()
    token = csrf_token_from(client.get(f"/teklifler/{quote['id']}").get_data(as_text=True))
    return quote["id"], added["lines"][0]["id"], token


def stored(line_id: int) -> tuple[Decimal, Decimal | None, str]:
    db.session.expire_all()
    found = db.session.get(QuoteLine, line_id)
    return Decimal(found.quantity), None if found.unit_price is None else Decimal(found.unit_price), found.name


def test_a_line_edit_with_a_good_quantity_and_a_bad_price_changes_nothing_on_the_page_or_the_api(client, line):
    quote_id, line_id, token = line
    before = stored(line_id)

    page = client.post(
        f"/teklifler/{quote_id}/lines/{line_id}",
        data={"csrf_token": token, "quantity": "7", "unit_price": "-5"},
        headers=HX,
    )
    after_page = stored(line_id)
    api = client.patch(
        f"/api/quotes/{quote_id}/lines/{line_id}", json={"quantity": "7", "unitPrice": "-5"}, headers=SITE
    )

    assert page.status_code == 200  # what htmx swaps: the lines with the refusal beside them
    assert "arasında olmalı" in elements(page.get_data(as_text=True), ".alert-error")[0].text
    assert page.headers["X-Refused"] == "amount_out_of_range"
    assert api.status_code == 400 and api.get_json()["error"]["code"] == "amount_out_of_range"
    assert after_page == before and stored(line_id) == before


SOME_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)
QUANTITIES = st.one_of(st.sampled_from(["1", "2", "2,5", "3.000", "0", "-1", "abc", "1e9", "100001", ""]), SOME_TEXT)
PRICES = st.one_of(st.sampled_from(["10", "1.250,50", "0", "", "-5", "x", "1000000001", "inf", "NaN"]), SOME_TEXT)
NAMES = st.one_of(st.none(), st.sampled_from(["İşçilik", "", "   ", "a" * 301, "Fren balatası"]), SOME_TEXT)


def expected(old: tuple, quantity: str, price: str, name: str | None) -> tuple:
    """The line once the edit is taken: every field it names, as the services read it."""
    new_name = old[2] if name is None else amounts.text(name, "Name", 300, required=True)
    return amounts.quantity(quantity), amounts.price(price), new_name


def check_all_or_nothing(before: tuple, after: tuple, taken: bool, sent: tuple) -> None:
    if taken:
        assert after == expected(before, *sent), (sent, before, after)
    else:
        assert after == before, (sent, before, after)  # refused: nothing of it kept


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(quantity=QUANTITIES, price=PRICES, name=NAMES, on_page=st.booleans())
def test_a_line_edit_is_kept_whole_or_not_at_all(client, line, quantity, price, name, on_page):
    """The same edit through the page (HTMX) or the API: the stored line is the old one or the new one, never a mix."""
    quote_id, line_id, token = line
    before = stored(line_id)

    taken = (page_edit if on_page else api_edit)(client, quote_id, line_id, token, quantity, price, name)

    check_all_or_nothing(before, stored(line_id), taken, (quantity, price, name))


def page_edit(client, quote_id: int, line_id: int, token: str, quantity: str, price: str, name: str | None) -> bool:
    form = {
        "csrf_token": token,
        "quantity": quantity,
        "unit_price": price,
        **({"name": name} if name is not None else {}),
    }
    answer = client.post(f"/teklifler/{quote_id}/lines/{line_id}", data=form, headers=HX)
    assert answer.status_code in (200, 400)  # 400: a character no form field may hold, refused before the view
    return answer.status_code == 200 and not elements(answer.get_data(as_text=True), ".alert-error")


def api_edit(client, quote_id: int, line_id: int, _token: str, quantity: str, price: str, name: str | None) -> bool:
    body = {"quantity": quantity, "unitPrice": price, **({"name": name} if name is not None else {})}
    answer = client.patch(f"/api/quotes/{quote_id}/lines/{line_id}", json=body, headers=SITE)
    assert answer.status_code in (200, 400), answer.get_data(as_text=True)
    return answer.status_code == 200
