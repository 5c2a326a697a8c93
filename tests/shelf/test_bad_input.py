"""Files that are not lists, or not lists we can read safely: a Turkish 4xx, and nothing stored."""

from __future__ import annotations

import io
import zipfile

import pytest

from app.shelf import xlsx
from tests.conftest import SITE
from tests.shelf.conftest import csv_bytes, upload


def zipped(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


def nothing_stored(client) -> bool:
    return client.get("/api/shelf/imports").get_json()["items"] == []


@pytest.mark.parametrize(
    ("data", "filename", "status", "code"),
    [
        (bytes(range(256)) * 64, "liste.csv", 422, "not_a_list"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512, "liste.xls", 422, "old_excel"),
        (b"OEM;Ad\r\nA1;\x81\x8d\x90\r\n", "liste.csv", 422, "bad_encoding"),
        (zipped({"readme.txt": b"hello"}), "liste.xlsx", 422, "bad_xlsx"),
        (b"PK\x03\x04 truncated", "liste.xlsx", 422, "not_a_list"),
        (zipped({"xl/worksheets/sheet1.xml": b"\x00" * (20 * 1024 * 1024)}), "bomba.xlsx", 422, "xlsx_too_large"),
        (b"  \r\n ", "liste.csv", 400, "empty_file"),
        (b";;;\r\n;;\r\n", "liste.csv", 400, "empty_file"),
        (b'OEM;Ad\r\n"A1;Filtre\r\n' + b"x" * 200_000, "liste.csv", 422, "bad_csv"),
    ],
    ids=[
        "binary",
        "xls",
        "broken-encoding",
        "zip-not-xlsx",
        "broken-zip",
        "zip-bomb",
        "blank",
        "no-cells",
        "huge-cell",
    ],
)
def test_a_file_that_is_not_a_readable_list_is_refused_in_turkish(client, dealer, data, filename, status, code):
    refused = upload(client, data, filename)

    assert refused.status_code == status, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == code and any(letter in error["message"] for letter in "ıİşŞğĞüÜöÖçÇ")
    assert nothing_stored(client)


def test_a_zip_declaring_more_than_200_mb_unpacked_is_refused_before_unpacking(client, dealer, monkeypatch):
    monkeypatch.setattr(xlsx, "MAX_UNPACKED_BYTES", 1000)

    refused = upload(client, zipped({"a.xml": bytes(600), "b.xml": bytes(600)}), "liste.xlsx")

    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "xlsx_too_large"


def test_an_upload_over_50_mb_is_refused(client, dealer):
    too_big = b"OEM;Ad\r\n" + b"A1;Filtre\r\n" * (50 * 1024 * 1024 // 11 + 1)

    refused = upload(client, too_big)

    assert refused.status_code == 413
    assert refused.get_json()["error"] == {"code": "file_too_large", "message": "Dosya çok büyük (en fazla 50 MB)."}
    assert nothing_stored(client)


def test_a_2_gb_upload_is_refused_from_its_length_before_it_is_read(client, dealer):
    refused = client.post(
        "/api/shelf/imports",
        data=b"--x\r\n",
        content_type="multipart/form-data; boundary=x",
        headers=SITE,
        environ_overrides={"CONTENT_LENGTH": str(2 * 1024**3)},
    )

    assert refused.status_code == 413 and refused.get_json()["error"]["code"] == "file_too_large"


def test_a_request_without_a_file_is_refused(client, dealer):
    as_json = client.post("/api/shelf/imports", json={"file": "OEM"}, headers=SITE)
    no_file = client.post("/api/shelf/imports", data={"name": "x"}, content_type="multipart/form-data", headers=SITE)

    # Same-site JSON passes the cookie rule (app.auth.guards): the route then refuses its type, as for a token call
    assert as_json.status_code == 415 and as_json.get_json()["error"]["code"] == "unsupported_media_type"
    assert no_file.status_code == 400 and no_file.get_json()["error"]["code"] == "missing_file"
    assert nothing_stored(client)


def test_a_form_post_to_the_api_is_refused_as_cross_site(client, dealer):
    """A form or text body can come from any page's form: the cookie rule refuses it before the route reads it."""
    as_form = client.post("/api/shelf/imports", data={"file": "OEM"}, headers=SITE)
    as_text = client.post("/api/shelf/imports", data="OEM", content_type="text/plain", headers=SITE)

    assert as_form.status_code == as_text.status_code == 403
    assert as_form.get_json()["error"]["code"] == as_text.get_json()["error"]["code"] == "csrf_failed"
    assert nothing_stored(client)


def test_a_signed_out_visitor_cannot_upload(client):
    refused = upload(client, csv_bytes([["OEM"], ["A1"]]))

    assert refused.status_code == 401
