"""Lists read as their programs write them: the delimiter chosen by the header and by rows weighted by their width
(ragged rows, decimal commas, quoted cells holding `;`), Excel's exports (`;` with a BOM, CRLF, Windows-1254) and
typical Turkish stock programs' headers; a file with no column of part numbers is refused at the preview."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.shelf.conftest import csv_bytes, import_list, items_of, upload

CRLF = "\r\n"


def ragged(lines: list[str], *, encoding: str = "cp1254", bom: bool = False) -> bytes:
    """A list as a program writes it by hand: each line as given, trailing empty cells left out."""
    return ("\ufeff" if bom else "").encode() + (CRLF.join(lines) + CRLF).encode(encoding)


def first_item(import_id: int) -> dict:
    item = items_of(import_id)[0]
    return {"oem": item.oem_code, "own": item.own_code, "name": item.name, "price": item.price, "stock": item.stock}


def test_a_semicolon_list_with_decimal_commas_and_ragged_rows_is_read_by_semicolons(client, dealer):
    header = "Stok Kodu;OEM No;Marka;Ürün Adı;Fiyat;Miktar;Muadil"
    # Every price has a decimal comma (two cells by `,` on every row); by `;` the rows are 5, 6 or 7 cells wide as
    # their trailing cells are empty or not.
    tails = [";1 ;W 719/30", ";{stock}", ""]
    rows = [
        f"KD-{n:04d};1K0 129 {n:03d} D;VW;Hava filtresi {n};1.2{n % 10}0,50" + tails[n % 3].format(stock=n % 7)
        for n in range(1999)
    ]

    preview = upload(client, ragged([header, *rows])).get_json()
    done = import_list(client, ragged([header, *rows]))

    assert preview["header"] == header.split(";") and preview["rows"][0][:5] == [
        "KD-0000",
        "1K0 129 000 D",
        "VW",
        "Hava filtresi 0",
        "1.200,50",
    ]
    assert preview["guessedMapping"]["ownCode"] == 0 and preview["guessedMapping"]["oem"] == 1
    assert done["status"] == "done" and done["rowsImported"] == 1999 and done["rowsFailed"] == 0
    assert first_item(done["id"]) == {
        "oem": "1K0 129 000 D",
        "own": "KD-0000",
        "name": "Hava filtresi 0",
        "price": Decimal("1200.50"),
        "stock": 1,
    }


EXPORTS = {
    "excel-utf8-bom": (
        ragged(
            [
                "OEM No;Ürün Adı;Fiyat;Stok;Muadil",
                '06A115561B;"Yağ filtresi; 1.8 TSI";245,00;12;"W 719/30; OC 456"',
                '1K0129620D;"Hava ""uzun"" filtre";1.250,50;3',
            ],
            encoding="utf-8",
            bom=True,
        ),
        {"oem": "06A115561B", "own": None, "name": "Yağ filtresi; 1.8 TSI", "price": Decimal("245.00"), "stock": 12},
    ),
    "excel-cp1254": (
        ragged(
            ["Stok Kodu;Ürün Adı;Birim Fiyat;Stok Miktarı", "KD-1;Şanzıman yağı ÇĞİÖŞÜ;1.250,5;4", "KD-2;Balata;9,9"]
        ),
        {"oem": None, "own": "KD-1", "name": "Şanzıman yağı ÇĞİÖŞÜ", "price": Decimal("1250.50"), "stock": 4},
    ),
    "comma-with-quoted-commas": (
        csv_bytes(
            [["Part No", "Name", "Price"], ["0986452041", "Filter, oil", "12.50"], ["W71930", "Filter, air", "9.9"]],
            delimiter=",",
            encoding="utf-8",
        ),
        {"oem": "0986452041", "own": None, "name": "Filter, oil", "price": Decimal("12.50"), "stock": None},
    ),
    "tab": (
        ragged(["OEM\tAçıklama\tFiyat\tAdet", "7701208265\tFren balatası, ön\t1.250,50\t2", "8200768913\tDisk"]),
        {"oem": "7701208265", "own": None, "name": "Fren balatası, ön", "price": Decimal("1250.50"), "stock": 2},
    ),
    "logo": (
        ragged(
            [
                "Malzeme Listesi;;;;;",
                "",
                "Malzeme Kodu;Malzeme Açıklaması;Birim;Fiili Stok;Satış Fiyatı;Döviz Türü",
                "M.0001;Polen filtresi;ADET;12,00;1.250,50;TL",
                "M.0002;Silecek süpürgesi;ADET;0;85,5;TL",
            ]
        ),
        {"oem": None, "own": "M.0001", "name": "Polen filtresi", "price": Decimal("1250.50"), "stock": 12},
    ),
    "netsis": (
        ragged(
            [
                "STOK_KODU;STOK_ADI;GRUP_KODU;OLCU_BR1;SATIS_FIAT1;BAKIYE",
                "0 986 452 041;YAG FILTRESI;FLT;AD;245,00;7",
                "F 026 400 007;HAVA FILTRESI;FLT;AD;310,75",
            ]
        ),
        {"oem": None, "own": "0 986 452 041", "name": "YAG FILTRESI", "price": Decimal("245.00"), "stock": 7},
    ),
    "mikro": (
        ragged(
            [
                "Stok Kodu;Stok İsmi;Birim;Fiyat;Miktar;Üretici Kodu",
                "152.01.001;Amortisör ön sağ;Adet;2.450,00;2;313 456",
                "152.01.002;Amortisör ön sol;Adet;2.450,00",
            ]
        ),
        {"oem": None, "own": "152.01.001", "name": "Amortisör ön sağ", "price": Decimal("2450.00"), "stock": 2},
    ),
}


@pytest.mark.parametrize("export", EXPORTS.values(), ids=EXPORTS.keys())
def test_exports_of_excel_and_turkish_stock_programs_are_read_as_written(client, dealer, export):
    data, expected = export

    done = import_list(client, data)

    assert done["status"] == "done" and done["rowsFailed"] == 0, done
    assert first_item(done["id"]) == expected


NOT_LISTS = {
    "pipes": ragged(["Stok Kodu|Stok Adı|Fiyat", "KD-1|Filtre|12,50", "KD-2|Balata|9,90"]),
    "a-letter": ragged(["Sayın yetkili,", "Fiyat listemiz ektedir; iyi çalışmalar.", "Saygılarımızla, Raf Oto"]),
    "prices-only": ragged(["Ürün Adı;Fiyat;Stok", "Yağ filtresi;12,50;3", "Balata;1.250;12"]),
}


@pytest.mark.parametrize("data", NOT_LISTS.values(), ids=NOT_LISTS.keys())
def test_a_file_without_a_column_of_part_numbers_is_refused_at_the_preview(client, dealer, data):
    refused = upload(client, data)

    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["error"] == {
        "code": "no_part_numbers",
        "message": (
            "Bu listenin hiçbir sütununda parça numarası (OEM numarası veya kendi kodunuz) yok. Listenin ';' veya ',' "
            "ile ayrılmış CSV ya da .xlsx olarak, her satırda bir parça olacak şekilde kaydedildiğini kontrol edin."
        ),
    }
    assert client.get("/api/shelf/imports").get_json()["items"] == []
