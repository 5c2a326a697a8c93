"""The isolation walk: nothing of one shop is ever shown to another. Shop A's owner makes A's objects through the API
(a decoded vehicle and its history, a fit answer, a quote with a customer and a priced line, a stock list, a second
branch, an open invitation, an API key and a member who accepted an invitation), planting markers in them; then every
route that takes an argument is tried, with A's ids and every method, by each member of shop B and by a member removed
from A (moved to B, their sessions revoked as sign-out revokes them: the old browser is signed out, and signed in again
they are B's). A route naming one of A's objects answers 404 or 403; no answer ever carries a marker; and A's objects
are as A left them.

ARGUMENTS maps each rule argument to how A's value for it is made; a rule argument with no entry fails the walk."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from app.accounts.models import User
from app.auth.guards import declared_access
from app.auth.sessions import revoke_user_sessions
from app.billing.models import Payment
from app.core.db import utcnow
from app.core.text import fold_code
from app.extensions import db
from app.quotes.models import QuoteLine
from app.sources.sandbox.catalog import VIN_GOLF
from app.suppliers.models import Supplier, SupplierSuggestion
from tests.billing.conftest import billing_catalog, make_subscription  # noqa: F401 - fixtures used here
from tests.catalog.test_fit_api import with_question
from tests.conftest import PASSWORD, SITE
from tests.shelf.conftest import HEADER, csv_bytes, run_worker, start, upload
from tests.shops.conftest import invitation_path
from tests.support.route_walk import (
    Member,
    api_error_code,
    is_api,
    methods_of,
    path_for,
    shop_members,
    signed_in,
    walked_rules,
    without_rate_limits,
)

# Planted in A's objects (ASCII, so no JSON escaping hides one); none may appear in an answer to anyone else.
CUSTOMER = "Zeynep Kalayci Gizlibey"
LINE_NAME = "GIZLI-KALEM-ZETA"
LINE_PRICE = "4321.77"
STOCK_CODE = "GZL-RAF-7781"
STOCK_NAME = "Gizli Raf Parcasi Omega"
STOCK_OEM = "9Z9 999 111 Q"
EQUIVALENT = "GZL-MUADIL-4242"  # a number A's manager linked to A's stock number
LIST_FILE = "gizli-raf-listesi.csv"
BRANCH_NAME = "Gizli Sube Sigma"
BRANCH_ADDRESS = "Gizlikoy Sokak 77"
BRANCH_PHONE = "0212 777 66 55"
INVITED = "gizli-davetli@example.com"
KEY_NAME = "Gizli Anahtar Kappa"
MEMBER_EMAIL = "gizli-uye@example.com"
MEMBER_NAME = "Gizli Uye Lambda"
RECEIPT = "http://localhost/static/receipts/gizli-dekont-a.pdf"
SUPPLIER_NAME = "Gizli Tedarikci Psi"
SUPPLIER_EMAIL = "gizli-siparis@example.com"
POLL = re.compile(r"/vin/pairings/([A-Za-z0-9_-]+)")
MARKERS = (
    CUSTOMER,
    LINE_NAME,
    LIST_FILE,
    RECEIPT,
    LINE_PRICE,
    "4.321,77",
    STOCK_CODE,
    STOCK_NAME,
    STOCK_OEM,
    EQUIVALENT,
    "8.765,43",
    "8765.43",
    SUPPLIER_NAME,
    SUPPLIER_EMAIL,
)
PEOPLE_MARKERS = (BRANCH_NAME, BRANCH_ADDRESS, BRANCH_PHONE, INVITED, KEY_NAME, MEMBER_EMAIL, MEMBER_NAME)
MARKERS += PEOPLE_MARKERS


@dataclass
class ShopA:
    """Shop A's objects, made by its owner through the API."""

    vehicle_id: int
    category_id: int
    part_id: int
    fact: str
    quote_id: int
    line_id: int
    import_id: int
    pairing_id: str
    branch_id: int
    invitation_id: int
    key_id: int
    member_id: str
    payment_id: str
    supplier_id: int
    link_id: int
    rule_id: int
    order_id: int
    suggestion_id: int


@dataclass(frozen=True)
class Argument:
    """A's value for a rule argument, and whether it names an object of A's (then the route must refuse: 404 or 403;
    otherwise it names reference data anyone may ask for, and only A's markers must stay out of the answer)."""

    value: Callable[[ShopA], str | int]
    names_shop_object: bool


def _reference(value: str) -> Argument:
    return Argument(lambda _a: value, names_shop_object=False)


