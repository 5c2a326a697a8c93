"""Writing and reading the stored tree. Inserts do nothing on conflict, so a re-fetch or a retried job never
duplicates a category or a part row."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from flask import current_app, g, has_request_context
from sqlalchemy.orm import aliased

from app.catalog import names
from app.catalog.fit import services as fit
from app.catalog.fit.facts import VehicleFacts
from app.catalog.folding import fold_names
from app.catalog.models import Category, FitPreference, Hotspot, Part, PartFit, SchemaPicture
from app.catalog.providers import Node, PartLine, Picture
from app.core.db import insert_for, utcnow
from app.core.text import fold_code
from app.extensions import db
from app.shelf import lookup as shelf_lookup
from app.suppliers import offers
from app.translation import Translator
from app.translation import services as translation
from app.vehicles.models import CatalogVehicle, Vehicle


def save_nodes(vehicle_id: int, source: str, parent_id: int | None, nodes: Sequence[Node]) -> None:
    """Store a level of the tree (starting with the write, see `begin_writes`) and mark the parent drilled."""
    translator = translation.current_translator() if nodes else None
    language = translation.source_language(source)
    catalog_vehicle_id = catalog_vehicle_of(vehicle_id) if nodes else None
    rows = [
        {
            "vehicle_id": vehicle_id,
            "catalog_vehicle_id": catalog_vehicle_id,
            "parent_id": parent_id,
            "source": source,
            "external_id": node.external_id,
            **_named(node.name, node.language or language, translator),
            "link_path": node.link_path,
            "unavailable": node.unavailable,
            "remark": node.remark,
            "model_codes": list(node.model_codes),
            "presel": node.presel,
            "is_leaf": node.is_leaf,
            "illustration_code": node.illustration_code,
            "sort_order": order,
        }
        for order, node in enumerate(nodes)
    ]
    if rows:
        db.session.execute(insert_for(db.session, Category).values(rows).on_conflict_do_nothing())
    if parent_id is not None:
        db.session.execute(sa.update(Category).where(Category.id == parent_id).values(children_fetched_at=utcnow()))


def catalog_vehicle_of(vehicle_id: int) -> int | None:
    """The catalog vehicle (a car reached by browsing) whose tree the vehicle row holds; None for a decoded VIN."""
    return db.session.scalar(sa.select(CatalogVehicle.id).where(CatalogVehicle.vehicle_id == vehicle_id))


def save_parts(
    vehicle_id: int, category_id: int, source: str, lines: Sequence[PartLine], facts: VehicleFacts | None = None
) -> None:
    """Store a leaf's part rows (a row already stored is left alone), each with its fit by the vehicle's `facts`
    (read from the vehicle when not given), and mark the leaf fetched with its fit counts."""
    translator = translation.current_translator() if lines else None
    language = translation.source_language(source)
    judge = fit.Judge(fit.facts_of(vehicle_id) if facts is None and lines else facts or VehicleFacts())
    rows = [
        {
            "vehicle_id": vehicle_id,
            "category_id": category_id,
            "oem_code": line.oem_code,
            "search_code": fold_code(line.oem_code),
            **_named(line.name, language, translator),
            "position": line.position,
            "unavailable": line.unavailable,
            "remark": line.remark,
            "model_codes": list(line.model_codes),
            "reference_code": line.reference_code,
            "label": line.label or line.name,
            "quantity": line.quantity,
            "sort_order": order,
            **judge.columns(line.applicability),
        }
        for order, line in enumerate(lines)
    ]
    if rows:
        db.session.execute(insert_for(db.session, Part).values(rows).on_conflict_do_nothing())
    # Counted once per stored row: lines the unique row key folds together count once.
    stored = {(row["oem_code"], row["name"], row["position"] or ""): row["fit_status"] for row in rows}
    db.session.execute(
        sa.update(Category)
        .where(Category.id == category_id)
        .values(parts_fetched_at=utcnow(), **fit.leaf_counts(stored.values()))
    )


def _named(name: str, language: str, translator: Translator | None) -> dict[str, Any]:
    """A new row's name, its language columns and its search key over both languages."""
    columns = translation.name_columns(name, language, translator)
    return {"name": name, **columns, "search_name": fold_names(name, columns["name_tr"])}


