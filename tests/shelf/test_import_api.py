"""The list import through the API: Turkish CSV and XLSX as stock programs export them, preview, mapping, the job."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.shelf.conftest import (
    HEADER,
    ROWS,
    csv_bytes,
    import_list,
    items_of,
    numbers_of,
    run_worker,
    start,
    upload,
    xlsx_bytes,
)

EXPECTED_MAPPING = {
    "oem": 1,
    "ownCode": 0,
    "brand": 2,
    "name": 3,
    "price": 4,
    "currency": 5,
    "stock": 6,
    "aftermarket": [7],
    "replacedBy": 8,
}


@pytest.mark.parametrize(
    ("data", "filename"),
    [
        (csv_bytes([HEADER, *ROWS]), "liste.csv"),
        (csv_bytes([HEADER, *ROWS], encoding="utf-8"), "liste.csv"),
        (csv_bytes([HEADER, *ROWS], encoding="utf-8", bom=True), "liste.csv"),
        (csv_bytes([HEADER, *ROWS], encoding="utf-8", delimiter=","), "liste.csv"),
        (csv_bytes([HEADER, *ROWS], delimiter="\t"), "liste.txt"),
        (xlsx_bytes([HEADER, *ROWS]), "liste.xlsx"),
    ],
    ids=["cp1254-semicolon", "utf8", "utf8-bom", "utf8-comma", "tab", "xlsx"],
)
def test_a_turkish_list_is_previewed_mapped_and_imported(client, dealer, data, filename):
    preview = upload(client, data, filename)

    body = preview.get_json()
    assert preview.status_code == 201
    assert body["status"] == "uploaded" and body["headerRow"] == 1
    assert body["header"] == HEADER and body["rows"][0][3] == "Hava filtresi"
    assert body["guessedMapping"] == EXPECTED_MAPPING == body["suggestedMapping"]

    started = start(client, body["id"], body["suggestedMapping"])
    assert started.status_code == 202 and started.get_json()["status"] == "importing"
    from tests.shelf.conftest import run_worker

    run_worker()
    done = client.get(f"/api/shelf/imports/{body['id']}").get_json()
    assert done["status"] == "done" and done["percent"] == 100
    assert (done["rowsTotal"], done["rowsImported"], done["rowsFailed"]) == (3, 3, 0)
    first, second, third = items_of(body["id"])
    assert (first.line, first.oem_code, first.own_code, first.price, first.currency, first.stock) == (
        2,
        "1K0 129 620 D",
        "KD-1001",
        Decimal("1250.50"),
        "TRY",
        3,
    )
    assert (second.name, second.price, second.replaced_by) == ("Yağ filtresi", Decimal("245.00"), "06A115561C")
    assert (third.oem_code, third.price, third.currency, third.stock) == (None, Decimal("1250.50"), "EUR", 0)
    assert {
        ("oem", "1k0129620d"),
        ("own", "kd1001"),
        ("aftermarket", "c27009"),
        ("aftermarket", "f026400007"),
        ("oem", "06a115561b"),
        ("successor", "06a115561c"),
        ("aftermarket", "w71930"),
        ("own", "kd1003"),
    } == (numbers_of(body["id"]) - {("own", "kd1002")})


def test_the_header_is_found_below_a_title_and_a_list_without_one_gets_column_numbers(client, dealer):
    titled = [
        ["ÖZTÜRK OTO YEDEK PARÇA"],
        ["Fiyat listesi 2026"],
        [],
        ["Parça No", "Açıklama", "Fiyat", "Adet"],
        ["1K0129620D", "Filtre", "1.250 TL", "3,00"],
    ]
    headless = [["1K0129620D", "Filtre", "10"], ["06A115561B", "Filtre", "11"]]

    found = upload(client, csv_bytes(titled)).get_json()
    missing = upload(client, csv_bytes(headless)).get_json()

    assert found["headerRow"] == 4 and found["rows"] == [["1K0129620D", "Filtre", "1.250 TL", "3,00"]]
    assert found["guessedMapping"] | {"aftermarket": []} == {
        "oem": 0,
        "ownCode": None,
        "brand": None,
        "name": 1,
        "price": 2,
        "currency": None,
        "stock": 3,
        "aftermarket": [],
        "replacedBy": None,
    }
    assert missing["headerRow"] is None and missing["header"] == ["Sütun 1", "Sütun 2", "Sütun 3"]
    assert len(missing["rows"]) == 2 and missing["guessedMapping"]["oem"] is None
    done = import_list(client, csv_bytes(titled), mapping=found["suggestedMapping"])
    [item] = items_of(done["id"])
    assert (item.line, item.price, item.stock) == (5, Decimal("1250.00"), 3)


def test_numbers_are_read_as_turkish_and_english_lists_write_them(client, dealer):
    prices = ["1.250,50", "1250,50", "1,250.50", "1250.50", "₺ 1.250,50", "1.250,50 TL", "1.250", "12,5", "", "-"]
    rows = [["OEM", "Fiyat", "Stok"]] + [[f"P{index}", price, "3,00"] for index, price in enumerate(prices)]

    done = import_list(client, csv_bytes(rows, encoding="utf-8"))

    assert done["rowsFailed"] == 0
    assert [item.price for item in items_of(done["id"])] == [
        *[Decimal("1250.50")] * 6,
        Decimal("1250.00"),
        Decimal("12.50"),
        None,
        None,
    ]
    assert {item.stock for item in items_of(done["id"])} == {3}


def test_several_aftermarket_columns_and_lists_in_a_cell(client, dealer):
    rows = [["OEM", "Muadil 1", "Muadil 2"], ["A-1", "B 1 / C-2 | D3", "E4;F5,G6  H7"], ["Z-9", "Z 9", "z9"]]

    done = import_list(client, csv_bytes(rows))

    keys = numbers_of(done["id"])
    assert {key for kind, key in keys if kind == "aftermarket"} == {"b1", "c2", "d3", "e4", "f5", "g6", "h7", "z9"}
    assert done["mapping"]["aftermarket"] == [1, 2]


def test_row_errors_are_listed_with_their_line_and_the_rest_is_imported(client, dealer):
    rows = [
        ["OEM", "Stok Kodu", "Ürün Adı", "Fiyat", "Stok"],
        ["A1", "", "İyi satır", "10", "1"],
        ["", "", "Numarasız", "10", "1"],
        ["A3", "", "Kötü fiyat", "on lira", "1"],
        ["A4", "", "Eksi fiyat", "-5", "1"],
        ["A5", "", "Uçuk fiyat", "100.000.001", "1"],
        ["A6", "", "Eksi stok", "10", "-1"],
        ["A7", "", "Uçuk stok", "10", "10.000.001"],
        ["A8", "", "Kesirli stok", "10", "2,5"],
        ["X" * 61, "", "Uzun numara", "10", "1"],
        ["", "", "", "", ""],
        ["A11", "", "<script>alert(1)</script>", '=HYPERLINK("http://x")', "1"],
        ["A12", "", '=HYPERLINK("http://kötü.example","tıkla")', "10", "1"],
    ]

    done = import_list(client, csv_bytes(rows, encoding="utf-8"))

    assert done["status"] == "done" and (done["rowsImported"], done["rowsFailed"]) == (2, 9)
    assert [(error["line"], error["code"]) for error in done["errors"]] == [
        (3, "no_number"),
        (4, "bad_price"),
        (5, "negative_price"),
        (6, "absurd_price"),
        (7, "negative_stock"),
        (8, "absurd_stock"),
        (9, "bad_stock"),
        (10, "too_long"),
        (12, "bad_price"),
    ]
    assert done["errors"][0]["reason"] == "OEM numarası veya stok kodu yok."
    assert [item.name for item in items_of(done["id"])] == ["İyi satır", '=HYPERLINK("http://kötü.example","tıkla")']


def test_the_mapping_is_remembered_for_the_next_file_when_its_columns_exist(client, dealer):
    rows = [["Kod", "Açıklama", "Tutar"], ["A1", "Filtre", "10"]]
    first = upload(client, csv_bytes(rows)).get_json()
    chosen = {"oem": 0, "name": 1, "price": 2}
    assert start(client, first["id"], chosen).status_code == 202
    run_worker()  # one import at a time: the next file comes once this one has finished

    again = upload(client, csv_bytes(rows)).get_json()
    narrow = upload(client, csv_bytes([["Kod"], ["A1"]])).get_json()

    assert again["guessedMapping"]["oem"] is None and again["guessedMapping"]["ownCode"] == 0
    assert again["suggestedMapping"] | {"aftermarket": []} == {
        "oem": 0,
        "ownCode": None,
        "brand": None,
        "name": 1,
        "price": 2,
        "currency": None,
        "stock": None,
        "aftermarket": [],
        "replacedBy": None,
    }
    assert narrow["suggestedMapping"] == narrow["guessedMapping"]


@pytest.mark.parametrize(
    ("mapping", "code"),
    [
        ({"name": 1}, "mapping_needs_number"),
        ({"oem": 9}, "invalid_mapping"),
        ({"oem": -1}, "invalid_mapping"),
        ({"oem": "A"}, "invalid_mapping"),
        ({"oem": 0, "aftermarket": [0, 7]}, "invalid_mapping"),
        ({"oem": 0, "colour": 1}, "invalid_mapping"),
        ({"oem": True}, "invalid_mapping"),
    ],
)
def test_a_mapping_naming_no_number_or_a_column_the_file_lacks_is_refused(client, dealer, mapping, code):
    preview = upload(client, csv_bytes([["OEM", "Ad"], ["A1", "Filtre"]])).get_json()

    refused = start(client, preview["id"], mapping)

    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == code
    assert client.get(f"/api/shelf/imports/{preview['id']}").get_json()["status"] == "uploaded"


def test_a_started_import_cannot_be_started_again(client, dealer):
    preview = upload(client, csv_bytes([["OEM"], ["A1"]])).get_json()
    assert start(client, preview["id"], {"oem": 0}).status_code == 202

    again = start(client, preview["id"], {"oem": 0})

    assert again.status_code == 409 and again.get_json()["error"]["message"]


def test_the_dealers_imports_are_listed_with_the_list_in_use(client, dealer):
    done = import_list(client, csv_bytes([["OEM"], ["A1"]]))
    waiting = upload(client, csv_bytes([["OEM"], ["A2"]])).get_json()

    listed = client.get("/api/shelf/imports").get_json()

    assert [item["id"] for item in listed["items"]] == [waiting["id"], done["id"]]
    assert listed["activeId"] == done["id"]


def test_cells_with_tabs_line_breaks_and_backslashes_are_stored_as_written(client, dealer):
    name = 'Conta\tseti "üst"\r\nC:\\parça\\N'
    rows = [["OEM", "Ürün Adı", "Marka"], ["A\\1", name, "Febi\\N"]]

    done = import_list(client, csv_bytes(rows, encoding="utf-8"))

    [item] = items_of(done["id"])
    assert (item.oem_code, item.name, item.brand) == ("A\\1", name, "Febi\\N")
    assert numbers_of(done["id"]) == {("oem", "a1")}


def test_an_excel_sheet_with_numeric_cells_and_a_title_above_its_header(client, dealer):
    rows = [
        ["Stok listesi", None, None, None],
        [None],
        ["Parça No", "Ürün Adı", "Fiyat", "Adet"],
        [34116860, "Fren diski", 1250.5, 3.0],
        ["1K0-129-620 D", "Hava filtresi", 12.125, 12],
        [None, None, None, None],
        ["06A115561B", "Yağ filtresi", "1.250,50", "2"],
    ]

    preview = upload(client, xlsx_bytes(rows), "stok.xlsx").get_json()
    done = import_list(client, xlsx_bytes(rows), "stok.xlsx")

    assert preview["headerRow"] == 3 and preview["rows"][0] == ["34116860", "Fren diski", "1250,5", "3"]
    assert done["status"] == "done" and (done["rowsImported"], done["rowsFailed"]) == (3, 0)
    assert [(item.line, item.oem_code, item.price, item.stock) for item in items_of(done["id"])] == [
        (4, "34116860", Decimal("1250.50"), 3),
        (5, "1K0-129-620 D", Decimal("12.13"), 12),
        (7, "06A115561B", Decimal("1250.50"), 2),
    ]


def test_a_newer_upload_replaces_the_file_still_waiting_for_its_mapping(client, dealer):
    first = upload(client, csv_bytes([["OEM"], ["A1"]])).get_json()
    second = upload(client, csv_bytes([["OEM"], ["A2"]])).get_json()

    replaced = client.get(f"/api/shelf/imports/{first['id']}").get_json()
    assert (replaced["status"], replaced["message"]) == ("failed", "Bunun yerine daha yeni bir dosya yüklendi.")
    assert start(client, first["id"], {"oem": 0}).status_code == 409
    assert start(client, second["id"], {"oem": 0}).status_code == 202
