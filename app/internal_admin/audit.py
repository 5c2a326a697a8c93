"""Every internal admin call lands in the audit table: the change it made, or the refusal it met.

A change is recorded in the same transaction as the change itself, so the trail never claims what did not happen;
a refusal (an ApiError) is recorded after the rollback in a transaction of its own, then raised on.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask import Response, g, request

from app.core.errors import ApiError
from app.extensions import db
from app.internal_admin.guard import Actor, log_action
from app.internal_admin.models import AuditEntry


@dataclass
class AuditRecord:
    """What the view fills in while it works: the target's state before and after the change."""

    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    details: dict[str, Any] = field(default_factory=dict)


@contextmanager
def audited(actor: Actor, action: str, target_type: str, target_id: Any) -> Iterator[AuditRecord]:
    """Run one internal action and record it: `with audited(actor, "subscription.cancel", "subscription", id) as r:`."""
    g.internal_audited = True  # record_call leaves this call to it
    record = AuditRecord()
    try:
        yield record
    except ApiError as refusal:
        db.session.rollback()
        _add(actor, action, target_type, target_id, record, outcome=refusal.code)
        db.session.commit()
        raise
    _add(actor, action, target_type, target_id, record, outcome="ok")


def _add(actor: Actor, action: str, target_type: str, target_id: Any, record: AuditRecord, outcome: str) -> None:
    db.session.add(
        AuditEntry(
            action=action,
            target_type=target_type,
            target_id=str(target_id)[:64],
            founder_id=actor.founder_id,
            reason=actor.reason or None,
            outcome=outcome,
            before=record.before,
            after=record.after,
        )
    )
    db.session.flush()
    log_action(actor, action, f"{target_type} {target_id}", outcome=outcome, **record.details)


FOUNDER_HEADER = "X-Founder-Id"


def record_call(response: Response) -> Response:
    """Every other internal call that was answered (the reads: queues, dashboard) is recorded too: who (the
    X-Founder-Id header; "-" when a read names nobody), which path, which endpoint. Calls refused before their actor
    was complete (no token, no founderId or reason) are not: the log has them, and the trail names the people who
    acted."""
    if g.get("internal_audited") or response.status_code >= 400:
        return response
    actor = Actor(founder_id=(request.headers.get(FOUNDER_HEADER) or "-")[:100], reason="")
    record = AuditRecord(after={"endpoint": request.endpoint, "status": response.status_code})
    _add(actor, f"call.{request.method.lower()}", "endpoint", request.path, record, outcome="ok")
    return response
