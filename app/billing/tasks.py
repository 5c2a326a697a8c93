"""Billing jobs: the scheduler runs `end_periods` every few minutes and `lifecycle_mail` daily (worker.SCHEDULE)."""

from __future__ import annotations

from app.billing import periods
from app.billing.lifecycle_mail import send_lifecycle_mail


def end_periods() -> dict[str, int]:
    """End the paid periods and trials that are over, and start the scheduled downgrades (idempotent)."""
    return periods.end_periods().as_dict()


def lifecycle_mail() -> dict[str, int]:
    """The daily trial-ending and win-back mails (idempotent: a second run the same day writes nothing)."""
    return send_lifecycle_mail().as_dict()
