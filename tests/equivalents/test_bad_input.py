"""Bad input to the equivalents API (odd bytes, huge numbers, deep or mistyped JSON) is a 4xx with a Turkish message,
never a 500, and stores nothing."""

from __future__ import annotations

from urllib.parse import quote

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.equivalents.models import EquivalentLink
from app.extensions import db
from tests.equivalents.conftest import is_turkish

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=80),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
LINK_BODIES = st.fixed_dictionaries(
    {},
    optional={
        "a": JSON_VALUES | st.text(max_size=200),
        "b": JSON_VALUES | st.text(max_size=200),
        "type": JSON_VALUES | st.sampled_from(["same", "replaces", "part_of", "contains"]),
        "aBrand": JSON_VALUES,
        "bBrand": JSON_VALUES,
    },
)


def _stored() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(EquivalentLink))


def _refused_in_turkish(response) -> None:
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.is_json:
        message = response.get_json()["error"]["message"]
        assert message and is_turkish(message), message


@SETTINGS
@given(number=st.text(max_size=300))
def test_any_number_in_the_path_answers_without_a_server_error(shop_a, number):
    response = shop_a["clerk"].send("GET", f"/api/equivalents/{quote(number, safe='')}")
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code >= 400:
        _refused_in_turkish(response)


@SETTINGS
@given(body=LINK_BODIES)
def test_any_link_body_is_a_link_or_a_turkish_4xx(shop_a, body):
    before = _stored()
    response = shop_a["manager"].send("POST", "/api/equivalents/links", body)
    assert response.status_code in (201, 400, 415), response.get_data(as_text=True)[:300]
    if response.status_code != 201:
        _refused_in_turkish(response)
        assert _stored() == before


@pytest.mark.parametrize(
    "path",
    [
        "/api/equivalents/" + "1" * 5000,
        "/api/equivalents/%00",
        "/api/equivalents/%FF%FE",
        "/api/equivalents/%ED%A0%80",
        "/api/equivalents/---",
        "/muadil/" + "9" * 500,
        "/muadil/%00",
    ],
)
def test_a_number_that_is_none_is_refused(shop_a, path):
    response = shop_a["clerk"].send("GET", path)
    _refused_in_turkish(response)


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5000 + b"]" * 5000,
        b'{"a": ' * 200 + b"1" + b"}" * 200,
        b"\xff\xfe\x00",
        b'{"a": "1K0129620D", "b": "\\u0000"}',
        b'{"a": "1K0129620D", "b": "' + b"7" * 100_000 + b'"}',
        b'{"a": "1K0129620D", "b": "1K0-129-620-D"}',
    ],
)
def test_a_body_that_is_no_link_is_refused(shop_a, body):
    client, token = shop_a["manager"].client, shop_a["manager"].form_token
    headers = {"Origin": "http://localhost", "X-CSRFToken": token, "Content-Type": "application/json"}
    response = client.post("/api/equivalents/links", data=body, headers=headers)
    _refused_in_turkish(response)
    assert _stored() == 0