ARGUMENTS: dict[str, Argument] = {
    # A decoded vehicle is one row for every dealer (the catalog's car); what is A's about it, the history entry, the
    # pick and the fit answer, must stay out of every answer and unchanged in A's own view.
    "vehicle_id": Argument(lambda a: a.vehicle_id, False),
    "category_id": Argument(lambda a: a.category_id, False),  # the leaf A's fit answer is about
    "part_id": Argument(lambda a: a.part_id, False),
    "fact": Argument(lambda a: a.fact, False),  # the fact A answered
    "quote_id": Argument(lambda a: a.quote_id, True),
    "line_id": Argument(lambda a: a.line_id, True),
    "import_id": Argument(lambda a: a.import_id, True),  # A's stock list
    "pairing_id": Argument(lambda a: a.pairing_id, True),  # a phone pairing A's owner opened
    "branch_id": Argument(lambda a: a.branch_id, True),  # A's second branch
    "invitation_id": Argument(lambda a: a.invitation_id, True),  # still open
    "key_id": Argument(lambda a: a.key_id, True),
    "member_id": Argument(lambda a: a.member_id, True),  # a clerk who joined A through an invitation
    "payment_id": Argument(lambda a: a.payment_id, True),  # A's bank transfer, with its receipt
    "supplier_id": Argument(lambda a: a.supplier_id, True),  # A's supplier, with a brand discount
    "link_id": Argument(lambda a: a.link_id, True),  # A's own equivalent link (its manager's confirmation)
    "rule_id": Argument(lambda a: a.rule_id, True),  # A's markup rule on its supplier
    "order_id": Argument(lambda a: a.order_id, True),
    "suggestion_id": Argument(
        lambda a: a.suggestion_id, True
    ),  # A's supplier's pending suggestion  # A's open order to its supplier, with A's quote line on it
    # A decode's progress is read under the decoding person's id; a decode ends before the walk, so none is left.
    "token": _reference("yok-boyle-bir-cozum"),
    "oem": _reference(STOCK_OEM),
    # A number's equivalents, asked by its search key (a page echoes its own path: the number as A wrote it would be
    # found in every answer): A's links stay A's.
    "number": _reference(
        fold_code(STOCK_OEM)
    ),  # where a number of A's stock list is used: reference data, never A's stock
    "code": _reference("A1"),
    "trail": _reference("1/2"),
    "provider": _reference("google"),
    "brand": _reference("bmw"),
    "catalog": _reference("bmw"),
    "model": _reference("1"),
    "car": _reference("1"),
    "group": _reference("1"),
    "schema": _reference("1"),
    "step": _reference("1"),
}
# The seats of each shop's plan: its three members, the clerk A invites and the invitation A leaves open.
SEATS = 10


def member_routes(app) -> list:
    """The rules with arguments that a shop member may reach: public routes (a shared quote's link) answer anyone by
    design, and the site admins' are refused to every member (tests/core/test_role_walk.py)."""
    return [
        rule
        for rule in walked_rules(app)
        if rule.arguments and declared_access(app.view_functions[rule.endpoint]) not in ("public", "admin")
    ]


def test_every_argument_has_a_way_to_make_shop_a_s_value(app):
    arguments = {name for rule in member_routes(app) for name in rule.arguments}
    missing = sorted(arguments - ARGUMENTS.keys())
    assert not missing, f"rule arguments with no entry in ARGUMENTS: {missing}"


def _ok(response) -> dict:
    assert response.status_code in (200, 201, 202), (response.status_code, response.get_data(as_text=True)[:300])
    return response.get_json()


def _make_people_of_shop_a(app, owner: Member) -> dict:
    """A second branch, an open invitation, an API key and a clerk who joined through the mailed link."""
    client = owner.client
    branch = {"name": BRANCH_NAME, "address": BRANCH_ADDRESS, "phone": BRANCH_PHONE}
    branch_id = _ok(client.post("/api/shop/branches", json=branch, headers=SITE))["id"]
    open_invitation = {"email": INVITED, "role": "clerk", "branchId": branch_id}
    invitation_id = _ok(client.post("/api/shop/invitations", json=open_invitation, headers=SITE))["id"]
    key = {"name": KEY_NAME, "role": "clerk"}
    key_id = _ok(client.post("/api/shop/keys", json=key, headers=SITE))["key"]["id"]
    _ok(client.post("/api/shop/invitations", json={"email": MEMBER_EMAIL, "role": "clerk"}, headers=SITE))
    newcomer = app.test_client()
    token = invitation_path(newcomer, MEMBER_EMAIL).rsplit("/", 1)[1]
    joined = {"token": token, "name": MEMBER_NAME, "password": PASSWORD}
    _ok(newcomer.post("/api/shop/invitation/accept", json=joined, headers=SITE))
    members = _ok(client.get("/api/shop/members"))["items"]
    member_id = next(item["id"] for item in members if item["name"] == MEMBER_NAME)
    return {"branch_id": branch_id, "invitation_id": invitation_id, "key_id": key_id, "member_id": member_id}


