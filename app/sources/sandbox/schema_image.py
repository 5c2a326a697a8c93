"""Schema pictures of the sandbox catalog as real PNGs: a line drawing with numbered callouts at the hotspots.

Pictures are drawn on request (a vehicle has up to ~150) and the last few are kept, so a page that shows one
picture and then its thumbnails does not draw it twice.
"""

from __future__ import annotations

import io
import random
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from app.sources.sandbox.catalog import SchemaPicture, Vehicle, sandbox_catalog

INK = (40, 40, 40)
PAPER = (255, 255, 255)
CALLOUT = (200, 30, 30)


def render_schema_png(seed: int, vehicle_key: str, code: str) -> bytes | None:
    """The PNG of one schema picture, or None when the vehicle has no picture with that code."""
    vehicle = sandbox_catalog(seed).vehicle(vehicle_key)
    if vehicle.schema(code) is None:
        return None
    return _render(seed, vehicle_key, code)


@lru_cache(maxsize=32)
def _render(seed: int, vehicle_key: str, code: str) -> bytes:
    vehicle = sandbox_catalog(seed).vehicle(vehicle_key)
    schema = vehicle.schema(code)
    assert schema is not None
    image = Image.new("RGB", (schema.width, schema.height), PAPER)
    draw = ImageDraw.Draw(image)
    _draw_assembly(draw, schema, random.Random(f"{seed}/{vehicle_key}/{code}"))
    _draw_caption(draw, vehicle, schema)
    _draw_callouts(draw, schema)  # last, so nothing covers a number
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _draw_assembly(draw: ImageDraw.ImageDraw, schema: SchemaPicture, rng: random.Random) -> None:
    """Outline shapes standing in for the parts, each joined to its callout by a leader line."""
    for hotspot in schema.hotspots:
        centre_x = rng.randint(schema.width // 5, schema.width * 4 // 5)
        centre_y = rng.randint(schema.height // 5, schema.height * 4 // 5)
        radius = rng.randint(18, 60)
        box = (centre_x - radius, centre_y - radius // 2, centre_x + radius, centre_y + radius // 2)
        if rng.random() < 0.5:
            draw.ellipse(box, outline=INK, width=2)
        else:
            draw.rectangle(box, outline=INK, width=2)
        callout_centre = ((hotspot.x1 + hotspot.x2) // 2, (hotspot.y1 + hotspot.y2) // 2)
        draw.line((callout_centre, (centre_x, centre_y)), fill=INK, width=1)


def _draw_callouts(draw: ImageDraw.ImageDraw, schema: SchemaPicture) -> None:
    font = _font(18)
    for hotspot in schema.hotspots:
        box = (hotspot.x1, hotspot.y1, hotspot.x2, hotspot.y2)
        draw.rectangle(box, fill=PAPER, outline=CALLOUT, width=2)
        centre = ((hotspot.x1 + hotspot.x2) / 2, (hotspot.y1 + hotspot.y2) / 2)
        draw.text(centre, hotspot.position, fill=CALLOUT, font=font, anchor="mm")


def _draw_caption(draw: ImageDraw.ImageDraw, vehicle: Vehicle, schema: SchemaPicture) -> None:
    draw.text((10, schema.height - 24), f"{vehicle.name} - {schema.title_en}", fill=INK, font=_font(14))


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)
