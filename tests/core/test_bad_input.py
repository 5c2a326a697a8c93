"""Bad input answers a 4xx with a readable message and writes nothing, on every route (issue 13, part 3)."""

from __future__ import annotations

import itertools
import json
import uuid

import pytest
import sqlalchemy as sa
import stripe
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.accounts.models import User
from app.auth.sessions import COOKIE_NAME, create_session, sign
from app.billing import offers, reference_data, stripe_gateway
from app.core.uploads import upload_limit
from app.core.validation import ID_MAX, JSON_MAX_DEPTH
from app.extensions import db, redis_store
from tests.conftest import SITE
from tests.support.dealers import commit_active_plan

INTERNAL_TOKEN = "internal-test-token"
VIN = "WVWZZZAUZHW100001"
JSON_METHODS = ("POST", "PUT", "PATCH", "DELETE")
# Path values for the JSON routes' placeholders, by name; anything else gets a value for its converter.
MEMBER_ID = uuid.UUID(int=1)
PATH_VALUES = {"vin": VIN, "provider": "google", "code": "1K0129620", "fact": "aircon", "member_id": MEMBER_ID}
PATH_VALUES |= {"brand": "bosch"}
INVALID_CHARACTERS = "İstekte izin verilmeyen karakterler var (NUL baytı veya bozuk Unicode)."


def error_of(response, status: int | None = None) -> dict:
    """The JSON error of a refusal, checked for its shape (and status when given)."""
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if status is not None:
        assert response.status_code == status, response.get_data(as_text=True)[:300]
    error = response.get_json()["error"]
    assert error["code"] and error["message"].strip()
    return error


def post_text(client, path: str, text: str | bytes, method: str = "POST", **kwargs):
    """Send `text` as the JSON body exactly as given (the test client's json= cannot carry a lone surrogate)."""
    headers = {
        **SITE,
        "X-Internal-Token": INTERNAL_TOKEN,
        "X-Automation-Token": INTERNAL_TOKEN,
        **kwargs.pop("headers", {}),
    }
    return client.open(path, method=method, data=text, content_type="application/json", headers=headers, **kwargs)


def user_count() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(User))


def resume(client, user: User) -> None:
    """Give `client` a new session of `user` (a session row, not the throttled sign-in route)."""
    row = create_session(user, persistent=False)
    db.session.commit()
    client.set_cookie(COOKIE_NAME, sign(row.id))


@pytest.fixture
def signed_in(client, create_user):
    """Sign `client` in as a new user; returns the user."""

    def start(**overrides):
        user = create_user(**overrides)
        resume(client, user)
        return user

    return start


@pytest.fixture
def internal_token(app, monkeypatch):
    """The internal API's and the changelog automation's tokens, sent by post_text (their routes then read the body)."""
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", INTERNAL_TOKEN)
    monkeypatch.setitem(app.config, "CHANGELOG_AUTOMATION_TOKEN", INTERNAL_TOKEN)


def json_rules(app) -> list:
    """Every /api rule taking a request body, as (path, method)."""
    adapter = app.url_map.bind("localhost")
    found = []
    for rule in app.url_map.iter_rules():
        for method in sorted(set(rule.methods or ()) & set(JSON_METHODS)):
            if rule.rule.startswith("/api/"):
                found.append((adapter.build(rule.endpoint, _path_values(rule), method=method), method))
    return sorted(found)


def _path_values(rule) -> dict:
    values = {}
    for name, converter in rule._converters.items():
        kind = type(converter).__name__
        values[name] = PATH_VALUES.get(name, 1 if "Integer" in kind or "Id" in kind else uuid.uuid4())
    return values


