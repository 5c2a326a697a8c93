"""Stripe's events: how one is built, signed (the Stripe-Signature header) and delivered to the webhook."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time

import requests

from app.billing.sandbox.wire import new_id

log = logging.getLogger(__name__)

API_VERSION = "2025-01-27.acacia"
WEBHOOK_TIMEOUT_SECONDS = 10


def make_event(event_type: str, data_object: dict) -> dict:
    return {
        "id": new_id("evt"),
        "object": "event",
        "api_version": API_VERSION,
        "created": int(time.time()),
        "type": event_type,
        "livemode": False,
        "pending_webhooks": 1,
        "request": {"id": None, "idempotency_key": None},
        "data": {"object": data_object},
    }


def stripe_signature(secret: str, payload: bytes, timestamp: int | None = None) -> str:
    """The Stripe-Signature header value for `payload`, as Stripe computes it."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    signed = f"{timestamp}.".encode() + payload
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def signed(event: dict, secret: str) -> tuple[bytes, dict[str, str]]:
    """The body and headers Stripe would deliver `event` with."""
    payload = json.dumps(event).encode()
    return payload, {"Content-Type": "application/json", "Stripe-Signature": stripe_signature(secret, payload)}


def deliver(url: str, secret: str, event: dict) -> None:
    """POST the signed event to the webhook; a failure is logged, never raised, as Stripe would only retry later."""
    payload, headers = signed(event, secret)
    try:
        response = requests.post(url, data=payload, headers=headers, timeout=WEBHOOK_TIMEOUT_SECONDS)
    except requests.RequestException:
        log.warning("webhook %s for event %s could not be delivered", event["type"], event["id"], exc_info=True)
        return
    if response.status_code >= 300:
        log.warning("webhook %s answered %s for event %s", event["type"], response.status_code, event["id"])


def deliver_later(url: str, secret: str, event: dict) -> None:
    """Deliver from a daemon thread, so the caller can answer first."""
    threading.Thread(target=deliver, args=(url, secret, event), name="stripe-sandbox-webhook", daemon=True).start()
