"""Billing jobs: the scheduler runs `end_periods` every few minutes (worker.SCHEDULE)."""

from __future__ import annotations

from app.billing import periods


def end_periods() -> dict[str, int]:
    """End the paid periods and trials that are over, and start the scheduled downgrades (idempotent)."""
    return periods.end_periods().as_dict()
