"""A stand-in for the card provider (Stripe) on loopback: the API calls our gateway makes, a hosted payment page
and signed webhook deliveries.

`make run` starts it when no STRIPE_SECRET_KEY is configured, and the tests use it as the fake Stripe, so the
real stripe SDK is exercised end to end without the internet. Any Bearer key is accepted.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import requests
from markupsafe import escape
from werkzeug.exceptions import HTTPException, NotFound, Unauthorized
from werkzeug.routing import Map, Rule
from werkzeug.utils import redirect
from werkzeug.wrappers import Request, Response

from app.billing.money import turkish_amount
from app.core.loopback import LoopbackServer

log = logging.getLogger(__name__)

API_VERSION = "2025-01-27.acacia"
WEBHOOK_TIMEOUT_SECONDS = 10
_BRACKETS = re.compile(r"\[([^\]]*)\]")
# The product's own stylesheet and icon, served from the sandbox so its pages look like the rest of Parça Bul.
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
ASSETS = {"app.css": ("css/app.css", "text/css"), "favicon.svg": ("favicon.svg", "image/svg+xml")}
STYLESHEET_PATH = "/assets/app.css"
DISPUTE_OUTCOMES = ("won", "lost", "warning_closed")
RECEIPT_ZONE = ZoneInfo("Europe/Istanbul")

URLS = Map(
    [
        Rule("/v1/checkout/sessions", methods=["POST"], endpoint="create_session"),
        Rule("/v1/checkout/sessions/<session_id>", methods=["GET"], endpoint="get_session"),
        Rule("/v1/checkout/sessions/<session_id>/expire", methods=["POST"], endpoint="expire_session"),
        Rule("/v1/payment_intents/<intent_id>", methods=["GET"], endpoint="get_payment_intent"),
        Rule("/v1/charges/<charge_id>", methods=["GET"], endpoint="get_charge"),
        Rule("/v1/refunds", methods=["POST"], endpoint="create_refund"),
        Rule("/receipts/<charge_id>", methods=["GET"], endpoint="receipt"),
        Rule("/pay/<session_id>", methods=["GET"], endpoint="pay_page"),
        Rule("/pay/<session_id>/complete", methods=["POST"], endpoint="pay_complete"),
        Rule("/pay/<session_id>/cancel", methods=["POST"], endpoint="pay_cancel"),
        Rule("/favicon.ico", methods=["GET"], endpoint="favicon"),
        Rule("/assets/<name>", methods=["GET"], endpoint="asset"),
    ]
)


def parse_stripe_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Rebuild the nested parameters the SDK flattens into `a[b][0][c]=v` form fields."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        head = key.split("[", 1)[0]
        path = [head, *_BRACKETS.findall(key[len(head) :])]
        node = root
        for part in path[:-1]:
            node = node.setdefault(part or str(len(node)), {})
        last = path[-1] or str(len(node))
        node[last] = value
    return _lists_from_numbered(root)


def _lists_from_numbered(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {key: _lists_from_numbered(value) for key, value in node.items()}
    if converted and all(key.isdigit() for key in converted):
        return [converted[key] for key in sorted(converted, key=int)]
    return converted


def stripe_signature(secret: str, payload: bytes, timestamp: int | None = None) -> str:
    """The Stripe-Signature header value for `payload`, as Stripe computes it."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    signed = f"{timestamp}.".encode() + payload
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def _new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data), status=status, mimetype="application/json")


def _stripe_error(message: str, status: int, code: str = "resource_missing") -> Response:
    return _json({"error": {"type": "invalid_request_error", "code": code, "message": message}}, status)


def _idempotency_error(key: str) -> Response:
    message = (
        "Keys for idempotent requests can only be used with the same parameters they were first used with. "
        f"Try using a key other than '{key}' if you meant to execute a different request."
    )
    return _json({"error": {"type": "idempotency_error", "message": message}}, 400)


def _whole_number(value: Any) -> int | None:
    text = str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


