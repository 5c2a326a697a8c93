"""Order lists through HTTP: the waiting quote lines grouped per supplier, a double click adding each line once, an
order mailed to its supplier once with its XLSX (read back with openpyxl), the download, the marks and their refusals,
the roles, and another shop's orders not found."""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl
import pytest
import sqlalchemy as sa

from app.extensions import db
from app.notifications import tasks
from app.notifications.models import EmailAttachment
from app.orders.models import SupplierOrder, SupplierOrderLine
from app.quotes.models import QuoteLine
from tests.conftest import SITE, outbox
from tests.orders.conftest import FILTER, OIL, add, offer_lines, supplier

HEADER = ("Tedarikçinin kodu", "Marka", "OEM numarası", "Parça", "Adet", "Birim maliyet", "Tutar")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def rows_of(data: bytes) -> list[tuple]:
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    return [tuple(row) for row in book.active.iter_rows(values_only=True)]


def error_of(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    return response.get_json()["error"]


def status_in_db(order_id: int) -> str:
    db.session.expire_all()
    return db.session.get(SupplierOrder, order_id).status


@pytest.fixture
def ordered(manager):
    """Başbuğ's open order with the two lines of one quote."""
    basbug = supplier(manager, "Başbuğ Otomotiv")
    lines = offer_lines(manager, basbug, FILTER, OIL)
    answer = add(manager, basbug, lines)
    assert answer.status_code == 200, answer.get_json()
    return basbug, lines, answer.get_json()["order"]


def test_waiting_lines_are_grouped_per_supplier_and_only_the_shop_s(manager, other_shop):
    basbug, dinamik = supplier(manager, "Başbuğ Otomotiv"), supplier(manager, "Dinamik Parça", None)
    first = offer_lines(manager, basbug, FILTER)
    second = offer_lines(manager, dinamik, OIL)
    third = offer_lines(manager, basbug, OIL)
    theirs = supplier(other_shop["manager"].client, "Başka Tedarikçi")
    offer_lines(other_shop["manager"].client, theirs, FILTER)

    items = manager.get("/api/orders/waiting").get_json()["items"]

    assert [(item["supplierName"], [line["id"] for line in item["lines"]]) for item in items] == [
        ("Başbuğ Otomotiv", first + third),
        ("Dinamik Parça", second),
    ]
    assert items[0]["lines"][0] | {"id": 0, "quoteId": 0} == {
        "id": 0,
        "quoteId": 0,
        "oemCode": "1K0 129 620 D",
        "offerCode": "BSB-1001",
        "brand": "Bosch",
        "name": "Hava filtresi",
        "quantity": "2.00",
        "unitCost": "1094.19",
    }
    page = manager.get("/dukkan/siparisler").get_data(as_text=True)
    assert "Başbuğ Otomotiv" in page and "Dinamik Parça" in page and "Başka Tedarikçi" not in page
    assert "Sipariş listesine ekle" in page and 'name="csrf_token"' in page


def test_a_double_click_puts_each_line_on_one_order_once(manager, ordered):
    basbug, lines, order = ordered

    again = add(manager, basbug, lines)

    assert again.status_code == 200 and again.get_json()["added"] == 0
    assert again.get_json()["order"]["id"] == order["id"]
    assert [line["quoteLineId"] for line in order["lines"]] == lines
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SupplierOrderLine)) == 2
    assert manager.get("/api/orders/waiting").get_json()["items"] == []
    later = offer_lines(manager, basbug, OIL)
    grown = add(manager, basbug, [*lines, *later]).get_json()
    assert (grown["order"]["id"], grown["added"], len(grown["order"]["lines"])) == (order["id"], 1, 3)


def test_an_order_keeps_its_lines_as_they_were_with_the_total(manager, ordered):
    _basbug, _lines, order = ordered

    shown = manager.get(f"/api/orders/{order['id']}").get_json()

    assert shown["status"] == "open" and shown["total"] == "2433.88"
    assert [
        (line["offerCode"], line["brand"], line["quantity"], line["unitCost"], line["total"]) for line in shown["lines"]
    ] == [
        ("BSB-1001", "Bosch", "2.00", "1094.19", "2188.38"),
        ("BSB-1002", "Mann", "1.00", "245.50", "245.50"),
    ]


