"""Photographed barcodes (turned up to 20 degrees, a slant, blur, noise, low light) through the real readers: the
issue's generated set of 200, at least 95 % read and never a wrong VIN first. The set is made at 2000 x 1500 from a
scene of the same detail as the 12 MP photos of bench/scan.py (which also times them): a 12 MP JPEG is brought down
to 2000 px by the reader, and making 200 of them would take CI minutes. A few 12 MP photos keep that path tested."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from PIL import Image

from app.vehicles.scan import reader
from app.vehicles.scan.candidates import candidates
from tests.support.scan_images import (
    BARCODE_KINDS,
    SANDBOX_VINS,
    barcode_image,
    photo_set,
    photographed,
    require_text_engine,
    ruhsat_image,
)

PHOTOS = 200
READ_AT_LEAST = 190  # the 95 %
SET_SIZE = (2000, 1500)  # the scene's own pixels (upscale=1): what the reader keeps of a 12 MP photo


@pytest.fixture(scope="module")
def photos():
    return photo_set(PHOTOS, size=SET_SIZE, upscale=1)


def _first(data: bytes) -> str | None:
    reading = reader.read(data, lambda reads: bool(candidates(reads)))
    found = candidates(reading.reads)
    return found[0].vin if found else None


def test_the_set_covers_every_vin_in_every_format(photos):
    assert len(photos) == PHOTOS
    assert {(photo.vin, photo.kind) for photo in photos} == {(v, k) for v in SANDBOX_VINS for k in BARCODE_KINDS}
    assert all(len(photo.jpeg) < reader.MAX_BYTES for photo in photos)


def test_photographed_barcodes_are_read_and_no_wrong_vin_comes_first(photos):
    firsts = [(photo, _first(photo.jpeg)) for photo in photos]

    wrong = [(photo.vin, photo.kind, first) for photo, first in firsts if first not in (None, photo.vin)]
    assert wrong == []
    unread = [(photo.vin, photo.kind) for photo, first in firsts if first is None]
    assert len(photos) - len(unread) >= READ_AT_LEAST, unread


@pytest.mark.parametrize("kind", BARCODE_KINDS)
def test_a_12_mp_photo_of_each_format_gives_its_vin_first(kind):
    photo = photographed(barcode_image(SANDBOX_VINS[0], kind), random.Random(kind))

    assert Image.open(BytesIO(photo)).size == (4000, 3000)
    assert _first(photo) == SANDBOX_VINS[0]


def test_a_ruhsat_photo_as_a_12_mp_jpeg_gives_its_vin_first():
    require_text_engine()
    page = Image.open(BytesIO(ruhsat_image("VF1RFB00X56100002", "K9KA764D012345678")))
    photo = BytesIO()
    page.resize((4000, 2444)).save(photo, "JPEG", quality=85)

    assert _first(photo.getvalue()) == "VF1RFB00X56100002"
