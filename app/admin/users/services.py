"""The admins' view of the users: search and filters, one user's page (subscription, payments, decodes, sessions,
referrals), and every referral with search. Read-only; the founder's actions are the internal API's."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.orm import aliased

from app.accounts.models import User
from app.auth.models import AuthSession
from app.billing.models import Payment, Plan, Subscription
from app.core.db import utcnow
from app.core.errors import ApiError
from app.core.text import masked_email
from app.extensions import db
from app.referrals.models import Referral
from app.vehicles.models import QueryLog

PAGE_SIZE = 25
DETAIL_ROWS = 20
STATUSES = ("active", "suspended", "banned")


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped.lower()}%"


def search(query: str = "", status: str = "", plan: str = "", page: int = 1) -> tuple[list[dict[str, Any]], bool]:
    """Users whose name or e-mail contains `query`, with a status and a live plan if asked, newest first."""
    now = utcnow()
    live_plan = (
        sa.select(Plan.key)
        .join(Subscription, Subscription.plan_id == Plan.id)
        .where(
            Subscription.user_id == User.id, Subscription.status.in_(("trial", "active")), Subscription.end_date > now
        )
        .order_by(Subscription.end_date.desc())
        .limit(1)
        .correlate(User)
        .scalar_subquery()
    )
    select = sa.select(User, live_plan.label("plan")).order_by(User.created_at.desc(), User.id)
    if query.strip():
        pattern = _like(query.strip()[:100])
        select = select.where(sa.or_(sa.func.lower(User.email).like(pattern, escape="\\"),
                                     sa.func.lower(User.name).like(pattern, escape="\\")))  # fmt: skip
    if status:
        if status not in STATUSES:
            raise ApiError("invalid_status", _("Status must be one of: %(values)s.", values=", ".join(STATUSES)), 400)
        select = select.where(User.status == status)
    if plan:
        select = select.where(live_plan == plan[:32])
    rows = db.session.execute(select.offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)).all()
    return [_row(user, plan_key) for user, plan_key in rows[:PAGE_SIZE]], len(rows) > PAGE_SIZE


def _row(user: User, plan: str | None) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "name": user.name,
        "email": user.email,
        "role": user.role,
        "status": user.status,
        "emailVerified": user.email_verified,
        "plan": plan,
        "createdAt": user.created_at.isoformat(),
    }


def detail(raw_id: str) -> dict[str, Any]:
    try:
        user = db.session.get(User, uuid.UUID(raw_id))
    except ValueError:
        user = None
    if user is None:
        raise ApiError("user_not_found", _("No such user was found."), 404)
    return {
        "user": {
            **_row(user, None),
            "statusReason": user.status_reason,
            "referralCode": user.referral_code,
            "referralCreditDays": user.referral_credit_days,
        },  # fmt: skip
        "subscriptions": [subscription_json(item) for item in _latest(Subscription, Subscription.user_id == user.id)],
        "payments": [_payment(item) for item in _latest(Payment, Payment.user_id == user.id)],
        "decodes": [_decode(item) for item in _latest(QueryLog, QueryLog.user_id == user.id)],
        "sessions": [_session(item) for item in _latest(AuthSession, AuthSession.user_id == user.id)],
        "referrals": referrals(referrer_id=user.id)[0],
    }


def _latest(model: type, where: Any) -> list[Any]:
    return list(db.session.scalars(sa.select(model).where(where).order_by(model.created_at.desc()).limit(DETAIL_ROWS)))


def subscription_json(item: Subscription) -> dict[str, Any]:
    return {
        "id": str(item.id),
        "plan": item.plan.key,
        "status": item.status,
        "billingPeriod": item.billing_period,
        "startDate": item.start_date.isoformat() if item.start_date else None,
        "endDate": item.end_date.isoformat() if item.end_date else None,
    }


def _payment(item: Payment) -> dict[str, Any]:
    return {"id": str(item.id), "amount": item.amount, "currency": item.currency, "status": item.status,
            "method": item.method, "createdAt": item.created_at.isoformat()}  # fmt: skip


def _decode(item: QueryLog) -> dict[str, Any]:
    return {
        "vin": item.vin,
        "source": item.source,
        "success": item.success,
        "responseTimeMs": item.response_time_ms,
        "resultKind": (item.timings or {}).get("result_kind"),
        "createdAt": item.created_at.isoformat(),
    }


def _session(item: AuthSession) -> dict[str, Any]:
    return {"idPrefix": item.id[:8], "expiresAt": item.expires_at.isoformat(), "persistent": item.persistent,
            "impersonated": item.impersonation_readonly, "ipAddress": item.ip_address,
            "createdAt": item.created_at.isoformat()}  # fmt: skip


def referrals(
    query: str = "", page: int = 1, referrer_id: uuid.UUID | None = None
) -> tuple[list[dict[str, Any]], bool]:
    """Referrals newest first, with both sides; `query` matches either side's name or e-mail."""
    referrer, referee = aliased(User), aliased(User)
    select = (
        sa.select(Referral, referrer, referee)
        .join(referrer, referrer.id == Referral.referrer_id)
        .join(referee, referee.id == Referral.referee_id)
        .order_by(Referral.created_at.desc(), Referral.id.desc())
    )
    if referrer_id is not None:
        select = select.where(Referral.referrer_id == referrer_id)
    if query.strip():
        pattern = _like(query.strip()[:100])
        select = select.where(sa.or_(*(sa.func.lower(column).like(pattern, escape="\\") for column in
                                       (referrer.name, referrer.email, referee.name, referee.email))))  # fmt: skip
    rows = db.session.execute(select.offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)).all()
    items = [
        {
            "id": item.id,
            "status": item.status,
            "referrer": {"id": str(by.id), "name": by.name, "email": by.email},
            "referee": {"id": str(to.id), "name": to.name, "maskedEmail": masked_email(to.email)},
            "createdAt": item.created_at.isoformat(),
            "qualifiedAt": item.qualified_at.isoformat() if item.qualified_at else None,
        }
        for item, by, to in rows[:PAGE_SIZE]
    ]
    return items, len(rows) > PAGE_SIZE
