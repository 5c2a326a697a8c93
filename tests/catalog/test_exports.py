"""A leaf's parts list to take away, through HTTP: the CSV file for Excel (separator, byte order mark, header in the
request's language, file name, formula cells defused), the print page, the links on the leaf, and who may have them."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

import pytest
import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.catalog.parts_list import download_names, safe_cell
from app.core.i18n import LOCALE_COOKIE
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import Vehicle
from tests.catalog.test_categories import first_leaf, get, run_prefetch
from tests.catalog.test_pages import main_area, page, text_of
from tests.demo.conftest import golf  # noqa: F401 - the demo vehicle, for the demo's page
from tests.support.markup import elements, the

TURKISH_HEADER = ["Pozisyon", "OEM numarası", "Parça", "Adet", "Açıklama", "Mevcut", "Referans şema"]


def csv_url(vehicle_id: int, category_id: int) -> str:
    return f"/vehicles/{vehicle_id}/categories/{category_id}/parts.csv"


def print_url(vehicle_id: int, category_id: int) -> str:
    return f"/vehicles/{vehicle_id}/categories/{category_id}/print"


def csv_rows(client, url: str, headers: dict | None = None) -> list[list[str]]:
    response = client.get(url, headers=headers or {})
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.content_type == "text/csv; charset=utf-8"
    assert response.data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a byte order mark, as Excel needs
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"), newline=""), delimiter=";"))


def url_for_login(path: str) -> str:
    return f"/login?next={path}"


def leaf_id_with_a_reference(bmw: int) -> tuple[int, Part]:
    run_prefetch(bmw)
    reference = db.session.scalars(
        sa.select(Part).where(Part.vehicle_id == bmw, Part.reference_code.is_not(None))
    ).first()
    return reference.category_id, reference


# --- the CSV ------------------------------------------------------------------------------------------------------


def test_the_csv_lists_the_leafs_parts_as_its_table_does(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    header, *rows = csv_rows(client, csv_url(bmw, leaf["category"]["id"]))

    with_models = any(part["modelCodes"] for part in leaf["parts"])
    assert header == TURKISH_HEADER + (["Model kodları"] if with_models else []) + ["Araca uyum"]
    assert len(rows) == len(leaf["parts"])
    for row, part in zip(rows, leaf["parts"], strict=True):
        assert row[:3] == [part["position"] or "", part["oemCode"], part["label"]]
        assert row[3] == ("" if part["quantity"] is None else str(part["quantity"]))
        assert row[4:6] == [part["remark"] or "", "Hayır" if part["unavailable"] else "Evet"]
    assert {row[5] for row in rows} == {"Evet", "Hayır"}  # the sandbox leaf has an unavailable row
    assert {"1", "2"} <= {row[3] for row in rows}  # mostly counts, a bare number each (Excel adds them up)


def test_a_reference_row_names_its_picture_and_has_no_code(client, bmw, upstreams):
    category_id, reference = leaf_id_with_a_reference(bmw)

    _header, *rows = csv_rows(client, csv_url(bmw, category_id))

    row = next(row for row in rows if row[6])
    assert row[6] == reference.reference_code and row[1] == "" and row[3] == "" and row[4] == ""
    assert row[2] == reference.label


def test_the_header_and_answers_follow_the_requests_language(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    client.set_cookie(LOCALE_COOKIE, "en")  # the language switch's choice
    header, *rows = csv_rows(client, csv_url(bmw, leaf["category"]["id"]))

    assert header[:7] == ["Position", "OEM code", "Part", "Quantity", "Remark", "Available", "Reference picture"]
    assert {row[5] for row in rows} == {"Yes", "No"}


def test_the_file_is_named_after_the_vehicle_and_the_category(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    category = db.session.get(Category, leaf["category"]["id"])
    category.name = category.name_tr = "Şanzıman / İç yağ: {110-010}"
    category.illustration_code = "110-010"
    db.session.commit()

    response = client.get(csv_url(bmw, category.id))

    name, ascii_name = download_names(db.session.get(Vehicle, bmw).title, "Şanzıman / İç yağ:", "110-010")
    assert name.endswith("_Şanzıman_İç_yağ_110-010.csv") and ascii_name.endswith("_Sanziman_Ic_yag_110-010.csv")
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename={ascii_name}; filename*=UTF-8''{quote(name, safe='!#$&+-.^_`|~')}"
    )


def test_download_names_keep_words_and_drop_what_a_file_name_cannot_hold():
    assert download_names("BMW 3er", 'a/b\\c:d*e?"f<g>h|i', None) == ("BMW_3er_a_b_c_d_e_f_g_h_i.csv",) * 2
    assert download_names("", "  ", None) == ("parts.csv", "parts.csv")
    assert download_names("..", "ĞÜŞİÖÇ ğüşıöç") == ("ĞÜŞİÖÇ_ğüşıöç.csv", "GUSIOC_gusioc.csv")


def test_cells_excel_would_run_as_formulas_are_defused(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    first, second = [db.session.get(Part, part["id"]) for part in leaf["parts"] if part["reference"] is None][:2]
    first.remark, first.label, first.oem_code = '=HYPERLINK("http://x.example";"a")', "+SUM(1;2)", "@cmd"
    second.remark, second.label, second.oem_code = "\tTAB", "\rCR", "-2+3"
    db.session.commit()

    _header, *rows = csv_rows(client, csv_url(bmw, leaf["category"]["id"]))

    by_code = {row[1]: row for row in rows}
    assert [by_code["'@cmd"][2], by_code["'@cmd"][4]] == ["'+SUM(1;2)", '\'=HYPERLINK("http://x.example";"a")']
    assert [by_code["'-2+3"][2], by_code["'-2+3"][4]] == ["'\rCR", "'\tTAB"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"), ("\t1", "'\t1"), ("\r1", "'\r1"),
     ("1K0-129", "1K0-129"), ("", ""), (" =1", " =1")],
)  # fmt: skip
def test_safe_cell(value, expected):
    assert safe_cell(value) == expected


def test_a_leaf_whose_parts_cannot_be_loaded_is_refused_with_503(client, bmw, upstreams):
    node = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    while not node["leaf"]:  # down to a leaf whose parts were never fetched
        children = get(client, f"/api/vehicles/{bmw}/categories/{node['id']}")["children"]
        node = next((child for child in children if child["leaf"]), children[0])
    upstreams.portal.faults.error_rate = 1.0

    for url in (csv_url(bmw, node["id"]), print_url(bmw, node["id"])):
        response = client.get(url)
        assert response.status_code == 503
        assert "şu anda katalogdan yüklenemedi" in response.get_data(as_text=True)


# --- who may have them --------------------------------------------------------------------------------------------


def test_a_plan_without_the_brand_gets_neither(client, bmw, create_user, make_subscription, sign_in, upstreams):
    leaf = first_leaf(client, bmw)
    other = create_user()
    make_subscription(other, "active", plan_key="single")
    sign_in(other.email)

    for url in (csv_url(bmw, leaf["category"]["id"]), print_url(bmw, leaf["category"]["id"])):
        html = page(client, url, status=403)
        assert "Bu marka planınıza dahil değil." in html and leaf["parts"][0]["label"] not in html


def test_signed_out_is_sent_to_sign_in(app, client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    for url in (csv_url(bmw, leaf["category"]["id"]), print_url(bmw, leaf["category"]["id"])):
        response = app.test_client().get(url)
        assert response.status_code == 302  # the site's answer to a page without a session
        assert response.headers["Location"] == url_for_login(url)


@pytest.mark.parametrize("case", ["group", "unknown_category", "other_vehicles_category", "unknown_vehicle"])
@pytest.mark.parametrize("export", [csv_url, print_url])
def test_what_is_no_leaf_of_the_vehicle_is_not_found(client, bmw, decode_vin, upstreams, case, export):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    golf_id = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    vehicle_id, category_id = {
        "group": (bmw, motor["id"]),
        "unknown_category": (bmw, 999999),
        "other_vehicles_category": (golf_id, motor["id"]),
        "unknown_vehicle": (999999, motor["id"]),
    }[case]

    response = client.get(export(vehicle_id, category_id))

    assert response.status_code == 404
    assert response.content_type.startswith("text/html")
    if case == "group":
        assert "Bu grubun kendi parça listesi yok" in response.get_data(as_text=True)


# --- the print page -----------------------------------------------------------------------------------------------


def test_the_print_page_shows_the_vehicle_the_path_the_picture_and_the_parts(client, dealer, decode_vin, upstreams):
    golf_id = decode_vin(VIN_GOLF).get_json()["vehicle"]["id"]
    leaf = first_leaf(client, golf_id)
    vehicle = db.session.get(Vehicle, golf_id)
    schema, category_id = leaf["schema"], leaf["category"]["id"]

    html = page(client, print_url(golf_id, category_id))

    text = text_of(html)
    assert vehicle.vin in text and vehicle.title in text
    for ancestor in leaf["ancestors"]:
        assert ancestor["name"] in text
    assert the(html, "img.print-schema-image")["src"] == schema["imageUrl"]
    positions = {part["position"] for part in leaf["parts"]}
    assert html.count("<rect ") == len([spot for spot in schema["hotspots"] if spot["position"] in positions])
    assert len(re.findall(r'<tr class="print-row', html)) == len(leaf["parts"])
    assert re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', html)[2:5] == ["Parça", "Adet", "Açıklama"]
    quantities = re.findall(r'<td class="print-quantity">([^<]*)</td>', html)
    assert quantities == ["" if part["quantity"] is None else str(part["quantity"]) for part in leaf["parts"]]
    for part in leaf["parts"]:
        assert part["oemCode"] in html
    assert f'href="/vehicles/{golf_id}/categories/{category_id}"' in html  # back to the leaf
    button = the(html, "button.print-button")
    assert (button["type"], button.get_text(strip=True)) == ("button", "Yazdır")
    assert button.has_attr("data-print") and button.has_attr("hidden")  # shown by print.js
    [script] = elements(html, "script")
    assert script["src"] == "/static/js/print.js" and script.has_attr("defer") and not script.string
    assert the(html, "link[rel=stylesheet]")["href"] == "/static/css/print.css" and "style=" not in html
    assert html.startswith("<!doctype html>") and "site-header" not in html  # a page of its own, no site around it


def test_the_print_page_is_dated_in_istanbul_time(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    html = page(client, print_url(bmw, leaf["category"]["id"]))

    stamp = re.search(r'<time datetime="([^"]+)">Yazdırılma tarihi: ([^<]+)</time>', html)
    assert stamp, html[:3000]
    printed = datetime.fromisoformat(stamp.group(1))
    assert printed.utcoffset() == timedelta(hours=3)
    assert abs(printed - datetime.now(UTC)) < timedelta(minutes=2)
    assert f"{printed:%H:%M}" in stamp.group(2) and str(printed.year) in stamp.group(2)


def test_the_print_page_speaks_english_when_asked(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)

    client.set_cookie(LOCALE_COOKIE, "en")  # the language switch's choice
    html = page(client, print_url(bmw, leaf["category"]["id"]))

    assert '<html lang="en">' in html and "Printed on " in html and ">Print</button>" in html
    assert "Back to the catalog" in html and ">OEM code</th>" in html and ">Qty.</th>" in html


# --- the links on the leaf ----------------------------------------------------------------------------------------


def test_a_leaf_links_its_csv_and_print_page_and_a_group_does_not(client, bmw, upstreams):
    leaf = first_leaf(client, bmw)
    leaf_id, parent_id = leaf["category"]["id"], leaf["ancestors"][-1]["id"]

    main = main_area(page(client, f"/vehicles/{bmw}/categories/{leaf_id}"))
    group = main_area(page(client, f"/vehicles/{bmw}/categories/{parent_id}"))

    csv_link, print_link = elements(main, "a.leaf-action:not(.leaf-quote)")
    assert (csv_link["href"], csv_link.get_text(strip=True)) == (csv_url(bmw, leaf_id), "CSV olarak indir")
    assert csv_link.has_attr("download")
    assert (print_link["href"], print_link.get_text(strip=True)) == (print_url(bmw, leaf_id), "Yazdır")
    assert not print_link.has_attr("download")
    assert "leaf-actions" not in group


def test_the_demo_offers_neither(client, golf):  # noqa: F811
    main = main_area(page(client, f"/demo/categories/{golf.leaf}"))

    assert 'class="parts-table"' in main
    assert "leaf-actions" not in main and "parts.csv" not in main and "/print" not in main