# --- session cookie ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cookie", ["ğüşİ.ı", "İ" * 70, "abc.ŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞŞ", "a" * 4000])
def test_a_session_cookie_outside_the_signed_alphabet_is_no_session_on_every_route(app, client, cookie):
    client.set_cookie(COOKIE_NAME, cookie)
    adapter = app.url_map.bind("localhost")
    routes = [rule for rule in app.url_map.iter_rules() if "GET" in rule.methods and not rule.arguments]

    statuses = {rule.rule: client.get(adapter.build(rule.endpoint)).status_code for rule in routes}

    assert len(routes) > 20 and not {path: code for path, code in statuses.items() if code >= 500}
    assert client.get("/api/auth/get-session").get_json() is None
    assert error_of(client.get("/api/vehicles/history"), 401)["message"] == "Bu işlem için giriş yapmanız gerekiyor."
    assert client.get("/vin").headers["Location"].startswith("/login")


def test_a_well_formed_cookie_still_signs_in(client, signed_in):
    signed_in(email="bayi@example.com")

    assert client.get("/api/auth/get-session").get_json()["user"]["email"] == "bayi@example.com"


# --- lone surrogates ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "Bayi \\ud800", "email": "bayi@example.com", "password": "correct-horse-42"}',
        '{"name": "Bayi", "email": "bayi\\udfff@example.com", "password": "correct-horse-42"}',
        b'{"name": "Bayi \xed\xa0\x80", "email": "bayi@example.com", "password": "correct-horse-42"}',  # raw UTF-8
        '{"name": "Bayi", "email": "bayi@example.com", "password": "correct-horse-42", "\\ud800": 1}',
    ],
)
def test_a_lone_surrogate_anywhere_in_a_json_body_is_refused_and_nothing_is_written(client, body):
    before = user_count()

    error = error_of(post_text(client, "/api/auth/sign-up/email", body), 400)

    assert error == {"code": "invalid_characters", "message": INVALID_CHARACTERS}
    assert user_count() == before


def test_the_refusal_is_in_english_when_the_client_asks_for_it(client):
    response = post_text(client, "/api/auth/email-exists", '{"email": "\\ud800"}', headers={"Accept-Language": "en"})

    assert error_of(response, 400)["message"] == (
        "The request contains characters that are not allowed (a NUL byte or broken Unicode)."
    )


def test_a_lone_surrogate_in_an_account_field_is_refused(client, signed_in):
    signed_in()

    response = post_text(client, "/api/account/change-password", '{"newPassword": "x\\ud83d-yeni-parola"}')

    assert error_of(response, 400)["code"] == "invalid_characters"


# --- deep nesting --------------------------------------------------------------------------------------------------


# JSON routes that read no body: they answer as they would to any body.
NO_BODY = {
    ("/api/account/connections/google", "DELETE"),
    ("/api/admin/translations/terms/1", "DELETE"),
    ("/api/auth/sign-out", "POST"),
    ("/api/subscriptions/cancel-pending", "PATCH"),
    ("/api/subscriptions/downgrade", "DELETE"),
    ("/api/subscriptions/trial", "POST"),
    ("/api/vehicles/1/choose-again", "POST"),
    ("/api/vehicles/1/fit/answers/aircon", "DELETE"),
    ("/api/vehicles/1/parts/1/copy", "POST"),
    ("/api/vehicles/history/1", "DELETE"),
    ("/api/quotes/1/lines/1", "DELETE"),
    ("/api/quotes/1/revoke", "POST"),
    ("/api/quotes/1/share", "POST"),
    ("/api/quotes/1/versions", "POST"),
    (f"/api/shop/members/{MEMBER_ID}", "DELETE"),
    ("/api/shop/invitations/1/resend", "POST"),
    ("/api/shop/invitations/1", "DELETE"),
    ("/api/shop/branches/1", "DELETE"),
    ("/api/shop/keys/1", "DELETE"),
    ("/api/equivalents/links/1/reject", "POST"),
    ("/api/equivalents/links/1/reject", "DELETE"),
    ("/api/suppliers/1", "DELETE"),
    ("/api/suppliers/1/pull", "POST"),
    ("/api/suppliers/1/suggestions/1/confirm", "POST"),
    ("/api/suppliers/1/suggestions/1/reject", "POST"),
    ("/api/suppliers/1/discounts/bosch", "DELETE"),
    ("/api/suppliers/markup-rules/1", "DELETE"),
    ("/api/orders/1/send", "POST"),
}


