"""A shop's markup rules and offer settings: how an offer's cost (net TRY, without KDV) becomes its sale price, and how
the shop reads offers' prices (with or without KDV).

A rule is for one supplier, one brand, both, or neither (the shop's default), a percent or a fixed amount added;
`scope_key` keeps one rule per scope, so setting a scope's rule again replaces its value. The most specific rule
wins: supplier and brand, then brand, then supplier, then the default. With no rule the sale price is the cost
(a margin of 0), and the answer says no rule applied. Amounts are rounded half up to kuruş.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.errors import ApiError
from app.core.text import fold
from app.core.validation import ID_MAX
from app.extensions import db
from app.suppliers import services
from app.suppliers.models import MARKUP_KINDS, MarkupRule, OfferSettings, Supplier
from app.suppliers.offers import settings_of

KURUS = Decimal("0.01")
HUNDRED = Decimal(100)
PERCENT_MAX = Decimal(1000)
FIXED_MAX = Decimal(1_000_000)
KDV_MAX = Decimal(100)
RAW_MAX_LENGTH = 40
ANY = "*"


def _invalid(code: str, message: str) -> ApiError:
    return ApiError(code, message, 400)


def _number(value: Any) -> Decimal | None:
    """A number as JSON sends it or as a Turkish clerk types it ("12,5"); None when it is none."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, str) and len(value) <= RAW_MAX_LENGTH:
        text = value.strip().replace(",", ".")
    else:
        return None
    try:
        number = Decimal(text)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def checked_value(kind: Any, value: Any) -> tuple[str, Decimal]:
    """The rule's kind and value: a percent from 0 to 1000, or a fixed amount from 0 to 1,000,000 TRY."""
    if kind in (None, ""):
        kind = "percent"
    if kind not in MARKUP_KINDS:
        raise _invalid("invalid_kind", _("Choose the markup's kind: percent or fixed."))
    number = _number(value)
    if kind == "percent" and (number is None or not 0 <= number <= PERCENT_MAX):
        raise _invalid("invalid_markup", _("A markup percent is a number from 0 to 1000."))
    if number is None or not 0 <= number <= FIXED_MAX:
        raise _invalid("invalid_markup", _("A fixed markup is an amount from 0 to 1.000.000 TRY."))
    return kind, number.quantize(KURUS, ROUND_HALF_UP)


def _supplier_id(member: User, value: Any) -> int | None:
    """The rule's supplier, one of the member's shop's (another shop's is not found), or None for any."""
    if value in (None, "", ANY):
        return None
    text = str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else ""
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= ID_MAX:
        raise _invalid("invalid_field", _("%(field)s must be a record id.", field="supplierId"))
    return services.get_supplier(member, int(text)).id


def scope_key(supplier_id: int | None, brand_key: str | None) -> str:
    return f"{supplier_id or ANY}|{brand_key or ANY}"


def rules_of(shop_id: uuid.UUID) -> list[MarkupRule]:
    """The shop's rules, the default first, then by supplier and brand."""
    query = sa.select(MarkupRule).where(MarkupRule.shop_id == shop_id)
    rules = list(db.session.scalars(query.order_by(MarkupRule.id)))
    return sorted(rules, key=lambda rule: (rule.supplier_id is not None, rule.supplier_id or 0, rule.brand_key or ""))


def set_rule(member: User, data: Mapping[str, Any]) -> MarkupRule:
    """Set the markup of a scope (a supplier, a brand, both or neither): a scope's rule set again takes the new
    value."""
    supplier_id = _supplier_id(member, data.get("supplierId"))
    brand = data.get("brand")
    key = services.brand_key(brand) if brand not in (None, "") else None
    kind, value = checked_value(data.get("kind"), data.get("value"))
    scope = scope_key(supplier_id, key)
    rule = _rule_of_scope(member.shop_id, scope)
    if rule is None:
        rule = MarkupRule(
            shop_id=member.shop_id,
            supplier_id=supplier_id,
            brand_key=key,
            brand=brand.strip() if key else None,
            scope_key=scope,
            kind=kind,
            value=value,
            user_id=member.id,
        )
        try:
            with db.session.begin_nested():  # the unique index settles a race of two first settings
                db.session.add(rule)
                db.session.flush()
            return rule
        except sa.exc.IntegrityError:
            rule = _rule_of_scope(member.shop_id, scope)
            if rule is None:
                raise
    rule.kind, rule.value, rule.user_id = kind, value, member.id
    if key:
        rule.brand = brand.strip()
    db.session.flush()
    return rule


