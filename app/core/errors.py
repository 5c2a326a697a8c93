"""Error responses: JSON `{"error": {"code", "message"}}` under /api, HTML pages elsewhere."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

API_PREFIX = "/api"

# status -> (error code, message); messages are translated when the response is built.
HTTP_ERRORS = {
    400: ("bad_request", _l("The request is invalid.")),
    401: ("unauthorized", _l("You need to sign in for this.")),
    403: ("forbidden", _l("You are not allowed to do this.")),
    404: ("not_found", _l("The page or record you asked for was not found.")),
    405: ("method_not_allowed", _l("This method is not allowed here.")),
    413: ("payload_too_large", _l("The request is too large.")),
    415: ("unsupported_media_type", _l("This content type is not supported.")),
    429: ("rate_limited", _l("Too many requests. Please wait a moment and try again.")),
    500: ("internal_error", _l("Something went wrong on our side. Please try again.")),
    503: ("unavailable", _l("The service is temporarily unavailable. Please try again shortly.")),
}


class ApiError(Exception):
    """A refusal the client should read: a stable code, a translated message and an HTTP status."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        retry_after: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after  # seconds, sent as Retry-After (a 503 the client may try again)
        self.details = details  # what the client may act on (e.g. the page to add a seat), as `error.details`


def is_api_request() -> bool:
    path = request.path  # read once: each read of `request` goes through its context proxy, on every request
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


def error_response(code: str, message: str, status: int, details: dict[str, Any] | None = None) -> Response:
    """Answer in the shape the caller reads: JSON under /api, the error page elsewhere."""
    if is_api_request():
        error = {"code": code, "message": str(message)}
        response = jsonify(error={**error, "details": details} if details else error)
    else:
        response = Response(render_template("errors/error.html", status=status, message=message))
    response.status_code = status
    return response


def _http_error(exc: HTTPException) -> Response:
    status = exc.code or 500
    code, message = HTTP_ERRORS.get(status, ("http_error", exc.description or ""))
    response = error_response(code, message, status)
    for name, value in exc.get_headers():
        if name.lower() not in {"content-type", "content-length"}:
            response.headers[name] = value
    return response


def _csrf_error(_exc: CSRFError) -> Response:
    return error_response(
        "csrf_failed", _("Your form has expired or did not come from this site. Please reload the page."), 403
    )


def _unexpected(exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.path)
    code, message = HTTP_ERRORS[500]
    return error_response(code, message, 500)


def _lost_race(exc: IntegrityError | StaleDataError) -> Response:
    """A write that reached the database's constraints unchecked: another request changed or deleted the rows it
    leans on in the meantime (a quote line added as its shop closes). Expected conflicts are checked by the services;
    this one is told to the client as a conflict to reload, not as a failure of the site."""
    log.warning("write lost a race on %s %s: %s", request.method, request.path, getattr(exc, "orig", exc))
    return error_response(
        "conflict",
        _(
            "What you were changing was changed or removed meanwhile, by another tab or a colleague. "
            "Reload and try again."
        ),
        409,
    )


def _api_error(exc: ApiError) -> Response:
    response = error_response(exc.code, exc.message, exc.status, exc.details)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(IntegrityError, _lost_race)
    app.register_error_handler(StaleDataError, _lost_race)  # a row updated or deleted as another request deleted it
    app.register_error_handler(Exception, _unexpected)
