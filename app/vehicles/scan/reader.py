"""Reading an uploaded photo in memory: its limits checked before any pixel is decoded, then barcodes (zxing-cpp),
then text (Tesseract's C API, in this process: text_engine) when no barcode holds a VIN.

The image is never written to disk, never handed to another program and never logged: a ruhsat carries its owner's
name and national id.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import zxingcpp
from flask_babel import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

from app.core.errors import ApiError
from app.vehicles.scan import text_engine
from app.vehicles.scan.candidates import Read, readings

register_heif_opener()
Image.init()  # every plugin registered: Image.open(formats=...) finds only what is registered (WebP is not at first)

MAX_BYTES = 12 * 1024 * 1024
MAX_PIXELS = 40_000_000
# JPEG covers MPO, the JPEG many phones write (a second, smaller picture inside): Pillow opens it as a JPEG.
IMAGE_FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")
BARCODE_FORMATS = (zxingcpp.Code39, zxingcpp.Code128, zxingcpp.DataMatrix, zxingcpp.QRCode)
# The tries at barcodes, cheapest first: (long side the image is brought down to, degrees it is turned, binarizer).
# zxing-cpp turns a code by 90 degrees itself; a 1D code tilted past ~10 degrees needs a turned copy, a small code a
# larger copy, a dim DataMatrix at a slant the global threshold. Measured on generated photos (bench/scan.py).
_LOCAL, _GLOBAL = zxingcpp.Binarizer.LocalAverage, zxingcpp.Binarizer.GlobalHistogram
BARCODE_TRIES = (
    (1400, 0, _LOCAL),
    (2000, 0, _LOCAL),
    (1400, 8, _LOCAL),
    (1400, -8, _LOCAL),
    (1400, 15, _LOCAL),
    (1400, -15, _LOCAL),
    (2000, 8, _LOCAL),
    (2000, -8, _LOCAL),
    (1400, 4, _GLOBAL),
    (1400, -4, _GLOBAL),
)
# Text is read at most this large (about 0.3 s a page on one thread); the English model reads the VIN alphabet and
# the labels are matched loosely (text_engine).
TEXT_SIDE = 1800
# The ruhsat's VIN field: "Şase No", "ŞASE NO", "Şasi No", read by OCR as "Sase N0", "SASI NO:" ...
RUHSAT_LABEL = re.compile(r"[SŞ]\s?A\s?[SŞ]\s?[EIİ]\s*N\s?[O0]\b\W*", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    reads: list[Read]
    text_reading: bool


def too_large() -> ApiError:
    return ApiError(
        "image_too_large", _("The photo is too large: send one of at most %(mb)d MB.", mb=MAX_BYTES // 2**20), 413
    )


def open_image(data: bytes) -> Image.Image:
    """The photo's pixels, upright and grey, or a refusal: too large, too many pixels, not an image, damaged."""
    if len(data) > MAX_BYTES:
        raise too_large()
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=IMAGE_FORMATS)
            _check_pixels(image)
            image.draft("L", _draft_size(image.size))  # JPEG decodes at a smaller scale: faster, less memory
            image.load()
            return ImageOps.exif_transpose(image).convert("L")
        except ApiError:
            raise
        except UnidentifiedImageError:
            raise ApiError(
                "not_an_image", _("This file is not a photo we can read: send a JPEG, PNG, WebP or HEIC image."), 415
            ) from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise _too_many_pixels() from None
        except Exception:  # a decoder fed a crafted file may raise anything: it is the file that is wrong
            raise ApiError("damaged_image", _("The photo is damaged or incomplete: send it again."), 422) from None


def _check_pixels(image: Image.Image) -> None:
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise _too_many_pixels()


def _too_many_pixels() -> ApiError:
    return ApiError(
        "image_too_many_pixels",
        _("The photo has too many pixels: send one of at most %(mp)d megapixels.", mp=MAX_PIXELS // 1_000_000),
        413,
    )


def _draft_size(size: tuple[int, int]) -> tuple[int, int]:
    """The smallest size the largest reading needs (draft keeps at least this much)."""
    width, height = size
    largest = max(TEXT_SIDE, *(side for side, _angle, _binarizer in BARCODE_TRIES))
    scale = min(1.0, largest / max(width, height))
    return max(1, int(width * scale)), max(1, int(height * scale))


def _scaled(image: Image.Image, side: int) -> Image.Image:
    if max(image.size) <= side:
        return image
    scaled = image.copy()
    scaled.thumbnail((side, side), Image.Resampling.BILINEAR)
    return scaled


# --- barcodes ----------------------------------------------------------------------------------------------------


def read_barcodes(image: Image.Image) -> list[Read]:
    """Every Code 39, Code 128, DataMatrix and QR code's text, from the first try (BARCODE_TRIES) that finds one."""
    tried = set()
    for side, angle, binarizer in BARCODE_TRIES:
        copy = _scaled(image, side)
        if (copy.size, angle, binarizer) in tried:
            continue  # a small photo is the same copy at every side
        tried.add((copy.size, angle, binarizer))
        if angle:
            copy = copy.rotate(angle, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=128)
        found = [
            Read(code.text, "barcode", code.format.name)
            for code in zxingcpp.read_barcodes(copy, formats=BARCODE_FORMATS, binarizer=binarizer)
            if code.valid and code.text
        ]
        if found:
            return found
    return []


# --- text --------------------------------------------------------------------------------------------------------


def text_reading_available() -> bool:
    """Whether the text engine loaded (a machine without it still reads barcodes)."""
    return text_engine.engine() is not None


def read_text(image: Image.Image) -> list[Read]:
    """The ruhsat's "Şase No" field (when the photo shows one) and the whole text, as the text engine reads them."""
    text = text_engine.read_text(ImageOps.autocontrast(_scaled(image, TEXT_SIDE), cutoff=1))
    if not text:
        return []
    return [*ruhsat_fields(text), Read(text, "text")]


def ruhsat_fields(text: str) -> list[Read]:
    """What follows each "Şase No" label: the rest of its line, else the next line (the value may sit below)."""
    lines = [line for line in text.splitlines() if line.strip()]
    fields = []
    for index, line in enumerate(lines):
        match = RUHSAT_LABEL.search(line)
        if match:
            value = line[match.end() :]
            if not readings(value) and index + 1 < len(lines):
                value = lines[index + 1]
            fields.append(Read(value, "ruhsat"))
    return fields


# --- the whole reading ---------------------------------------------------------------------------------------------


def read(data: bytes, has_vin: Callable[[list[Read]], bool]) -> Reading:
    """Barcodes first; text only when no barcode gave a VIN (`has_vin` says whether reads hold one)."""
    image = open_image(data)
    reads = read_barcodes(image)
    available = text_reading_available()
    if not has_vin(reads) and available:
        reads += read_text(image)
    return Reading(reads, available)
