"""JSON answers by orjson (app.core.fast_json) read as Flask's own provider wrote them, and what orjson refuses is still
encoded."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from flask.json.provider import DefaultJSONProvider


@dataclass
class Point:
    x: int
    y: int


def answer(app, value) -> tuple[str, object]:
    with app.test_request_context("/"):
        response = app.json.response(value)
    text = response.get_data(as_text=True)
    return text, json.loads(text)


def flask_default(app, value) -> object:
    with app.test_request_context("/"):
        return json.loads(DefaultJSONProvider(app).response(value).get_data(as_text=True))


def test_the_answer_is_what_flasks_provider_gives_with_sorted_keys_and_turkish_as_itself(app):
    value = {
        "z": "Yağ filtresi",
        "a": [1, 2.5, None, True],
        "when": datetime(2026, 11, 25, 14, 30, tzinfo=UTC),
        "day": date(2026, 11, 25),
        "price": Decimal("149.90"),
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        "point": Point(1, 2),
    }
    text, decoded = answer(app, value)

    assert decoded == flask_default(app, value)
    assert decoded["when"] == "Wed, 25 Nov 2026 14:30:00 GMT" and decoded["price"] == "149.90"
    assert "Yağ filtresi" in text and text.endswith("\n")
    assert list(decoded) == sorted(decoded)


def test_keys_that_are_not_strings_are_written_as_strings(app):
    _text, decoded = answer(app, {7: "a category id", None: "the roots"})
    assert decoded == {"7": "a category id", "null": "the roots"}


def test_what_orjson_refuses_is_encoded_by_flasks_provider(app):
    deep: list = []
    for _ in range(400):
        deep = [deep]
    for value in ({"big": 2**70}, {"deep": deep}):
        _text, decoded = answer(app, value)
        assert decoded == flask_default(app, value)


def test_an_api_answer_goes_through_it(client):
    response = client.get("/api/health")
    assert response.mimetype == "application/json"
    assert response.get_json() is not None
