"""The daily lifecycle mails: a trial about to end, and a dealer whose subscription ended a week ago (win-back).

Each run looks at a one-day window of end dates (trials ending between TRIAL_ENDING_AHEAD and one day later; periods
that ended between WIN_BACK_AFTER and one day earlier), so runs a day apart see each subscription once; a second run
on the same day writes nothing again, because each message carries its subscription's dedupe key. A dealer who is
back on a live plan gets no win-back. The mails go to the owners of the subscription's shop.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from app.accounts.models import User
from app.billing.models import LIVE_STATUSES, Subscription
from app.core.db import begin_writes, utcnow
from app.extensions import db
from app.notifications.services import send_email

TRIAL_ENDING_AHEAD = timedelta(days=2)
WIN_BACK_AFTER = timedelta(days=7)
WINDOW = timedelta(days=1)


@dataclass
class LifecycleReport:
    trial_ending: int = 0
    win_back: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"trialEnding": self.trial_ending, "winBack": self.win_back}


def send_lifecycle_mail(now: datetime | None = None) -> LifecycleReport:
    now = now or utcnow()
    report = LifecycleReport()
    begin_writes(db.session)
    for subscription, user in _trials_ending(now):
        report.trial_ending += _mail(user, subscription, "trial_ending", end_date=subscription.end_date)
    for subscription, user in _ended_a_week_ago(now):
        report.win_back += _mail(user, subscription, "win_back", plan_name=subscription.plan.label)
    db.session.commit()
    return report


def _trials_ending(now: datetime) -> list[tuple[Subscription, User]]:
    start = now + TRIAL_ENDING_AHEAD
    return _with_users(
        sa.select(Subscription, User).where(
            Subscription.status == "trial", Subscription.end_date >= start, Subscription.end_date < start + WINDOW
        )
    )


def _ended_a_week_ago(now: datetime) -> list[tuple[Subscription, User]]:
    end = now - WIN_BACK_AFTER
    live_now = sa.exists().where(
        Subscription.shop_id == User.shop_id, Subscription.status.in_(LIVE_STATUSES), Subscription.end_date > now
    )
    ended = aliased(Subscription)
    return _with_users(
        sa.select(ended, User).where(
            ended.status.in_(("active", "trial", "cancelled", "expired")),
            ended.end_date >= end - WINDOW,
            ended.end_date < end,
            ~live_now,
        ),
        ended,
    )


def _with_users(query: sa.Select, model: type = Subscription) -> list[tuple[Subscription, User]]:
    owners = sa.and_(User.shop_id == model.shop_id, User.shop_role == "owner")
    joined = query.join(User, owners).where(User.status == "active").order_by(model.end_date, User.created_at)
    return [(subscription, user) for subscription, user in db.session.execute(joined).all()]


def _dedupe_key(template: str, subscription: Subscription, owner: User) -> str:
    """One message per subscription and owner; the buyer's key is the one used before shops had several owners."""
    base = f"{template}-{subscription.id}"
    return base if owner.id == subscription.user_id else f"{base}-{owner.id}"


def _mail(user: User, subscription: Subscription, template: str, **context: object) -> int:
    written = send_email(
        user.email,
        template,
        locale=user.locale,
        dedupe_key=_dedupe_key(template, subscription, user),
        name=user.name,
        **context,
    )
    return 0 if written is None else 1
