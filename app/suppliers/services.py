"""A shop's suppliers and their terms: added, changed and deleted by a manager, each checked here with its refusal
in Turkish. A supplier of another shop is not found, as an unknown one."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.core.errors import ApiError
from app.core.text import fold
from app.core.validation import ID_MAX
from app.extensions import db
from app.suppliers import addresses, secrets
from app.suppliers.models import AUTH_KINDS, SOURCES, Supplier, SupplierBrandDiscount

CURRENCIES = ("TRY", "EUR", "USD", "GBP")
NAME_LENGTH = 120
PROMISE_LENGTH = 200
EMAIL_LENGTH = 254
BRAND_LENGTH = 80
AUTH_USER_LENGTH = 200
AUTH_HEADER_LENGTH = 100
SECRET_LENGTH = 2000
PULL_MINUTES = (15, 7 * 24 * 60)
DEFAULT_PULL_MINUTES = 24 * 60
HUNDRED = Decimal(100)
CENT = Decimal("0.01")
CUTOFF = re.compile(r"([01]?\d|2[0-3])[:.]([0-5]\d)")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
HEADER_NAME = re.compile(r"[A-Za-z0-9-]+")


def _invalid(code: str, message: str) -> ApiError:
    return ApiError(code, message, 400)


def _text(data: Mapping[str, Any], name: str, length: int) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _invalid("invalid_field", _("This field must be text: %(field)s.", field=name))
    value = value.strip()
    if len(value) > length:
        raise _invalid("field_too_long", _("%(field)s can be at most %(max)d characters.", field=name, max=length))
    return value or None


def percent(value: Any) -> Decimal:
    """A discount from 0 to 100 ("12,5" as Turkish writes it)."""
    if isinstance(value, bool) or value is None or value == "":
        value = "0" if value in (None, "") else "x"
    try:
        number = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError):
        number = Decimal(-1)
    if not number.is_finite() or not 0 <= number <= HUNDRED:
        raise _invalid("invalid_discount", _("A discount is a percent from 0 to 100."))
    return number.quantize(CENT)


def _currency(value: Any) -> str:
    code = (value or "TRY").strip().upper() if isinstance(value, str) or value is None else ""
    code = "TRY" if code == "TL" else code
    if code not in CURRENCIES:
        raise _invalid("invalid_currency", _("Choose the currency: TRY, EUR, USD or GBP."))
    return code


def _cutoff(value: str | None) -> str | None:
    if value is None:
        return None
    match = CUTOFF.fullmatch(value)
    if match is None:
        raise _invalid("invalid_cutoff", _("Write the order cut-off time as HH:MM, e.g. 14:00."))
    return f"{int(match[1]):02d}:{match[2]}"


def _email(value: str | None) -> str | None:
    if value is not None and not EMAIL.fullmatch(value):
        raise _invalid("invalid_email", _("Enter a valid e-mail address for orders."))
    return value


def _pull_minutes(value: Any) -> int:
    if value in (None, ""):
        return DEFAULT_PULL_MINUTES
    text = str(value).strip()
    low, high = PULL_MINUTES
    if isinstance(value, bool) or not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise _invalid("invalid_interval", _("Pull the list every %(low)d to %(high)d minutes.", low=low, high=high))
    return int(text)


def _choice(value: Any, choices: tuple[str, ...], default: str, code: str) -> str:
    value = default if value in (None, "") else value
    if value not in choices:
        raise _invalid(code, _("Choose one of: %(names)s.", names=", ".join(choices)))
    return value


def checked_terms(data: Mapping[str, Any], supplier: Supplier | None = None) -> dict[str, Any]:
    """The supplier's columns from a request's fields (camelCase), each checked; an absent field keeps its value on
    a change (and takes its default on a new supplier)."""
    values: dict[str, Any] = {}
    if supplier is None or "name" in data:
        name = _text(data, "name", NAME_LENGTH)
        if not name:
            raise _invalid("missing_field", _("Enter the supplier's name."))
        values["name"] = name
    if supplier is None or "currency" in data:
        values["currency"] = _currency(data.get("currency"))
    if supplier is None or "discountPercent" in data:
        values["discount_percent"] = percent(data.get("discountPercent"))
    if supplier is None or "deliveryPromise" in data:
        values["delivery_promise"] = _text(data, "deliveryPromise", PROMISE_LENGTH)
    if supplier is None or "orderCutoff" in data:
        values["order_cutoff"] = _cutoff(_text(data, "orderCutoff", 5))
    if supplier is None or "orderEmail" in data:
        values["order_email"] = _email(_text(data, "orderEmail", EMAIL_LENGTH))
    values.update(_checked_source(data, supplier))
    return values


def _checked_source(data: Mapping[str, Any], supplier: Supplier | None) -> dict[str, Any]:
    """Where the list comes from: an upload, or a URL with its authentication and pull interval."""
    source = _choice(data.get("source", supplier.source if supplier else None), SOURCES, "upload", "invalid_source")
    if source == "upload":
        return {
            "source": "upload",
            "url": None,
            "auth_kind": "none",
            "auth_user": None,
            "auth_header": None,
            "auth_secret": None,
            "pull_interval_minutes": None,
        }
    url = _text(data, "url", addresses.URL_LENGTH) if "url" in data else (supplier.url if supplier else None)
    if not url:
        raise _invalid("invalid_url", _("Enter the address the list is pulled from."))
    kind = _choice(data.get("authKind", supplier.auth_kind if supplier else None), AUTH_KINDS, "none", "invalid_auth")
    values = {
        "source": "url",
        "url": addresses.checked_url(url),
        "auth_kind": kind,
        "pull_interval_minutes": _pull_minutes(
            data["pullIntervalMinutes"]
            if "pullIntervalMinutes" in data
            else getattr(supplier, "pull_interval_minutes", None)
        ),
        "auth_user": _text(data, "authUser", AUTH_USER_LENGTH) if kind == "basic" else None,
        "auth_header": _text(data, "authHeader", AUTH_HEADER_LENGTH) if kind == "token" else None,
    }
    if kind == "basic" and not values["auth_user"]:
        values["auth_user"] = supplier.auth_user if supplier else None
        if not values["auth_user"]:
            raise _invalid("missing_field", _("Enter the user name for the list's address."))
    if kind == "token":
        values["auth_header"] = values["auth_header"] or (supplier.auth_header if supplier else None)
        if not values["auth_header"] or not HEADER_NAME.fullmatch(values["auth_header"]):
            raise _invalid("invalid_header", _("Enter the token's header name, e.g. Authorization or X-Api-Key."))
    values.update(_checked_secret(data, kind, supplier))
    return values


def _checked_secret(data: Mapping[str, Any], kind: str, supplier: Supplier | None) -> dict[str, Any]:
    """The password or token, sealed; left empty on a change, the stored one stays (it is never shown back)."""
    if kind == "none":
        return {"auth_secret": None}
    secret = _text(data, "authSecret", SECRET_LENGTH)
    if secret:
        if any(char in secret for char in "\r\n"):
            raise _invalid("invalid_secret", _("The password or token cannot hold line breaks."))
        return {"auth_secret": secrets.seal(secret)}
    if supplier is not None and supplier.auth_secret and supplier.auth_kind == kind:
        return {}
    raise _invalid("missing_secret", _("Enter the password or token for the list's address."))


def _name_taken() -> ApiError:
    return ApiError("name_taken", _("The shop already has a supplier with this name."), 409)


def _refuse_taken_name(shop_id: Any, name: str, supplier_id: int | None = None) -> None:
    query = sa.select(Supplier.id).where(Supplier.shop_id == shop_id, sa.func.lower(Supplier.name) == name.lower())
    found = db.session.scalar(query.limit(1))
    if found is not None and found != supplier_id:
        raise _name_taken()


def create(member: User, data: Mapping[str, Any]) -> Supplier:
    """Add a supplier to the member's shop."""
    values = checked_terms(data)
    _refuse_taken_name(member.shop_id, values["name"])
    supplier = Supplier(shop_id=member.shop_id, user_id=member.id, **values)
    db.session.add(supplier)
    db.session.flush()
    return supplier


