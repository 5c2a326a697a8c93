"""POST /collect/<id> (outside /api): the front end's monitoring reports, forwarded to the collector
COLLECT_UPSTREAM_URL names. The visitor's request never waits for the collector: the body (at most MAX_BODY bytes) is
handed to a small pool of FORWARDERS threads with a short timeout, and dropped when too many are already waiting.
204 either way, and when no collector is set."""

from __future__ import annotations

import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import requests
from flask import Blueprint, Response, abort, current_app, request
from flask_babel import gettext as _

from app.core.errors import ApiError
from app.core.security import public, without_form_token
from app.extensions import limiter

log = logging.getLogger(__name__)

bp = Blueprint("collect", __name__)

MAX_BODY = 64 * 1024
FORWARD_TIMEOUT_SECONDS = 2.0
FORWARDERS = 2
MAX_WAITING = 50
COLLECTOR_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

_pool = ThreadPoolExecutor(max_workers=FORWARDERS, thread_name_prefix="collect")
_waiting = threading.BoundedSemaphore(MAX_WAITING)


@bp.post("/collect/<collector_id>")
@public
@without_form_token
@limiter.limit("120 per minute")
def collect(collector_id: str):
    if not COLLECTOR_ID.fullmatch(collector_id):
        abort(404)
    if (request.content_length or 0) > MAX_BODY:
        raise ApiError("payload_too_large", _("The request is too large."), 413)
    body = request.get_data(cache=False)[: MAX_BODY + 1]
    if len(body) > MAX_BODY:
        raise ApiError("payload_too_large", _("The request is too large."), 413)
    upstream = current_app.config["COLLECT_UPSTREAM_URL"]
    if upstream:
        _forward(f"{upstream.rstrip('/')}/{collector_id}", body, request.content_type or "application/octet-stream")
    return Response(status=204)


def _forward(url: str, body: bytes, content_type: str) -> None:
    if not _waiting.acquire(blocking=False):
        log.warning("monitoring report dropped: %s forwards already waiting", MAX_WAITING)
        return
    future = _pool.submit(_post, url, body, content_type)
    future.add_done_callback(lambda _done: _waiting.release())


def _post(url: str, body: bytes, content_type: str) -> None:
    try:
        requests.post(url, data=body, headers={"Content-Type": content_type}, timeout=FORWARD_TIMEOUT_SECONDS)
    except requests.RequestException as error:
        log.info("monitoring collector did not take a report: %s", type(error).__name__)
