"""A sent quote is frozen (issue 40, item 4): once its link is made, every route that changes a quote, page (with and
without HTMX) or API, is refused with a Turkish message and leaves the link's page byte for byte as it was sent, the
shop's later settings included; "Yeni sürüm oluştur" makes a draft copy, and once that is sent the old link says a
newer quote exists without showing anything of it."""

from __future__ import annotations

import pytest

from tests.conftest import SITE, csrf_token_from
from tests.quotes.conftest import coded_parts
from tests.quotes.test_isolation import quote_routes
from tests.support.markup import elements, the

HX = {"HX-Request": "true"}
# The routes that do not change the quote the link shows: a new link (the old one stops), revoking it, a new version.
NOT_CHANGES = ("/share", "/revoke", "/new-version", "/versions")


@pytest.fixture
def sent(app, client, bmw, leaf):
    """A quote with a part line and a free line, sent: (quote id, part line id, the link's path)."""
    client.put("/api/quotes/settings", json={"shopName": "Yıldız Oto", "phone": "0212 555 00 00", "kdvRate": "20"},
               headers=SITE)  # fmt: skip
    quote = client.post("/api/quotes", json={"vehicleId": bmw, "customer": "Ahmet Usta"}, headers=SITE).get_json()
    lines = f"/api/quotes/{quote['id']}/lines"
    part = coded_parts(leaf)[0]
    client.post(lines, json={"kind": "part", "partId": part["id"], "unitPrice": "250"}, headers=SITE)
    answer = client.post(lines, json={"kind": "free", "name": "İşçilik", "unitPrice": "500"}, headers=SITE)
    link = client.post(f"/api/quotes/{quote['id']}/share", headers=SITE).get_json()["url"]
    return quote["id"], answer.get_json()["lines"][0]["id"], link.removeprefix("http://localhost")


def shown(app, path: str) -> str:
    answer = app.test_client().get(path)
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def changing_routes(app) -> list[tuple[str, str]]:
    return [
        (method, rule)
        for method, rule in quote_routes(app)
        if method != "GET" and not rule.endswith(NOT_CHANGES) and "ayarlar" not in rule
    ]


def test_no_route_changes_what_a_sent_link_shows(app, client, bmw, leaf, sent):
    quote_id, line_id, path = sent
    before = shown(app, path)
    token = csrf_token_from(client.get(f"/teklifler/{quote_id}").get_data(as_text=True))
    answers = []
    for method, rule in changing_routes(app):
        url = rule.replace("<int:quote_id>", str(quote_id)).replace("<int:line_id>", str(line_id))
        if rule.startswith("/api/"):
            body = {"kind": "free", "name": "Sonradan", "quantity": "5", "unitPrice": "1", "kdvRate": "1"}
            answers.append((url, client.open(url, method=method, json=body, headers=SITE)))
            continue
        form = {"csrf_token": token, "name": "Sonradan", "quantity": "5", "unit_price": "1", "kdv_rate": "1"}
        answers.append((url, client.open(url, method=method, data=form, headers=HX)))
        answers.append((url, client.open(url, method=method, data=form)))
    part = coded_parts(leaf)[1]
    client.post(f"/teklifler/vehicles/{bmw}/parts/{part['id']}", data={"csrf_token": token}, headers=HX)
    client.put("/api/quotes/settings", json={"shopName": "Başka Oto", "phone": "0216 000 00 00", "kdvRate": "1"},
               headers=SITE)  # fmt: skip

    assert len(answers) >= 9
    for url, answer in answers:
        assert answer.status_code == 409 or answer.headers.get("X-Refused") == "quote_sent", (url, answer.status_code)
    assert shown(app, path) == before
    assert "Yıldız Oto" in before and "Sonradan" not in before


def test_an_edit_of_a_sent_quote_is_refused_in_turkish_with_the_new_version_action(client, sent):
    quote_id, line_id, _path = sent
    page = client.get(f"/teklifler/{quote_id}").get_data(as_text=True)
    token = csrf_token_from(page)

    fragment = client.post(
        f"/teklifler/{quote_id}/lines/{line_id}", data={"csrf_token": token, "quantity": "3"}, headers=HX
    ).get_data(as_text=True)
    api = client.patch(f"/api/quotes/{quote_id}/lines/{line_id}", json={"quantity": "3"}, headers=SITE)

    assert not elements(page, "form.quote-line-form") and not elements(page, "form.quote-free-line")
    assert the(page, "form[data-quote-frozen] button").text.strip() == "Yeni sürüm oluştur"
    assert "yeni bir sürüm oluşturun" in the(fragment, ".alert-error").text
    assert the(fragment, "form[data-quote-frozen]")["action"] == f"/teklifler/{quote_id}/new-version"
    assert api.status_code == 409 and api.get_json()["error"]["code"] == "quote_sent"
    assert "yeni bir sürüm" in api.get_json()["error"]["message"]


def test_a_new_version_is_sent_again_and_the_old_link_then_says_a_newer_quote_exists(app, client, sent):
    quote_id, _line_id, path = sent
    token = csrf_token_from(client.get(f"/teklifler/{quote_id}").get_data(as_text=True))

    made = client.post(f"/teklifler/{quote_id}/new-version", data={"csrf_token": token})
    again = client.post(f"/teklifler/{quote_id}/new-version", data={"csrf_token": token})
    new_id = int(made.headers["Location"].rsplit("/", 1)[1])
    draft = client.get(f"/api/quotes/{new_id}").get_json()
    new_line = draft["lines"][1]["id"]
    client.post(f"/teklifler/{new_id}/lines/{new_line}", data={"csrf_token": token, "quantity": "1",
                "unit_price": "987,65"}, headers=HX)  # fmt: skip
    unsent = shown(app, path)
    new_link = client.post(f"/api/quotes/{new_id}/share", headers=SITE).get_json()["url"]
    old = shown(app, path)

    assert made.status_code == 303 and again.headers["Location"] == made.headers["Location"]  # one draft version
    assert the(client.get(f"/teklifler/{new_id}").get_data(as_text=True), "[data-quote-version]").text == "sürüm 2"
    assert (draft["status"], draft["version"], draft["versionOf"]) == ("draft", 2, quote_id)
    assert [line["name"] for line in draft["lines"]][1] == "İşçilik"
    assert not elements(unsent, "[data-newer-quote]")  # a draft version is the dealer's alone
    assert "daha yeni bir sürümü var" in the(old, "[data-newer-quote]").text
    assert "987,65" not in old and "500,00" in old  # the old link shows nothing of the new one
    assert "987,65" in shown(app, new_link.removeprefix("http://localhost"))
    assert not elements(shown(app, new_link.removeprefix("http://localhost")), "[data-newer-quote]")


def test_the_api_makes_a_new_version_of_a_sent_quote(client, sent):
    quote_id, _line_id, _path = sent
    old = client.get(f"/api/quotes/{quote_id}").get_json()

    made = client.post(f"/api/quotes/{quote_id}/versions", headers=SITE)
    draft = made.get_json()
    edited = client.patch(f"/api/quotes/{draft['id']}", json={"kdvRate": "10"}, headers=SITE)

    assert made.status_code == 201 and draft["id"] != quote_id and draft["status"] == "draft"
    assert (draft["version"], draft["versionOf"], old["version"], old["versionOf"]) == (2, quote_id, 1, None)
    assert [(line["name"], line["unitPrice"]) for line in draft["lines"]] == [
        (line["name"], line["unitPrice"]) for line in old["lines"]
    ]
    assert edited.status_code == 200 and client.get(f"/api/quotes/{quote_id}").get_json()["kdvRate"] == "20.00"
