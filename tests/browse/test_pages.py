"""The browse pages through HTTP: makes with a filter, a VIN's make link opening its catalog at the model year,
models, cars narrowed by the parameter selects (whole page and HTMX part), the web catalog's selectors, faults shown
in Turkish with a retry, and who may see them."""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.vehicles.browse_link import browse_make, model_year
from tests.catalog.test_pages import text_of
from tests.support.markup import elements

HX = {"HX-Request": "true"}


def page(client, path: str, status: int = 200, headers: dict | None = None) -> str:
    response = client.get(path, headers=headers or {})
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


def golf_model(client) -> str:
    return client.get("/api/browse/catapi/volkswagen/models").get_json()["models"][0]["id"]


def rows(html: str) -> list[str]:
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [text_of(row) for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_the_makes_page_lists_every_make_with_a_filter(client, dealer, upstreams):
    html = page(client, "/browse")

    assert "Katalogda gezin" in html and 'data-filter="browse-makes"' in html
    assert 'href="/browse/catapi/renault"' in html and 'href="/browse/scrape/renault"' in html
    assert '<li data-filter-text="Volkswagen">' in html


def test_a_make_named_in_the_address_opens_its_catalog_at_the_model_year(client, dealer, upstreams):
    response = client.get("/browse?make=Renault&year=2015")

    assert response.status_code == 303
    assert response.headers["Location"] == "/browse/catapi/renault?year=2015"
    models = page(client, response.headers["Location"])
    assert "Clio" in models and "year=2015" in models


def test_a_model_s_cars_are_narrowed_by_its_selects_in_the_page_and_in_place(client, dealer, upstreams):
    model = golf_model(client)
    url = f"/browse/catapi/volkswagen/{model}"

    every = page(client, url)
    narrowed = page(client, f"{url}?parameter=engine:1.6+TDI")
    fragment = page(client, f"{url}?parameter=engine:1.6+TDI", headers=HX)
    by_year = page(client, f"{url}?year=2017")

    assert "Araçlar" in every and 'hx-trigger="change"' in every and "Hepsi" in every
    assert 0 < len(rows(narrowed)) < len(rows(every))
    assert all("1.6 TDI" in row for row in rows(narrowed))
    assert [option["value"] for option in elements(narrowed, "option[selected]")] == ["engine:1.6 TDI"]
    assert fragment.strip().startswith('<div id="browse-cars">') and "<html" not in fragment
    assert rows(fragment) == rows(narrowed)
    assert rows(by_year) and all("2017" in row for row in rows(by_year))
    labels = re.findall(r'<label for="parameter-[a-z]+">([^<]+)</label>', every)
    assert labels == ["Model yılı", "Motor", "Şanzıman", "Kasa"]  # the catalog's English names, in Turkish


def test_the_web_catalog_s_selectors_narrow_its_variants_one_choice_at_a_time(client, dealer, upstreams):
    first = page(client, "/browse/scrape/renault")
    body = re.search(r'href="/browse/scrape/renault\?body=([^"]+)"', first).group(1)
    chosen = page(client, f"/browse/scrape/renault?body={body}")
    fragment = page(client, f"/browse/scrape/renault?body={body}", headers=HX)

    assert "<h2>Kasa</h2>" in first
    assert f"Kasa: {body}" in text_of(chosen) and "<h2>Motor</h2>" in chosen
    assert f'href="/browse/scrape/renault?body={body}&amp;engine=' in chosen
    assert len(rows(chosen)) <= len(rows(first))
    assert fragment.strip().startswith('<div id="browse-wizard">') and "<html" not in fragment


def test_a_catalog_fault_is_shown_in_turkish_with_a_retry(client, dealer, upstreams):
    upstreams.catapi.faults.garbage = True

    html = page(client, "/browse/catapi/volkswagen", status=502)

    assert "Kataloğa şu anda ulaşılamadı" in text_of(html) and "Yeniden dene" in text_of(html)


def test_the_pages_need_a_session(client, upstreams):
    response = client.get("/browse")

    assert response.status_code in {302, 303} and "/login" in response.headers["Location"]


def test_the_model_year_is_taken_only_where_the_vin_gives_one_recent_year(app):
    with app.test_request_context("/"):
        assert model_year("1HGCM82633A004352") == 2003  # the 7th character says 1980-2009: one year
        assert model_year("WVWZZZAUZHW100001") == 2017  # 'H' is 1987 or 2017: only 2017 is recent
        assert model_year("ZZZ") is None
        assert browse_make("ZZZ99999999999999") is None
        assert browse_make("WVWZZZAUZHW100001") == {"make": "Volkswagen", "url": "/browse?make=volkswagen&year=2017"}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    segment=st.text(min_size=1, max_size=30).filter(lambda text: "/" not in text and text not in {".", ".."}),
    value=st.text(max_size=40),
)
def test_any_step_address_answers_without_a_server_error(client, dealer, upstreams, segment, value):
    quoted, query = (
        quote(segment, safe=""),
        urlencode({"parameter": value, "year": value, "page": value, "body": value}),
    )
    for path in (
        f"/browse?make={quote(value)}&{query}",
        f"/browse/catapi/{quoted}?{query}",
        f"/browse/catapi/volkswagen/{quoted}?{query}",
        f"/browse/scrape/{quoted}?{query}",
        f"/api/browse/scrape/renault/wizard-vehicles?model={quote(value)}&{query}",
    ):
        assert client.get(path).status_code < 500, path