def save_picture(category_id: int, picture: Picture, storage_key: str) -> None:
    """The leaf's schema picture and its hotspots, once (a second save of the same leaf changes nothing)."""
    inserted = db.session.execute(
        insert_for(db.session, SchemaPicture)
        .values(
            category_id=category_id,
            storage_key=storage_key,
            source_url=picture.url,
            width=picture.width,
            height=picture.height,
        )
        .on_conflict_do_nothing(index_elements=[SchemaPicture.category_id])
        .returning(SchemaPicture.id)
    ).scalar()
    if inserted is not None and picture.hotspots:
        db.session.execute(
            sa.insert(Hotspot),
            [
                {"schema_picture_id": inserted, "position": position, "x1": x1, "y1": y1, "x2": x2, "y2": y2}
                for position, x1, y1, x2, y2 in picture.hotspots
            ],
        )


def picture_of(category_id: int) -> tuple[sa.Row, list[sa.Row]] | None:
    """The category's schema picture (storage_key, width, height) and its hotspots, in one query."""
    rows = _rows(_PICTURE_WITH_SPOTS, {"category_id": category_id}).all()
    if not rows:
        return None
    return rows[0], [row for row in rows if row.position is not None]


def thumbnails(categories: Sequence[Category]) -> dict[int, str]:
    """Storage keys of the pictures of those categories that are leaves with a stored picture."""
    ids = [category.id for category in categories if category.is_leaf]
    if not ids:
        return {}
    return dict(_rows(_THUMBNAILS, {"ids": ids}).all())


def counts(vehicle_id: int) -> tuple[int, int, int]:
    """(categories, parts, schema pictures) stored for the vehicle, in one query."""

    def count(model: Any, *where: sa.ColumnElement[bool]) -> sa.ScalarSelect:
        return sa.select(sa.func.count()).select_from(model).where(*where).scalar_subquery()

    row = db.session.execute(
        sa.select(
            count(Category, Category.vehicle_id == vehicle_id),
            count(Part, Part.vehicle_id == vehicle_id),
            count(SchemaPicture.__table__.join(Category.__table__), Category.vehicle_id == vehicle_id),
        )
    ).one()
    return int(row[0]), int(row[1]), int(row[2])


def walk_state(vehicle_id: int) -> dict[str, int]:
    """How much of the vehicle's tree is stored: groups drilled and leaves fetched, of those known so far."""
    row = _rows(_WALK_STATE, {"vehicle_id": vehicle_id}).one()
    return {"groups": row[0], "groupsDrilled": row[1], "leaves": row[2], "leavesFetched": row[3]}


def walk_state_of(vehicle: Vehicle) -> dict[str, int]:
    """The vehicle's walk state; a whole tree's is read once per process. A stored tree only grows, until whole: no
    code takes a category away but the vehicle's deletion, so a whole tree's state never changes. Keyed with the
    vehicle's creation time, since SQLite may give a deleted vehicle's id to a new one."""
    whole: dict[tuple[int, Any], dict[str, int]] = current_app.extensions.setdefault(WHOLE_TREES, {})
    key = (vehicle.id, vehicle.created_at)
    state = whole.get(key)
    if state is None:
        state = walk_state(vehicle.id)
        if is_complete(state):
            if len(whole) >= WHOLE_TREES_KEPT:
                whole.clear()
            whole[key] = state
    return dict(state)


def is_complete(state: dict[str, int]) -> bool:
    """Whether a walk state is the whole tree: some categories, every group drilled, every leaf's parts fetched."""
    known = state["groups"] + state["leaves"]
    return known > 0 and state["groupsDrilled"] + state["leavesFetched"] == known


def tree_complete(vehicle: Vehicle) -> bool:
    return is_complete(walk_state_of(vehicle))