def test_sending_mails_the_supplier_once_with_the_xlsx(app, manager, ordered, smtp):
    server = smtp()
    basbug, _lines, order = ordered

    first = manager.post(f"/api/orders/{order['id']}/send", headers=SITE)
    again = manager.post(f"/api/orders/{order['id']}/send", headers=SITE)

    assert first.status_code == 200 and first.get_json()["mailed"] is True
    assert again.status_code == 200 and again.get_json()["mailed"] is False
    sent = again.get_json()["order"]
    assert (sent["status"], sent["sentTo"]) == ("sent", "siparis@basbug.example") and sent["sentAt"]
    [message] = outbox("supplier_order")
    assert message.to_address == "siparis@basbug.example" and message.reply_to == "sip-manager@example.com"
    assert db.session.scalar(sa.select(sa.func.count()).select_from(EmailAttachment)) == 1
    assert tasks.send_outbox(message.id) == "sent"
    [mail] = server.received()
    assert mail["To"] == "siparis@basbug.example" and f"Sipariş {order['id']}" in mail["Subject"]
    [attachment] = list(mail.iter_attachments())
    assert attachment.get_filename() == f"siparis-{order['id']}.xlsx" and attachment.get_content_type() == XLSX
    assert rows_of(attachment.get_content()) == [
        HEADER,
        ("BSB-1001", "Bosch", "1K0 129 620 D", "Hava filtresi", 2, 1094.19, 2188.38),
        ("BSB-1002", "Mann", "06A 115 561 B", "Yağ filtresi", 1, 245.5, 245.5),
    ]
    assert "toplam 2 kalem" in mail.get_body(preferencelist=("plain",)).get_content()
    # sent is frozen: the next line starts a new open order
    later = offer_lines(manager, basbug, OIL)
    assert add(manager, basbug, later).get_json()["order"]["id"] != order["id"]


def test_an_order_to_a_supplier_without_an_address_is_not_sent(manager):
    quiet = supplier(manager, "Dinamik Parça", None)
    order = add(manager, quiet, offer_lines(manager, quiet, FILTER)).get_json()["order"]

    refused = manager.post(f"/api/orders/{order['id']}/send", headers=SITE)

    assert error_of(refused, 409)["message"].startswith("Bu tedarikçinin sipariş e-posta adresi yok")
    assert status_in_db(order["id"]) == "open" and outbox("supplier_order") == []


def test_the_xlsx_downloads_with_its_rows_and_text_never_a_formula(manager):
    basbug = supplier(manager, "Başbuğ Otomotiv")
    tricky = {**OIL, "name": '=HYPERLINK("http://kotu.example","tikla")', "unit_cost": None}
    order = add(manager, basbug, offer_lines(manager, basbug, FILTER, tricky)).get_json()["order"]

    answer = manager.get(f"/api/orders/{order['id']}/xlsx")
    page = manager.get(f"/dukkan/siparisler/{order['id']}/siparis.xlsx")

    assert answer.status_code == 200 and answer.content_type == XLSX
    assert f"siparis-{order['id']}.xlsx" in answer.headers["Content-Disposition"]
    rows = rows_of(answer.data)
    assert rows == rows_of(page.data)
    assert rows[2][:5] == ("BSB-1002", "Mann", "06A 115 561 B", '=HYPERLINK("http://kotu.example","tikla")', 1)
    assert not any(rows[2][5:])  # no cost: no cost and no total
    book = openpyxl.load_workbook(io.BytesIO(answer.data))
    assert book.active["D3"].data_type == "s"


def test_marks_follow_the_order_s_way_and_refusals_change_nothing(manager, ordered):
    _basbug, _lines, order = ordered
    path = f"/api/orders/{order['id']}/mark"

    early = manager.post(path, json={"status": "arrived"}, headers=SITE)
    assert error_of(early, 409)["message"] == "Bu sipariş açık: geldi olarak işaretlenemez."
    assert status_in_db(order["id"]) == "open"

    ordered_now = manager.post(path, json={"status": "ordered"}, headers=SITE)  # downloaded, ordered by phone
    assert ordered_now.status_code == 200 and ordered_now.get_json()["status"] == "ordered"
    assert ordered_now.get_json()["orderedAt"]
    assert error_of(manager.post(f"/api/orders/{order['id']}/send", headers=SITE), 409)["code"] == "order_state"
    assert error_of(manager.post(path, json={"status": "ordered"}, headers=SITE), 409)["code"] == "order_state"

    arrived = manager.post(path, json={"status": "arrived"}, headers=SITE)
    assert arrived.get_json()["status"] == "arrived" and arrived.get_json()["arrivedAt"]
    assert status_in_db(order["id"]) == "arrived"
    back = manager.post(path, json={"status": "ordered"}, headers=SITE)
    assert error_of(back, 409)["message"] == "Bu sipariş geldi: sipariş edildi olarak işaretlenemez."
    assert status_in_db(order["id"]) == "arrived"


