"""Card payments under /api/payments: checkout, the provider's webhook, the history and receipts."""

from __future__ import annotations

import uuid

from flask import Blueprint, jsonify, request
from flask_login import current_user

from app.billing import payment_history, payments, stripe_gateway
from app.billing.schemas import (
    CheckoutOut,
    PaymentItem,
    PlanChoiceBody,
    Receipt,
    WebhookEvent,
    WebhookHeaders,
    WebhookReceived,
)
from app.core.openapi import documented
from app.core.security import public, shop_role
from app.core.validation import json_body

bp = Blueprint("payments_api", __name__, url_prefix="/api/payments")
bp.record_once(lambda state: stripe_gateway.init_app(state.app))


@bp.post("/card/checkout")
@documented(CheckoutOut, body=PlanChoiceBody, errors=(409, 502), summary="Open the hosted card checkout for a plan")
@shop_role("owner")
def card_checkout():
    data = json_body()
    url = payments.start_card_checkout(
        current_user, data.get("planKey"), data.get("billingPeriod"), data.get("brandIds"), data.get("seats")
    )
    return jsonify(url=url)


@bp.post("/card/webhook")
@documented(
    WebhookReceived, body=WebhookEvent, headers=WebhookHeaders, public=True, summary="The card provider's signed events"
)
@public  # the provider's signature over the raw body is the authentication
def card_webhook():
    raw_body = request.get_data(cache=False)  # the exact bytes that were signed, before anything parses them
    event = stripe_gateway.parse_webhook(raw_body, request.headers.get("Stripe-Signature"))
    payments.handle_webhook_event(event)
    return jsonify(received=True)


@bp.get("/me")
@documented(list[PaymentItem], summary="The payments of the caller's shop, newest first")
@shop_role("owner")
def my_payments():
    return jsonify(payment_history.payment_history(current_user))


@bp.get("/<uuid:payment_id>/receipt")
@documented(Receipt, errors=(404,), summary="A payment's receipt address")
@shop_role("owner")
def receipt(payment_id: uuid.UUID):
    return jsonify(receiptUrl=payment_history.receipt_for(current_user, payment_id))
