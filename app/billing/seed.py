"""Seed steps: the brands sold in Turkey with their WMI prefixes, and the plans with prices."""

from __future__ import annotations

import sqlalchemy as sa

from app.billing.models import Brand, BrandWmi, Plan
from app.extensions import db

# (name, slug, WMIs). Turkish plants included: NM0 Ford Otosan, NM4 Tofaş, NMT Toyota, NLH Hyundai Assan,
# NLA Honda, NLE Mercedes-Benz Türk. A WMI belongs to one brand only.
BRANDS: list[tuple[str, str, tuple[str, ...]]] = [
    ("Alfa Romeo", "alfa-romeo", ("ZAR",)),
    ("Audi", "audi", ("WAU", "WA1", "TRU")),
    ("BMW", "bmw", ("WBA", "WBS", "WBX", "WBY")),
    ("Chery", "chery", ("LVV",)),
    ("Citroën", "citroen", ("VF7",)),
    ("Dacia", "dacia", ("UU1",)),
    ("DS", "ds", ("VR1",)),
    ("Fiat", "fiat", ("ZFA", "NM4")),
    ("Ford", "ford", ("WF0", "NM0")),
    ("Honda", "honda", ("JHM", "SHH", "NLA")),
    ("Hyundai", "hyundai", ("KMH", "TMA", "NLH", "NLJ")),
    ("Jaguar", "jaguar", ("SAJ",)),
    ("Jeep", "jeep", ("1C4", "ZAC")),
    ("Kia", "kia", ("KNA", "KNE", "U5Y")),
    ("Land Rover", "land-rover", ("SAL",)),
    ("Lexus", "lexus", ("JTH",)),
    ("Mazda", "mazda", ("JMZ",)),
    ("Mercedes-Benz", "mercedes-benz", ("WDB", "WDD", "WDC", "WDF", "W1K", "W1N", "W1V", "NLE")),
    ("MG", "mg", ("LSJ",)),
    ("MINI", "mini", ("WMW",)),
    ("Mitsubishi", "mitsubishi", ("JMB", "MMB")),
    ("Nissan", "nissan", ("JN1", "SJN", "VSK")),
    ("Opel", "opel", ("W0L", "W0V")),
    ("Peugeot", "peugeot", ("VF3",)),
    ("Porsche", "porsche", ("WP0", "WP1")),
    ("Renault", "renault", ("VF1", "VF6")),
    ("Seat", "seat", ("VSS",)),
    ("Skoda", "skoda", ("TMB",)),
    ("Subaru", "subaru", ("JF1",)),
    ("Suzuki", "suzuki", ("JSA", "TSM")),
    ("Toyota", "toyota", ("JTD", "JTN", "SB1", "VNK", "NMT")),
    ("Volkswagen", "volkswagen", ("WVW", "WV1", "WV2", "WVG")),
    ("Volvo", "volvo", ("YV1",)),
]

# (key, name, brand_count, monthly, yearly) with prices in kuruş; yearly is ten months' price. See docs/decisions.md.
PLANS: list[tuple[str, str, int, int, int]] = [
    ("single", "Tek Marka", 1, 39_900, 399_000),
    ("trio", "Üç Marka", 3, 79_900, 799_000),
    ("full", "Tam Erişim", 0, 149_900, 1_499_000),
]


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
            db.session.add(
                Plan(
                    key=key,
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
