"""An XLSX list is read within bounded memory: a workbook packed with short shared strings (the 2 MB file holding
1,000,000 of them) is previewed through HTTP and read whole with a peak under 300 MB more than before, measured in a
process of its own; past the limits on strings (the 5 MB file of 2,000,000 that once grew a process by 351 MB) or
cells, a workbook is refused in Turkish before it is read."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

from app.shelf import xlsx
from tests.shelf.conftest import upload, xlsx_bytes

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
PEAK_GROWTH_MB = 300


def packed_with_strings(count: int, rows: int = 5) -> bytes:
    """A workbook whose shared strings table holds `count` short strings; its sheet uses the first few."""
    strings = "".join(f"<si><t>s{n}</t></si>" for n in range(count))
    cells = "".join(
        f'<row r="{n + 1}"><c r="A{n + 1}" t="s"><v>{n}</v></c><c r="B{n + 1}"><v>{n}</v></c></row>'
        for n in range(rows)
    )
    parts = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships'
        '+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PACKAGE_RELS}"><Relationship Id="rId1" Type="{RELS}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets><sheet name="Liste" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PACKAGE_RELS}"><Relationship Id="rId1" '
        f'Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{RELS}/sharedStrings"'
        ' Target="sharedStrings.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{MAIN}"><sheetData>{cells}</sheetData></worksheet>',
        "xl/sharedStrings.xml": f'<sst xmlns="{MAIN}" count="{count}" uniqueCount="{count}">{strings}</sst>',
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


MEASURE = """
import resource, sys
import python_calamine
from app import create_app
from app.shelf import reading
data = open(sys.argv[1], "rb").read()
app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://", "LOG_LEVEL": "WARNING"})
with app.test_request_context():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    shown = reading.preview(data, "xlsx")
    rows = sum(1 for _row in reading.read_rows(data, "xlsx"))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(shown.rows[0][0], rows, grown // 1024)
"""


def test_a_2_mb_workbook_of_1_000_000_strings_is_read_with_bounded_memory(client, dealer, tmp_path: Path):
    data = packed_with_strings(1_000_000)
    assert len(data) < 3 * 1024 * 1024
    (tmp_path / "liste.xlsx").write_bytes(data)

    preview = upload(client, data, "liste.xlsx")
    measured = subprocess.run(  # noqa: S603 - the test's own command line
        [sys.executable, "-c", MEASURE, str(tmp_path / "liste.xlsx")],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )

    assert preview.status_code == 201, preview.get_json()
    assert preview.get_json()["rows"][0] == ["s0", "0"]
    first, rows, grown_mb = measured.stdout.split()
    assert (first, rows) == ("s0", "5")
    assert int(grown_mb) < PEAK_GROWTH_MB, f"peak RSS grew by {grown_mb} MB"


def test_the_5_mb_workbook_of_2_000_000_strings_is_refused_before_it_is_read(client, dealer):
    refused = upload(client, packed_with_strings(2_000_000), "liste.xlsx")

    assert refused.status_code == 422
    assert refused.get_json()["error"] == {
        "code": "xlsx_too_large",
        "message": "Bu Excel dosyasında çok fazla metin var (en fazla 1.500.000): listeyi CSV olarak kaydedin.",
    }


def test_a_workbook_with_more_strings_than_the_limit_is_refused_before_it_is_read(client, dealer, monkeypatch):
    monkeypatch.setattr(xlsx, "MAX_SHARED_STRINGS", 1000)

    refused = upload(client, packed_with_strings(1001), "liste.xlsx")

    assert refused.status_code == 422
    assert refused.get_json()["error"] == {
        "code": "xlsx_too_large",
        "message": "Bu Excel dosyasında çok fazla metin var (en fazla 1.000): listeyi CSV olarak kaydedin.",
    }
    assert client.get("/api/shelf/imports").get_json()["items"] == []


def test_a_sheet_spanning_more_cells_than_the_limit_is_refused(client, dealer, monkeypatch):
    monkeypatch.setattr(xlsx, "MAX_CELLS", 100)

    refused = upload(client, xlsx_bytes([["OEM", "Fiyat"], *([f"1K0129{n:04d}", "12,50"] for n in range(60))]))

    assert refused.status_code == 422
    assert refused.get_json()["error"]["message"] == (
        "Bu Excel listesinde çok fazla hücre var (en fazla 100): listeyi CSV olarak kaydedin."
    )


def test_the_preview_reads_only_the_first_rows_of_a_large_sheet(client, dealer, monkeypatch):
    read = []
    calamine_rows = xlsx._calamine_rows
    monkeypatch.setattr(xlsx, "_calamine_rows", lambda source: read.append(len(source)) or calamine_rows(source))
    data = xlsx_bytes([["Stok Kodu", "Fiyat"], *([f"KD-{n:05d}", n] for n in range(5000))])

    preview = upload(client, data, "liste.xlsx")

    assert preview.status_code == 201 and preview.get_json()["rowsTotal"] == 5000
    assert preview.get_json()["rows"][-1] == [f"KD-{19:05d}", "19"]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        whole_sheet = archive.getinfo("xl/worksheets/sheet1.xml").file_size
    assert read and read[0] < whole_sheet / 10  # the copy cut after the first rows, not the sheet
