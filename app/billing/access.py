"""Brand access: brand-bound data is open only to a live subscription that covers the brand (admins always)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa
from flask_babel import gettext as _
from flask_login import current_user

from app.accounts.models import User
from app.billing.models import Brand
from app.billing.subscriptions import queries
from app.core.errors import ApiError
from app.extensions import db

View = TypeVar("View", bound=Callable[..., Any])


def ensure_brand_access(user: User, brand_id: int | None) -> None:
    """Refuse with 403 unless `user` is an admin or has a live subscription that includes `brand_id` (None: a make no
    plan sells, which no subscription includes)."""
    if user.is_admin:
        return
    live, covered = queries.brand_coverage(user, brand_id)
    if not live:
        raise ApiError("subscription_required", _("You need an active subscription to see this."), 403)
    if not covered:
        raise ApiError("brand_not_in_plan", _("This brand is not included in your plan."), 403)


def requires_brand_access(get_brand_id: Callable[[dict[str, Any]], int]) -> Callable[[View], View]:
    """Guard a view whose data belongs to the brand that `get_brand_id(view_kwargs)` names."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            ensure_brand_access(current_user, get_brand_id(kwargs))
            return view(*args, **kwargs)

        return guarded  # type: ignore[return-value]

    return decorate


def our_brand(slug: str | None) -> Brand | None:
    """The active brand we sell under this slug, if any."""
    if not slug:
        return None
    return db.session.scalar(sa.select(Brand).where(Brand.slug == slug, Brand.active))
