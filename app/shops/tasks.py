"""Shop jobs: the scheduler runs `purge_activity` daily (worker.SCHEDULE)."""

from __future__ import annotations

from app.extensions import db
from app.shops import activity


def purge_activity() -> dict[str, int]:
    """Drop the shops' activity entries older than 12 months (idempotent)."""
    purged = activity.purge()
    db.session.commit()
    return {"purged": purged}
