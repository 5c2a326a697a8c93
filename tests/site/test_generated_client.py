"""A client generated from /api/openapi.json by openapi-python-client runs a dealer's day and the founder's day.

The client is generated once for the module, imported, and pointed at a live server on the sandboxes. Every answer
must come with the status the test expects and parse into the model the document names for that status: the
generated function's `.parsed` is an instance of it (never None or raw), and no object in it holds a field the
document does not describe. How a client carries the session and the founder's token is in docs/api.md.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import attrs
import httpx
import pytest
from flask import Flask
from rq import SimpleWorker

from app.accounts.models import User
from app.accounts.services import create_user
from app.auth.sessions import COOKIE_NAME
from app.billing import reference_data
from app.billing.sandbox.server import StripeSandbox
from app.core.loopback import LoopbackServer
from app.extensions import db, queues, redis_store
from app.sources.sandbox.catalog import VIN_COROLLA, VIN_GOLF
from tests.conftest import PASSWORD
from tests.site.conftest import live_server_app
from tests.support.payments import WEBHOOK_SECRET
from tests.support.shelf import shelf_list

PACKAGE = "parcabul_generated_client"
INTERNAL_TOKEN = "generated-client-internal-token"
FOUNDER = {"founder_id": "kurucu-1", "reason": "Müşteri talebi"}


# --- the generated client ---------------------------------------------------------------------------------------


def _accepts(schema: dict[str, Any], components: dict[str, Any], models: ModuleType) -> Callable[[Any], bool]:
    """Whether a parsed value is what `schema` says: the model of a `$ref`, a list of them, or one of `anyOf`."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        target = components[name]
        if "properties" in target:
            model = getattr(models, name)
            return lambda value: isinstance(value, model)
        return _accepts(target, components, models)  # a root model: its anyOf or array, inlined by the generator
    if "anyOf" in schema:
        options = [_accepts(option, components, models) for option in schema["anyOf"]]
        return lambda value: any(option(value) for option in options)
    if schema.get("type") == "array":
        item = _accepts(schema["items"], components, models)
        return lambda value: isinstance(value, list) and all(item(element) for element in value)
    if schema.get("type") == "null":
        return lambda value: value is None
    raise AssertionError(f"an answer schema the test does not know: {schema}")


def _undocumented_fields(value: Any, where: str = "answer") -> list[str]:
    """Every field of the answer that no model of the document declares (free-form objects declare none)."""
    if isinstance(value, list):
        return [found for index, item in enumerate(value) for found in _undocumented_fields(item, f"{where}[{index}]")]
    if not attrs.has(type(value)):
        return []
    declared = [field.name for field in attrs.fields(type(value)) if field.name != "additional_properties"]
    extra = [f"{where}.{name}" for name in value.additional_properties] if declared else []
    return extra + [
        found for name in declared for found in _undocumented_fields(getattr(value, name), f"{where}.{name}")
    ]


@dataclass
class GeneratedApi:
    """The generated package, and the document it came from, to check each answer against."""

    package: ModuleType
    document: dict[str, Any]

    def __post_init__(self) -> None:
        self.operations = {
            operation["operationId"]: operation
            for operations in self.document["paths"].values()
            for operation in operations.values()
        }
        self.models = importlib.import_module(f"{PACKAGE}.models")

    def call(self, client: Any, operation_id: str, status: int = 200, **arguments: Any) -> Any:
        """Call the operation's generated function; check the status and that the answer parsed into its model."""
        tag = operation_id.split(".", 1)[0]
        module = importlib.import_module(f"{PACKAGE}.api.{tag}.{operation_id.replace('.', '_')}")
        response = module.sync_detailed(client=client, **arguments)
        assert response.status_code == status, (operation_id, response.status_code, response.content[:500])
        schema = self.operations[operation_id]["responses"][str(status)]["content"]["application/json"]["schema"]
        accepts = _accepts(schema, self.document["components"]["schemas"], self.models)
        assert accepts(response.parsed), (operation_id, type(response.parsed), response.content[:500])
        if json.loads(response.content) is not None:
            assert response.parsed is not None, operation_id
        assert _undocumented_fields(response.parsed) == [], operation_id
        return response.parsed

    def model(self, model_name: str, /, **fields: Any) -> Any:
        return getattr(self.models, model_name)(**fields)

    def site(self, url: str) -> Any:
        """A client for the public calls: it names the site in Origin, as a browser would."""
        return self.package.Client(base_url=url, headers={"Origin": url}, timeout=httpx.Timeout(30))

    def session(self, url: str, cookie: str) -> Any:
        """A client for the signed-in calls: the session cookie is the document's `session` key (in a cookie)."""
        return self.package.AuthenticatedClient(
            base_url=url,
            token=f"{COOKIE_NAME}={cookie}",
            prefix="",
            auth_header_name="Cookie",
            headers={"Origin": url},
            timeout=httpx.Timeout(30),
        )

    def key(self, url: str, secret: str) -> Any:
        """A shop integration's client: only its API key, the document's `apiKey` bearer (no cookie, no Origin)."""
        return self.package.AuthenticatedClient(base_url=url, token=secret, timeout=httpx.Timeout(30))

    def founder(self, url: str) -> Any:
        """A client for the founder panel: the document's `internalToken` key, in its header."""
        return self.package.AuthenticatedClient(
            base_url=url,
            token=INTERNAL_TOKEN,
            prefix="",
            auth_header_name="X-Internal-Token",
            timeout=httpx.Timeout(30),
        )


