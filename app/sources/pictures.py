"""Schema pictures as upstream web pages show them: an image with an HTML image map (`<img usemap>` and `<map>` of
`<area>`s), or an image with a list of hotspot boxes in data attributes; and the capped download of the image.

Upstream markup is not trusted. A picture needs an http(s) address and a plausible size in its `width` and `height`
attributes, else the page has none. An area with unreadable coordinates, a shape that cannot be boxed, no position or
nothing on the picture is skipped; a box that overshoots the picture is clipped to it. A download stops past
MAX_IMAGE_BYTES and must open as a raster image of plausible size, else it is refused (`ImageRefusedError`).
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
from bs4 import Tag
from PIL import Image

MAX_SIDE = 8_000  # px: larger than any parts drawing, and small enough that Pillow never suspects a bomb
MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_HOTSPOTS = 1_000  # areas past these are not read
MAX_POSITION_LENGTH = 20  # what the stored hotspot's position holds
MAX_URL_LENGTH = 1_000  # what the stored picture's source address holds
RASTER_FORMATS = frozenset({"PNG", "JPEG", "GIF", "WEBP"})
CHUNK_BYTES = 64 * 1024
SEPARATORS = re.compile(r"[\s,]+")

Box = tuple[float, float, float, float]


class ImageRefusedError(Exception):
    """The upstream answered for a picture, but with no usable image (not there, not an image, too big)."""


@dataclass(frozen=True)
class HotspotBox:
    position: str
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True)
class SchemaImage:
    """A picture a page names: its absolute address, its size in pixels and its hotspots in that size."""

    url: str
    width: int
    height: int
    hotspots: tuple[HotspotBox, ...]


# --- reading pages -------------------------------------------------------------------------------------------------


def from_image_map(container: Tag, page_url: str) -> SchemaImage | None:
    """The `<img usemap>` in `container` with the areas of its `<map>` as hotspots (position in `alt`, else `title`);
    None when there is no usable picture. A picture whose map is missing has no hotspots."""
    image = container.find("img", usemap=True)
    if not isinstance(image, Tag):
        return None
    name = _text(image.get("usemap")).removeprefix("#")
    area_map = container.find("map", attrs={"name": name}) if name else None
    areas = area_map.find_all("area", limit=MAX_HOTSPOTS) if isinstance(area_map, Tag) else []
    return _schema_image(image, page_url, ((_area_position(area), _area_box(area)) for area in areas))


def from_coordinate_list(container: Tag, page_url: str) -> SchemaImage | None:
    """The first `<img>` in `container` with its elements carrying `data-pos`, `data-x`, `data-y`, `data-w` and
    `data-h` as hotspots; None when there is no usable picture."""
    image = container.find("img")
    if not isinstance(image, Tag):
        return None
    items = container.find_all(attrs={"data-pos": True}, limit=MAX_HOTSPOTS)
    return _schema_image(image, page_url, ((_text(item.get("data-pos")), _sized_box(item)) for item in items))


def _schema_image(image: Tag, page_url: str, boxes: Iterable[tuple[str, Box | None]]) -> SchemaImage | None:
    url = _image_url(_text(image.get("src")), page_url)
    width, height = _side(image.get("width")), _side(image.get("height"))
    if url is None or width is None or height is None:
        return None
    spots = (_hotspot(position, box, width, height) for position, box in boxes)
    return SchemaImage(url, width, height, tuple(spot for spot in spots if spot is not None))


def _image_url(src: str, page_url: str) -> str | None:
    url = urljoin(page_url, src) if src else ""
    return url if urlsplit(url).scheme in ("http", "https") and len(url) <= MAX_URL_LENGTH else None


def _side(value: Any) -> int | None:
    number = _number(value)
    return int(number) if number is not None and 1 <= number <= MAX_SIDE else None


def _area_position(area: Tag) -> str:
    return _text(area.get("alt")) or _text(area.get("title"))


def _area_box(area: Tag) -> Box | None:
    """The bounding box of an area's shape (rect, circle or poly, as browsers read `coords`)."""
    numbers = _numbers(_text(area.get("coords")))
    shape = _text(area.get("shape")).lower() or "rect"
    if numbers is None:
        return None
    if shape in ("rect", "rectangle") and len(numbers) == 4:
        left, top, right, bottom = numbers
        return min(left, right), min(top, bottom), max(left, right), max(top, bottom)
    if shape in ("circle", "circ") and len(numbers) == 3 and numbers[2] > 0:
        x, y, radius = numbers
        return x - radius, y - radius, x + radius, y + radius
    if shape in ("poly", "polygon") and len(numbers) >= 6 and len(numbers) % 2 == 0:
        xs, ys = numbers[0::2], numbers[1::2]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def _sized_box(item: Tag) -> Box | None:
    x, y, width, height = (_number(item.get(f"data-{key}")) for key in "xywh")
    if x is None or y is None or width is None or height is None or width <= 0 or height <= 0:
        return None
    return x, y, x + width, y + height


def _hotspot(position: str, box: Box | None, width: int, height: int) -> HotspotBox | None:
    """The box clipped to the picture; None without a position that fits, or when nothing of it is on the picture."""
    if box is None or not position or len(position) > MAX_POSITION_LENGTH:
        return None
    x1, y1 = max(math.floor(box[0]), 0), max(math.floor(box[1]), 0)
    x2, y2 = min(math.ceil(box[2]), width), min(math.ceil(box[3]), height)
    return HotspotBox(position, x1, y1, x2, y2) if x1 < x2 and y1 < y2 else None


def _numbers(text: str) -> list[float] | None:
    """Every comma- or space-separated number of `text`; None when any of them is not a finite number."""
    parts = SEPARATORS.split(text.strip())
    numbers = [number for number in map(_number, parts) if number is not None]
    return numbers if len(numbers) == len(parts) else None


def _number(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        number = float(value.strip())
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


# --- downloading ---------------------------------------------------------------------------------------------------


def read_image(response: requests.Response) -> bytes:
    """The body of a streamed image answer; refused unless it is a 2xx raster image within the size limits (reading
    the body may still raise `requests.RequestException`)."""
    if not response.ok:
        raise ImageRefusedError(f"image: HTTP {response.status_code}")
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > MAX_IMAGE_BYTES:
        raise ImageRefusedError(f"image of {declared} bytes")
    data = bytearray()
    for chunk in response.iter_content(CHUNK_BYTES):
        data += chunk
        if len(data) > MAX_IMAGE_BYTES:
            raise ImageRefusedError(f"image over {MAX_IMAGE_BYTES} bytes")
    _check_raster(bytes(data))
    return bytes(data)


def _check_raster(data: bytes) -> None:
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind, (width, height) = image.format, image.size
    except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise ImageRefusedError(f"not an image ({type(error).__name__})") from error
    if kind not in RASTER_FORMATS or not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise ImageRefusedError(f"image {kind} of {width}x{height} px refused")
