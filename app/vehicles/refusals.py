"""Query-log rows for refused decodes (invalid VIN, no subscription, brand outside the plan, a bad pick, the decode
throttle), so the founder's insights count the demand they stand for.

A refusal's row is one INSERT in a short non-durable transaction of the request's own session (the one that already
holds SQLite's write lock on a POST). Writing it can never fail the refusal: any error is logged and rolled back, and
the client gets the same 4xx. Throttled requests are answered by Flask-Limiter before the view runs; a flood of them
writes one row per client and limit window (a Redis marker that ends when the window does), never one per request.
"""

from __future__ import annotations

import logging
import math
import re
import time
from typing import Any

from flask import request
from flask_limiter import RequestLimit
from flask_login import current_user

from app.core.db import begin_writes, utcnow
from app.extensions import db, redis_store
from app.vehicles.writes import LOG_INSERT

log = logging.getLogger(__name__)

REFUSED = "refused"  # the result_kind of a refused decode; error_message holds the refusal's code
THROTTLED = "rate_limited"
THROTTLE_MARKER = "querylog:throttled:"  # + the limiter's key for the client and limit


def record(
    user_id: Any,
    raw_vin: Any,
    code: str,
    *,
    shop_id: Any = None,
    brand_id: int | None = None,
    source: str | None = None,
    elapsed_ms: int = 0,
    timings: dict[str, Any] | None = None,
) -> None:
    """Write the query-log row of a refused decode; never raises."""
    vin = loggable_vin(raw_vin)
    row = {
        "user_id": user_id,
        "shop_id": shop_id,
        "vin": vin,
        "brand_id": brand_id,
        "source": source,
        "success": False,
        "error_message": code,
        "response_time_ms": elapsed_ms,
        "timings": {**(timings or {}), **({"wmi": vin[:3]} if vin else {}), "result_kind": REFUSED},
        "created_at": utcnow(),
    }
    try:
        begin_writes(db.session, durable=False)
        db.session.connection().execute(LOG_INSERT, row)
        db.session.commit()
    except Exception:  # the refusal stands as it is; only its log row is missing
        log.warning("query-log row of a refused decode (%s) not written", code, exc_info=True)
        _roll_back()


def loggable_vin(raw: Any) -> str:
    """What the dealer typed, as a VIN is read (no spaces or dashes, upper case), cut to the column's 17 characters."""
    return re.sub(r"[\s-]+", "", raw).upper()[:17] if isinstance(raw, str) else ""


def log_throttled(limit: RequestLimit) -> None:
    """Flask-Limiter's on_breach for the decode throttle: the first refusal of a client in a window is logged."""
    try:
        window = max(math.ceil(limit.window.reset_time - time.time()), 1)  # the marker ends with the limit's window
        marker = THROTTLE_MARKER + limit.key
        # Redis not answering: nothing is written, so a flood cannot turn into writes.
        if redis_store.first_in_window("throttled decode marker", marker, window, when_down=False):
            signed_in = current_user.is_authenticated
            user_id, shop_id = (current_user.id, current_user.shop_id) if signed_in else (None, None)
            record(user_id, _requested_vin(), THROTTLED, shop_id=shop_id, timings={"throttle": str(limit.limit)})
    except Exception:  # the limiter would turn a raising callback into a 500
        log.warning("throttled decode not logged", exc_info=True)


def _requested_vin() -> Any:
    body = request.get_json(silent=True) if request.is_json else None
    if isinstance(body, dict):
        return body.get("vin")
    return request.form.get("vin")


def _roll_back() -> None:
    try:
        db.session.rollback()
    except Exception:  # a connection that is gone is discarded by the pool
        log.warning("rollback after a failed refusal log failed", exc_info=True)