def category(category_id: int) -> sa.Row | None:
    """The category as a plain row with every column (only read: a request's category, which nothing writes through
    and nothing reads again after a commit, unlike the walk's objects). Its ancestors come in the same query, kept
    for the request's ancestors()."""
    rows = _rows(_CATEGORY_CHAIN, {"category_id": category_id}).all()
    if not rows:
        return None
    if has_request_context():
        g.setdefault(ANCESTORS_READ, {})[category_id] = rows[:0:-1]  # the root first
    return rows[0]


def roots(vehicle_id: int) -> list[Category]:
    return _categories(Category.vehicle_id == vehicle_id, Category.parent_id.is_(None))


def levels(vehicle_id: int, parent_ids: list[int]) -> list[sa.Row]:
    """The vehicle's roots and the children of `parent_ids`, in tree order, as plain rows with the columns a
    category's view reads (VIEW_COLUMNS; the page's opened tree)."""
    return _rows(_LEVELS, {"vehicle_id": vehicle_id, "parent_ids": [0, *parent_ids]}).all()


def children(category_id: int) -> list[Category]:
    return _categories(Category.parent_id == category_id)


def parts(category_id: int, user_id: uuid.UUID | None = None, shop_id: uuid.UUID | None = None) -> list[sa.Row]:
    """The leaf's part rows, as plain rows with the columns a part view reads (the page's hottest read): PART_COLUMNS,
    then FIT_COLUMNS with the shop's own fit where its answers changed it, the member's "only what fits" switch, his
    list in use (the import id of his shelf list, null for none) and a reference row's target (REFERENCE_TARGET)."""
    return _rows(_PARTS_OF, {"category_id": category_id, "user_id": user_id, "shop_id": shop_id}).all()


def ancestors(category: Category) -> list[sa.Row]:
    """(id and the name columns) from the root to the parent, from one recursive query (complete on refresh and
    deep links)."""
    if category.parent_id is None:
        return []
    read = g.get(ANCESTORS_READ, {}) if has_request_context() else {}
    if category.id in read:
        return read[category.id]
    return _rows(_ANCESTORS, {"parent_id": category.parent_id}).all()