def test_a_sent_order_is_marked_ordered_then_arrived(manager, ordered, smtp):
    smtp()
    _basbug, _lines, order = ordered
    path = f"/api/orders/{order['id']}/mark"
    manager.post(f"/api/orders/{order['id']}/send", headers=SITE)

    assert manager.post(path, json={"status": "ordered"}, headers=SITE).get_json()["status"] == "ordered"
    assert manager.post(path, json={"status": "arrived"}, headers=SITE).get_json()["status"] == "arrived"


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ({}, "invalid_supplier", "Sipariş verilecek tedarikçiyi seçin."),
        ({"supplierId": "1", "quoteLineIds": [1]}, "invalid_supplier", "Sipariş verilecek tedarikçiyi seçin."),
        ({"supplierId": 1}, "invalid_quote_lines", "Sipariş için 1 ile 200 arasında teklif kalemi seçin."),
        ({"supplierId": 1, "quoteLineIds": []}, "invalid_quote_lines", None),
        ({"supplierId": 1, "quoteLineIds": ["7"]}, "invalid_quote_lines", None),
        ({"supplierId": 1, "quoteLineIds": list(range(1, 202))}, "invalid_quote_lines", None),
    ],
)
def test_bad_input_is_a_400_in_turkish(manager, body, code, message):
    error = error_of(manager.post("/api/orders", json=body, headers=SITE), 400)
    assert error["code"] == code and (message is None or error["message"] == message)


def test_a_bad_mark_is_a_400_in_turkish(manager, ordered):
    _basbug, _lines, order = ordered
    refused = manager.post(f"/api/orders/{order['id']}/mark", json={"status": "open"}, headers=SITE)
    assert (
        error_of(refused, 400)["message"] == "Bir sipariş yalnızca sipariş edildi ya da geldi olarak işaretlenebilir."
    )
    assert status_in_db(order["id"]) == "open"


def test_lines_of_another_supplier_or_shop_are_not_found(manager, ordered, other_shop):
    basbug, _lines, _order = ordered
    dinamik = supplier(manager, "Dinamik Parça")
    theirs = other_shop["manager"].client
    their_supplier = supplier(theirs, "Başka Tedarikçi")
    their_lines = offer_lines(theirs, their_supplier, FILTER)
    mine = offer_lines(manager, dinamik, OIL)

    assert error_of(add(manager, basbug, mine), 404)["code"] == "quote_line_not_found"
    assert error_of(add(manager, basbug, their_lines), 404)["code"] == "quote_line_not_found"
    assert error_of(add(manager, their_supplier, their_lines), 404)["code"] == "supplier_not_found"
    assert error_of(add(theirs, their_supplier, mine), 404)["code"] == "quote_line_not_found"


def test_another_shop_s_order_is_not_found_and_unchanged(manager, ordered, other_shop):
    _basbug, _lines, order = ordered
    theirs = other_shop["manager"]
    order_id = order["id"]

    for method, path, body in [
        ("GET", f"/api/orders/{order_id}", None),
        ("GET", f"/api/orders/{order_id}/xlsx", None),
        ("POST", f"/api/orders/{order_id}/send", {}),
        ("POST", f"/api/orders/{order_id}/mark", {"status": "ordered"}),
        ("GET", f"/dukkan/siparisler/{order_id}/siparis.xlsx", None),
        ("POST", f"/dukkan/siparisler/{order_id}/gonder", {}),
        ("POST", f"/dukkan/siparisler/{order_id}/durum", {"status": "ordered"}),
    ]:
        assert theirs.send(method, path, body).status_code == 404, path
    assert theirs.client.get("/api/orders").get_json()["items"] == []
    assert "Başbuğ" not in theirs.client.get("/dukkan/siparisler").get_data(as_text=True)
    assert status_in_db(order_id) == "open" and outbox("supplier_order") == []