class SandboxRefundError(Exception):
    """A refund Stripe would refuse with a 400: its message and error code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class StripeSandbox:
    """A fake Stripe served from a daemon thread; `webhook_url` and `webhook_secret` may be set after start."""

    def __init__(self, webhook_url: str = "", webhook_secret: str = "", host: str = "127.0.0.1", port: int = 0):
        self.webhook_url = webhook_url
        self.webhook_secret = webhook_secret
        self.sessions: dict[str, dict] = {}
        self.payment_intents: dict[str, dict] = {}
        self.charges: dict[str, dict] = {}
        self.refunds: dict[str, dict] = {}
        self.disputes: dict[str, dict] = {}
        self.events: list[dict] = []  # every event built, delivered or not, oldest first
        # Idempotency-Key -> (the parameters it was first used with, the refund answered then).
        self._idempotent: dict[str, tuple[dict, dict]] = {}
        self._lock = threading.Lock()
        self._server = LoopbackServer(self.wsgi, host=host, port=port, name="stripe-sandbox")

    @property
    def url(self) -> str:
        return self._server.url

    def start(self) -> StripeSandbox:
        self._server.start()
        log.info("card payment sandbox listening on %s", self.url)
        return self

    def stop(self) -> None:
        self._server.stop()

    # --- the WSGI side --------------------------------------------------------------------------------------

    @Request.application
    def wsgi(self, request: Request) -> Response:
        adapter = URLS.bind_to_environ(request.environ)
        try:
            endpoint, args = adapter.match()
            if request.path.startswith("/v1/"):
                self._check_key(request)
            return getattr(self, f"_{endpoint}")(request, **args)
        except NotFound:
            return _stripe_error("No such resource.", 404)
        except Unauthorized:
            return _stripe_error("Invalid API Key provided.", 401, code="invalid_api_key")
        except HTTPException as error:
            return error

    @staticmethod
    def _check_key(request: Request) -> None:
        if not request.headers.get("Authorization", "").startswith("Bearer "):
            raise Unauthorized()

    def _create_session(self, request: Request) -> Response:
        params = parse_stripe_form(list(request.form.items(multi=True)))
        items = params.get("line_items") or []
        if params.get("mode") != "payment" or not items:
            return _stripe_error("mode=payment and line_items are required.", 400, code="parameter_missing")
        session = self._session_from(params, items)
        with self._lock:
            self.sessions[session["id"]] = session
        return _json(session)

    def _session_from(self, params: dict, items: list[dict]) -> dict:
        session_id = f"cs_test_{secrets.token_hex(16)}"
        amount = sum(int(item["price_data"]["unit_amount"]) * int(item.get("quantity", 1)) for item in items)
        now = int(time.time())
        return {
            "id": session_id,
            "object": "checkout.session",
            "mode": "payment",
            "url": f"{self.url}/pay/{session_id}",
            "status": "open",
            "payment_status": "unpaid",
            "amount_total": amount,
            "currency": items[0]["price_data"]["currency"],
            "line_items_summary": [item["price_data"]["product_data"]["name"] for item in items],
            "success_url": params.get("success_url"),
            "cancel_url": params.get("cancel_url"),
            "client_reference_id": params.get("client_reference_id"),
            "customer_email": params.get("customer_email"),
            "metadata": params.get("metadata") or {},
            "payment_intent_metadata": (params.get("payment_intent_data") or {}).get("metadata") or {},
            "payment_intent": None,
            "created": now,
            "expires_at": now + 24 * 3600,
            "livemode": False,
        }

    def _get_session(self, _request: Request, session_id: str) -> Response:
        return _json(self._find(self.sessions, session_id))

    def _expire_session(self, _request: Request, session_id: str) -> Response:
        session = self._find(self.sessions, session_id)
        if session["status"] != "open":
            return _stripe_error("Only an open Checkout Session can be expired.", 400, code="checkout_session_not_open")
        # Stripe notifies after answering; delivering inline would wait on the caller's own open transaction.
        self.expire(session_id, deliver_later=True)
        return _json(self._public_session(session))

    def _get_payment_intent(self, request: Request, intent_id: str) -> Response:
        intent = dict(self._find(self.payment_intents, intent_id))
        expand = [value for key, value in request.args.items(multi=True) if key.startswith("expand")]
        if "latest_charge" in expand and intent.get("latest_charge"):
            intent["latest_charge"] = self._find(self.charges, intent["latest_charge"])
        return _json(intent)

    def _get_charge(self, _request: Request, charge_id: str) -> Response:
        return _json(self._find(self.charges, charge_id))

    def _create_refund(self, request: Request) -> Response:
        """Refund a payment intent's charge as Stripe does: once per Idempotency-Key, never past what is left."""
        params = parse_stripe_form(list(request.form.items(multi=True)))
        key = request.headers.get("Idempotency-Key")
        with self._lock:
            if key in self._idempotent:
                first_params, refund = self._idempotent[key]
                if first_params != params:
                    return _idempotency_error(key)
                return _json(refund)  # the same refund again; no second refund, no second event
            try:
                refund, charge = self._refund(params.get("payment_intent", ""), params.get("amount"), params)
            except SandboxRefundError as refusal:
                return _stripe_error(refusal.message, 400, code=refusal.code)
            if key:
                self._idempotent[key] = (params, refund)
        # Stripe notifies after answering; delivering inline would wait on the caller's own open transaction.
        self.send_event("charge.refunded", charge, deliver_later=True)
        return _json(refund)

    def _refund(self, intent_id: str, amount: Any, params: dict) -> tuple[dict, dict]:
        """Record a refund of the intent's charge (the lock held); return the refund and a copy of the charge."""
        intent = self.payment_intents.get(intent_id)
        if intent is None or intent["status"] != "succeeded":
            raise SandboxRefundError("This PaymentIntent has no successful charge to refund.", "resource_missing")
        charge = self.charges[intent["latest_charge"]]
        left = charge["amount"] - charge["amount_refunded"]
        if left <= 0:
            raise SandboxRefundError(f"Charge {charge['id']} has already been refunded.", "charge_already_refunded")
        amount = left if amount in (None, "") else _whole_number(amount)
        if amount is None or amount <= 0:
            raise SandboxRefundError("Invalid positive integer", "parameter_invalid_integer")
        if amount > left:
            raise SandboxRefundError(
                f"Refund amount ({amount}) is greater than unrefunded amount on charge ({left})", "amount_too_large"
            )
        refund = {
            "id": _new_id("re"),
            "object": "refund",
            "amount": amount,
            "currency": intent["currency"],
            "payment_intent": intent["id"],
            "charge": charge["id"],
            "metadata": params.get("metadata") or {},
            "reason": params.get("reason"),
            "status": "succeeded",
            "created": int(time.time()),
        }
        self.refunds[refund["id"]] = refund
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] >= charge["amount"]
        charge["refunds"]["data"].insert(0, refund)
        charge["refunds"]["total_count"] += 1
        return refund, copy.deepcopy(charge)

    def _receipt(self, _request: Request, charge_id: str) -> Response:
        return Response(_receipt_html(self._find(self.charges, charge_id)), mimetype="text/html")

    @staticmethod
    def _favicon(_request: Request) -> Response:
        return Response(status=204)  # browsers ask for one on the hosted page; a 404 would be a console error

    @staticmethod
    def _asset(_request: Request, name: str) -> Response:
        if name not in ASSETS:
            raise NotFound()
        path, mimetype = ASSETS[name]
        # Read on each request, so the pages follow the product's stylesheet as it is edited.
        return Response((STATIC_DIR / path).read_bytes(), mimetype=mimetype, headers={"Cache-Control": "no-cache"})

    def _pay_page(self, _request: Request, session_id: str) -> Response:
        session = self._find(self.sessions, session_id)
        return Response(_pay_page_html(session), mimetype="text/html")

    def _pay_complete(self, _request: Request, session_id: str) -> Response:
        session = self._find(self.sessions, session_id)
        if session["status"] == "open":
            self.complete(session_id)
        return redirect(session["success_url"], code=303)

    def _pay_cancel(self, _request: Request, session_id: str) -> Response:
        session = self._find(self.sessions, session_id)
        if session["status"] == "open":
            self.expire(session_id)
        return redirect(session["cancel_url"], code=303)

    @staticmethod
    def _find(store: dict[str, dict], object_id: str) -> dict:
        if object_id not in store:
            raise NotFound()
        return store[object_id]

    # --- what the customer or Stripe does; tests call these directly ------------------------------------------

    def complete(self, session_id: str) -> dict:
        """Pay the session: a succeeded payment intent with its charge, then `checkout.session.completed`."""
        with self._lock:
            session = self.sessions[session_id]
            intent = self._intent_for(session)
            intent["status"] = "succeeded"
            charge = self._charge_for(intent)
            intent["latest_charge"] = charge["id"]
            session.update(status="complete", payment_status="paid", payment_intent=intent["id"])
        return self.send_event("checkout.session.completed", self._public_session(session))

    def expire(self, session_id: str, deliver_later: bool = False) -> dict:
        """Let the session lapse (or be cancelled): `checkout.session.expired`."""
        with self._lock:
            session = self.sessions[session_id]
            session["status"] = "expired"
        return self.send_event("checkout.session.expired", self._public_session(session), deliver_later)

    def fail_payment(self, session_id: str, message: str = "Your card was declined.") -> dict:
        """Decline a card attempt on the session: `payment_intent.payment_failed`; the session stays open."""
        with self._lock:
            session = self.sessions[session_id]
            intent = self._intent_for(session)
            intent["status"] = "requires_payment_method"
            intent["last_payment_error"] = {"code": "card_declined", "message": message}
        return self.send_event("payment_intent.payment_failed", dict(intent))

    def _intent_for(self, session: dict) -> dict:
        if session["payment_intent"] is None:
            intent = {
                "id": _new_id("pi"),
                "object": "payment_intent",
                "amount": session["amount_total"],
                "currency": session["currency"],
                "status": "requires_payment_method",
                "latest_charge": None,
                "metadata": dict(session["payment_intent_metadata"]),
                "created": int(time.time()),
            }
            self.payment_intents[intent["id"]] = intent
            session["payment_intent"] = intent["id"]
        return self.payment_intents[session["payment_intent"]]

    def refund_in_dashboard(self, payment_intent_id: str, amount: int | None = None) -> dict:
        """Refund in Stripe's dashboard (all that is left when `amount` is None): `charge.refunded`."""
        with self._lock:
            _refund, charge = self._refund(payment_intent_id, amount, {})
        return self.send_event("charge.refunded", charge)

    def open_dispute(self, payment_intent_id: str, reason: str = "fraudulent") -> dict:
        """The cardholder disputes the payment with their bank: `charge.dispute.created`."""
        with self._lock:
            charge = self.charges[self.payment_intents[payment_intent_id]["latest_charge"]]
            dispute = {
                "id": _new_id("dp"),
                "object": "dispute",
                "amount": charge["amount"],
                "currency": charge["currency"],
                "charge": charge["id"],
                "payment_intent": payment_intent_id,
                "reason": reason,
                "status": "needs_response",
                "created": int(time.time()),
            }
            self.disputes[dispute["id"]] = dispute
            charge["disputed"] = True
        return self.send_event("charge.dispute.created", dict(dispute))

    def close_dispute(self, dispute_id: str, status: str) -> dict:
        """The bank decides (won, lost or warning_closed): `charge.dispute.closed`."""
        if status not in DISPUTE_OUTCOMES:
            raise ValueError(f"a dispute closes as one of {DISPUTE_OUTCOMES}, not {status!r}")
        with self._lock:
            dispute = self.disputes[dispute_id]
            dispute["status"] = status
        return self.send_event("charge.dispute.closed", dict(dispute))

    def sent(self, event_type: str) -> list[dict]:
        """The events of `event_type` built so far, oldest first."""
        return [event for event in self.events if event["type"] == event_type]

    def _charge_for(self, intent: dict) -> dict:
        charge_id = _new_id("ch")
        charge = {
            "id": charge_id,
            "object": "charge",
            "amount": intent["amount"],
            "amount_refunded": 0,
            "refunded": False,
            "refunds": {"object": "list", "data": [], "has_more": False, "total_count": 0},
            "disputed": False,
            "currency": intent["currency"],
            "paid": True,
            "status": "succeeded",
            "payment_intent": intent["id"],
            "receipt_url": f"{self.url}/receipts/{charge_id}",
            "created": int(time.time()),
        }
        self.charges[charge_id] = charge
        return charge

    @staticmethod
    def _public_session(session: dict) -> dict:
        return {key: value for key, value in session.items() if key != "payment_intent_metadata"}

    # --- webhooks ---------------------------------------------------------------------------------------------

    def make_event(self, event_type: str, data_object: dict) -> dict:
        return {
            "id": _new_id("evt"),
            "object": "event",
            "api_version": API_VERSION,
            "created": int(time.time()),
            "type": event_type,
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "data": {"object": data_object},
        }

    def signed(self, event: dict, secret: str | None = None) -> tuple[bytes, dict[str, str]]:
        """The body and headers Stripe would deliver `event` with."""
        payload = json.dumps(event).encode()
        signature = stripe_signature(secret if secret is not None else self.webhook_secret, payload)
        return payload, {"Content-Type": "application/json", "Stripe-Signature": signature}

    def send_event(self, event_type: str, data_object: dict, deliver_later: bool = False) -> dict:
        """Build the event and, when a webhook URL is set, deliver it signed; return the event either way."""
        event = self.make_event(event_type, data_object)
        with self._lock:
            self.events.append(event)
        if self.webhook_url and deliver_later:
            threading.Thread(target=self._deliver, args=(event,), name="stripe-sandbox-webhook", daemon=True).start()
        elif self.webhook_url:
            self._deliver(event)
        return event

    def _deliver(self, event: dict) -> None:
        payload, headers = self.signed(event)
        try:
            response = requests.post(self.webhook_url, data=payload, headers=headers, timeout=WEBHOOK_TIMEOUT_SECONDS)
        except requests.RequestException:
            log.warning("webhook %s for event %s could not be delivered", event["type"], event["id"], exc_info=True)
            return
        if response.status_code >= 300:
            log.warning("webhook %s answered %s for event %s", event["type"], response.status_code, event["id"])


