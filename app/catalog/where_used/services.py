"""Where an OEM code is used: the stored vehicles, and the pictures in them, whose part rows carry the code.

Codes compare by their search key (`app.core.text.fold_code`: spaces, dashes and dots dropped, any case), looked
up exactly in `part.search_code` (a btree with the vehicle id beside it). Reference rows ("see table 109-010") carry no
code and are left out. Only stored rows are read; a vehicle whose tree is not stored whole may hold more.

The API also takes a number of the dealer's shelf list (his own code, an aftermarket number): the rows carrying the
OEM codes its list rows stand for are listed beside those carrying the number itself (`find(via_shelf=True)`).

Access: a vehicle is listed when the caller could open it (`services.open_vehicle`: a vehicle without a brand, or one
of a brand the caller's plan covers; admins every one). Vehicles of other brands are only counted
(`hiddenVehicleCount`), never named: the caller learns that a wider plan would show more, not which vehicles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from app.accounts.models import User
from app.billing.access import ensure_brand_access
from app.catalog import names, on_offer, on_shelf, store
from app.catalog.fit import shapes as fit_shapes
from app.catalog.models import Category, Part, PartFit
from app.core.errors import ApiError
from app.core.text import fold_code
from app.extensions import db
from app.shelf import lookup as shelf_lookup
from app.suppliers import offers
from app.vehicles.models import Vehicle

MAX_INPUT_LENGTH = 100  # as typed, separators included
MAX_CODE_LENGTH = 60  # letters and digits: the length of part.oem_code
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
NO_BRAND = 0  # the brand key of vehicles without a brand, which every caller may open


def parse_code(raw: str | None) -> str:
    """The search key of a typed OEM code; refused when it is too long or has no letter or digit."""
    text = (raw or "").strip()
    if len(text) > MAX_INPUT_LENGTH or len(code := fold_code(text)) > MAX_CODE_LENGTH:
        raise ApiError(
            "invalid_code", _("An OEM code has at most %(max)d letters and digits.", max=MAX_CODE_LENGTH), 400
        )
    if not code:
        raise ApiError("invalid_code", _("Type an OEM code: its letters and digits, with or without spaces."), 400)
    return code


def find(
    user: User, code: str, limit: int = DEFAULT_LIMIT, *, via_shelf: bool = False, priced: bool = True
) -> dict[str, Any]:
    """The vehicles `user` may open whose part rows carry `code` (a search key), each with those rows, their pictures
    and the path to them: at most `limit` rows, with the full counts and the number of vehicles left out. `via_shelf`:
    also the rows carrying an OEM code `code` stands for on the user's shelf list (his own code, an aftermarket
    number), read in the same statements. `priced`: with the shop's offers for the code (a caller that reads them
    itself says False)."""
    statements = _VIA_SHELF if via_shelf else _EXACT
    # A code with no letter or digit (a part row written "-") is no code: it would match every other such row.
    counts = _rows(statements.counts, {"code": code, "user_id": user.id}).all() if code else []
    opened = {row.brand for row in counts if _may_open(user, row.brand)}
    shown = [row for row in counts if row.brand in opened]
    every_brand = len(shown) == len(counts)
    rows = _page(statements, code, opened, user, every_brand=every_brand, limit=limit) if shown else []
    trails = store.ancestor_trails(sorted({row[_LEAF_AT] for row in rows}))
    vehicle_count, part_count = sum(row.vehicles for row in shown), sum(row.parts for row in shown)
    vehicles = _vehicles(rows, trails)
    listed = [part for vehicle in vehicles for part in vehicle["parts"]]
    first = rows[0] if rows else None
    on_shelf.add_shelf(user.id, listed, shelf_lookup.list_in_use_of(first), shelf_lookup.others_listed(first))
    return {
        "searchCode": code,
        "vehicles": vehicles,
        "vehicleCount": vehicle_count,
        "partCount": part_count,
        "hiddenVehicleCount": sum(row.vehicles for row in counts) - vehicle_count,
        "truncated": part_count > len(rows),
        "offers": on_offer.offers_of_codes(user, {code} if rows and priced else set(), offers.listed_in(first)),
    }


def _page(
    statements: _Statements, code: str, opened: set[int], user: User, *, every_brand: bool, limit: int
) -> list[sa.Row]:
    """The first `limit` rows carrying the code in vehicles of the `opened` brands, each with its fit for its vehicle
    as `user`'s shop has it; without a brand filter when they are `every_brand` that carries it (an admin, a Full plan),
    the usual case."""
    parameters = {"code": code, "limit": limit, "user_id": user.id, "shop_id": user.shop_id}
    if not every_brand:
        return _rows(statements.rows_of_brands, {**parameters, "brands": sorted(opened)}).all()
    rows = _rows(statements.rows, parameters).all()
    # A vehicle of another brand stored since the counts were read is still not shown.
    return [row for row in rows if (row[_BRAND_AT] or NO_BRAND) in opened]


def _may_open(user: User, brand: int) -> bool:
    """Whether `user` could open a vehicle of `brand` (NO_BRAND: one without a brand), as open_vehicle decides."""
    if brand == NO_BRAND:
        return True
    try:
        ensure_brand_access(user, brand)
    except ApiError:
        return False
    return True


def _rows(statement: sa.Executable, parameters: dict[str, Any]) -> sa.CursorResult:
    """Plain rows from the request's connection, past the ORM session's execute (as app.catalog.store reads): these
    are reads of columns, and the session's machinery cost about as much as a query's round trip."""
    return db.session.connection().execute(statement, parameters)


def _vehicles(rows: list[sa.Row], trails: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The rows (ordered by vehicle) as vehicles, each with its part rows."""
    vehicles: dict[int, dict[str, Any]] = {}
    english = names.english_wanted()
    for row in rows:
        part, leaf, vehicle = _split(row)
        listed = vehicles.setdefault(vehicle["id"], {**vehicle, "parts": []})
        leaf = names.named(leaf, english)
        status, document, answered = (part.pop(key) for key in _FIT_KEYS)
        listed["parts"].append(
            {
                **names.named(part, english),
                "leaf": leaf,
                "ancestors": trails[leaf["id"]],
                "fit": fit_shapes.part_fit_view(status, document, answered),
                "shelf": None,  # the caller's list row, set for all rows at once
            }
        )
    return list(vehicles.values())


