"""POST /api/vin/scan through HTTP with real readers: generated barcodes and a rendered ruhsat give the VIN first;
hostile files get a 4xx with a Turkish message (English when asked), never a 5xx, and nothing is stored."""

from __future__ import annotations

import io
import logging
import struct
import zlib

import pytest
import segno
import sqlalchemy as sa
from PIL import Image

from app.extensions import db
from app.sources.sandbox.catalog import VIN_CLIO, VIN_GOLF, VIN_HONDA
from app.vehicles.models import QueryLog, Vehicle, VehiclePick, VinRequest
from tests.conftest import SITE
from tests.support.scan_images import (
    BARCODE_KINDS,
    barcode_image,
    require_text_engine,
    ruhsat_image,
    text_engine_missing,
)

MOTOR_NO = "K9KA764D012345678"  # 17 characters of the VIN alphabet, printed just below the VIN
OWNER_ID = "12345678950"  # the T.C. Kimlik No printed on the rendered ruhsat


BOUNDARY = "scan-boundary-29"


def multipart(data: bytes, filename: str) -> bytes:
    """The body a browser sends (encoded here: the test client would spool a large one to a file it leaves open)."""
    head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    )
    return head.encode() + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def scan(client, data: bytes, filename: str = "photo.jpg", headers: dict | None = None):
    return client.post(
        "/api/vin/scan",
        data=multipart(data, filename),
        headers={**SITE, **(headers or {})},
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def stored_rows() -> tuple[int, ...]:
    return tuple(
        db.session.scalar(sa.select(sa.func.count()).select_from(model))
        for model in (Vehicle, VehiclePick, QueryLog, VinRequest)
    )


# --- reading -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", BARCODE_KINDS)
def test_each_barcode_format_gives_the_vin_first(dealer, client, kind):
    response = scan(client, png(barcode_image(VIN_GOLF, kind)), "label.png")

    assert response.status_code == 200, response.get_json()
    first = response.get_json()["candidates"][0]
    assert first == {
        "vin": VIN_GOLF,
        "source": "barcode",
        "format": kind,
        "corrected": False,
        "knownWmi": True,
        "checkDigit": "not_used",
        "known": False,
    }


def test_a_north_american_vin_says_its_check_digit_holds(dealer, client):
    first = scan(client, png(barcode_image(VIN_HONDA, "QRCode"))).get_json()["candidates"][0]
    assert (first["vin"], first["checkDigit"]) == (VIN_HONDA, "valid")


def test_a_vin_the_catalog_stores_is_marked_known(dealer, client, decode_vin, upstreams):
    assert decode_vin(VIN_GOLF).status_code == 200

    first = scan(client, png(barcode_image(VIN_GOLF, "DataMatrix"))).get_json()["candidates"][0]

    assert (first["vin"], first["known"]) == (VIN_GOLF, True)


# (the barcode's VIN, a stored VIN one OCR confusion from it): a European one (Z read as 2) and a North American one
# whose check digit holds (8 read as B).
ONE_CONFUSION_AWAY = [(VIN_GOLF, "WVWZZZAU2HW100001"), (VIN_HONDA, "1HGCMB2633A004352")]


@pytest.mark.parametrize(("vin", "stored"), ONE_CONFUSION_AWAY)
@pytest.mark.parametrize("kind", ["Code39", "DataMatrix"])
def test_an_exact_barcode_read_comes_before_a_stored_vin_one_confusion_away(dealer, client, vin, stored, kind):
    db.session.add(Vehicle(vin=stored, brand_name="Sandbox", model="Another car", source="portal"))
    db.session.flush()

    found = scan(client, png(barcode_image(vin, kind))).get_json()["candidates"]

    assert (found[0]["vin"], found[0]["source"], found[0]["corrected"]) == (vin, "barcode", False)
    assert found[0]["checkDigit"] != "invalid"
    assert {"vin": stored, "known": True, "corrected": True}.items() <= found[1].items()


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_the_ruhsat_gives_the_vin_of_its_sase_no_field_first(dealer, client, fmt, caplog):
    require_text_engine()
    caplog.set_level(logging.DEBUG)
    response = scan(client, ruhsat_image(VIN_CLIO, MOTOR_NO, fmt), f"ruhsat.{fmt.lower()}")

    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer["textReading"] is True
    assert answer["candidates"][0]["vin"] == VIN_CLIO
    assert answer["candidates"][0]["source"] == "ruhsat"
    assert MOTOR_NO not in [candidate["vin"] for candidate in answer["candidates"][:1]]
    # The owner's name and national id were read with the rest: nothing of the document reaches the logs.
    assert not [
        record for record in caplog.records if "YILMAZ" in record.getMessage() or OWNER_ID in record.getMessage()
    ]


def test_a_heic_photo_is_read(dealer, client):
    buffer = io.BytesIO()
    barcode_image(VIN_GOLF, "QRCode").convert("RGB").save(buffer, "HEIF", quality=90)

    response = scan(client, buffer.getvalue(), "IMG_0001.HEIC")

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["candidates"][0]["vin"] == VIN_GOLF


def test_a_phone_jpeg_with_a_second_picture_inside_is_read(dealer, client):
    """Many phones write MPO: a JPEG holding a second, smaller picture. Pillow names its format MPO, not JPEG."""
    image = barcode_image(VIN_GOLF, "DataMatrix").convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, "MPO", save_all=True, append_images=[image.resize((100, 100))])

    response = scan(client, buffer.getvalue())

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["candidates"][0]["vin"] == VIN_GOLF


