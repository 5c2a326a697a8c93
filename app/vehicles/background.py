"""Page decodes run in a background thread of the web process; the page polls their progress in Redis.

A decode takes up to the decode budget (25 s), so the page does not hold a request open for it: the request starts
a thread and answers at once with a progress fragment that polls. The thread reports each stage and, at the end,
the outcome to the decode's `ProgressRecord`; any web process can answer the polls from there.

Database session: the thread pushes its own app context, so Flask-SQLAlchemy's scoped session (scoped per app
context) gives it a session of its own, never the request's. It loads the user by id in that session; `decode()`
commits its own work there. The session is removed (rolled back if anything was left open, connection returned)
*before* the outcome is published, so once a poll sees the outcome the thread no longer touches the database, and
while the decode runs, polls read only Redis (besides the sign-in check every request makes).
"""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app
from flask_babel import force_locale

from app.accounts.models import User
from app.core.errors import HTTP_ERRORS, ApiError
from app.extensions import db, redis_store
from app.vehicles import services
from app.vehicles.answers import DecodeAnswer, Pick
from app.vehicles.decode import decode
from app.vehicles.progress import Progress, ProgressRecord

log = logging.getLogger(__name__)

THREAD_PREFIX = "page-decode"


@dataclass(frozen=True)
class Started:
    """A decode started in the background; `progress` is None when the store dropped its record at once (there is
    nothing to poll)."""

    progress: Progress | None


def start_decode(user_id: str, vin: str, pick: Pick, locale: str) -> Started | None:
    """Start decoding `vin` for the user in the background, with its progress in Redis for the page to poll; None when
    Redis does not answer (there would be nothing to poll: the caller decodes within its request)."""
    record = redis_store.optional(
        "decode progress record", lambda client: ProgressRecord.create(client, user_id, vin, pick.source), None
    )
    if record is None:
        return None
    progress = redis_store.optional("decode progress", lambda _client: record.read(), None)
    if progress is None:
        return Started(progress=None)
    start(current_app._get_current_object(), user_id, vin, pick, record, locale)  # type: ignore[attr-defined]
    return Started(progress=progress)


def start(
    app: Flask, user_id: str, vin: str, pick: Pick | None, record: ProgressRecord, locale: str
) -> threading.Thread:
    """Decode `vin` for the user in a daemon thread that reports to `record`, with messages in `locale`."""
    thread = threading.Thread(
        target=run,
        args=(app, user_id, vin, pick, record, locale),
        name=f"{THREAD_PREFIX}-{record.token[:6]}",
        daemon=True,  # a decode is bounded by its budget; a stopping server need not wait for it
    )
    thread.start()
    return thread


def run(app: Flask, user_id: str, vin: str, pick: Pick | None, record: ProgressRecord, locale: str) -> None:
    """The thread's body: decode, then publish the outcome (an outcome is published whatever happens)."""
    with app.app_context(), force_locale(locale):
        try:
            outcome = _decode(user_id, vin, pick, record)
        except ApiError as error:
            outcome = error_outcome(error)
        except Exception:
            log.exception("page decode %s failed", record.token[:6])
            code, message = HTTP_ERRORS[500]
            outcome = {"kind": "error", "code": code, "message": str(message), "status": 500}
        finally:
            db.session.remove()  # before publishing: a poll that sees the outcome never shares the database with us
        try:
            record.finish(outcome)
        except Exception:
            log.exception("page decode %s: outcome not stored", record.token[:6])


def _decode(user_id: str, vin: str, pick: Pick | None, record: ProgressRecord) -> dict[str, Any]:
    user = db.session.get(User, uuid.UUID(user_id))
    if user is None:
        raise ApiError("unauthorized", str(HTTP_ERRORS[401][1]), 401)
    return outcome_of(decode(user, vin, pick, on_stage=record.listener()))


def outcome_of(answer: DecodeAnswer) -> dict[str, Any]:
    """What the page needs of an answer: the vehicle id, the candidate list, or the error's code and message."""
    error = services.answer_error(answer)
    if error is not None:
        return error_outcome(error)
    payload = services.answer_payload(answer)
    if payload["result"] == "candidates":
        return {"kind": "candidates", "source": payload["source"], "candidates": payload["candidates"]}
    vehicle = payload["vehicle"]
    return {"kind": "vehicle", "vehicleId": vehicle["id"], "source": answer.source, "brand": vehicle["brandName"]}


def error_outcome(error: ApiError) -> dict[str, Any]:
    return {"kind": "error", "code": error.code, "message": str(error.message), "status": error.status}