def takes_upload(app, path: str, method: str) -> bool:
    """Whether the route's body is an upload (multipart, app.core.uploads): JSON there is the wrong type."""
    endpoint, _ = app.url_map.bind("localhost").match(path, method=method)
    return upload_limit(app.view_functions[endpoint]) is not None


@pytest.mark.usefixtures("internal_token")
@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_json_nested_thousands_of_levels_deep_is_a_400_on_every_json_route(app, client, signed_in, depth):
    user = signed_in(role="admin")  # admin routes read their body too
    deep = "[" * depth + "]" * depth
    routes = json_rules(app)
    assert len(routes) > 20 and set(routes) >= NO_BODY

    for path, method in routes:
        for body in (deep, '{"email": ' + deep + ', "vin": "' + VIN + '"}'):
            resume(client, user)  # a fresh session each time: the sign-out route ends the one it is sent with
            response = post_text(client, path, body, method)
            assert response.status_code < 500, (path, method)
            if takes_upload(app, path, method):
                # An upload to a supplier the caller's shop does not have is a 404 first (the isolation walk's rule).
                expected = 404 if path.startswith("/api/suppliers/") else 415
                assert error_of(response, expected)["code"] in {"unsupported_media_type", "supplier_not_found"}, path
            elif (path, method) not in NO_BODY:
                assert error_of(response, 400)["code"] in {"invalid_json", "invalid_signature"}, (path, method)


def test_the_depth_limit_counts_containers(client):
    def email_nested(levels: int) -> str:
        return '{"email": ' + "[" * (levels - 1) + '"a@example.com"' + "]" * (levels - 1) + "}"

    too_deep = error_of(post_text(client, "/api/auth/email-exists", email_nested(JSON_MAX_DEPTH + 1)), 400)
    deepest = error_of(post_text(client, "/api/auth/email-exists", email_nested(JSON_MAX_DEPTH)), 400)

    assert too_deep["code"] == "json_too_deep"
    assert too_deep["message"] == f"İstek gövdesi çok derin iç içe geçmiş (en fazla {JSON_MAX_DEPTH} düzey olabilir)."
    assert deepest["code"] == "invalid_field"  # read, then refused for what it is: not text


def test_a_deep_body_on_the_login_form_keys_the_throttle_without_failing(client):
    deep = "[" * 50_000 + "]" * 50_000

    response = post_text(client, "/api/auth/sign-in/email", deep)

    assert error_of(response, 400)["code"] == "invalid_json"


# --- NUL bytes -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/demo/categories/search?q=fren%00balata",
        "/api/vehicles/history?page=1&x=%00",
        "/api/vehicles/1/categories/references/1K0%00129",
        "/api/auth/verify-email?token=abc%00def",
        "/api/vehicles/%00WZZZAUZHW100001/teaser-stats",
    ],
)
def test_a_nul_byte_in_a_query_string_or_path_is_a_json_400(client, signed_in, path):
    signed_in()

    assert error_of(client.get(path), 400) == {"code": "invalid_characters", "message": INVALID_CHARACTERS}


@pytest.mark.parametrize("path", ["/vin?vin=WVW%00", "/vehicles/1/categories/1?part=1&q=%00", "/storage/a%00b.png"])
def test_a_nul_byte_on_a_page_is_a_turkish_400_page(client, signed_in, path):
    signed_in()

    response = client.get(path)

    assert response.status_code == 400 and response.mimetype == "text/html"
    assert INVALID_CHARACTERS in response.get_data(as_text=True)


def test_a_nul_byte_in_a_posted_form_is_refused_before_anything_reads_it(client):
    before = user_count()

    response = client.post("/register", data={"name": "Bayi\x00", "email": "yeni@example.com", "password": "x" * 12})

    assert response.status_code == 400 and INVALID_CHARACTERS in response.get_data(as_text=True)
    assert user_count() == before


