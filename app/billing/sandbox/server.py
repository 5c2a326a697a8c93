"""The sandbox's server: Stripe's API routes, the hosted pay page's routes and the objects they keep (checkout
sessions, payment intents, charges, refunds, disputes), with what the customer or Stripe does to them for tests."""

from __future__ import annotations

import copy
import logging
import secrets
import threading
import time
from typing import Any

from werkzeug.exceptions import HTTPException, NotFound, Unauthorized
from werkzeug.routing import Map, Rule
from werkzeug.utils import redirect
from werkzeug.wrappers import Request, Response

from app.billing.sandbox import events
from app.billing.sandbox.pages import ASSETS, STATIC_DIR, pay_page_html, receipt_html
from app.billing.sandbox.wire import idempotency_error, json_response, new_id, parse_stripe_form, stripe_error
from app.core.loopback import LoopbackServer

log = logging.getLogger(__name__)

DISPUTE_OUTCOMES = ("won", "lost", "warning_closed")

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


def _whole_number(value: Any) -> int | None:
    text = str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def _line_item(item: dict) -> dict:
    quantity, unit_amount = int(item.get("quantity", 1)), int(item["price_data"]["unit_amount"])
    return {
        "object": "item",
        "description": item["price_data"]["product_data"]["name"],
        "quantity": quantity,
        "amount_total": quantity * unit_amount,
    }


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
            return stripe_error("No such resource.", 404)
        except Unauthorized:
            return stripe_error("Invalid API Key provided.", 401, code="invalid_api_key")
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
            return stripe_error("mode=payment and line_items are required.", 400, code="parameter_missing")
        session = self._session_from(params, items)
        with self._lock:
            self.sessions[session["id"]] = session
        return json_response(session)

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
            # As Stripe shows them when expanded: each line's name, quantity (seats, for a seat line) and total.
            "line_items": {"object": "list", "data": [_line_item(item) for item in items]},
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
        return json_response(self._find(self.sessions, session_id))

    def _expire_session(self, _request: Request, session_id: str) -> Response:
        session = self._find(self.sessions, session_id)
        if session["status"] != "open":
            return stripe_error("Only an open Checkout Session can be expired.", 400, code="checkout_session_not_open")
        # Stripe notifies after answering; delivering inline would wait on the caller's own open transaction.
        self.expire(session_id, deliver_later=True)
        return json_response(self._public_session(session))

    def _get_payment_intent(self, request: Request, intent_id: str) -> Response:
        intent = dict(self._find(self.payment_intents, intent_id))
        expand = [value for key, value in request.args.items(multi=True) if key.startswith("expand")]
        if "latest_charge" in expand and intent.get("latest_charge"):
            intent["latest_charge"] = self._find(self.charges, intent["latest_charge"])
        return json_response(intent)

    def _get_charge(self, _request: Request, charge_id: str) -> Response:
        return json_response(self._find(self.charges, charge_id))

    def _create_refund(self, request: Request) -> Response:
        """Refund a payment intent's charge as Stripe does: once per Idempotency-Key, never past what is left."""
        params = parse_stripe_form(list(request.form.items(multi=True)))
        key = request.headers.get("Idempotency-Key")
        with self._lock:
            if key in self._idempotent:
                first_params, refund = self._idempotent[key]
                if first_params != params:
                    return idempotency_error(key)
                return json_response(refund)  # the same refund again; no second refund, no second event
            try:
                refund, charge = self._refund(params.get("payment_intent", ""), params.get("amount"), params)
            except SandboxRefundError as refusal:
                return stripe_error(refusal.message, 400, code=refusal.code)
            if key:
                self._idempotent[key] = (params, refund)
        # Stripe notifies after answering; delivering inline would wait on the caller's own open transaction.
        self.send_event("charge.refunded", charge, deliver_later=True)
        return json_response(refund)

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
            "id": new_id("re"),
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
        return Response(receipt_html(self._find(self.charges, charge_id)), mimetype="text/html")

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
        return Response(pay_page_html(session), mimetype="text/html")

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
                "id": new_id("pi"),
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
                "id": new_id("dp"),
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
        charge_id = new_id("ch")
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
        return events.make_event(event_type, data_object)

    def signed(self, event: dict, secret: str | None = None) -> tuple[bytes, dict[str, str]]:
        """The body and headers Stripe would deliver `event` with."""
        return events.signed(event, secret if secret is not None else self.webhook_secret)

    def send_event(self, event_type: str, data_object: dict, deliver_later: bool = False) -> dict:
        """Build the event and, when a webhook URL is set, deliver it signed; return the event either way."""
        event = self.make_event(event_type, data_object)
        with self._lock:
            self.events.append(event)
        if self.webhook_url and deliver_later:
            events.deliver_later(self.webhook_url, self.webhook_secret, event)
        elif self.webhook_url:
            events.deliver(self.webhook_url, self.webhook_secret, event)
        return event
