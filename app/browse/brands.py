"""The browse entry: every make with the catalogs that cover it, from each configured upstream."""

from __future__ import annotations

from typing import Any

from app.accounts.models import User
from app.billing import subscriptions
from app.browse import catapi_flow, scrape_flow
from app.browse.upstream import brand_named
from app.core.errors import ApiError

SOURCES = {"catapi": catapi_flow.catalogs, "scrape": scrape_flow.brands}


def catalogs_by_brand(user: User) -> dict[str, Any]:
    """Makes with their catalogs, each marked with whether the caller's plan opens it. A source that fails is named in
    `unavailableSources` and the others are still listed."""
    by_brand: dict[str, dict[str, Any]] = {}
    unavailable = []
    opened = None if user.is_admin else subscriptions.brand_ids_for(user)  # None: every make
    for source, listed in SOURCES.items():
        try:
            found = listed()
        except ApiError:
            unavailable.append(source)
            continue
        for catalog in found:
            key = catalog["name"].casefold()
            entry = (
                by_brand[key] if key in by_brand else by_brand.setdefault(key, _brand_entry(catalog["name"], opened))
            )
            entry["catalogs"].append({"source": source, **catalog})
    brands = sorted(by_brand.values(), key=lambda entry: entry["name"].casefold())
    return {"brands": brands, "unavailableSources": unavailable}


def _brand_entry(name: str, opened: set[int] | None) -> dict[str, Any]:
    brand = brand_named(name)
    in_plan = opened is None or (brand is not None and brand.id in opened)
    return {
        "name": brand.name if brand else name,
        "brandId": brand.id if brand else None,
        "slug": brand.slug if brand else None,
        "inPlan": in_plan,
        "catalogs": [],
    }
