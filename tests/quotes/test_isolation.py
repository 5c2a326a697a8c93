"""One dealer's quotes are never another's: every id-taking quotes route, page and API, answers 404 to a second dealer
for the first dealer's quote and line, and changes nothing; the shared page shows only its own quote."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.quotes.models import Quote, QuoteLine
from tests.conftest import SITE, csrf_token_from


def quote_routes(app) -> list[tuple[str, str]]:
    """(method, rule) of every quotes route that takes a quote id."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith(("quotes_views.", "quotes_api.")) and "quote_id" in rule.arguments:
            found.extend((method, rule.rule) for method in sorted(rule.methods - {"HEAD", "OPTIONS"}))
    return found


@pytest.fixture
def first_quote(client, bmw):
    quote = client.post("/api/quotes", json={"vehicleId": bmw}, headers=SITE).get_json()
    answer = client.post(
        f"/api/quotes/{quote['id']}/lines", json={"kind": "free", "name": "Gizli", "unitPrice": "7"}, headers=SITE
    ).get_json()
    return quote["id"], answer["lines"][0]["id"]


def test_the_routes_are_all_walked(app):
    assert len(quote_routes(app)) >= 12


def test_every_quote_route_is_not_found_for_another_dealer(app, first_quote, other_client):
    quote_id, line_id = first_quote
    before = db.session.execute(sa.select(QuoteLine.quantity, QuoteLine.unit_price, QuoteLine.name)).all()
    for method, rule in quote_routes(app):
        path = rule.replace("<int:quote_id>", str(quote_id)).replace("<int:line_id>", str(line_id))
        body = {"quantity": "5", "unitPrice": "1"} if rule.startswith("/api/") else None
        data = None if rule.startswith("/api/") else {"quantity": "5", "unit_price": "1", "name": "x"}
        response = other_client.open(path, method=method, json=body, data=data, headers={**SITE, "X-CSRFToken": "x"})
        if not rule.startswith("/api/") and method == "POST":
            # a page form without its token is refused first; with the other dealer's own token it is a 404
            token = _csrf(other_client)
            response = other_client.open(path, method=method, data={**data, "csrf_token": token})
        assert response.status_code == 404, (method, path, response.status_code)
    db.session.expire_all()
    quote = db.session.get(Quote, quote_id)
    assert quote.share_token_hash is None and quote.status == "draft"
    assert db.session.execute(sa.select(QuoteLine.quantity, QuoteLine.unit_price, QuoteLine.name)).all() == before


def test_a_line_of_another_quote_is_not_found_through_one_s_own_quote(client, bmw, first_quote, other_client):
    _quote_id, line_id = first_quote
    own = other_client.post("/api/quotes", json={}, headers=SITE).get_json()

    edit = other_client.patch(f"/api/quotes/{own['id']}/lines/{line_id}", json={"quantity": 9}, headers=SITE)
    delete = other_client.delete(f"/api/quotes/{own['id']}/lines/{line_id}", headers=SITE)

    assert edit.status_code == delete.status_code == 404


def test_the_list_is_the_dealer_s_own(first_quote, other_client):
    assert other_client.get("/api/quotes").get_json() == {"quotes": []}
    assert "Gizli" not in other_client.get("/teklifler").get_data(as_text=True)


def test_another_dealer_s_vehicle_part_cannot_be_added_to_a_quote_without_that_vehicle(first_quote, other_client):
    own = other_client.post("/api/quotes", json={}, headers=SITE).get_json()
    answer = other_client.post(f"/api/quotes/{own['id']}/lines", json={"kind": "part", "partId": 1}, headers=SITE)
    assert answer.status_code == 422


def _csrf(client) -> str:
    return csrf_token_from(client.get("/teklifler/ayarlar").get_data(as_text=True))