@pytest.mark.parametrize("field", ["name", "email", "password"])
def test_a_nul_byte_in_a_json_text_field_is_refused_and_nothing_is_written(client, field):
    body = {"name": "Bayi", "email": "yeni@example.com", "password": "correct-horse-42"}
    body[field] = body[field][:3] + "\x00" + body[field][3:]
    before = user_count()

    error = error_of(post_text(client, "/api/auth/sign-up/email", json.dumps(body)), 400)

    assert error["code"] == "invalid_characters" and user_count() == before


def test_a_nul_byte_in_the_user_agent_is_left_out_of_the_stored_session(client, create_user):
    user = create_user()

    response = client.post(
        "/api/auth/sign-in/email",
        json={"email": user.email, "password": "correct-horse-42"},
        headers={**SITE, "User-Agent": "Mozilla\x00/5.0"},
    )

    assert response.status_code == 200
    from app.auth.models import AuthSession

    assert db.session.scalar(sa.select(AuthSession.user_agent).where(AuthSession.user_id == user.id)) == "Mozilla/5.0"


# --- integers out of range -----------------------------------------------------------------------------------------

OUT_OF_RANGE = [str(2**63), str(2**64), str(ID_MAX + 1), "9" * 5000, "0"]


@pytest.mark.parametrize("number", OUT_OF_RANGE + ["-1"])
@pytest.mark.parametrize(
    ("method", "template"),
    [
        ("GET", "/api/vehicles/{}"),
        ("GET", "/api/vehicles/{}/categories/1"),
        ("GET", "/api/categories/search/{}"),
        ("GET", "/api/demo/categories/{}"),
        ("DELETE", "/api/vehicles/history/{}"),
        ("POST", "/api/vehicles/1/parts/{}/copy"),
    ],
)
def test_a_path_id_no_row_can_have_is_a_json_404(client, signed_in, method, template, number):
    signed_in()

    response = client.open(template.format(number), method=method, json={}, headers=SITE)

    assert error_of(response, 404)["code"] == "not_found"


@pytest.mark.parametrize("path", ["/vehicles/{}", "/vehicles/1/categories/{}", "/demo/categories/{}"])
def test_a_page_id_no_row_can_have_is_the_404_page(client, signed_in, path):
    signed_in()

    response = client.get(path.format(2**63))

    assert response.status_code == 404 and "Sayfa bulunamadı" in response.get_data(as_text=True)


@pytest.mark.parametrize("page", OUT_OF_RANGE + ["-1", "-9223372036854775809", "abc", "1.5"])
def test_a_page_number_out_of_range_is_a_400(client, signed_in, page):
    signed_in()

    api = error_of(client.get(f"/api/vehicles/history?page={page}"), 400)
    html = client.get(f"/vin?page={page}")

    assert api == {
        "code": "invalid_parameter",
        "message": f"page, 1 ile {ID_MAX} arasında bir tam sayı olmalıdır.",
    }
    assert html.status_code == 400 and "page, 1 ile" in html.get_data(as_text=True)


def test_a_page_number_in_range_still_lists(client, signed_in):
    signed_in()

    assert client.get(f"/api/vehicles/history?page={ID_MAX}").get_json() == {
        "items": [],
        "page": ID_MAX,
        "hasMore": False,
    }
    assert client.get("/api/vehicles/history").get_json()["page"] == 1


@pytest.mark.parametrize(
    "pick",
    [
        {"catapiCarId": 2**63},
        {"catapiCarId": -1},
        {"catapiCarId": -(2**63) - 1},
        {"catapiCarId": ""},
        {"catapiCarId": "x" * 256},
        {"scrapeCarIndex": 2**63},
        {"scrapeCarIndex": ID_MAX + 1},
        {"scrapeCarIndex": -1},
        {"scrapeCarIndex": True},
    ],
)
def test_a_candidate_pick_out_of_range_is_a_400_before_any_decode(client, signed_in, pick):
    signed_in()

    response = client.post("/api/vehicles/decode", json={"vin": VIN, **pick}, headers=SITE)

    assert error_of(response, 400)["code"] == "invalid_candidate"


