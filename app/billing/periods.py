"""The end of a period: a live subscription past its end date expires; a scheduled downgrade becomes the next period.

Access already stops at the end date (every access check compares it); this job makes the stored state say so and
applies what the dealer scheduled. Each subscription is ended by a compare-and-set update in its own transaction, so
the job can run twice, or beside a web request replacing the same subscription, and each change happens once.

Payments are one checkout per period, so the scheduled plan cannot be charged by itself: it becomes the user's
pending subscription (plan and brands as scheduled), which the subscription page offers to pay with one click.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from app.billing.models import LIVE_STATUSES, Brand, Subscription
from app.billing.subscriptions.transitions import clear_schedule
from app.core.db import utcnow
from app.extensions import db

log = logging.getLogger(__name__)


@dataclass
class PeriodEndReport:
    expired: int = 0
    downgrades: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"expired": self.expired, "downgrades": self.downgrades}


def end_periods(now: datetime | None = None) -> PeriodEndReport:
    """End every live subscription whose end date has passed, each in a transaction of its own."""
    now = now or utcnow()
    report = PeriodEndReport()
    due = db.session.execute(
        sa.select(Subscription.id, Subscription.status)
        .where(Subscription.status.in_(LIVE_STATUSES), Subscription.end_date <= now)
        .order_by(Subscription.end_date)
    ).all()
    db.session.commit()  # end the read: SQLite takes its write lock per subscription, not across the whole run
    for subscription_id, status in due:
        try:
            outcome = _end_period(subscription_id, status, now)
            db.session.commit()
        except Exception:
            db.session.rollback()
            log.exception("period end of subscription %s failed; the next run tries again", subscription_id)
            continue
        report.expired += outcome.expired
        report.downgrades += outcome.downgrades
    if due:
        log.info("period end: %s", report.as_dict())
    return report


def _end_period(subscription_id: uuid.UUID, status: str, now: datetime) -> PeriodEndReport:
    """Expire one subscription if it is still `status` and due; start its scheduled downgrade; say what was done."""
    outcome = PeriodEndReport()
    ended = db.session.execute(
        sa.update(Subscription)
        .where(Subscription.id == subscription_id, Subscription.status == status, Subscription.end_date <= now)
        .values(status="expired", updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if ended.rowcount != 1:
        return outcome  # ended, replaced or extended by someone else meanwhile
    outcome.expired = 1
    subscription = db.session.get(Subscription, subscription_id, populate_existing=True)
    if status == "active" and subscription.scheduled_plan_id is not None:
        outcome.downgrades = _pending_next_period(subscription)
    clear_schedule(subscription)
    db.session.flush()
    return outcome


def _pending_next_period(ended: Subscription) -> int:
    """The scheduled plan as the shop's pending subscription, with the seats it had (at least the plan's included);
    0 when the shop is already in a checkout."""
    has_pending = sa.select(Subscription.id).where(
        Subscription.shop_id == ended.shop_id, Subscription.status == "pending"
    )
    if ended.shop_id is None or db.session.scalar(has_pending.limit(1)) is not None:
        return 0
    brand_ids = ended.scheduled_brand_ids or []
    still_sold = sa.select(Brand).where(Brand.id.in_(brand_ids), Brand.active)
    brands = list(db.session.scalars(still_sold)) if brand_ids else []
    db.session.add(
        Subscription(
            shop_id=ended.shop_id,
            user_id=ended.user_id,
            seats=max(ended.seats, ended.scheduled_plan.included_seats),
            plan_id=ended.scheduled_plan_id,
            status="pending",
            billing_period=ended.billing_period,
            brands=brands,
        )
    )
    return 1
