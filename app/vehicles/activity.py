"""A shop's decodes in its activity (app.shops.activity): the query log already holds each one with its member and
branch, so the activity reads those rows instead of a decode writing a second one."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa

from app.shops.activity import activity_source
from app.vehicles.models import QueryLog

DECODE = "decode"


@activity_source
def decodes(shop_id: uuid.UUID, since: datetime) -> sa.Select:
    """The shop's members' decodes that found something (a car or its candidates), the VIN as the detail."""
    return sa.select(
        QueryLog.id,
        QueryLog.user_id,
        QueryLog.branch_id,
        sa.literal(DECODE, sa.String(40)).label("kind"),
        QueryLog.vin.label("detail"),
        QueryLog.created_at,
    ).where(
        QueryLog.shop_id == shop_id,
        QueryLog.user_id.is_not(None),
        QueryLog.success.is_(True),
        QueryLog.created_at >= since,
    )
