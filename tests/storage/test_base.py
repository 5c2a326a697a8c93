"""Keys are safe object names; only raster image types are stored."""

import pytest

from app.storage.base import image_content_type, validate_key
from tests.storage.conftest import image_bytes


@pytest.mark.parametrize(
    "key",
    [
        "schemas/12/3f786850e387550fdab836ed7e6dc881de23001b.png",
        "a",
        "A-b_c.d/e.f/g",
        "schemas/uuid-1f0e/x.webp",
    ],
)
def test_safe_keys_are_accepted(key):
    assert validate_key(key) == key


@pytest.mark.parametrize(
    "key",
    [
        "",
        "/schemas/1/a.png",
        "schemas/1/a.png/",
        "schemas//a.png",
        "..",
        "../secret_key",
        "schemas/../../secret_key",
        "schemas/1/..",
        "a..b.png",
        ".meta/schemas/1/a.png",
        "schemas/.hidden.png",
        "schemas/1/a b.png",
        "schemas\\1\\a.png",
        "schemas/1/şema.png",
        "schemas/1/a.png?x=1",
        "schemas/1/a%2e.png",
        "x" * 513,
        None,
        b"schemas/1/a.png",
    ],
)
def test_unsafe_keys_raise_value_error(key):
    with pytest.raises(ValueError, match="invalid storage key"):
        validate_key(key)


@pytest.mark.parametrize(
    ("fmt", "declared", "expected"),
    [
        ("PNG", "image/png", "image/png"),
        ("PNG", "application/octet-stream", "image/png"),  # the bytes say what they are
        ("JPEG", "image/png", "image/jpeg"),
        ("GIF", "", "image/gif"),
        ("WEBP", None, "image/webp"),
    ],
)
def test_content_type_comes_from_the_bytes_first(fmt, declared, expected):
    assert image_content_type(image_bytes(fmt), declared) == expected


@pytest.mark.parametrize(
    ("declared", "expected"),
    [("image/png", "image/png"), ("IMAGE/JPG; charset=binary", "image/jpeg"), ("image/avif", "image/avif")],
)
def test_unrecognised_bytes_keep_a_declared_image_type(declared, expected):
    assert image_content_type(b"not sniffable", declared) == expected


@pytest.mark.parametrize(
    "declared", ["text/html", "image/svg+xml", "application/javascript", "application/octet-stream", "", None]
)
def test_anything_but_a_raster_image_is_refused(declared):
    with pytest.raises(ValueError, match="not a stored image type"):
        image_content_type(b"<svg onload=alert(1)>", declared)