def test_a_clerk_is_refused_and_an_owner_may(shop, ordered):
    _basbug, _lines, order = ordered
    clerk, owner = shop["clerk"], shop["owner"]
    for method, path, body in [
        ("GET", "/api/orders/waiting", None),
        ("GET", "/api/orders", None),
        ("POST", "/api/orders", {"supplierId": 1, "quoteLineIds": [1]}),
        ("GET", f"/api/orders/{order['id']}", None),
        ("GET", f"/api/orders/{order['id']}/xlsx", None),
        ("POST", f"/api/orders/{order['id']}/send", {}),
        ("POST", f"/api/orders/{order['id']}/mark", {"status": "ordered"}),
        ("GET", "/dukkan/siparisler", None),
        ("POST", f"/dukkan/siparisler/{order['id']}/durum", {"status": "ordered"}),
    ]:
        assert clerk.send(method, path, body).status_code == 403, path
    assert status_in_db(order["id"]) == "open"
    assert owner.client.get(f"/api/orders/{order['id']}").status_code == 200
    assert owner.send("POST", f"/api/orders/{order['id']}/mark", {"status": "ordered"}).status_code == 200


def test_the_page_adds_sends_and_marks_through_forms(shop, smtp):
    smtp()
    manager = shop["manager"]
    basbug = supplier(manager.client, "Başbuğ Otomotiv")
    lines = offer_lines(manager.client, basbug, FILTER, OIL)

    added = manager.send("POST", "/dukkan/siparisler", {"supplier_id": str(basbug), "quote_line_ids": [str(lines[0])]})
    assert added.status_code == 303 and "/dukkan/siparisler#siparis-" in added.headers["Location"]
    order_id = int(added.headers["Location"].rpartition("-")[2])
    page = manager.client.get("/dukkan/siparisler").get_data(as_text=True)
    assert "Tedarikçiye gönder" in page and "Excel listesini indir" in page and "BSB-1001" in page

    assert manager.send("POST", f"/dukkan/siparisler/{order_id}/gonder").status_code == 303
    assert manager.send("POST", f"/dukkan/siparisler/{order_id}/gonder").status_code == 303
    assert len(outbox("supplier_order")) == 1
    refused = manager.send("POST", f"/dukkan/siparisler/{order_id}/durum", {"status": "arrived"})
    assert refused.status_code == 409 and "geldi olarak işaretlenemez" in refused.get_data(as_text=True)
    assert manager.send("POST", f"/dukkan/siparisler/{order_id}/durum", {"status": "ordered"}).status_code == 303
    assert status_in_db(order_id) == "ordered"
    bad = manager.send("POST", "/dukkan/siparisler", {"supplier_id": str(basbug)})
    assert bad.status_code == 400 and "teklif kalemi seçin" in bad.get_data(as_text=True)


def test_a_form_without_its_token_is_refused(shop, ordered):
    _basbug, _lines, order = ordered
    response = shop["manager"].client.post(
        f"/dukkan/siparisler/{order['id']}/durum", data={"status": "ordered"}, headers=SITE
    )
    assert response.status_code in (400, 403)
    assert status_in_db(order["id"]) == "open"


def test_an_order_line_keeps_its_values_when_the_quote_line_changes(manager, ordered):
    _basbug, lines, order = ordered
    quote_id = order["lines"][0]["quoteId"]

    db.session.get(QuoteLine, lines[0]).unit_cost = Decimal("1.00")
    db.session.commit()
    assert manager.delete(f"/api/quotes/{quote_id}/lines/{lines[1]}", headers=SITE).status_code == 200

    shown = manager.get(f"/api/orders/{order['id']}").get_json()["lines"]
    assert [(line["quoteLineId"], line["offerCode"], line["unitCost"]) for line in shown] == [
        (lines[0], "BSB-1001", "1094.19"),
        (None, "BSB-1002", "245.50"),
    ]


def test_a_deleted_supplier_takes_its_orders_and_its_lines_wait_no_more(manager, ordered):
    basbug, _lines, order = ordered

    assert manager.delete(f"/api/suppliers/{basbug}", headers=SITE).status_code == 200

    assert error_of(manager.get(f"/api/orders/{order['id']}"), 404)["code"] == "order_not_found"
    assert manager.get("/api/orders").get_json()["items"] == []
    assert manager.get("/api/orders/waiting").get_json()["items"] == []  # the lines' supplier is gone (set null)
