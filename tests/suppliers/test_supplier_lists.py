"""A supplier's list uploaded and imported through the API: CSV in each encoding, XLSX and XML, the preview and the
mapping remembered per supplier, the lines and the numbers they answer to, and broken files refused in Turkish."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.extensions import db
from app.suppliers.models import SupplierActive, SupplierUpload
from tests.shelf.conftest import csv_bytes, xlsx_bytes
from tests.suppliers.conftest import (
    HEADER,
    ROWS,
    XML_FEED,
    create_supplier,
    import_list,
    lines_of,
    numbers_of,
    start,
    upload,
)

MAPPING = {
    "ownCode": 0,
    "oem": None,
    "oe": 6,
    "ean": 7,
    "brand": 1,
    "name": 2,
    "price": 3,
    "currency": 4,
    "stock": 5,
}


@pytest.mark.parametrize(
    ("data", "filename"),
    [
        (csv_bytes([HEADER, *ROWS]), "liste.csv"),
        (csv_bytes([HEADER, *ROWS], encoding="utf-8", bom=True), "liste.csv"),
        (csv_bytes([HEADER, *ROWS], encoding="utf-8", delimiter=","), "liste.txt"),
        (xlsx_bytes([HEADER, *ROWS]), "liste.xlsx"),
    ],
    ids=["cp1254", "utf8-bom", "utf8-comma", "xlsx"],
)
def test_a_list_is_previewed_mapped_and_imported(manager, data, filename):
    supplier = create_supplier(manager)
    preview = upload(manager, supplier["id"], data, filename)
    body = preview.get_json()
    assert preview.status_code == 201, body
    assert body["header"] == HEADER and body["headerRow"] == 1 and body["status"] == "uploaded"
    assert body["suggestedMapping"] == MAPPING

    started = start(manager, supplier["id"], body["id"], body["suggestedMapping"])
    assert started.status_code == 202 and started.get_json()["status"] == "importing"
    from tests.shelf.conftest import run_worker

    run_worker()
    done = manager.get(f"/api/suppliers/{supplier['id']}/imports/{body['id']}").get_json()
    assert (done["status"], done["percent"], done["rowsImported"], done["rowsFailed"]) == ("done", 100, 3, 0)
    first, second, third = lines_of(body["id"])
    assert (first.own_code, first.price, first.currency, first.stock, first.stock_text) == (
        "BSB-1001",
        Decimal("1250.50"),
        "TRY",
        None,
        "Var",
    )
    assert (second.price, second.currency, second.stock, second.stock_text) == (Decimal("245.00"), "EUR", 12, None)
    assert (third.stock, third.stock_text) == (0, "Yok")
    numbers = numbers_of(body["id"])
    assert {("own", "bsb1001"), ("oe", "1k0129620d"), ("oe", "06a115561b")} <= numbers
    state = manager.get(f"/api/suppliers/{supplier['id']}").get_json()
    assert state["activeImportId"] == body["id"] and state["lastRefreshedAt"]
    assert db.session.get(SupplierUpload, body["id"]) is None


def test_an_xml_feed_is_read_by_its_repeated_element(manager):
    supplier = create_supplier(manager)
    preview = upload(manager, supplier["id"], XML_FEED.encode(), "fiyatlar.xml").get_json()
    assert preview["header"] == ["kod", "marka", "ad", "fiyat", "stok", "oe"] and preview["fileKind"] == "xml"
    mapping = {"ownCode": 0, "brand": 1, "name": 2, "price": 3, "stock": 4, "oe": 5}
    started = start(manager, supplier["id"], preview["id"], mapping)
    assert started.status_code == 202, started.get_json()
    from tests.shelf.conftest import run_worker

    run_worker()
    first, second = lines_of(preview["id"])
    assert (first.own_code, first.price, first.stock, first.oe_text) == (
        "XML-1",
        Decimal("3400.00"),
        5,
        "VW 02A 141 165 M",
    )
    assert (second.stock, second.stock_text) == (0, "Yok")
    assert ("oe", "02a141165m") in numbers_of(preview["id"])


def test_the_mapping_is_remembered_per_supplier(manager):
    first = create_supplier(manager)
    other = create_supplier(manager, name="Dinamik")
    chosen = {**MAPPING, "ean": None, "oe": None, "name": 6}
    import_list(manager, first["id"], csv_bytes([HEADER, *ROWS]), mapping=chosen)

    again = upload(manager, first["id"], csv_bytes([HEADER, *ROWS])).get_json()
    assert again["suggestedMapping"] == chosen
    elsewhere = upload(manager, other["id"], csv_bytes([HEADER, *ROWS])).get_json()
    assert elsewhere["suggestedMapping"] == MAPPING


def test_the_old_list_stays_in_use_until_the_new_one_is_complete(manager):
    supplier = create_supplier(manager)
    old = import_list(manager, supplier["id"], csv_bytes([HEADER, *ROWS]))
    preview = upload(manager, supplier["id"], csv_bytes([HEADER, ROWS[0]])).get_json()
    start(manager, supplier["id"], preview["id"], preview["suggestedMapping"])

    # Queued, not yet run: the old list is in use, and a second file waits for it.
    assert db.session.get(SupplierActive, supplier["id"]).import_id == old["id"]
    busy = upload(manager, supplier["id"], csv_bytes([HEADER, *ROWS]))
    assert busy.status_code == 409 and busy.get_json()["error"]["code"] == "import_running"
    from tests.shelf.conftest import run_worker

    run_worker()
    db.session.expire_all()
    assert db.session.get(SupplierActive, supplier["id"]).import_id == preview["id"]
    assert lines_of(old["id"]) == [] and len(lines_of(preview["id"])) == 1


def test_bad_rows_are_listed_by_line_with_a_turkish_reason(manager):
    supplier = create_supplier(manager)
    rows = [
        HEADER,
        ROWS[0],
        ["", "Bosch", "Kodsuz", "10", "TL", "1", "", ""],
        ["X-1", "", "", "on lira", "", "", "", ""],
    ]
    done = import_list(manager, supplier["id"], csv_bytes(rows))
    assert (done["status"], done["rowsImported"], done["rowsFailed"]) == ("done", 1, 2)
    assert [(error["line"], error["code"]) for error in done["errors"]] == [(3, "no_number"), (4, "bad_price")]
    assert "fiyat" in done["errors"][1]["reason"].casefold()


@pytest.mark.parametrize(
    ("data", "filename", "status", "code"),
    [
        (b"", "liste.csv", 400, "missing_file"),
        (b"\xd0\xcf\x11\xe0" + b"\x00" * 100, "liste.xls", 422, "old_excel"),
        (b"PK\x03\x04bozuk-zip", "liste.xlsx", 422, None),
        (b"<?xml version='1.0'?><urunler><urun><kod>A1", "liste.xml", 422, "bad_xml"),
        (
            b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY x SYSTEM "file:///etc/passwd">]><l><u><k>&x;</k></u></l>',
            "liste.xml",
            422,
            "bad_xml",
        ),
        ("kod;fiyat\nA1;10\n".encode("utf-16"), "liste.csv", 422, None),
        (b"adet;fiyat\n1;2\n3;4\n", "liste.csv", 422, "no_part_numbers"),
    ],
    ids=["empty", "xls", "broken-xlsx", "broken-xml", "xml-entity", "utf16", "no-numbers"],
)
def test_a_broken_file_is_refused_in_turkish(manager, data, filename, status, code):
    supplier = create_supplier(manager)
    response = upload(manager, supplier["id"], data, filename)
    body = response.get_json()
    assert response.status_code == status, body
    assert code is None or body["error"]["code"] == code
    assert body["error"]["message"] and "the" not in body["error"]["message"].split()


@pytest.fixture
def supplier_id(manager) -> int:
    return create_supplier(manager)["id"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=2000), xml=st.booleans())
def test_any_bytes_get_a_preview_or_a_4xx_never_a_500(manager, supplier_id, data, xml):
    body = (b"<?xml version='1.0'?>" + data) if xml else data
    response = upload(manager, supplier_id, body, "liste.xml" if xml else "liste.csv")
    assert response.status_code in (201, 400, 413, 415, 422), (response.status_code, response.get_data()[:200])
    if response.status_code != 201:
        assert response.get_json()["error"]["message"]


def test_an_import_whose_job_was_lost_is_queued_again_by_the_sweep(app, manager):
    from datetime import timedelta

    from app.core.db import utcnow
    from app.extensions import queues
    from app.suppliers import recovery
    from app.suppliers.imports import import_job_id
    from app.suppliers.models import SupplierImport
    from tests.shelf.conftest import run_worker

    supplier = create_supplier(manager)
    preview = upload(manager, supplier["id"], csv_bytes([HEADER, *ROWS])).get_json()
    start(manager, supplier["id"], preview["id"], preview["suggestedMapping"])
    queues.get("default").fetch_job(import_job_id(preview["id"])).delete()  # Redis lost it
    record = db.session.get(SupplierImport, preview["id"])
    record.started_at = utcnow() - timedelta(minutes=5)
    db.session.commit()

    with app.app_context():
        assert recovery.sweep() == 1
        assert recovery.sweep() == 0
    run_worker()
    assert manager.get(f"/api/suppliers/{supplier['id']}").get_json()["activeImportId"] == preview["id"]