def test_a_sideways_photo_is_turned_upright_by_its_exif(dealer, client):
    image = barcode_image(VIN_GOLF, "Code128").rotate(90, expand=True).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90 clockwise to view
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif, quality=95)

    assert scan(client, buffer.getvalue()).get_json()["candidates"][0]["vin"] == VIN_GOLF


def test_without_the_text_engine_barcodes_are_still_read_and_the_answer_says_text_is_off(dealer, client):
    with text_engine_missing():
        answer = scan(client, png(barcode_image(VIN_GOLF, "QRCode"))).get_json()
        refused = scan(client, png(Image.new("L", (640, 480), 255)))

    assert answer["textReading"] is False
    assert answer["candidates"][0]["vin"] == VIN_GOLF
    assert "metin okuma" in answer["notice"].lower()
    assert refused.status_code == 422
    assert "kapalı" in refused.get_json()["error"]["message"]


# --- hostile files ---------------------------------------------------------------------------------------------------


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` x `height` pixels and holds one compressed row: the size of a bomb, not its bytes."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * (width + 1)))


def truncated_jpeg() -> bytes:
    buffer = io.BytesIO()
    barcode_image(VIN_GOLF, "QRCode").convert("RGB").save(buffer, "JPEG", quality=95)
    return buffer.getvalue()[: len(buffer.getvalue()) // 2]


def qr_of(text: str) -> bytes:
    buffer = io.BytesIO()
    segno.make_qr(text).save(buffer, kind="png", scale=8, border=4)
    return buffer.getvalue()


HOSTILE = {
    "not_an_image": (b"%PDF-1.7\n" + b"not a photo " * 100, 415, "not_an_image"),
    "over_12_mb": (b"\xff\xd8\xff\xe0" + b"\0" * (13 * 1024 * 1024), 413, "image_too_large"),
    "50_megapixels": (png_header(10_000, 5_000), 413, "image_too_many_pixels"),
    "decompression_bomb": (png_header(20_000, 20_000), 413, "image_too_many_pixels"),
    "truncated_jpeg": (truncated_jpeg(), 422, "damaged_image"),
    "no_vin": (png(Image.new("L", (800, 600), 200)), 422, "no_vin_found"),
    # 17 characters of the VIN alphabet that break its rules: no serial digits; a US check digit that fails.
    "vin_like_words": (qr_of("ARACTESCILBELGESI"), 422, "no_vin_found"),
    "failing_check_digit": (qr_of("4XYZW12345A678901"), 422, "no_vin_found"),
    "empty": (b"", 400, "missing_image"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_in_turkish_and_nothing_is_stored(dealer, client, name):
    data, status, code = HOSTILE[name]
    before = stored_rows()

    response = scan(client, data)

    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == code
    assert any(letter in error["message"] for letter in "çğıöşüÇĞİÖŞÜ"), error["message"]
    assert stored_rows() == before


def test_refusals_answer_in_english_when_asked(dealer, client):
    response = scan(client, HOSTILE["over_12_mb"][0], headers={"Accept-Language": "en"})
    assert response.status_code == 413
    assert response.get_json()["error"]["message"] == "The photo is too large: send one of at most 12 MB."
    no_vin = scan(client, HOSTILE["no_vin"][0], headers={"Accept-Language": "en"})
    assert no_vin.get_json()["error"]["message"].startswith("No VIN")


# --- the request around the photo ----------------------------------------------------------------------------------


def test_signed_out_callers_are_refused(client):
    response = scan(client, png(barcode_image(VIN_GOLF, "QRCode")))
    assert response.status_code == 401


def test_a_cross_site_upload_is_refused(dealer, client):
    response = scan(client, png(barcode_image(VIN_GOLF, "QRCode")), headers={"Origin": "https://evil.example"})
    assert (response.status_code, response.get_json()["error"]["code"]) == (403, "csrf_failed")


def test_a_json_body_is_not_a_photo(dealer, client):
    response = client.post("/api/vin/scan", json={"image": "x"}, headers=SITE)
    assert response.status_code == 415


def test_the_upload_stays_in_memory(dealer, client, monkeypatch):
    """Werkzeug spools an upload over 500 KB to a temporary file; a photo of a ruhsat must never reach the disk."""
    import werkzeug.formparser

    def no_disk(*_args, **_kwargs):
        raise AssertionError("the upload was spooled to a temporary file")

    monkeypatch.setattr(werkzeug.formparser, "SpooledTemporaryFile", no_disk)
    large = barcode_image(VIN_GOLF, "QRCode").resize((1800, 1800)).convert("RGB")
    buffer = io.BytesIO()
    large.save(buffer, "PNG", compress_level=0)
    assert len(buffer.getvalue()) > 1024 * 1024

    assert scan(client, buffer.getvalue(), "big.png").status_code == 200


def test_scanning_is_rate_limited_per_user(app, dealer, client, monkeypatch):
    monkeypatch.setitem(app.config, "VIN_SCAN_RATE_LIMIT", "2 per minute")
    photo = png(barcode_image(VIN_GOLF, "QRCode"))

    statuses = [scan(client, photo).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("tr", "yalnızca bellekte işlenir"), ("en", "processed in memory only")],
)
def test_the_privacy_page_says_scan_photos_are_never_stored(client, lang, said):
    assert said in client.get(f"/privacy?lang={lang}").get_data(as_text=True)
