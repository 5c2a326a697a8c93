"""Photographed barcodes (turned up to 20 degrees, a slant, blur, noise, low light, 12 MP JPEG) through the real
readers: nearly all read, and never a wrong VIN first. The 200-photo set and the timings are bench/scan.py's."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from app.vehicles.scan import reader
from app.vehicles.scan.candidates import candidates
from tests.support.scan_images import BARCODE_KINDS, SANDBOX_VINS, photo_set, require_tesseract, ruhsat_image

# Every sandbox VIN in every format at least once (5 x 4 = 20), and a few more.
PHOTOS = 24
READ_AT_LEAST = 22  # the 95 %, as whole photos of this small set


@pytest.fixture(scope="module")
def photos():
    return photo_set(PHOTOS)


def _first(data: bytes) -> str | None:
    reading = reader.read(data, lambda reads: bool(candidates(reads)))
    found = candidates(reading.reads)
    return found[0].vin if found else None


def test_the_set_covers_every_vin_in_every_format(photos):
    assert {(photo.vin, photo.kind) for photo in photos} == {(v, k) for v in SANDBOX_VINS for k in BARCODE_KINDS}
    assert all(len(photo.jpeg) < reader.MAX_BYTES for photo in photos)


def test_photographed_barcodes_are_read_and_no_wrong_vin_comes_first(photos):
    firsts = [(photo, _first(photo.jpeg)) for photo in photos]

    wrong = [(photo.vin, photo.kind, first) for photo, first in firsts if first not in (None, photo.vin)]
    assert wrong == []
    unread = [(photo.vin, photo.kind) for photo, first in firsts if first is None]
    assert len(photos) - len(unread) >= READ_AT_LEAST, unread


def test_a_ruhsat_photo_as_a_12_mp_jpeg_gives_its_vin_first():
    require_tesseract()
    page = Image.open(BytesIO(ruhsat_image("VF1RFB00X56100002", "K9KA764D012345678")))
    photo = BytesIO()
    page.resize((4000, 2444)).save(photo, "JPEG", quality=85)

    assert _first(photo.getvalue()) == "VF1RFB00X56100002"