def update(supplier: Supplier, data: Mapping[str, Any]) -> Supplier:
    """Change a supplier's terms (the fields given)."""
    values = checked_terms(data, supplier)
    if "name" in values:
        _refuse_taken_name(supplier.shop_id, values["name"], supplier.id)
    for column, value in values.items():
        setattr(supplier, column, value)
    db.session.flush()
    return supplier


def delete(supplier: Supplier) -> None:
    """Delete a supplier with its discounts and lists."""
    db.session.delete(supplier)
    db.session.flush()


def get_supplier(member: User, supplier_id: int) -> Supplier:
    """A supplier of the member's shop, or 404 (another shop's is not found, as an unknown one)."""
    supplier = db.session.get(Supplier, supplier_id) if 0 < supplier_id <= ID_MAX else None
    if supplier is None or supplier.shop_id != member.shop_id:
        raise ApiError("supplier_not_found", _("This supplier was not found."), 404)
    return supplier


def suppliers_of(member: User) -> list[Supplier]:
    """The member's shop's suppliers by name."""
    query = sa.select(Supplier).where(Supplier.shop_id == member.shop_id).order_by(Supplier.name, Supplier.id)
    return list(db.session.scalars(query))


def brand_discounts(supplier: Supplier) -> list[SupplierBrandDiscount]:
    query = sa.select(SupplierBrandDiscount).where(SupplierBrandDiscount.supplier_id == supplier.id)
    return list(db.session.scalars(query.order_by(SupplierBrandDiscount.brand_key)))


def brand_key(brand: Any) -> str:
    """A brand as it is keyed (folded), or a refusal when it is no brand."""
    if not isinstance(brand, str) or not brand.strip() or len(brand.strip()) > BRAND_LENGTH:
        raise _invalid("invalid_brand", _("Enter the brand (at most %(max)d characters).", max=BRAND_LENGTH))
    return " ".join(fold(brand).split())


def set_brand_discount(member: User, supplier: Supplier, brand: Any, discount: Any) -> SupplierBrandDiscount:
    """Set the supplier's discount on a brand (in place of its general discount)."""
    key, value = brand_key(brand), percent(discount)
    found = db.session.get(SupplierBrandDiscount, (supplier.id, key))
    if found is None:
        found = SupplierBrandDiscount(supplier_id=supplier.id, brand_key=key, user_id=member.id)
        db.session.add(found)
    found.brand, found.discount_percent = brand.strip(), value
    db.session.flush()
    return found


def delete_brand_discount(supplier: Supplier, brand: Any) -> None:
    """Remove the supplier's discount on a brand, or 404 when it has none."""
    found = db.session.get(SupplierBrandDiscount, (supplier.id, brand_key(brand)))
    if found is None:
        raise ApiError("discount_not_found", _("This brand discount was not found."), 404)
    db.session.delete(found)
    db.session.flush()