# --- /vin/report ---------------------------------------------------------------------------------------------------


def report(client, vin: str, note: str = "", headers: dict | None = None):
    from tests.conftest import csrf_token_from

    token = csrf_token_from(client.get("/vin").get_data(as_text=True))
    return client.post("/vin/report", data={"csrf_token": token, "vin": vin, "note": note}, headers=headers or {})


@pytest.mark.parametrize("vin", ["A" * 5000, "ABC", "WVWZZZAUZHW10000I", "<script>alert(1)</script>" * 50, ""])
def test_an_invalid_vin_report_is_not_echoed_into_the_redirect(client, signed_in, vin):
    signed_in()

    response = report(client, vin)

    assert response.status_code == 303 and response.headers["Location"] == "/vin"


def test_a_valid_vin_report_refused_for_its_note_echoes_only_the_vin(client, signed_in):
    signed_in()

    response = report(client, " wvw-zzzauzhw100001 ", note="n" * 1001)

    assert response.status_code == 303 and response.headers["Location"] == f"/vin?vin={VIN}"


def test_an_invalid_vin_report_fragment_keeps_no_copy_of_the_input(client, signed_in):
    signed_in()

    response = report(client, "Z" * 5000, headers={"HX-Request": "true"})

    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Z" * 18 not in html
    assert 'name="vin" value=""' in html


# --- property: arbitrary JSON on every JSON route ---------------------------------------------------------------------

NASTY_TEXT = ["\x00", "a\x00b", "\ud800", "x\udfff", "İıŞşĞğ", "", " ", "A" * 300, "trio", "monthly", "admin"]
NASTY_INTS = [2**63, 2**63 - 1, -(2**63), 2**64, -1, 0, 1, 2, 3, ID_MAX, ID_MAX + 1]
texts = st.text(st.characters(exclude_categories=()), max_size=30) | st.sampled_from(NASTY_TEXT)
integers = st.integers() | st.sampled_from(NASTY_INTS)
scalars = st.none() | st.booleans() | integers | st.floats() | texts
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=10
)


# A body every JSON route would accept as far as its fields go; the generated ones change or drop a few of them, so
# they get past the first checks and reach the services. Never the dealer's own e-mail as `confirmation`.
VALID_BODY = {
    **{"email": "fuzz@example.com", "password": "correct-horse-42", "name": "Bayi", "rememberMe": True},
    **{"currentPassword": "correct-horse-42", "newPassword": "yeni-parola-1234", "confirmation": "başka bir şey"},
    **{"vin": VIN, "note": "Fren balatası", "planKey": "trio", "billingPeriod": "monthly", "planId": 1, "days": 7},
    **{"role": "user", "source": "wmi", "provider": "google", "founderId": "founder-1", "reason": "destek talebi"},
    **{"token": "abc", "callbackURL": "/"},
}
FIELD_NAMES = sorted({*VALID_BODY, "brandIds", "catapiCarId", "scrapeCarIndex"})
changes = st.dictionaries(st.sampled_from(FIELD_NAMES) | texts, values, min_size=1, max_size=3)
drops = st.sets(st.sampled_from(FIELD_NAMES), max_size=3)


def route_bodies(brand_ids: list[int]) -> st.SearchStrategy:
    """The valid body (with real brand ids) with a few fields changed or left out, as JSON text."""
    base = {**VALID_BODY, "brandIds": brand_ids}
    return st.builds(
        lambda changed, dropped: json.dumps({k: v for k, v in {**base, **changed}.items() if k not in dropped}),
        changes,
        drops,
    )


