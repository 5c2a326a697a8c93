"""Equivalents fixtures: two shops of three members each, signed in, and their stock lists imported through the API."""

from __future__ import annotations

import pytest

from app.equivalents.services import NumberLink, record_links
from app.extensions import db
from tests.shelf.conftest import HEADER, ROWS, csv_bytes, import_list
from tests.support.route_walk import Member, shop_members, without_rate_limits

TURKISH_LETTERS = "ıİşŞğĞüÜöÖçÇ"


@pytest.fixture
def shop_a(app, monkeypatch) -> dict[str, Member]:
    without_rate_limits(monkeypatch)
    return shop_members(app, "muadil-a")


@pytest.fixture
def shop_b(app) -> dict[str, Member]:
    return shop_members(app, "muadil-b")


def import_stock(member: Member, rows: list[list[str]] = ROWS) -> dict:
    """The member's branch list becomes `rows` (the shelf conftest's columns), imported by the worker."""
    done = import_list(member.client, csv_bytes([HEADER, *rows]))
    assert done["status"] == "done", done
    return done


def group(member: Member, number: str) -> dict:
    response = member.send("GET", f"/api/equivalents/{number}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def keys_of(shown: dict) -> set[str]:
    return {item["key"] for item in shown["equivalents"] if not item["rejected"]}


def catalog_links(*links: NumberLink) -> None:
    """Everyone's links (the catalog's), committed."""
    record_links(links, shop_id=None, source="catalog")
    db.session.commit()


def is_turkish(message: str) -> bool:
    return any(letter in message for letter in TURKISH_LETTERS)