def _split(row: sa.Row) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A row of _ROWS as its part, its leaf and its vehicle, read by position: by name, reading fifty rows cost as
    much as the query that fetched them."""
    values = tuple(row)
    return (
        dict(zip(_PART_FIELDS, values[:_LEAF_AT], strict=True)),
        dict(zip(_LEAF_FIELDS, values[_LEAF_AT:_VEHICLE_AT], strict=True)),
        dict(zip(_VEHICLE_FIELDS, values[_VEHICLE_AT:_SHELF_AT], strict=True)),
    )


_BRAND = sa.func.coalesce(Vehicle.brand_id, NO_BRAND)

# What an answer shows of each row, by its key: the rows statement selects these columns in this order.
_PART_FIELDS = {
    "id": Part.id,
    "oemCode": Part.oem_code,
    # A coded row's label is its name (only reference rows have another); app.catalog.names makes the name fields.
    **{key: getattr(Part, key) for key in names.STORED_KEYS},
    "position": Part.position,
    "unavailable": Part.unavailable,
    # The row's fit for its vehicle as the caller has it (app.catalog.store.FIT_COLUMNS), made `fit` by _vehicles.
    **dict(zip(("fitStatus", "fitDocument", "fitAnswered"), store.FIT_COLUMNS, strict=True)),
}
_FIT_KEYS = ("fitStatus", "fitDocument", "fitAnswered")
_LEAF_FIELDS = {"id": Part.category_id, **{key: getattr(Category, key) for key in names.STORED_KEYS}}
_VEHICLE_FIELDS = {
    "id": Vehicle.id,
    "vin": Vehicle.vin,
    "brandId": Vehicle.brand_id,
    "brandName": Vehicle.brand_name,
    "model": Vehicle.model,
    "year": Vehicle.year,
    "engine": Vehicle.engine,
}
_LEAF_AT = len(_PART_FIELDS)
_VEHICLE_AT = _LEAF_AT + len(_LEAF_FIELDS)
_BRAND_AT = _VEHICLE_AT + list(_VEHICLE_FIELDS).index("brandId")
_SHELF_AT = _VEHICLE_AT + len(_VEHICLE_FIELDS)  # then the caller's shelf list in use (app.shelf.lookup)


@dataclass(frozen=True)
class _Statements:
    counts: sa.Select  # per brand: the vehicles and the part rows that carry the code
    rows: sa.Select  # the rows, with their leaf and vehicle
    rows_of_brands: sa.Select  # the same, of the brands in :brands


def _statements(carries: sa.ColumnElement[bool]) -> _Statements:
    """The statements of an answer, for the rows that `carries` (and are no reference rows)."""
    coded = (carries, Part.reference_code.is_(None))
    counts = (
        sa.select(
            _BRAND.label("brand"),
            sa.func.count(sa.distinct(Part.vehicle_id)).label("vehicles"),
            sa.func.count().label("parts"),
        )
        .select_from(Part)
        .join(Vehicle, Vehicle.id == Part.vehicle_id)
        .where(*coded)
        .group_by(_BRAND)
    )
    brands = _BRAND.in_(sa.bindparam("brands", expanding=True))
    return _Statements(counts, _rows_statement(coded), _rows_statement((*coded, brands)))


_ORDER = (Vehicle.brand_name, Vehicle.model, Vehicle.id, Part.category_id, Part.sort_order, Part.id)


def _rows_statement(conditions: tuple[sa.ColumnElement[bool], ...]) -> sa.Select:
    """The first :limit rows meeting `conditions`, in the answer's order, with their leaf, vehicle and fit: the page
    is chosen first and its leaves looked up after, by primary key (joined before the limit, PostgreSQL hashed the
    whole category table for the fifty rows: 7 ms of an 8 ms statement on the bench fleet)."""
    page = (
        sa.select(Part.id)
        .join(Vehicle, Vehicle.id == Part.vehicle_id)
        .where(*conditions)
        .order_by(*_ORDER)
        .limit(sa.bindparam("limit"))
        .subquery("page")
    )
    return (
        sa.select(
            *_PART_FIELDS.values(),
            *_LEAF_FIELDS.values(),
            *_VEHICLE_FIELDS.values(),
            *shelf_lookup.active_list_columns(),
            offers.lists_column(),
        )
        .select_from(page)
        .join(Part, Part.id == page.c.id)
        .join(Category, Category.id == Part.category_id)
        .join(Vehicle, Vehicle.id == Part.vehicle_id)
        .outerjoin(PartFit, store.FIT_JOIN)
        .order_by(*_ORDER)
    )


# Built once: each request only binds its values.
_CODE = sa.bindparam("code")
_EXACT = _statements(Part.search_code == _CODE)
_VIA_SHELF = _statements(
    sa.or_(Part.search_code == _CODE, shelf_lookup.stands_for(Part.search_code, _CODE, sa.bindparam("user_id")))
)