def _make_shop_a(app, owner: Member) -> ShopA:
    client = owner.client
    vehicle = _ok(client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE))["vehicle"]["id"]
    leaf = with_question(client, vehicle)
    question = leaf["fit"]["question"]
    fact_url = f"/api/vehicles/{vehicle}/fit/answers/{question['fact']}"
    _ok(client.put(fact_url, json={"value": question["options"][0]["value"]}, headers=SITE))
    quote = _ok(client.post("/api/quotes", json={"vehicleId": vehicle, "customer": CUSTOMER}, headers=SITE))
    line = {"kind": "free", "name": LINE_NAME, "unitPrice": LINE_PRICE}
    lines = _ok(client.post(f"/api/quotes/{quote['id']}/lines", json=line, headers=SITE))["lines"]
    stock = [STOCK_CODE, STOCK_OEM, "VW", STOCK_NAME, "8.765,43", "TL", "4", "", ""]
    preview = upload(client, csv_bytes([HEADER, stock]), LIST_FILE)
    listed = preview.get_json()
    _ok(start(client, listed["id"], listed["suggestedMapping"]))
    run_worker()
    link = _ok(client.post("/api/equivalents/links", json={"a": EQUIVALENT, "b": STOCK_OEM}, headers=SITE))
    pairing = owner.send("POST", "/vin/pairings")
    assert pairing.status_code == 200, pairing.get_data(as_text=True)[:300]
    poll = POLL.search(pairing.get_data(as_text=True))
    assert poll, pairing.get_data(as_text=True)[:300]
    return ShopA(
        vehicle_id=vehicle,
        category_id=leaf["category"]["id"],
        part_id=leaf["parts"][0]["id"],
        fact=question["fact"],
        quote_id=quote["id"],
        line_id=lines[0]["id"],
        import_id=listed["id"],
        pairing_id=poll[1],
        **_make_people_of_shop_a(app, owner),
        payment_id=_bank_transfer(owner.user),
        **(supplier := _make_supplier_of_shop_a(client)),
        link_id=link["id"],
        order_id=_make_order_of_shop_a(client, supplier["supplier_id"], lines[0]["id"]),
    )


def _make_supplier_of_shop_a(client) -> dict:
    terms = {"name": SUPPLIER_NAME, "orderEmail": SUPPLIER_EMAIL, "discountPercent": "7"}
    supplier_id = _ok(client.post("/api/suppliers", json=terms, headers=SITE))["id"]
    _ok(client.put(f"/api/suppliers/{supplier_id}/discounts/bmw", json={"discountPercent": 9}, headers=SITE))
    rule = {"supplierId": supplier_id, "brand": "bmw", "kind": "fixed", "value": "37"}
    rule_id = _ok(client.post("/api/suppliers/markup-rules", json=rule, headers=SITE))["id"]
    return {"supplier_id": supplier_id, "rule_id": rule_id, "suggestion_id": _suggestion_of(supplier_id)}


def _suggestion_of(supplier_id: int) -> int:
    """A pending suggestion on A's supplier's line (as the list's import writes one)."""
    supplier = db.session.get(Supplier, supplier_id)
    suggestion = SupplierSuggestion(shop_id=supplier.shop_id, supplier_id=supplier_id, own_code="GZL-1",
                                    line_key="gzl1", number_key="1k0129620e", candidate_key="1k0129620d",
                                    reason="similar_number", score=90.0)  # fmt: skip
    db.session.add(suggestion)
    db.session.commit()
    return suggestion.id


def _make_order_of_shop_a(client, supplier_id: int, line_id: int) -> int:
    """A's quote line with its supplier's offer chosen (as the offer route writes it), put on the supplier's order."""
    line = db.session.get(QuoteLine, line_id)
    line.supplier_id, line.supplier_name, line.offer_code, line.unit_cost = supplier_id, SUPPLIER_NAME, "GZL-1", 1
    db.session.commit()
    added = client.post("/api/orders", json={"supplierId": supplier_id, "quoteLineIds": [line_id]}, headers=SITE)
    return _ok(added)["order"]["id"]


def _bank_transfer(owner: User) -> str:
    """A bank transfer A's owner made before card payments (no route makes one now), with its stored receipt."""
    payment = Payment(
        user_id=owner.id, amount=39_900, status="completed", method="eft", receipt_url=RECEIPT, paid_at=utcnow()
    )
    db.session.add(payment)
    db.session.commit()
    return str(payment.id)


