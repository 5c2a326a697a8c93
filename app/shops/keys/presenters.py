"""A shop's API keys as the API and the page show them."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from app.core.db import utcnow
from app.shops.keys.models import ShopApiKey


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def key_json(key: ShopApiKey, creators: dict[uuid.UUID, str]) -> dict[str, Any]:
    return {
        "id": key.id,
        "name": key.name,
        "role": key.role,
        "prefix": key.prefix,
        "createdBy": creators.get(key.created_by, ""),
        "createdAt": _iso(key.created_at),
        "expiresAt": _iso(key.expires_at),
        "lastUsedAt": _iso(key.last_used_at),
        "revokedAt": _iso(key.revoked_at),
        "live": key.is_live(utcnow()),
    }
