"""The quote pages through HTTP: "Teklife ekle" on a drawing's rows (HTMX and without), the shelf's price, the lines
edited in place, the share panel with its WhatsApp link, the customer's page, print, CSV and the settings."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from urllib.parse import unquote

import sqlalchemy as sa

from app.core.db import utcnow
from app.extensions import db
from app.quotes.models import Quote, QuoteLine
from tests.conftest import csrf_token_from
from tests.quotes.conftest import BROWSER, coded_parts
from tests.support.markup import elements, the
from tests.support.shelf import shelf_list

HX = {"HX-Request": "true"}


def leaf_page(client, vehicle_id: int, category_id: int) -> str:
    response = client.get(f"/vehicles/{vehicle_id}/categories/{category_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def add_forms(html: str) -> list:
    return elements(html, "form.quote-add")


def post_form(client, action: str, token: str, fields: dict | None = None, headers: dict | None = None):
    return client.post(action, data={"csrf_token": token, **(fields or {})}, headers=headers or {})


def only_quote() -> Quote:
    db.session.expire_all()  # as the requests left it
    return db.session.scalars(sa.select(Quote)).one()


def part_of(form, leaf: dict) -> dict:
    """The leaf's part a row's "Add to quote" form adds (its action ends with the part id)."""
    part_id = int(form["action"].rstrip("/").rsplit("/", 1)[1])
    return next(part for part in leaf["parts"] if part["id"] == part_id)


def test_three_parts_added_from_a_drawing_make_the_vehicle_s_quote(client, bmw, leaf):
    html = leaf_page(client, bmw, leaf["category"]["id"])
    forms = add_forms(html)
    token = csrf_token_from(html)

    answers = [post_form(client, form["action"], token, headers=HX) for form in forms[:3]]

    assert len(forms) == len(coded_parts(leaf))  # one per row with a code, none on a reference row
    assert [the(answer.get_data(as_text=True), ".quote-added").text.strip() for answer in answers] == [
        "Eklendi (1)", "Eklendi (2)", "Eklendi (3)",
    ]  # fmt: skip
    quote = only_quote()
    lines = db.session.scalars(sa.select(QuoteLine).order_by(QuoteLine.sort_order)).all()
    assert quote.vehicle_id == bmw and quote.vin and quote.status == "draft"
    parts = [part_of(form, leaf) for form in forms[:3]]
    assert [line.oem_code for line in lines] == [part["oemCode"] for part in parts]
    assert [int(line.quantity) for line in lines] == [part["quantity"] or 1 for part in parts]
    assert all(line.unit_price is None and line.category_id == leaf["category"]["id"] for line in lines)


def test_without_htmx_the_button_answers_303_back_and_a_second_add_grows_the_quantity(client, bmw, leaf):
    path = f"/vehicles/{bmw}/categories/{leaf['category']['id']}"
    html = leaf_page(client, bmw, leaf["category"]["id"])
    action = add_forms(html)[0]["action"]

    first = post_form(client, action, csrf_token_from(html), headers={"Referer": f"http://localhost{path}"})
    post_form(client, action, csrf_token_from(html))

    assert first.status_code == 303 and first.headers["Location"] == path
    line = db.session.scalars(sa.select(QuoteLine)).one()
    assert line.quantity == 2 * (part_of(add_forms(html)[0], leaf)["quantity"] or 1)


def test_the_add_form_needs_its_csrf_token(client, bmw, leaf):
    action = add_forms(leaf_page(client, bmw, leaf["category"]["id"]))[0]["action"]
    assert client.post(action).status_code == 403
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Quote)) == 0


def test_the_price_comes_from_the_dealer_s_shelf(client, dealer, bmw, leaf):
    html = leaf_page(client, bmw, leaf["category"]["id"])
    part = part_of(add_forms(html)[0], leaf)
    shelf_list(dealer, [{"oem": part["oemCode"].lower().replace(" ", ""), "price": "1250.50", "stock": 3}])

    post_form(client, add_forms(html)[0]["action"], csrf_token_from(html), headers=HX)

    assert str(db.session.scalars(sa.select(QuoteLine)).one().unit_price) == "1250.50"


def quote_with_lines(client, bmw, leaf, count: int = 2) -> tuple[Quote, str]:
    html = leaf_page(client, bmw, leaf["category"]["id"])
    for form in add_forms(html)[:count]:
        post_form(client, form["action"], csrf_token_from(html), headers=HX)
    quote = only_quote()
    return quote, client.get(f"/teklifler/{quote.id}").get_data(as_text=True)


def test_lines_are_edited_in_place_and_the_totals_follow(client, bmw, leaf):
    quote, html = quote_with_lines(client, bmw, leaf)
    token = csrf_token_from(html)
    edit = elements(html, "form.quote-line-form")[0]

    changed = post_form(client, edit["action"], token, {"quantity": "2", "unit_price": "1.250,50"}, HX)
    free = the(html, "form.quote-free-line")["action"]
    post_form(client, free, token, {"name": "<b>İşçilik</b>", "quantity": "1", "unit_price": "500"})
    page = client.get(f"/teklifler/{quote.id}").get_data(as_text=True)

    assert changed.status_code == 200 and the(changed.get_data(as_text=True), "#quote-lines")
    assert the(page, "[data-total=net]").text == "3.001,00 ₺"
    assert the(page, "[data-total=kdv]").text == "600,20 ₺"
    assert the(page, "[data-total=gross]").text == "3.601,20 ₺"
    assert "<b>İşçilik</b>" not in page and "&lt;b&gt;İşçilik&lt;/b&gt;" in page  # escaped

    delete = elements(page, "form.quote-line-delete")[0]["action"]
    assert post_form(client, delete, token).status_code == 303
    assert len(elements(client.get(f"/teklifler/{quote.id}").get_data(as_text=True), "li.quote-line")) == 2


def test_a_quote_s_own_kdv_rate_changes_its_totals_and_not_the_settings(client, bmw, leaf):
    quote, html = quote_with_lines(client, bmw, leaf, 1)
    token = csrf_token_from(html)
    post_form(
        client, elements(html, "form.quote-line-form")[0]["action"], token, {"quantity": "1", "unit_price": "100"}
    )
    rate_form = the(html, "form.quote-rate")["action"]

    fragment = post_form(client, rate_form, token, {"kdv_rate": "10"}, HX)
    refused = post_form(client, rate_form, token, {"kdv_rate": "120"}, HX)
    page = client.get(f"/teklifler/{quote.id}").get_data(as_text=True)

    assert fragment.status_code == 200 and the(fragment.get_data(as_text=True), "[data-total=kdv]").text == "10,00 ₺"
    assert the(refused.get_data(as_text=True), ".alert-error").text.strip()  # in Turkish, and nothing changed
    assert the(page, "[data-total=gross]").text == "110,00 ₺"
    assert the(page, "form.quote-rate input[name=kdv_rate]")["value"] == "10"
    assert "Kalem adı" in the(page, "form.quote-free-line").text  # the line's name, not a person's
    assert client.get("/api/quotes/settings").get_json()["kdvRate"] == "20.00"  # new quotes keep the dealer's rate


def test_a_refused_amount_shows_its_turkish_message_and_changes_nothing(client, bmw, leaf):
    quote, html = quote_with_lines(client, bmw, leaf, 1)
    edit = elements(html, "form.quote-line-form")[0]["action"]

    fragment = post_form(client, edit, csrf_token_from(html), {"quantity": "1", "unit_price": "-5"}, HX)
    page = post_form(client, edit, csrf_token_from(html), {"quantity": "abc", "unit_price": ""})

    assert "arasında olmalı" in the(fragment.get_data(as_text=True), ".alert-error").text
    assert page.status_code == 400 and "sayı olmalı" in the(page.get_data(as_text=True), ".alert-error").text
    assert db.session.scalars(sa.select(QuoteLine)).one().unit_price is None


def test_the_share_panel_gives_the_link_and_the_whatsapp_message_once(app, client, dealer, bmw, leaf):
    client.post(
        "/teklifler/ayarlar",
        data={"csrf_token": csrf_token_from(client.get("/teklifler/ayarlar").get_data(as_text=True)),
              "shop_name": "Yıldız Oto", "phone": "0212 555 00 00", "kdv_rate": "20"},
    )  # fmt: skip
    quote, html = quote_with_lines(client, bmw, leaf, 1)
    line_form = elements(html, "form.quote-line-form")[0]["action"]
    post_form(client, line_form, csrf_token_from(html), {"quantity": "1", "unit_price": "2875"})

    panel = post_form(client, f"/teklifler/{quote.id}/share", csrf_token_from(html), headers=HX).get_data(as_text=True)
    link = the(panel, "[data-share-link]")["value"]
    whatsapp = the(panel, "[data-whatsapp]")["href"]

    assert whatsapp.startswith("https://wa.me/?text=")
    assert unquote(whatsapp.removeprefix("https://wa.me/?text=")) == (
        f"Yıldız Oto: {quote.vehicle_title} için teklif, toplam 3.450,00 ₺ (KDV dahil): {link}"
    )
    assert link not in client.get(f"/teklifler/{quote.id}").get_data(as_text=True)  # only its hash is kept
    stranger = app.test_client()
    customer = stranger.get(link.removeprefix("http://localhost"), headers=BROWSER)
    text = customer.get_data(as_text=True)
    assert only_quote().status == "sent"  # the page read, not yet shown: its beacon says so
    stranger.post(the(text, "body")["data-opened-beacon"], headers=BROWSER)
    assert customer.status_code == 200 and "Yıldız Oto" in text and "0212 555 00 00" in text
    assert the(text, "[data-total=gross]").text == "3.450,00 ₺"
    assert elements(text, "img.quote-thumb")  # the drawing's picture
    assert only_quote().status == "opened"


def test_an_expired_link_answers_410_and_an_unknown_one_404(app, client, bmw, leaf):
    quote, html = quote_with_lines(client, bmw, leaf, 1)
    panel = post_form(client, f"/teklifler/{quote.id}/share", csrf_token_from(html), headers=HX).get_data(as_text=True)
    path = the(panel, "[data-share-link]")["value"].removeprefix("http://localhost")
    only_quote().expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()

    assert app.test_client().get(path).status_code == 410
    assert app.test_client().get(path[:-3] + "xyz").status_code == 404
    assert only_quote().first_opened_at is None


def test_print_and_csv(client, bmw, leaf):
    quote, html = quote_with_lines(client, bmw, leaf, 1)
    free = the(html, "form.quote-free-line")["action"]
    post_form(client, free, csrf_token_from(html), {"name": '=HYPERLINK("x")', "quantity": "1", "unit_price": "10"})

    printed = client.get(f"/teklifler/{quote.id}/print")
    exported = client.get(f"/teklifler/{quote.id}/teklif.csv")
    rows = list(csv.reader(io.StringIO(exported.data.decode("utf-8-sig")), delimiter=";"))

    assert printed.status_code == 200 and len(elements(printed.get_data(as_text=True), ".quote-table tbody tr")) == 2
    assert exported.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert rows[0] == ["OEM numarası", "Kalem", "Adet", "Birim fiyat", "Tutar"]
    assert rows[2][1] == '\'=HYPERLINK("x")' and rows[-1][-1] == "12,00"


def test_the_drawing_links_to_the_vehicle_s_open_quote(client, bmw, leaf):
    html = leaf_page(client, bmw, leaf["category"]["id"])
    link = the(html, "a.leaf-quote")["href"]

    assert client.get(link).headers["Location"] == "/teklifler"  # none yet
    quote, _html = quote_with_lines(client, bmw, leaf, 1)
    assert client.get(link).headers["Location"] == f"/teklifler/{quote.id}"


def test_search_hits_have_the_button(client, bmw, leaf):
    code = coded_parts(leaf)[0]["oemCode"]
    html = client.get(f"/vehicles/{bmw}?q={code}").get_data(as_text=True)
    assert add_forms(html)


def test_the_list_shows_each_quote_s_state(client, bmw, leaf):
    quote, _html = quote_with_lines(client, bmw, leaf, 1)
    page = client.get("/teklifler").get_data(as_text=True)
    assert the(page, ".quote-state")["data-state"] == "draft" and the(page, ".quote-state").text.strip() == "Taslak"
    assert the(page, "nav.header-actions a[href='/teklifler']").text == "Teklifler"


def test_the_settings_refuse_a_bad_rate(client, dealer):
    shown = client.get("/teklifler/ayarlar")
    html = shown.get_data(as_text=True)
    assert shown.status_code == 200 and the(html, "input#kdv_rate")["value"] == "20"
    refused = client.post("/teklifler/ayarlar", data={"csrf_token": csrf_token_from(html), "kdv_rate": "150"})
    assert refused.status_code == 400 and "arasında olmalı" in refused.get_data(as_text=True)