def ancestor_trails(category_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each category's ancestors as {id, name}, root to parent, from one recursive query over all of them."""
    trails: dict[int, list[dict[str, Any]]] = {category_id: [] for category_id in category_ids}
    if category_ids:
        english = names.english_wanted()
        for row in _rows(_TRAILS, {"origins": category_ids}).all():  # the root first
            trails[row.origin].append({"id": row.ancestor_id, **names.name_fields(row, english)})
    return trails


def illustration_index(vehicle_id: int, codes: set[str]) -> dict[str, int]:
    """Category ids of the vehicle's pictures whose {NNN-NNN} code is among `codes`."""
    if not codes:
        return {}
    return dict(_rows(_ILLUSTRATIONS, {"vehicle_id": vehicle_id, "codes": sorted(codes)}).all())


def _rows(statement: sa.Executable, parameters: dict[str, Any]) -> sa.CursorResult:
    """Plain rows from the request's connection (its transaction), past the ORM session's execute: for these reads of
    columns (no objects, no pending ORM changes to flush, since the catalog writes are Core statements) it cost about
    as much Python as the query's round trip."""
    return db.session.connection().execute(statement, parameters)


def _categories(*conditions: sa.ColumnElement[bool]) -> list[Category]:
    return list(db.session.scalars(sa.select(Category).where(*conditions).order_by(Category.sort_order, Category.id)))


WHOLE_TREES = "catalog_whole_trees"  # in app.extensions: the walk states of whole trees (walk_state_of)
WHOLE_TREES_KEPT = 100_000  # then forgotten all at once, to be read again
ANCESTORS_READ = "catalog_ancestors_read"  # in flask.g: each category read's ancestors, read with it (category())

# The detail's reads, built once: each call then only binds its id (building a recursive CTE costs more than running
# it).
# What a shown name reads (app.catalog.names).
NAME_COLUMNS = (Category.name, Category.name_lang, Category.name_tr, Category.name_tr_complete)

# What a part view reads; the detail and the search select these as plain rows rather than Part objects.
PART_COLUMNS = (
    Part.id,
    Part.category_id,
    Part.oem_code,
    Part.name,
    Part.name_lang,
    Part.name_tr,
    Part.name_tr_complete,
    Part.label,
    Part.position,
    Part.unavailable,
    Part.remark,
    Part.model_codes,
    Part.reference_code,
    Part.quantity,
)

# A row's fit for the shop (`shop_id`, null for none): its own where its answers changed it (part_fit, joined on
# the row and the shop), else the row's; and whether it is the shop's. A row stored before fit answers has a null
# status: a yes.
FIT_COLUMNS = (
    sa.func.coalesce(PartFit.fit_status, Part.fit_status).label("fit_status"),
    sa.func.coalesce(PartFit.fit, Part.fit, type_=Part.fit.type).label("fit"),
    PartFit.part_id.is_not(None).label("fit_answered"),
)
# Typed here: built at import, the foreign key's type may not be known yet (the shop table not yet declared).
FIT_JOIN = sa.and_(PartFit.part_id == Part.id, PartFit.shop_id == sa.bindparam("shop_id", type_=sa.Uuid()))

# The dealer's switch rides along with his rows (an uncorrelated subquery, run once): the detail needs it with them.
_FITTING_ONLY = (
    sa.select(FitPreference.fitting_only)
    .where(FitPreference.user_id == sa.bindparam("user_id"))
    .scalar_subquery()
    .label("fitting_only")
)


def _reference_target() -> sa.Label[int | None]:
    """A reference row's target: the category of its vehicle whose illustration code the row points to (the last by
    id when two carry it, as illustration_index's answer keeps the last); null for other rows, which run no
    subquery."""
    own, target = aliased(Category), aliased(Category)
    vehicle = sa.select(own.vehicle_id).where(own.id == Part.category_id).correlate(Part).scalar_subquery()
    found = (
        sa.select(target.id)
        .where(target.vehicle_id == vehicle, target.illustration_code == Part.reference_code)
        .order_by(target.id.desc())
        .limit(1)
        .correlate(Part)
        .scalar_subquery()
    )
    return sa.case((Part.reference_code.is_not(None), found)).label(REFERENCE_TARGET)


REFERENCE_TARGET = "reference_target"
PART_REFERENCE_TARGET = _reference_target()  # a part statement's column: the detail's and the search's rows carry it

# So does the dealer's list in use (app.shelf.lookup), which a page of rows is matched against, and whether his shop
# has a supplier list in use (app.suppliers.offers): a dealer without them costs the page no statement; and each
# reference row's target (parts_view), which cost a statement of its own.
_PARTS_OF = (
    sa.select(
        *PART_COLUMNS,
        *FIT_COLUMNS,
        _FITTING_ONLY,
        *shelf_lookup.active_list_columns(),
        offers.lists_column(),
        PART_REFERENCE_TARGET,
    )
    .outerjoin(PartFit, FIT_JOIN)
    .where(Part.category_id == sa.bindparam("category_id"))
    .order_by(Part.sort_order, Part.id)
)


def _chain_from(start: str) -> sa.CTE:
    """The category :`start` and its ancestors, each with its depth (0 for the category itself)."""
    chain = sa.select(Category.id, Category.parent_id, sa.literal(0).label("depth")).where(
        Category.id == sa.bindparam(start)
    )
    chain = chain.cte("chain", recursive=True)
    step = sa.select(Category.id, Category.parent_id, (chain.c.depth + 1).label("depth")).join(
        chain, Category.id == chain.c.parent_id
    )
    return chain.union_all(step)


def _ancestors_statement() -> sa.Select:
    chain = _chain_from("parent_id")
    return sa.select(Category.id, *NAME_COLUMNS).join(chain, Category.id == chain.c.id).order_by(chain.c.depth.desc())


_ANCESTORS = _ancestors_statement()


def _category_chain_statement() -> sa.Select:
    """The category :category_id, then its parent, up to the root: every column of each."""
    chain = _chain_from("category_id")
    return sa.select(Category.__table__).join(chain, Category.id == chain.c.id).order_by(chain.c.depth)


_CATEGORY_CHAIN = _category_chain_statement()


def _trails_statement() -> sa.Select:
    """(origin, ancestor id, the ancestor's name columns) for every ancestor of each category in :origins, roots
    first. Each step looks its parent up by primary key in a subquery: as a join, PostgreSQL hashed the whole category
    table at every step (about 7 ms for the 50 leaves of a where-used answer on the bench fleet, 1 ms this way)."""

    def of_ancestor(column: sa.ColumnElement[Any]) -> sa.ScalarSelect:
        return sa.select(column).where(Category.id == chain.c.ancestor_id).scalar_subquery()

    chain = (
        sa.select(Category.id.label("origin"), Category.parent_id.label("ancestor_id"), sa.literal(0).label("depth"))
        .where(Category.id.in_(sa.bindparam("origins", expanding=True)))
        .cte("chain", recursive=True)
    )
    step = sa.select(chain.c.origin, of_ancestor(Category.parent_id), chain.c.depth + 1).where(
        chain.c.ancestor_id.is_not(None)
    )
    chain = chain.union_all(step)
    named = [of_ancestor(column).label(column.key) for column in NAME_COLUMNS]
    return (
        sa.select(chain.c.origin, chain.c.ancestor_id, *named)
        .where(chain.c.ancestor_id.is_not(None))
        .order_by(chain.c.depth.desc())
    )


_TRAILS = _trails_statement()

_ILLUSTRATIONS = sa.select(Category.illustration_code, Category.id).where(
    Category.vehicle_id == sa.bindparam("vehicle_id"),
    Category.illustration_code.in_(sa.bindparam("codes", expanding=True)),
)

_LEAF, _GROUP = Category.is_leaf, sa.not_(Category.is_leaf)
_WALK_STATE = sa.select(
    sa.func.count().filter(_GROUP),
    sa.func.count().filter(_GROUP, Category.children_fetched_at.is_not(None)),
    sa.func.count().filter(_LEAF),
    sa.func.count().filter(_LEAF, Category.parts_fetched_at.is_not(None)),
).where(Category.vehicle_id == sa.bindparam("vehicle_id"))


# What a tree node reads of a category (services.category_view, fit_shapes.leaf_moves): not the timestamps, each a
# datetime made per row.
VIEW_COLUMNS = (
    Category.id,
    Category.vehicle_id,
    Category.parent_id,
    Category.catalog_vehicle_id,
    Category.external_id,
    *NAME_COLUMNS,
    Category.unavailable,
    Category.remark,
    Category.model_codes,
    Category.presel,
    Category.is_leaf,
    Category.illustration_code,
    Category.fit_yes,
    Category.fit_no,
    Category.fit_maybe,
)

_LEVELS = (
    sa.select(*VIEW_COLUMNS)
    .where(
        Category.vehicle_id == sa.bindparam("vehicle_id"),
        # The roots as parent 0 (no category has id 0): the node key's index (vehicle_id, coalesce(parent_id, 0), ...)
        # then finds each level, where "parent_id IS NULL OR ..." read every vehicle's roots through the parent index.
        sa.func.coalesce(Category.parent_id, 0).in_(sa.bindparam("parent_ids", expanding=True)),
    )
    .order_by(Category.sort_order, Category.id)
)

_THUMBNAILS = sa.select(SchemaPicture.category_id, SchemaPicture.storage_key).where(
    SchemaPicture.category_id.in_(sa.bindparam("ids", expanding=True))
)

_PICTURE_WITH_SPOTS = (
    sa.select(
        SchemaPicture.storage_key,
        SchemaPicture.width,
        SchemaPicture.height,
        Hotspot.position,
        Hotspot.x1,
        Hotspot.y1,
        Hotspot.x2,
        Hotspot.y2,
    )
    .outerjoin(Hotspot, Hotspot.schema_picture_id == SchemaPicture.id)
    .where(SchemaPicture.category_id == sa.bindparam("category_id"))
    .order_by(Hotspot.id)
)
