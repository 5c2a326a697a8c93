"""Pulling a supplier's list from its URL: the request (streamed within the upload's size cap, with timeouts, the
supplier's basic auth or token header, redirects followed only to addresses that pass the same SSRF check), the
file's kind sniffed from its bytes (the content type is only a name), and the queueing of pulls: now, on a
manager's request, and by the scheduler's sweep for those due. One pull per supplier at a time: its job id is the
supplier's (`supplier-pull-<id>`), so a supplier waiting or pulling is not queued again."""

from __future__ import annotations

import logging
from datetime import timedelta
from urllib.parse import urljoin

import requests
import sqlalchemy as sa
from flask_babel import gettext as _
from requests.adapters import HTTPAdapter
from rq import Retry
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError

from app.core.after_commit import enqueue_after_commit
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db, queues
from app.shelf.imports import MAX_UPLOAD_BYTES
from app.suppliers import addresses, secrets
from app.suppliers.models import Supplier

log = logging.getLogger(__name__)

PULL_QUEUE = "default"
PULL_JOB = "app.suppliers.tasks.pull_supplier_list"
# Transient failures (a timeout, a refused connection, a 5xx) are tried again by RQ; the list in use stays meanwhile.
PULL_RETRY = Retry(max=3, interval=[60, 300, 900])
PULL_JOB_OPTIONS = {"job_timeout": 30 * 60, "retry": PULL_RETRY}
TIMEOUTS = (10, 60)  # connect, read (between bytes)
MAX_REDIRECTS = 3
CHUNK = 256 * 1024
SWEEP_BATCH = 200
USER_AGENT = "ParcaBul-SupplierPull/1"
EXTENSIONS = {"xlsx": ".xlsx", "xml": ".xml", "csv": ".csv"}


class PullError(Exception):
    """A pull that failed; `transient` when trying again later may succeed."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.transient = transient


def pull_job_id(supplier_id: int) -> str:
    return f"supplier-pull-{supplier_id}"


def pull_now(supplier: Supplier) -> bool:
    """Queue a pull of the supplier's list once the transaction commits; False when one is already waiting or running
    (409 when the supplier has no URL)."""
    if supplier.source != "url" or not supplier.url:
        raise ApiError("no_url", _("This supplier's list is uploaded, not pulled from an address."), 409)
    if not queues.free_id(PULL_QUEUE, pull_job_id(supplier.id)):
        return False
    enqueue_after_commit(PULL_QUEUE, PULL_JOB, supplier.id, job_id=pull_job_id(supplier.id), **PULL_JOB_OPTIONS)
    return True


def sweep() -> int:
    """Queue the pulls that are due (never two for one supplier); how many were queued."""
    now = utcnow()
    due = db.session.execute(
        sa.select(Supplier.id, Supplier.last_pull_at, Supplier.pull_interval_minutes)
        .where(Supplier.source == "url", Supplier.pull_interval_minutes.is_not(None))
        .order_by(Supplier.last_pull_at.is_not(None), Supplier.last_pull_at)
        .limit(SWEEP_BATCH)
    ).all()
    db.session.commit()  # the read ends before Redis is asked
    queued = 0
    for supplier_id, last_pull_at, minutes in due:
        if last_pull_at is not None and last_pull_at > now - timedelta(minutes=minutes):
            continue
        if queues.free_id(PULL_QUEUE, pull_job_id(supplier_id)):
            queues.enqueue(PULL_QUEUE, PULL_JOB, supplier_id, job_id=pull_job_id(supplier_id), **PULL_JOB_OPTIONS)
            queued += 1
    return queued


def _headers(supplier: Supplier) -> dict[str, str]:
    headers = {"User-Agent": USER_AGENT}
    if supplier.auth_kind == "token" and supplier.auth_header:
        headers[supplier.auth_header] = _secret(supplier)
    return headers


def _secret(supplier: Supplier) -> str:
    secret = secrets.unseal(supplier.auth_secret or "")
    if secret is None:
        raise PullError(_("The stored password or token can no longer be read: enter it again."))
    return secret


def _auth(supplier: Supplier) -> tuple[str, str] | None:
    return (supplier.auth_user or "", _secret(supplier)) if supplier.auth_kind == "basic" else None


def fetch(supplier: Supplier) -> tuple[str, bytes]:
    """The supplier's list: a file name (from the URL, its kind's extension) and its bytes, or PullError."""
    url = supplier.url or ""
    headers, auth = _headers(supplier), _auth(supplier)
    for _hop in range(MAX_REDIRECTS + 1):
        response = _get(url, headers, auth)
        if response.is_redirect:
            url = urljoin(url, response.headers.get("Location", ""))
            response.close()
            continue
        with response:
            _check_status(response.status_code)
            data = _read_capped(response)
        name = url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0] or "liste"
        return name[:200], data
    raise PullError(_("The list's address redirects too many times."))


class _Pinned:
    """A connection to an address `checked_addresses` resolved and checked, each tried in turn (TLS still names and
    verifies the host)."""

    def _new_conn(self):
        found = addresses.checked_addresses(self._dns_host, self.port)
        for address in found:
            self._dns_host = address
            try:
                return super()._new_conn()
            except (NewConnectionError, ConnectTimeoutError):
                if address == found[-1]:
                    raise
        raise NewConnectionError(self, "no address to connect to")


class _PinnedHTTPConnection(_Pinned, HTTPConnection):
    pass


class _PinnedHTTPSConnection(_Pinned, HTTPSConnection):
    pass


class _PinnedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": type("PinnedHTTPPool", (HTTPConnectionPool,), {"ConnectionCls": _PinnedHTTPConnection}),
            "https": type("PinnedHTTPSPool", (HTTPSConnectionPool,), {"ConnectionCls": _PinnedHTTPSConnection}),
        }


def _session() -> requests.Session:
    """A session whose connections go to checked addresses only, never through a proxy of the environment's."""
    session = requests.Session()
    session.trust_env = False
    for scheme in ("http://", "https://"):
        session.mount(scheme, _PinnedAdapter())
    return session


def _get(url: str, headers: dict[str, str], auth: tuple[str, str] | None) -> requests.Response:
    try:
        addresses.checked_url(url)
        addresses.check_resolved(url)
    except ApiError as refusal:  # a private address, a redirect to one or to no URL
        raise PullError(refusal.message) from None
    try:
        return _session().get(url, headers=headers, auth=auth, timeout=TIMEOUTS, stream=True, allow_redirects=False)
    except addresses.PrivateAddressError:
        raise PullError(addresses.private_refused().message) from None
    except requests.Timeout:
        raise PullError(_("The supplier's server did not answer in time."), transient=True) from None
    except requests.RequestException:
        raise PullError(_("The supplier's server could not be reached."), transient=True) from None


def _check_status(status: int) -> None:
    if status in (401, 403):
        raise PullError(
            _("The supplier's server refused the user name, password or token (HTTP %(status)d).", status=status)
        )
    if status >= 500 or status == 429:
        raise PullError(
            _("The supplier's server answered with an error (HTTP %(status)d).", status=status), transient=True
        )
    if status != 200:
        raise PullError(_("The supplier's server answered with an error (HTTP %(status)d).", status=status))


def _read_capped(response: requests.Response) -> bytes:
    chunks, size = [], 0
    try:
        for chunk in response.iter_content(CHUNK):
            size += len(chunk)
            if size > MAX_UPLOAD_BYTES:
                raise PullError(_("The file is too large (at most 50 MB)."))
            chunks.append(chunk)
    except requests.RequestException:
        raise PullError(_("The supplier's server could not be reached."), transient=True) from None
    return b"".join(chunks)