junk = (
    st.dictionaries(texts, values, max_size=4).map(json.dumps)
    | values.map(json.dumps)
    | st.integers(JSON_MAX_DEPTH - 2, 3_000).map(lambda n: '{"email": ' + "[" * n + "]" * n + "}")
    | st.sampled_from(["", "{", "[]", "null", "NaN", '{"brandIds": [1e999]}', '{"a": 1}{"b": 2}'])
)
BOUNDED = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture
def card_provider(app, stripe_sandbox, monkeypatch):
    """Point the session app's card client at the Stripe sandbox, so checkouts are made, not refused with a 502."""
    client = stripe.StripeClient("sk_test_x", base_addresses={"api": stripe_sandbox.url})
    monkeypatch.setitem(app.extensions, stripe_gateway.EXTENSION_KEY, client)


@pytest.mark.usefixtures("internal_token", "upstreams", "card_provider")
def test_no_json_body_makes_any_json_route_fail(app, client, create_user):
    reference_data.brands()
    reference_data.plans()
    db.session.commit()
    dealer, admin = create_user(), create_user(role="admin")
    routes = json_rules(app)
    assert len(routes) > 20 and ("/api/vehicles/decode", "POST") in routes

    bodies = st.one_of(*[route_bodies(sorted(offers.active_brand_ids())[:3])] * 3, junk)  # mostly near-valid

    for path, method in routes:
        redis_store.client.flushdb()  # each route starts with fresh rate-limit counters
        fuzz(client, path, method, admin if path.startswith("/api/admin/") else dealer, bodies)


def fuzz(client, path: str, method: str, user: User, bodies: st.SearchStrategy) -> None:
    """Send generated bodies to one route as `user`: never a 5xx, and every refusal is the JSON error shape."""
    addresses = itertools.count()

    @BOUNDED
    @given(body=bodies)
    def answers_without_failing(body: str) -> None:
        resume(client, user)  # a fresh session each time: the sign-out route ends the one it is sent with
        address = f"10.{next(addresses) % 250}.0.1"  # so the sign-in throttle lets more bodies through
        response = post_text(client, path, body, method, environ_base={"REMOTE_ADDR": address})
        assert response.status_code < 500, (path, method, body[:200], response.get_data(as_text=True)[:300])
        if response.status_code >= 400:
            error_of(response)

    answers_without_failing()


# --- hostile bodies on every write route, the session kept between requests (issue 40) ------------------------------

# A kept session reads ahead in its first Redis round trip what the endpoint will read (app.core.redis_store), from
# the body: so each route gets one session for all its bodies, as a browser's requests share theirs.
HOSTILE_FIELDS = sorted({*FIELD_NAMES, "quantity", "unitPrice", "partId", "vehicleId", "kdvRate", "customer", "kind"})
DEEP_SHAPES = [
    lambda n: "[" * n,
    lambda n: "[" * n + "]" * n,
    lambda n: '{"vin":' + "[" * n,
    lambda n: '{"vin":' + "[" * n + "]" * n + "}",
    lambda n: '{"a":' * n + "1" + "}" * n,
    lambda n: "[{" * n,
]
deep = st.builds(lambda shape, n: shape(n), st.sampled_from(DEEP_SHAPES), st.integers(JSON_MAX_DEPTH + 1, 200_000))
huge_numbers = st.sampled_from(
    ["1e999", "-1e999", "1e-999", "-0", "9" * 5000, "-" + "9" * 5000, "1" + "0" * 400 + ".5", str(2**64), "0.1e99999"]
)
not_json_numbers = st.sampled_from(["NaN", "Infinity", "-Infinity", "+1", "0x10", "01", ".5", "1.", "1e"])
huge_strings = st.sampled_from([1_000, 100_000, 1_000_000]).map(lambda n: json.dumps("Ş" * n, ensure_ascii=False))
wrong_types = st.sampled_from(["[]", "{}", "true", "null", "1.5", '"x"', "-1", '[["x"]]', '{"vin": {}}', '""'])
hostile_values = deep | huge_numbers | not_json_numbers | huge_strings | wrong_types


