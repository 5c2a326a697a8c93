"""The browse entry: every make with the catalogs that cover it, from each configured upstream."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import copy_current_request_context

from app.accounts.models import User
from app.billing.models import Brand
from app.billing.subscriptions import queries
from app.browse import catapi_flow, scrape_flow
from app.browse.upstream import brand_index, brand_key
from app.core.errors import ApiError

SOURCES: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "catapi": catapi_flow.catalogs,
    "scrape": scrape_flow.brands,
}
# The sources' lists are asked at once: the page waits for the slower one, not for both in a row.
LISTS = ThreadPoolExecutor(max_workers=2 * len(SOURCES), thread_name_prefix="browse-lists")


def catalogs_by_brand(user: User) -> dict[str, Any]:
    """Makes with their catalogs, each marked with whether the caller's plan opens it. A source that fails is named in
    `unavailableSources` and the others are still listed."""
    by_brand: dict[str, dict[str, Any]] = {}
    unavailable = []
    opened = None if user.is_admin else queries.brand_ids_for(user)  # None: every make
    known = brand_index()
    for source, found in _lists().items():
        if found is None:
            unavailable.append(source)
            continue
        for catalog in found:
            key = catalog["name"].casefold()
            if key not in by_brand:
                by_brand[key] = _brand_entry(catalog["name"], _known(known, catalog["name"]), opened)
            by_brand[key]["catalogs"].append({"source": source, **catalog})
    brands = sorted(by_brand.values(), key=lambda entry: entry["name"].casefold())
    return {"brands": brands, "unavailableSources": unavailable}


def _lists() -> dict[str, list[dict[str, Any]] | None]:
    """Each source's catalog list, asked at once (None for a source that failed)."""

    def listed(source: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]] | None:
        try:
            return source()
        except ApiError:
            return None

    asked = {name: LISTS.submit(copy_current_request_context(listed), source) for name, source in SOURCES.items()}
    return {name: future.result() for name, future in asked.items()}


def _known(index: dict[str, Brand], name: str) -> Brand | None:
    key = brand_key(name)
    return index.get(key) or index.get(key.replace(" ", "-")) if key else None


def _brand_entry(name: str, brand: Brand | None, opened: set[int] | None) -> dict[str, Any]:
    in_plan = opened is None or (brand is not None and brand.id in opened)
    return {
        "name": brand.name if brand else name,
        "brandId": brand.id if brand else None,
        "slug": brand.slug if brand else None,
        "inPlan": in_plan,
        "catalogs": [],
    }