def _display_amount(amount: int, currency: str) -> str:
    """The amount as the product shows it, the Turkish way: 149900 TRY -> "1.499,00 ₺" (other currencies by code)."""
    symbol = "₺" if currency.upper() == "TRY" else escape(currency.upper())
    return f"{turkish_amount(amount)} {symbol}"


def _page(title: str, content: str) -> str:
    """A page in the product's look: its stylesheet and header, the sandbox named as a test environment."""
    return (
        "<!doctype html><html lang='tr'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{title} · Parça Bul</title>"
        "<link rel='icon' href='/assets/favicon.svg' type='image/svg+xml'>"
        f"<link rel='stylesheet' href='{STYLESHEET_PATH}'></head><body>"
        "<header class='site-header'><div class='container header-row'>"
        "<span class='brand'><span class='brand-mark' aria-hidden='true'>⚙</span> Parça Bul</span>"
        "<span class='badge badge-warn'>Test ortamı · Sandbox</span></div></header>"
        f"<main id='main' class='container'><section class='auth-card card'>{content}</section></main>"
        "<footer class='site-footer'><div class='container footer-row'>"
        "<span>Ödeme sağlayıcısının test sayfası · The payment provider's test page</span></div></footer>"
        "</body></html>"
    )


def _test_notice() -> str:
    return (
        "<p class='notice notice-warn'>Test ortamı: gerçek bir ödeme alınmaz, kart bilgisi istenmez. "
        "· Sandbox: no real payment is taken and no card is asked for.</p>"
    )


