"""E-mail jobs: each outbox message's send (queued after its transaction commits) and the minute sweep
(worker.SCHEDULE)."""

from __future__ import annotations

from app.notifications import delivery


def send_outbox(outbox_id: int) -> str:
    return delivery.deliver(outbox_id)


def sweep_outbox() -> int:
    return delivery.sweep()
