"""A dealer with an active Full plan, committed for real (for live servers, background threads and benchmarks)."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from app.accounts.models import User
from app.accounts.services import create_user
from app.billing import reference_data
from app.billing.models import Brand, Plan, Subscription
from app.core.db import utcnow
from app.extensions import db


def commit_full_plan_dealer(email: str, name: str, password: str) -> User:
    """Seed brands and plans (idempotent), then commit a verified user with an active Full plan (in an app context)."""
    reference_data.brands()
    reference_data.plans()
    user = create_user(email=email, name=name, password=password, email_verified=True)
    commit_active_plan(user, "full")
    return user


def commit_active_plan(user: User, plan_key: str, brand_names: tuple[str, ...] = (), days_left: int = 29) -> None:
    """Commit an active monthly subscription to `plan_key` for `user` (every active brand when none are named)."""
    brands = sa.select(Brand).where(Brand.name.in_(brand_names) if brand_names else Brand.active)
    now = utcnow()
    db.session.add(
        Subscription(
            user_id=user.id,
            plan=db.session.scalar(sa.select(Plan).where(Plan.key == plan_key)),
            status="active",
            billing_period="monthly",
            brands=list(db.session.scalars(brands)),
            start_date=now - timedelta(days=1),
            end_date=now + timedelta(days=days_left),
        )
    )
    db.session.commit()
