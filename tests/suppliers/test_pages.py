"""The supplier pages without JavaScript and with HTMX: add a supplier by its form, a refusal re-rendered in
Turkish, upload a list, choose its columns, its progress as a page and as the fragment HTMX polls."""

from __future__ import annotations

import re

from tests.conftest import SITE
from tests.shelf.conftest import BOUNDARY, MULTIPART, csv_bytes, run_worker
from tests.suppliers.conftest import HEADER, ROWS


def _form_upload(member, path: str, data: bytes) -> bytes:
    head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{member.form_token}\r\n'
    part = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="liste.csv"\r\n\r\n'
    return member.client.post(
        path,
        data=head.encode() + part.encode() + data + f"\r\n--{BOUNDARY}--\r\n".encode(),
        content_type=MULTIPART,
        headers=SITE,
    )


def test_a_manager_adds_a_supplier_uploads_maps_and_follows_the_import(shop):
    member = shop["manager"]
    assert 'href="/dukkan/tedarikciler"' in member.send("GET", "/dukkan").get_data(as_text=True)
    assert 'href="/dukkan/tedarikciler"' not in shop["clerk"].send("GET", "/dukkan").get_data(as_text=True)
    assert "Tedarikçi ekle" in member.send("GET", "/dukkan/tedarikciler").get_data(as_text=True)
    refused = member.send("POST", "/dukkan/tedarikciler", {"name": "Martaş", "discountPercent": "150"})
    assert refused.status_code == 400 and "0 ile 100" in refused.get_data(as_text=True)
    added = member.send("POST", "/dukkan/tedarikciler", {"name": "Martaş", "orderCutoff": "14:00"})
    assert added.status_code == 303
    supplier_path = added.headers["Location"]
    page = member.send("GET", supplier_path).get_data(as_text=True)
    assert "Martaş" in page and "Henüz kullanımda bir liste yok." in page

    uploaded = _form_upload(member, f"{supplier_path}/yukle", csv_bytes([HEADER, *ROWS]))
    assert uploaded.status_code == 303
    import_path = uploaded.headers["Location"]
    mapping_page = member.send("GET", import_path).get_data(as_text=True)
    assert "Sütunları seçin" in mapping_page or "BSB-1001" in mapping_page
    chosen = {"own_code": "0", "brand": "1", "name": "2", "price": "3", "currency": "4", "stock": "5", "oe": "6"}
    assert member.send("POST", f"{import_path}/eslestir", chosen).status_code == 303

    waiting = member.client.get(f"{import_path}/ilerleme", headers={"HX-Request": "true"})
    assert waiting.status_code == 200 and 'hx-get="' in waiting.get_data(as_text=True)
    assert "HX-Request" in waiting.headers["Vary"] and "<html" not in waiting.get_data(as_text=True)
    run_worker()
    fragment = member.client.get(f"{import_path}/ilerleme", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "hx-get" not in fragment and re.search(r"3\s", fragment)
    whole = member.client.get(f"{import_path}/ilerleme")
    assert "<html" in whole.get_data(as_text=True)
    assert "3 satır" in member.send("GET", supplier_path).get_data(as_text=True)


def test_a_clerk_cannot_open_the_pages(shop):
    assert shop["clerk"].send("GET", "/dukkan/tedarikciler").status_code == 403
