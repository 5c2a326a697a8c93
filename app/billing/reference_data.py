"""Billing's reference data, which the running product needs and every start writes (seed steps, idempotent): the
plans with their prices, and the brands sold in Turkey with their WMI prefixes (from app.sources.brands)."""

from __future__ import annotations

import sqlalchemy as sa

from app.billing.models import Brand, BrandWmi, Plan
from app.extensions import db
from app.sources.brands import BRANDS

# (key, name, brand_count, monthly, yearly) with prices in kuruş; yearly is ten months' price. See docs/decisions.md.
PLANS: list[tuple[str, str, int, int, int]] = [
    ("single", "Tek Marka", 1, 39_900, 399_000),
    ("trio", "Üç Marka", 3, 79_900, 799_000),
    ("full", "Tam Erişim", 0, 149_900, 1_499_000),
]
# key -> (included seats, monthly and yearly price of an extra seat in kuruş); the migration d5a1c0ffee13 writes the
# same into plans seeded before seats existed.
PLAN_SEATS: dict[str, tuple[int, int, int]] = {
    "single": (1, 14_900, 149_000),
    "trio": (2, 14_900, 149_000),
    "full": (3, 14_900, 149_000),
}


def brands() -> str:
    existing = {brand.slug: brand for brand in db.session.scalars(sa.select(Brand))}
    known_wmis = set(db.session.scalars(sa.select(BrandWmi.wmi)))
    added_brands = added_wmis = 0
    for name, slug, wmis in BRANDS:
        brand = existing.get(slug)
        if brand is None:
            brand = Brand(name=name, slug=slug)
            db.session.add(brand)
            added_brands += 1
        for wmi in wmis:
            if wmi not in known_wmis:
                brand.wmis.append(BrandWmi(wmi=wmi))
                known_wmis.add(wmi)
                added_wmis += 1
    db.session.flush()
    return f"{added_brands} brands and {added_wmis} WMIs added"


def plans() -> str:
    existing = set(db.session.scalars(sa.select(Plan.key)))
    added = 0
    for order, (key, name, brand_count, monthly, yearly) in enumerate(PLANS):
        if key not in existing:
            included_seats, monthly_seat, yearly_seat = PLAN_SEATS[key]
            db.session.add(
                Plan(
                    key=key,
                    included_seats=included_seats,
                    monthly_seat_price=monthly_seat,
                    yearly_seat_price=yearly_seat,
                    name=name,
                    brand_count=brand_count,
                    monthly_price=monthly,
                    yearly_price=yearly,
                    sort_order=order,
                )
            )
            added += 1
    db.session.flush()
    return f"{added} plans added"
