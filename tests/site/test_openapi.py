"""The generated OpenAPI document of /api, its reading page, and schemathesis run against a real server with a
signed-in dealer: no 5xx, and every answer conforms to the document."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from importlib import import_module

import pytest
import requests
import schemathesis
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, given, settings
from openapi_spec_validator import validate
from pydantic import BaseModel
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.auth.sessions import COOKIE_NAME
from app.billing.models import Subscription
from app.billing.sandbox.server import StripeSandbox
from app.config import PROJECT_ROOT
from app.core.loopback import LoopbackServer
from app.core.openapi import SESSION_COOKIE
from app.extensions import db
from app.sources.sandbox.catalog import VIN_CLIO, VIN_GOLF
from tests.conftest import PASSWORD
from tests.site.conftest import live_server_app
from tests.support.dealers import commit_full_plan_dealer
from tests.support.payments import WEBHOOK_SECRET

DOC_ROUTES = {"/api/openapi.json", "/api/docs"}
INTERNAL_TOKEN = "openapi-run-internal-token"
# Tens of examples per operation: enough to find a 5xx or a shape the document does not allow, quick enough for CI.
MAX_EXAMPLES = 25
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance]
# Not run: signing out ends the session every other call is made with.
EXCLUDED = {("POST", "/api/auth/sign-out")}


def _document_path(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?([a-z_]+)>", r"{\1}", rule)


# --- the document and the page (in process) ----------------------------------------------------------------------


def test_the_document_describes_every_api_route(app, client):
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    described = {(method.upper(), path) for path, operations in document["paths"].items() for method in operations}
    routes = {
        (method, _document_path(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and rule.rule not in DOC_ROUTES
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert routes - described == set()
    assert described - routes == set()


def test_the_document_is_valid_openapi_3_1(client):
    validate(client.get("/api/openapi.json").get_json())


def test_every_operation_names_its_answer_and_its_refusals_in_the_error_shape(client):
    document = client.get("/api/openapi.json").get_json()
    error = {"$ref": "#/components/schemas/ErrorResponse"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert any(code < "400" for code in responses), (method, path)
            for code, response in responses.items():
                if code >= "400" and not (path == "/api/health" and code == "503"):
                    assert response["content"]["application/json"]["schema"] == error, (method, path, code)
    assert document["components"]["schemas"]["ErrorResponse"]["required"] == ["error"]


def test_every_operation_has_its_own_id_and_a_summary(client):
    operations = [op for ops in client.get("/api/openapi.json").get_json()["paths"].values() for op in ops.values()]
    ids = [operation["operationId"] for operation in operations]
    assert len(ids) == len(set(ids))
    assert all(operation["summary"] and "<" not in operation["summary"] for operation in operations)


def test_operation_ids_stay_what_generated_clients_call(client):
    """An operation id is the name of a function in every generated client (openapi-python-client names its modules
    after them): moving or renaming code must not change one. A new operation adds its line to operation_ids.txt."""
    operations = client.get("/api/openapi.json").get_json()["paths"].values()
    published = (PROJECT_ROOT / "tests" / "site" / "operation_ids.txt").read_text(encoding="utf-8").split()
    assert sorted(op["operationId"] for ops in operations for op in ops.values()) == published


def test_api_models_have_unique_names_across_domains():
    """The document names its components by class name, so two models of one name would overwrite each other."""
    domains = [path.parent.name for path in (PROJECT_ROOT / "app").glob("*/schemas.py")]
    modules = [import_module("app.core.openapi"), *(import_module(f"app.{domain}.schemas") for domain in domains)]
    models = {
        model
        for module in modules
        for model in vars(module).values()
        if isinstance(model, type) and issubclass(model, BaseModel) and model.__module__ == module.__name__
    }
    names = [model.__name__ for model in models]
    assert len(names) > 50
    assert len(names) == len(set(names))


def test_the_documented_session_cookie_is_the_real_one():
    assert SESSION_COOKIE == COOKIE_NAME


def test_the_docs_page_starts_the_vendored_viewer_from_a_file(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in html
    assert "/static/js/api-docs.js" in html
    assert 'data-spec-url="/api/openapi.json"' in html
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None, "no inline script: the CSP forbids it"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        served = client.get(f"/static/vendor/swagger-ui/{asset}")
        served.close()  # a file response holds the file open until closed
        assert served.status_code == 200, asset


def test_the_document_and_the_page_need_no_session(client):
    assert client.get("/api/openapi.json").status_code == 200
    assert client.get("/api/docs").status_code == 200


# --- schemathesis against a real server ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveApi:
    url: str
    cookie: str
    vehicle_id: int
    category_id: int
    subscription_id: str = ""  # another dealer's: the founder's subscription calls change it, not the signed-in one
    supplier_id: int = 0  # the dealer's supplier (a generated id outside 1.. would meet werkzeug's 405 for 404)


@pytest.fixture(scope="module")
def live_api(app, base_config, _upstream_sandboxes, database_snapshot) -> Iterator[LiveApi]:
    """A live server on the sandboxes, a dealer with a Full plan signed in, and the Golf decoded with its tree."""
    stripe = StripeSandbox(webhook_secret=WEBHOOK_SECRET).start()
    server_app = live_server_app(base_config, _upstream_sandboxes.settings, stripe.url, INTERNAL_TOKEN)
    with server_app.app_context():
        email = f"openapi-{uuid.uuid4().hex[:12]}@example.com"
        commit_full_plan_dealer(email, "OpenAPI Bayi", PASSWORD)
        target = commit_full_plan_dealer(f"target-{email}", "OpenAPI Hedef Bayi", PASSWORD)
        subscription_id = str(db.session.scalar(sa.select(Subscription.id).where(Subscription.user_id == target.id)))
        db.session.remove()
    server = LoopbackServer(server_app, name="openapi-live-server", quiet=True).start()
    try:
        yield replace(_prepare(server.url, email), subscription_id=subscription_id)
    finally:
        server.stop()
        stripe.stop()


def _prepare(url: str, email: str) -> LiveApi:
    """Sign the dealer in, decode the Golf and open its tree, so ids in the run can point at real rows."""
    site = {"Origin": url}
    signed_in = requests.post(
        f"{url}/api/auth/sign-in/email", json={"email": email, "password": PASSWORD}, headers=site, timeout=10
    )
    assert signed_in.status_code == 200, signed_in.text
    cookie = signed_in.cookies[COOKIE_NAME]
    cookies = {COOKIE_NAME: cookie}
    decoded = requests.post(
        f"{url}/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=site, cookies=cookies, timeout=30
    )
    assert decoded.status_code == 200, decoded.text
    vehicle_id = decoded.json()["vehicle"]["id"]
    tree = requests.get(f"{url}/api/vehicles/{vehicle_id}/categories", cookies=cookies, timeout=30).json()
    supplier = requests.post(
        f"{url}/api/suppliers", json={"name": "OpenAPI Tedarikci"}, headers=site, cookies=cookies, timeout=10
    )
    assert supplier.status_code == 201, supplier.text
    return LiveApi(url, cookie, vehicle_id, tree["categories"][0]["id"], supplier_id=supplier.json()["id"])


@pytest.fixture(scope="module")
def api_schema(live_api: LiveApi):
    config = SchemathesisConfig.from_dict({"generation": {"mode": "positive", "deterministic": True}})
    schema = schemathesis.openapi.from_url(f"{live_api.url}/api/openapi.json", config=config)
    schema.config.update(base_url=live_api.url)
    return schema


def _fixed_ids(operation, live_api: LiveApi) -> dict[str, int | str] | None:
    """Real rows for the ids, so the catalog and demo routes answer more than 404; a sandbox VIN that is not stored
    for the VIN in a path (the internal delete must not take the Golf the other routes read); another dealer's
    subscription for the founder's subscription calls."""
    ids = {
        "vehicle_id": live_api.vehicle_id,
        "category_id": live_api.category_id,
        "vin": VIN_CLIO,
        "subscription_id": live_api.subscription_id,
        "supplier_id": live_api.supplier_id,
    }
    return {name: value for name, value in ids.items() if f"{{{name}}}" in operation.path} or None


def _check_operation(operation, live_api: LiveApi) -> None:
    # A change made with the cookie must come from the site and be JSON, body or not (an upload: multipart, typed by
    # schemathesis with its boundary); the internal API needs its token.
    headers = {"Origin": live_api.url, "Content-Type": "application/json", "X-Internal-Token": INTERNAL_TOKEN}
    if "multipart/form-data" in operation.definition.raw.get("requestBody", {}).get("content", {}):
        del headers["Content-Type"]

    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: the first failing case is reported as it is
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(path_parameters=_fixed_ids(operation, live_api)))
    def run(case) -> None:
        response = case.call(headers=headers, cookies={COOKIE_NAME: live_api.cookie}, timeout=30)
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()


@pytest.mark.no_isolation
def test_the_api_keeps_to_its_document(api_schema, live_api, subtests):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 40
    for operation in operations:
        if (operation.method.upper(), operation.path) in EXCLUDED:
            continue
        with subtests.test(msg=operation.label):
            _check_operation(operation, live_api)