def _pay_page_html(session: dict) -> str:
    session_id = escape(session["id"])
    items = ", ".join(str(escape(name)) for name in session["line_items_summary"])
    if session["status"] != "open":
        actions = (
            f"<p class='notice'>Bu ödeme oturumu kapandı · This checkout session is {escape(session['status'])}.</p>"
        )
    else:
        actions = (
            f"<form class='form-stack' method='post' action='/pay/{session_id}/complete'>"
            "<button type='submit' class='button button-block'>Öde · Pay</button></form>"
            f"<form class='form-stack' method='post' action='/pay/{session_id}/cancel'>"
            "<button type='submit' class='button button-secondary button-block'>Vazgeç · Cancel</button></form>"
        )
    email = session.get("customer_email")
    payer = f"<p class='muted'>{escape(email)}</p>" if email else ""
    return _page(
        "Ödeme · Checkout",
        "<h1>Ödeme · Checkout</h1>"
        f"<p class='muted'>{items}</p>{payer}"
        f"<p class='plan-price amount'>{_display_amount(session['amount_total'], session['currency'])}</p>"
        f"{_test_notice()}{actions}",
    )


def _receipt_html(charge: dict) -> str:
    paid = f"{datetime.fromtimestamp(charge['created'], RECEIPT_ZONE):%d.%m.%Y}"
    rows = [
        ("Makbuz no · Receipt no", escape(charge["id"])),
        ("Tarih · Date", paid),
        ("Tutar · Amount", _display_amount(charge["amount"], charge["currency"])),
    ]
    if charge.get("amount_refunded"):
        rows.append(("İade edilen · Refunded", _display_amount(charge["amount_refunded"], charge["currency"])))
    details = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows)
    return _page(
        "Makbuz · Receipt",
        "<h1>Makbuz · Receipt</h1>"
        f"<p class='plan-price amount'>{_display_amount(charge['amount'], charge['currency'])}</p>"
        f"<dl class='details'>{details}</dl>{_test_notice()}",
    )