def _rule_of_scope(shop_id: uuid.UUID, scope: str) -> MarkupRule | None:
    query = sa.select(MarkupRule).where(MarkupRule.shop_id == shop_id, MarkupRule.scope_key == scope)
    return db.session.scalar(query)


def get_rule(member: User, rule_id: int) -> MarkupRule:
    """A rule of the member's shop, or 404 (another shop's is not found, as an unknown one)."""
    rule = db.session.get(MarkupRule, rule_id) if 0 < rule_id <= ID_MAX else None
    if rule is None or rule.shop_id != member.shop_id:
        raise ApiError("markup_rule_not_found", _("This markup rule was not found."), 404)
    return rule


def delete_rule(rule: MarkupRule) -> None:
    """Remove a markup rule: its scope falls back to the next less specific rule."""
    db.session.delete(rule)
    db.session.flush()


def rule_for(shop_id: uuid.UUID, supplier_id: int | None, brand: str | None) -> MarkupRule | None:
    """The most specific of the shop's rules for an offer: supplier and brand, brand, supplier, default."""
    key = " ".join(fold(brand or "").split()) or None  # as services.brand_key keys it
    scopes = [scope_key(supplier_id, key), scope_key(None, key), scope_key(supplier_id, None), scope_key(None, None)]
    scopes = list(dict.fromkeys(scopes))
    query = sa.select(MarkupRule).where(MarkupRule.shop_id == shop_id, MarkupRule.scope_key.in_(scopes))
    found = {rule.scope_key: rule for rule in db.session.scalars(query)}
    return next((found[scope] for scope in scopes if scope in found), None)


def marked_up(rule: MarkupRule | None, cost: Decimal) -> Decimal:
    """The cost with the rule's markup, in kuruş; the cost itself without a rule."""
    cost = Decimal(cost)
    if rule is None:
        return cost.quantize(KURUS, ROUND_HALF_UP)
    value = Decimal(rule.value)
    sale = cost * (HUNDRED + value) / HUNDRED if rule.kind == "percent" else cost + value
    return sale.quantize(KURUS, ROUND_HALF_UP)


def sale_price(
    shop_id: uuid.UUID, supplier_id: int | None, brand: str | None, cost: Decimal
) -> tuple[Decimal, MarkupRule | None]:
    """The sale price of an offer's cost by the shop's most specific rule, and that rule (None: sale = cost)."""
    rule = rule_for(shop_id, supplier_id, brand)
    return marked_up(rule, cost), rule


def supplier_names(shop_id: uuid.UUID) -> dict[int, str]:
    query = sa.select(Supplier.id, Supplier.name).where(Supplier.shop_id == shop_id)
    return {row.id: row.name for row in db.session.execute(query)}


def save_settings(shop_id: uuid.UUID, data: Mapping[str, Any]) -> OfferSettings:
    """The shop's offer prices shown with or without KDV, and the KDV rate (0 to 100 %); a field left out keeps its
    value."""
    settings = db.session.get(OfferSettings, shop_id)
    current = settings or settings_of(shop_id)
    with_kdv = data.get("withKdv", current.with_kdv)
    if isinstance(with_kdv, str) and with_kdv in ("true", "false", "1", "0", "on", "off", ""):
        with_kdv = with_kdv in ("true", "1", "on")
    if not isinstance(with_kdv, bool):
        raise _invalid("invalid_field", _("%(field)s must be true or false.", field="withKdv"))
    rate = _number(data.get("kdvRate", current.kdv_rate))
    if rate is None or not 0 <= rate <= KDV_MAX:
        raise _invalid("invalid_kdv_rate", _("The KDV rate is a percent from 0 to 100."))
    if settings is None:
        settings = OfferSettings(shop_id=shop_id)
        db.session.add(settings)
    settings.with_kdv, settings.kdv_rate = with_kdv, rate.quantize(KURUS, ROUND_HALF_UP)
    db.session.flush()
    return settings