def _remove_from_shop(user: User, new_shop_id) -> None:
    """What removing a member does: they leave for another shop, and their sessions end as at sign-out."""
    db.session.execute(sa.update(User).where(User.id == user.id).values(shop_id=new_shop_id, shop_role="clerk"))
    revoke_user_sessions(user.id)
    db.session.commit()


def _a_s_own_view(owner: Member, a: ShopA) -> list:
    client = owner.client
    return [
        client.get(f"/api/quotes/{a.quote_id}").get_json(),
        client.get(f"/api/shelf/imports/{a.import_id}").get_json(),
        [item["id"] for item in client.get("/api/vehicles/history").get_json()["items"]],
        client.get(f"/api/vehicles/{a.vehicle_id}/fit").get_json(),
        client.get("/api/shop/branches").get_json(),
        client.get("/api/shop/invitations").get_json(),
        client.get("/api/shop/keys").get_json(),
        client.get("/api/shop/members").get_json(),
        client.get(f"/api/payments/{a.payment_id}/receipt").get_json(),
        client.get(f"/api/suppliers/{a.supplier_id}").get_json(),
        client.get("/api/suppliers/markup-rules").get_json(),
        client.get(f"/api/equivalents/{STOCK_OEM}").get_json(),
        client.get(f"/api/orders/{a.order_id}").get_json(),
        client.get(f"/api/suppliers/{a.supplier_id}/suggestions").get_json(),
    ]


@pytest.fixture
def shops(app, monkeypatch, upstreams, make_subscription):  # noqa: F811
    without_rate_limits(monkeypatch)
    a_members, b_members = shop_members(app, "a"), shop_members(app, "b")
    for members in (a_members, b_members):  # a plan opens everything (only the shop refuses): one per shop
        make_subscription(members["owner"].user, "active", plan_key="full", seats=SEATS)
    a = _make_shop_a(app, a_members["owner"])
    removed = a_members["clerk"]
    _remove_from_shop(removed.user, b_members["owner"].user.shop_id)
    removed.label = "removed from A (old session)"
    again = signed_in(app, "removed from A, signed in again", removed.user)
    return a, a_members["owner"], [*b_members.values(), again], removed


def _text(response) -> str:
    """The answer as text (a download, such as an order's XLSX, is bytes that are no UTF-8)."""
    return response.get_data().decode(errors="replace")


def _leak(response) -> str | None:
    text = _text(response)
    return next((marker for marker in MARKERS if marker in text), None)


def _refused(response, path: str, names_shop_object: bool) -> bool:
    if not names_shop_object:
        return True
    return response.status_code in (403, 404)


def _signed_out(response, path: str) -> bool:
    if is_api(path):
        return response.status_code == 401 and api_error_code(response) == "unauthorized"
    return response.status_code == 302 and "/login" in response.headers.get("Location", "")


def test_no_route_shows_or_changes_shop_a_s_objects_for_anyone_else(app, shops):
    a, owner, intruders, removed = shops
    before = _a_s_own_view(owner, a)
    problems, tried, seen_by_a = [], 0, set()
    for rule in member_routes(app):
        covered = [name for name in rule.arguments if name in ARGUMENTS]
        if len(covered) < len(rule.arguments):
            continue  # the argument test above fails on it
        path = path_for(rule, {name: ARGUMENTS[name].value(a) for name in covered})
        names_object = any(ARGUMENTS[name].names_shop_object for name in covered)
        if "GET" in rule.methods:
            seen_by_a.update(marker for marker in MARKERS if marker in _text(owner.send("GET", path)))
        for method in methods_of(rule):
            for member in intruders:
                tried += 1
                response = member.send(method, path)
                where = f"{member.label}: {method} {path} answered {response.status_code}"
                if marker := _leak(response):
                    problems.append(f"{where} with A's {marker!r}")
                elif not _refused(response, path, names_object):
                    problems.append(f"{where}, not 404/403 ({api_error_code(response)})")
            response = removed.send(method, path)
            if not _signed_out(response, path) or _leak(response):
                problems.append(f"{removed.label}: {method} {path} answered {response.status_code}, not signed out")
    assert tried > 200
    # The same reads show A's owner the markers: a leak would be seen. No walked read takes a branch, invitation, key
    # or member id (those routes change things): A's own lists show those markers.
    assert {CUSTOMER, LINE_NAME, LINE_PRICE, LIST_FILE, RECEIPT, SUPPLIER_NAME, EQUIVALENT} <= seen_by_a, seen_by_a
    assert all(marker in json.dumps(before) for marker in PEOPLE_MARKERS), before
    assert not problems, "\n".join(problems)
    assert _a_s_own_view(owner, a) == before