def with_field(name: str, raw: str, first: bool) -> str:
    """The valid body with `name` set to the raw JSON text `raw`, before its other fields (so a duplicate key of a
    field it has loses to the valid value) or after them (so it wins)."""
    rest = json.dumps(VALID_BODY)[1:-1]
    field = f"{json.dumps(name)}: {raw}"
    return "{" + (f"{field}, {rest}" if first else f"{rest}, {field}") + "}"


INVALID_UTF8 = [b'{"vin": "\xff\xfe"}', b'{"name": "\xc3\x28"}', b'{"\xc0\xaf": 1}', b'{"vin": "\xed\xa0\x80"}']
odd_bytes = (
    st.binary(max_size=64)
    | st.sampled_from(INVALID_UTF8)
    | st.sampled_from([b"\xef\xbb\xbf{}", '{"vin": 1}'.encode("utf-16"), b"\x00", b'{"vin": "a"}\x00'])
)
in_valid_body = st.builds(with_field, st.sampled_from(HOSTILE_FIELDS), hostile_values, st.booleans())
hostile_bodies = st.one_of(
    in_valid_body.map(str.encode), in_valid_body.map(str.encode), hostile_values.map(str.encode), odd_bytes
)
HOSTILE = settings(BOUNDED, max_examples=16)


@pytest.mark.usefixtures("internal_token", "upstreams", "card_provider")
def test_no_hostile_body_fails_any_write_route_with_the_session_kept(app, client, create_user):
    reference_data.brands()
    reference_data.plans()
    db.session.commit()
    dealer, admin = create_user(), create_user(role="admin")
    commit_active_plan(dealer, "full")  # past the plan check: the bodies reach what the routes do with them
    routes = write_rules(app)
    assert len(routes) > 60 and ("/api/vehicles/decode", "POST") in routes and ("/vin/decode", "POST") in routes

    for path, method in routes:
        redis_store.client.flushdb()  # each route starts with fresh rate-limit counters and session tokens
        user = admin if "/admin/" in path else dealer
        resume(client, user)
        send_hostile(client, path, method, user)


def write_rules(app) -> list:
    """Every rule taking a body, pages' forms included, as (path, method)."""
    adapter = app.url_map.bind("localhost")
    return sorted(
        (adapter.build(rule.endpoint, _path_values(rule), method=method), method)
        for rule in app.url_map.iter_rules()
        for method in set(rule.methods or ()) & set(JSON_METHODS)
    )


def send_hostile(client, path: str, method: str, user: User) -> None:
    """Send hostile bodies to one route as `user` on one session (a new one only once a body ended it)."""

    @HOSTILE
    @given(body=hostile_bodies)
    @example(body=b"[" * 5_000)
    @example(body=b'{"vin":' + b"[" * 5_000)
    @example(body=b'{"vin":' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    def answers_without_failing(body: bytes) -> None:
        response = post_text(client, path, body, method)
        assert response.status_code < 500, (path, method, body[:120], response.get_data(as_text=True)[:300])
        if path.startswith("/api/") and response.status_code >= 400:
            error_of(response)
        if response.status_code == 401 or not client.get_cookie(COOKIE_NAME):
            resume(client, user)

    answers_without_failing()


@pytest.mark.parametrize(
    "body", ["[" * 5_000, '{"vin":' + "[" * 5_000, '{"vin":' + "[" * 100_000 + "]" * 100_000 + "}"]
)
def test_a_deep_decode_body_on_a_kept_session_is_a_turkish_400(client, signed_in, body):
    signed_in()
    assert client.get("/api/vehicles/history").status_code == 200  # the session is kept from here on

    first, second = (post_text(client, "/api/vehicles/decode", body) for _ in range(2))

    for response in (first, second):
        error = error_of(response, 400)
        assert error["code"] in {"invalid_json", "json_too_deep"}
        assert error["message"] in {
            "İstek gövdesi geçerli bir JSON nesnesi değil.",
            f"İstek gövdesi çok derin iç içe geçmiş (en fazla {JSON_MAX_DEPTH} düzey olabilir).",
        }
