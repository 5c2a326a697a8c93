"""What every browse step shares: the configured adapter, upstream faults as Turkish refusals, and the brand guard.

A browse list is read live from its upstream: a timeout, a 5xx, a challenge page or an unreadable answer is a 502
`upstream_unavailable` that asks to try again (never a 500, and nothing is kept of a half answer); an id the
upstream does not know is a 404 `not_found_upstream`.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import requests
import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _

from app.accounts.models import User
from app.billing.access import ensure_brand_access
from app.billing.models import Brand
from app.core.errors import ApiError
from app.extensions import db
from app.sources.catapi import CatapiError, CatapiNotFoundError, CatapiSettings, CatapiSource
from app.sources.pictures import HotspotBox
from app.sources.scrape import ScrapeSettings, ScrapeSource
from app.sources.scrape_types import ScrapeError, ScrapeNotFoundError
from app.translation.services import current_translator

log = logging.getLogger(__name__)

# What an adapter raises on an answer it cannot use; the adapters wrap most of it, these catch the rest.
UPSTREAM_FAULTS = (CatapiError, ScrapeError, requests.RequestException, ValueError, KeyError, TypeError)
NOT_FOUND = (CatapiNotFoundError, ScrapeNotFoundError)
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}")
VALUE_PATTERN = re.compile(r"[^\x00-\x1f\x7f<>]{1,100}")  # an upstream's option or parameter value


_adapters: dict[Any, Any] = {}
_adapters_lock = threading.Lock()


def catapi() -> CatapiSource:
    """The browse adapter of the catalog API: the decode's settings with the browse budget (a dealer clicking through
    lists waits seconds, not the decode's retries over every proxy)."""
    config = current_app.config
    settings = CatapiSettings.from_config(config)
    if not settings.base_urls:
        raise _not_configured()
    budget = replace(settings, timeout_seconds=_timeout(config), max_retries=config["BROWSE_UPSTREAM_RETRIES"])
    return _adapter(budget, CatapiSource)


def scrape() -> ScrapeSource:
    settings = ScrapeSettings.from_config(current_app.config)
    if not settings.base_url:
        raise _not_configured()
    return _adapter(replace(settings, timeout_seconds=_timeout(current_app.config)), ScrapeSource)


def _adapter(settings: Any, kind: Callable[[Any], Any]) -> Any:
    """One long-lived adapter per settings (it keeps its token, cookies and connection pool)."""
    with _adapters_lock:
        if settings not in _adapters:
            _adapters[settings] = kind(settings)
        return _adapters[settings]


def _timeout(config: Mapping[str, Any]) -> float:
    return int(config["BROWSE_UPSTREAM_TIMEOUT_MS"]) / 1000


def _not_configured() -> ApiError:
    return ApiError("source_not_configured", _("This source is not configured on this server."), 503)


@contextmanager
def upstream(what: str) -> Iterator[None]:
    """Turn an upstream's fault inside the block into a refusal the dealer can act on."""
    try:
        yield
    except NOT_FOUND as error:
        log.info("browse %s: not found upstream: %s", what, error)
        raise not_found_upstream() from error
    except UPSTREAM_FAULTS as error:
        log.warning("browse %s failed: %s: %s", what, type(error).__name__, error)
        raise ApiError(
            "upstream_unavailable", _("The catalog could not be reached just now. Please try again in a moment."), 502
        ) from error


def not_found_upstream() -> ApiError:
    return ApiError("not_found_upstream", _("The catalog has no such entry. Go back one step and choose again."), 404)


def checked_id(value: str, field: str) -> str:
    """An upstream id from the URL: letters, digits and `_ . : -`, at most 100 characters."""
    if not ID_PATTERN.fullmatch(value or ""):
        raise ApiError("invalid_id", _("%(field)s is not a valid catalog id.", field=field), 400)
    return value


def checked_value(value: str, field: str) -> str:
    """An upstream's option value (a parameter idx, a wizard choice): printable, at most 100 characters."""
    if not VALUE_PATTERN.fullmatch(value or ""):
        raise ApiError("invalid_value", _("%(field)s is not a valid choice.", field=field), 400)
    return value


def brand_named(name: str | None) -> Brand | None:
    """The sold brand an upstream names ("Volkswagen", "volkswagen", "Mercedes-Benz"), if any."""
    key = brand_key(name)
    if not key:
        return None
    slug = key.replace(" ", "-")
    query = sa.select(Brand).where(sa.or_(sa.func.lower(Brand.name) == key, Brand.slug == slug))
    return db.session.scalars(query).first()


def brand_key(name: str | None) -> str:
    return " ".join((name or "").split()).casefold()


def brand_index() -> dict[str, Brand]:
    """Every brand by its brand_key and by its slug, in one query: what brand_named finds, for a whole list of names
    (look a name up by its key, then by the key with dashes)."""
    index: dict[str, Brand] = {}
    for brand in db.session.scalars(sa.select(Brand).order_by(Brand.id)):
        index.setdefault(brand_key(brand.name), brand)
        index.setdefault(brand.slug, brand)
    return index


def ensure_brand_named(user: User, name: str | None) -> Brand | None:
    """Brand-bound data (groups, drawings, parts) only for the caller's brands: 403 with the plan hint otherwise."""
    brand = brand_named(name)
    if user.is_admin:
        return brand
    ensure_brand_access(user, brand.id if brand else None)
    return brand


def drawing_view(hotspots: Iterable[HotspotBox], parts: Iterable[Any]) -> dict[str, list[dict[str, Any]]]:
    """A drawing's hotspots (native pixels) and part rows (an adapter's PartRow: oem, name, position...)."""
    return {
        "hotspots": [
            {"position": spot.position, "x1": spot.x1, "y1": spot.y1, "x2": spot.x2, "y2": spot.y2} for spot in hotspots
        ],
        "parts": [
            {
                "position": row.position,
                "oemCode": row.oem,
                **names(row.name),
                "quantity": row.quantity,
                "remark": row.remark,
                "unavailable": row.unavailable,
            }
            for row in parts
        ],
    }


def names(english: str) -> dict[str, str]:
    """An upstream's English name with its Turkish (the catalog dictionary), as browse answers carry them."""
    translation = current_translator().translate(english)
    return {"name": translation.text, "nameEn": english, "nameTrComplete": translation.complete}