@pytest.fixture(scope="module")
def api(app, tmp_path_factory) -> Iterator[GeneratedApi]:
    """Generate the client from the served document (offline, with no formatter run over it) and import it."""
    document = app.test_client().get("/api/openapi.json").get_json()
    directory = tmp_path_factory.mktemp("generated-client")
    (directory / "openapi.json").write_text(json.dumps(document))
    (directory / "config.yaml").write_text("post_hooks: []\n")
    command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", "openapi.json", "--meta", "none"]
    generated = subprocess.run(  # noqa: S603 - the test's own command line
        [*command, "--output-path", PACKAGE, "--config", "config.yaml"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # The generator skips what it cannot read with a warning: every operation and model must come through.
    assert generated.returncode == 0 and "Warning" not in generated.stdout + generated.stderr, generated
    sys.path.insert(0, str(directory))
    try:
        yield GeneratedApi(importlib.import_module(PACKAGE), document)
    finally:
        sys.path.remove(str(directory))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@dataclass(frozen=True)
class Live:
    url: str
    app: Flask


@pytest.fixture(scope="module")
def live(app, base_config, _upstream_sandboxes, database_snapshot) -> Iterator[Live]:
    """The product on a loopback port, on the upstream and card sandboxes, committing for real (cleaned up after)."""
    stripe = StripeSandbox(webhook_secret=WEBHOOK_SECRET).start()
    server_app = live_server_app(base_config, _upstream_sandboxes.settings, stripe.url, INTERNAL_TOKEN)
    with server_app.app_context():
        redis_store.client.flushdb()  # no failed job or counter of an earlier test
        reference_data.brands()
        reference_data.plans()
        db.session.commit()
        db.session.remove()
    server = LoopbackServer(server_app, name="generated-client-server", quiet=True).start()
    server_app.config["BASE_URL"] = server.url  # the checkout's return addresses: known once the port is
    stripe.webhook_url = f"{server.url}/api/payments/card/webhook"
    try:
        yield Live(server.url, server_app)
    finally:
        server.stop()
        stripe.stop()


# --- steps of a day --------------------------------------------------------------------------------------------


def sign_up(api: GeneratedApi, url: str, name: str) -> Any:
    """A new dealer signs up through the generated client; a client carrying their session."""
    site = api.site(url)
    body = api.model("SignUpBody", name=name, email=f"{uuid.uuid4().hex[:10]}@example.com", password=PASSWORD)
    signed_up = api.call(site, "auth.api.sign_up", 201, body=body)
    assert signed_up.user.name == name
    return api.session(url, site.get_httpx_client().cookies[COOKIE_NAME])


def pay(api: GeneratedApi, dealer: Any, plan_key: str, brand_ids: list[int]) -> Any:
    """Choose a plan, pay on the hosted checkout as the dealer's browser does; the completed payment."""
    choice = api.model("PlanChoiceBody", plan_key=plan_key, billing_period="monthly", brand_ids=brand_ids)
    checkout = api.call(dealer, "billing.payments_api.card_checkout", body=choice)
    paid = httpx.post(f"{checkout.url}/complete", timeout=30)  # the Pay button; the sandbox calls our webhook
    assert paid.status_code == 303
    [payment] = api.call(dealer, "billing.payments_api.my_payments")
    assert payment.status == "completed" and payment.plan_name
    return payment


def first_leaf(api: GeneratedApi, dealer: Any, vehicle_id: int) -> Any:
    """Walk down the first branch of the tree to a leaf: its detail."""
    tree = api.call(dealer, "catalog.api.tree", vehicle_id=vehicle_id)
    node = tree.categories[0]
    while True:
        detail = api.call(dealer, "catalog.api.category", vehicle_id=vehicle_id, category_id=node.id)
        if detail.category.leaf:
            return detail
        children = api.call(dealer, "catalog.api.children", vehicle_id=vehicle_id, category_id=node.id)
        assert [child.id for child in children.categories] == [child.id for child in detail.children]
        node = detail.children[0]


def brand_ids(api: GeneratedApi, url: str, *names: str) -> list[int]:
    brands = api.call(api.site(url), "billing.api.brands")
    return [brand.id for brand in brands.brands if brand.name in names]


# --- the dealer's day ------------------------------------------------------------------------------------------


@pytest.mark.no_isolation
def test_a_dealers_day_through_the_generated_client(api, live):
    url = live.url
    dealer = sign_up(api, url, "Oto Parça Ahmet")
    assert api.call(dealer, "auth.api.get_session").user.name == "Oto Parça Ahmet"
    plans = api.call(api.site(url), "billing.api.plans")
    assert {plan.key for plan in plans.plans} >= {"single", "trio", "full"}

    trial = api.call(dealer, "billing.api.start_trial", 201)  # no body, no Content-Type
    assert trial.status == "trial"
    assert api.call(dealer, "billing.api.me").id == trial.id

    decoded = api.call(dealer, "vehicles.api.decode_route", body=api.model("DecodeBody", vin=VIN_GOLF))
    golf = decoded.vehicle.id
    assert decoded.result == "vehicle" and api.call(dealer, "vehicles.api.vehicle", vehicle_id=golf).vin == VIN_GOLF
    leaf = first_leaf(api, dealer, golf)
    part = next(part for part in leaf.parts if part.oem_code and not part.reference)
    copied = api.call(dealer, "catalog.copies_api.copy", 201, vehicle_id=golf, part_id=part.id)  # no body
    assert copied.oem_code == part.oem_code
    found = api.call(dealer, "catalog.search_api.search_vehicle", vehicle_id=golf, q=part.oem_code)
    assert part.id in [hit.id for hit in found.parts]
    used = api.call(dealer, "catalog.where_used_api.lookup", oem=part.oem_code)
    assert golf in [vehicle.id for vehicle in used.vehicles]
    api.call(dealer, "catalog.api.progress", vehicle_id=golf)

    candidates = api.call(dealer, "vehicles.api.decode_route", body=api.model("DecodeBody", vin=VIN_COROLLA))
    assert candidates.result == "candidates" and len(candidates.candidates) > 1
    pick = api.model("DecodeBody", vin=VIN_COROLLA, catapi_car_id=candidates.candidates[0].car_id)
    corolla = api.call(dealer, "vehicles.api.decode_route", body=pick).vehicle.id
    again = api.call(dealer, "vehicles.api.choose_again", vehicle_id=corolla)  # no body
    assert again.result == "candidates" and [car.chosen for car in again.candidates].count(True) == 1
    history = api.call(dealer, "vehicles.api.history")
    assert {item.id for item in history.items} >= {golf, corolla}
    api.call(dealer, "vehicles.api.forget", vehicle_id=golf)  # DELETE, no body
    assert golf not in [item.id for item in api.call(dealer, "vehicles.api.history").items]

    single = api.model(
        "PlanChoiceBody", plan_key="single", billing_period="monthly", brand_ids=brand_ids(api, url, "Volkswagen")
    )
    assert api.call(dealer, "billing.api.create", 201, body=single).status == "pending"
    assert api.call(dealer, "billing.api.cancel_pending").status == "expired"  # PATCH, no body
    payment = pay(api, dealer, "trio", brand_ids(api, url, "Volkswagen", "Renault", "Toyota"))
    receipt = api.call(dealer, "billing.payments_api.receipt", payment_id=uuid.UUID(payment.id))
    assert receipt.receipt_url
    cheaper = api.model("DowngradeBody", plan_key="single", brand_ids=brand_ids(api, url, "Volkswagen"))
    assert api.call(dealer, "billing.api.downgrade", body=cheaper).scheduled_change
    assert api.call(dealer, "billing.api.cancel_downgrade").scheduled_change is None  # DELETE, no body

    stats = api.call(dealer, "referrals.api.stats")
    invited = api.call(dealer, "referrals.api.invite", body=api.model("InviteBody", email="komsu.bayi@example.com"))
    assert invited.status
    friend = sign_up(api, url, "Komşu Bayi")
    applied = api.call(friend, "referrals.api.apply", body=api.model("ApplyReferralBody", code=stats.code))
    assert applied.referrer_name == "Oto Parça Ahmet"
    referred = api.call(dealer, "referrals.api.referrals")
    assert [item.referee_name for item in referred.items] == ["Komşu Bayi"]

    browse_the_catalogs(api, dealer)

    assert api.call(dealer, "auth.api.sign_out").success  # no body
    assert api.call(dealer, "auth.api.get_session") is None


def browse_the_catalogs(api: GeneratedApi, dealer: Any) -> None:
    """Without a VIN: the catalog API from a make to a picture, the web catalog through its wizard; open a car each."""
    brands = api.call(dealer, "browse.api.brand_list")
    assert brands.brands
    models = api.call(dealer, "browse.api.catapi_models", catalog="volkswagen")
    model = models.models[0].id
    api.call(dealer, "browse.api.catapi_parameters", catalog="volkswagen", model=model)
    car = api.call(dealer, "browse.api.catapi_cars", catalog="volkswagen", model=model).cars[0].car_id
    groups = api.call(dealer, "browse.api.catapi_groups", catalog="volkswagen", car=car)
    group = groups.groups[0].id
    schemas = api.call(dealer, "browse.api.catapi_schemas", catalog="volkswagen", car=car, group=group)
    picture = api.call(dealer, "browse.api.catapi_schema", catalog="volkswagen", car=car, schema=schemas.schemas[0].id)
    assert picture.parts
    opened = api.call(dealer, "browse.api.catapi_open", catalog="volkswagen", car=car)  # no body
    api.call(dealer, "catalog.api.tree", vehicle_id=opened.vehicle_id)

    vehicles = api.call(dealer, "browse.api.scrape_vehicles", brand="renault")
    clio = next(vehicle for vehicle in vehicles.vehicles if vehicle.model == "Clio").catalog_code
    wizard = api.call(dealer, "browse.api.scrape_wizard", brand="renault")
    api.call(dealer, "browse.api.scrape_selector", brand="renault", step="engine", body=wizard.options[0])
    api.call(dealer, "browse.api.scrape_wizard_vehicles", brand="renault", model="clio")
    scrape_groups = api.call(dealer, "browse.api.scrape_groups", brand="renault", code=clio)
    api.call(dealer, "browse.api.scrape_parts", brand="renault", code=clio, group=scrape_groups.groups[0].id)
    api.call(dealer, "browse.api.scrape_open", brand="renault", code=clio)  # no body


# --- a clerk's day through a shop API key -----------------------------------------------------------------------


@pytest.mark.no_isolation
def test_a_clerks_day_with_only_an_api_key(api, live):
    """The owner makes a clerk key; an integration holding only that key decodes, walks the tree to a leaf, searches,
    looks a number up on the shop's list and quotes it, and is refused what a clerk may not do."""
    url = live.url
    owner = sign_up(api, url, "Anahtarlı Bayi")
    api.call(owner, "billing.api.start_trial", 201)
    clerk_role = api.models.NewShopApiKeyBodyRole.CLERK
    body = api.model("NewShopApiKeyBody", name="Tezgâh entegrasyonu", role=clerk_role)
    made = api.call(owner, "shops.keys_api.create_key", 201, body=body)
    clerk = api.key(url, made.secret)

    decoded = api.call(clerk, "vehicles.api.decode_route", body=api.model("DecodeBody", vin=VIN_GOLF))
    golf = decoded.vehicle.id
    leaf = first_leaf(api, clerk, golf)
    part = next(part for part in leaf.parts if part.oem_code and not part.reference)
    found = api.call(clerk, "catalog.search_api.search_vehicle", vehicle_id=golf, q=part.oem_code)
    assert part.id in [hit.id for hit in found.parts]
    stock_the_part(live, api.call(owner, "auth.api.get_session").user.id, part.oem_code)
    shelf = api.call(clerk, "shelf.lookup_api.lookup_number", number=part.oem_code)
    assert shelf.stock == 4
    quote = api.call(clerk, "quotes.api.create", 201, body=api.model("QuoteCreate", vehicle_id=golf, customer="Usta"))
    quoted = api.call(
        clerk, "quotes.api.add_line", 201, quote_id=quote.id, body=api.model("QuoteLineCreate", part_id=part.id)
    )
    assert [line.oem_code for line in quoted.lines] == [part.oem_code]
    assert [listed.id for listed in api.call(owner, "quotes.api.list_quotes").quotes] == [quote.id]  # the shop's

    from parcabul_generated_client.api.shops import shops_keys_api_list_keys

    assert shops_keys_api_list_keys.sync_detailed(client=clerk).status_code == 403  # the owner's, not a clerk key's
    [listed] = api.call(owner, "shops.keys_api.list_keys").keys
    assert listed.last_used_at and listed.prefix == made.secret[:11]
    api.call(owner, "shops.keys_api.revoke_key", key_id=listed.id)
    assert shops_keys_api_list_keys.sync_detailed(client=clerk).status_code == 401


def stock_the_part(live: Live, owner_id: str, oem_code: str) -> None:
    """The shop's list in use holds the part (its import has its own tests)."""
    with live.app.app_context():
        owner = db.session.get(User, uuid.UUID(str(owner_id)))
        shelf_list(owner, [{"oem": oem_code, "name": "Parça", "price": "100", "stock": 4}])
        db.session.commit()
        db.session.remove()


# --- the founder's day ------------------------------------------------------------------------------------------


def failed_job(live: Live) -> str:
    """A job that fails when a worker runs it (a heartbeat given an argument it does not take)."""
    job_id = f"broken-{uuid.uuid4().hex[:8]}"
    with live.app.app_context():
        queues.enqueue("default", "app.core.tasks.heartbeat", "unexpected", job_id=job_id)
        run_default_queue()
    return job_id


def run_default_queue() -> None:
    SimpleWorker([queues.get("default")], connection=redis_store.client).work(burst=True)


@pytest.mark.no_isolation
def test_the_founders_day_through_the_generated_client(api, live):
    founder = api.founder(live.url)
    token = {"x_internal_token": INTERNAL_TOKEN}
    actor = api.model("ActorBody", **FOUNDER)
    dealer = sign_up(api, live.url, "Ödeyen Bayi")
    dealer_id = str(api.call(dealer, "auth.api.get_session").user.id)
    payment = pay(api, dealer, "trio", brand_ids(api, live.url, "Volkswagen", "Renault", "Toyota"))
    subscription = api.call(dealer, "billing.api.me")
    trial = api.call(sign_up(api, live.url, "Deneyen Bayi"), "billing.api.start_trial", 201)

    dashboard = api.call(founder, "internal_admin.dashboard_api.internal_figures", **token)
    assert dashboard.from_ and dashboard.to

    job = failed_job(live)
    overview = api.call(founder, "internal_admin.queues_api.overview", **token)
    assert next(queue for queue in overview.queues if queue.name == "default").failed == 1
    failed = api.call(founder, "internal_admin.queues_api.failed", name="default", **token)
    assert [item.id for item in failed.items] == [job]
    api.call(founder, "internal_admin.queues_api.retry", name="default", job_id=job, body=actor, **token)
    with live.app.app_context():
        run_default_queue()  # it fails again
    api.call(founder, "internal_admin.queues_api.delete", name="default", job_id=job, body=actor, **token)

    users = "internal_admin.users_api"
    suspended = api.call(founder, f"{users}.suspend", user_id=dealer_id, body=actor, **token)
    reactivated = api.call(founder, f"{users}.reactivate", user_id=dealer_id, body=actor, **token)
    assert (suspended.to, reactivated.to) == ("suspended", "active")
    link = api.call(founder, f"{users}.impersonate", user_id=dealer_id, body=actor, **token)
    assert link.redirect_url

    refund = "internal_admin.payments_api.refund_payment"
    some = api.call(
        founder, refund, payment_id=uuid.UUID(payment.id), body=api.model("RefundBody", amount=100, **FOUNDER), **token
    )
    rest = api.call(founder, refund, payment_id=uuid.UUID(payment.id), body=api.model("RefundBody", **FOUNDER), **token)
    assert (some.status, rest.status, rest.refunded_amount) == ("partially_refunded", "refunded", payment.amount)

    single = next(plan for plan in api.call(api.site(live.url), "billing.api.plans").plans if plan.key == "single")
    subscription_operations(api, founder, uuid.UUID(subscription.id), uuid.UUID(trial.id), single.id)
    assert api.call(founder, f"{users}.ban", user_id=dealer_id, body=actor, **token).to == "banned"


def subscription_operations(api: GeneratedApi, founder: Any, paid: uuid.UUID, trial: uuid.UUID, plan_id: int) -> None:
    """Extend and activate a trial; move a paid trio to the single plan with one brand, cancel it and resume it."""
    token = {"x_internal_token": INTERNAL_TOKEN}
    actor = api.model("ActorBody", **FOUNDER)
    ops = "internal_admin.subscriptions_api"
    extend = api.model("ExtendTrialBody", days=7, **FOUNDER)
    assert api.call(founder, f"{ops}.extend", subscription_id=trial, body=extend, **token).days_added == 7
    assert api.call(founder, f"{ops}.activate", subscription_id=trial, body=actor, **token).status == "active"

    change = api.model("ChangePlanBody", new_plan_id=plan_id, **FOUNDER)
    changed = api.call(founder, f"{ops}.change_plan", subscription_id=paid, body=change, **token)
    assert changed.plan.id == plan_id and changed.brand_reassignment_needed
    one_brand = api.model("BrandSetBody", brand_ids=[changed.brands[0].id], **FOUNDER)
    reassigned = api.call(founder, f"{ops}.reassign_brands", subscription_id=paid, body=one_brand, **token)
    assert [brand.id for brand in reassigned.brands] == [changed.brands[0].id]
    cancelled = api.call(founder, f"{ops}.cancel", subscription_id=paid, body=actor, **token)
    resumed = api.call(founder, f"{ops}.resume", subscription_id=paid, body=actor, **token)
    assert (cancelled.status, resumed.status) == ("cancelled", "active")


# --- an admin's body-less calls ------------------------------------------------------------------------------------


@pytest.mark.no_isolation
def test_an_admin_retries_and_deletes_with_bodiless_calls(api, live):
    email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    with live.app.app_context():
        create_user(email=email, name="Yönetici", password=PASSWORD, role="admin", email_verified=True)
        db.session.commit()
        db.session.remove()
    site = api.site(live.url)
    api.call(site, "auth.api.sign_in", body=api.model("SignInBody", email=email, password=PASSWORD))
    admin = api.session(live.url, site.get_httpx_client().cookies[COOKIE_NAME])

    job = failed_job(live)
    assert api.call(admin, "admin.queues_api.retry", name="default", job_id=job).job_id == job  # no body
    with live.app.app_context():
        run_default_queue()  # it fails again
    assert api.call(admin, "admin.queues_api.delete", name="default", job_id=job).status  # DELETE, no body
    assert api.call(admin, "admin.queues_api.failed", name="default").items == []

    term = api.model("TermBody", english="wiper linkage", turkish="silecek mekanizması")
    saved = api.call(admin, "translation.api.save_term", 201, body=term)
    removed = api.call(admin, "translation.api.delete_term", term_id=saved.term.id)  # DELETE, no body
    assert removed.status and api.call(admin, "translation.api.terms").terms == []
    assert api.call(admin, "auth.api.sign_out").success  # no body
