"""The dealer back from the hosted card checkout (`/subscription?checkout=success|cancelled`): the legacy payment UI's
`payment_redirect_returned` event, sent by the server from the page the provider sends the dealer to, as the other
front-end events are (app.vehicles.views, app.demo.views).

The event names the checkout the dealer comes back from: the newest card payment they started within a provider
session's lifetime. A reload of the page, or its "Refresh" link while the payment is being confirmed, reports nothing
more: each payment's return is counted once per outcome (a marker in Redis; with Redis not answering the event is sent,
a rare double count being better than a hole in the funnel).
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from app.accounts.models import User
from app.analytics.services import capture
from app.billing.models import Payment
from app.billing.payments import payment_properties
from app.core.db import utcnow
from app.extensions import db, redis_store

OUTCOMES = ("success", "cancelled")
SESSION_LIFETIME = timedelta(hours=24)  # a hosted checkout session expires a day after it is opened
MARKER = "analytics:payment-returned:"
MARKER_SECONDS = int(SESSION_LIFETIME.total_seconds()) * 2  # outlives any return from a session


def report_return(user: User, outcome: str | None) -> None:
    """Report the dealer's return from the checkout they started last, once per payment and outcome."""
    if outcome not in OUTCOMES:
        return
    payment = db.session.scalar(
        sa.select(Payment)
        .where(
            Payment.user_id == user.id,  # the checkout this member started
            Payment.method == "card",
            Payment.checkout_session_id.is_not(None),
            Payment.created_at >= utcnow() - SESSION_LIFETIME,
        )
        .order_by(Payment.created_at.desc(), Payment.id)
        .limit(1)
    )
    if payment is None:
        return
    marker = f"{MARKER}{payment.id}:{outcome}"
    # Redis not answering: the event is sent (a rare double count is better than a hole in the funnel).
    if not redis_store.first_in_window("checkout return marker", marker, MARKER_SECONDS, when_down=True):
        return
    properties = payment_properties(payment, payment.subscription)
    capture(str(user.id), "payment_redirect_returned", {**properties, "outcome": outcome, "status": payment.status})
