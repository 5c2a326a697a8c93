"""Search inside one decoded vehicle's stored catalog: categories by name, parts by name words or OEM code, or by a
number on the dealer's shelf list (his own code, an aftermarket number) standing for an OEM code.

Only stored rows are read; nothing is fetched from an upstream (a part not stored yet is not found, and
`treeIncomplete` says so). Names and queries are compared through their search keys (`app.core.text.fold`,
`app.catalog.folding`), so case and Turkish letters don't matter.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.orm import aliased

from app.accounts.models import User
from app.catalog import names, on_offer, on_shelf, store
from app.catalog.models import Category, Part, PartFit
from app.catalog.services import part_view, reference_targets
from app.core.errors import ApiError
from app.core.text import fold, fold_code
from app.extensions import db
from app.shelf import lookup as shelf_lookup
from app.suppliers import offers
from app.vehicles.models import Vehicle

MAX_QUERY_LENGTH = 100
PART_LIMIT = 200
CATEGORY_LIMIT = 200
# An OEM code is looked for only when the query, without separators, is this long and has a digit: otherwise a word
# such as "kit" or "egr" would also match every code that happens to contain it.
MIN_CODE_LENGTH = 3
HITS = "hits"  # the column of the parts statement's first row carrying every leaf's hit count


def parse_query(raw: str | None) -> str:
    """The query, stripped, with its whitespace collapsed; 1 to 100 characters."""
    query = " ".join((raw or "").split())
    if not query:
        raise ApiError("invalid_query", _("Type something to search for."), 400)
    if len(query) > MAX_QUERY_LENGTH:
        raise ApiError("invalid_query", _("The search can be at most %(max)d characters.", max=MAX_QUERY_LENGTH), 400)
    return query


def search(vehicle: Vehicle, query: str, user: User | None = None) -> dict[str, Any]:
    """Categories whose name has every word, united with the leaves holding matching parts (with their hit counts),
    and the matching parts (every word in the name, or the OEM code containing the query), each with its fit for the
    vehicle as `user`'s shop has it (its answers applied)."""
    words = _words(query)
    user_id = user.id if user is not None else None
    shop_id = user.shop_id if user is not None else None
    parts, hits = _matching_parts(vehicle, words, fold_code(query), user_id, shop_id)
    # The leaves with the most hits first, when there are more than the answer holds.
    busiest = sorted(hits, key=lambda category_id: (-hits[category_id], category_id))[: CATEGORY_LIMIT + 1]
    found, trails = _categories(vehicle, words, {*busiest, *(part.category_id for part in parts[:PART_LIMIT])})
    named = sorted((category for category in found.values() if category.name_match), key=lambda row: row.id)
    named_ids = {category.id for category in named}
    holders = {category_id: found[category_id] for category_id in busiest if category_id not in named_ids}
    truncated = len(parts) > PART_LIMIT or len(named) + len(holders) > CATEGORY_LIMIT
    parts = parts[:PART_LIMIT]

    matched = [*named, *sorted(holders.values(), key=lambda category: (-hits[category.id], category.id))]
    matched = matched[:CATEGORY_LIMIT]
    shown = {category.id for category in matched}
    leaves = {part.category_id: found[part.category_id] for part in parts if part.category_id not in shown}
    by_id = {category.id: category for category in [*matched, *leaves.values()]}
    english = names.english_wanted()
    targets = reference_targets(vehicle, parts)
    part_views = [
        _part_view(part, by_id[part.category_id], trails[part.category_id], targets, english) for part in parts
    ]
    first = parts[0] if parts else None
    on_shelf.add_shelf(user_id, part_views, shelf_lookup.list_in_use_of(first), shelf_lookup.others_listed(first))

    return {
        "query": query,
        "categories": [
            {
                "id": category.id,
                "parentId": category.parent_id,
                **names.name_fields(category, english),
                "leaf": category.is_leaf,
                "illustrationCode": category.illustration_code,
                "unavailable": category.unavailable,
                "nameMatch": category.id in named_ids,
                "hits": hits.get(category.id, 0),
                "ancestors": trails[category.id],
            }
            for category in matched
        ],
        "parts": part_views,
        "partCount": sum(hits.values()),
        "truncated": truncated,
        "treeIncomplete": not store.tree_complete(vehicle),
        "offers": on_offer.offers_on_rows(user, part_views, offers.listed_in(first)),
    }


def _words(query: str) -> list[str]:
    """The query's search keys, one per whitespace-separated word, without repeats."""
    return list(dict.fromkeys(key for key in (fold(word) for word in query.split()) if key))


def _like(key: str) -> str:
    """The LIKE pattern of `key` anywhere, its own % and _ taken literally (with ESCAPE '/')."""
    return "%" + key.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"


def _contains_all(column: sa.ColumnElement[str], word_count: int) -> list[sa.ColumnElement[bool]]:
    """`column LIKE :word<i>` for each word's pattern (`_like`); a trigram index serves it on PostgreSQL."""
    return [column.like(sa.bindparam(f"word{index}"), escape="/") for index in range(word_count)]


def _matching_parts(
    vehicle: Vehicle, words: list[str], code: str, user_id: uuid.UUID | None, shop_id: uuid.UUID | None
) -> tuple[list[sa.Row], dict[int, int]]:
    """The vehicle's first PART_LIMIT + 1 matching parts (store.FIT_COLUMNS for `shop_id`, PART_COLUMNS, `user_id`'s
    list in use, a reference row's target) and the hit count of every leaf holding matches, in one statement
    (`_parts_statement`)."""
    by_code = len(code) >= MIN_CODE_LENGTH and any(char.isdigit() for char in code)
    on_list = bool(code) and user_id is not None
    parameters = {
        "vehicle_id": vehicle.id,
        "user_id": user_id,
        "shop_id": shop_id,
        "code": code,
        "code_pattern": _like(code),
        **{f"word{index}": _like(word) for index, word in enumerate(words)},
    }
    statement = _parts_statement(len(words), by_code, on_list)
    rows = db.session.connection().execute(statement, parameters).all()
    if not rows:
        return [], {}
    pairs = (pair.split(":") for pair in getattr(rows[0], HITS).split(","))
    return rows, {int(category_id): int(hits) for category_id, hits in pairs}


@functools.cache
def _parts_statement(word_count: int, by_code: bool, on_list: bool) -> sa.Select:
    """The parts statement of a query's shape, built once (building it cost more Python than running it): the match
    runs once (a CTE both read), and the counts ride on the first row as "leaf:count,..." (no row, no hit).

    A part matches with every word in its name, or (`by_code`) its OEM code containing the code, or (`on_list`, a
    dealer) an OEM code his list's rows carry beside the code typed: his own code or an aftermarket number (a
    subquery: no list, no statement more). The match is on the part's own vehicle id: PostgreSQL then ands the
    vehicle's index with the trigram index of the name when that is narrower, or filters the vehicle's rows (were two
    passes through the vehicle's categories)."""
    matches = [sa.and_(*_contains_all(Part.search_name, word_count)) if word_count else sa.false()]
    if by_code:
        matches.append(Part.search_code.like(sa.bindparam("code_pattern"), escape="/"))
    if on_list:
        matches.append(shelf_lookup.stands_for(Part.search_code, sa.bindparam("code"), sa.bindparam("user_id")))
    matched = (
        sa.select(Part.id, Part.category_id, Part.sort_order)
        .where(Part.vehicle_id == sa.bindparam("vehicle_id"), sa.or_(*matches) if len(matches) > 1 else matches[0])
        .cte("matched")
    )
    counted = sa.select(matched.c.category_id, sa.func.count().label("hits")).group_by(matched.c.category_id).subquery()
    counts = sa.select(
        sa.func.aggregate_strings(
            sa.cast(counted.c.category_id, sa.String) + ":" + sa.cast(counted.c.hits, sa.String), ","
        )
    ).scalar_subquery()
    place = sa.func.row_number().over(order_by=(matched.c.category_id, matched.c.sort_order, matched.c.id))
    shown = sa.select(matched.c.id, place.label("place")).order_by(place).limit(PART_LIMIT + 1).subquery()
    return (
        sa.select(
            *store.PART_COLUMNS,
            *store.FIT_COLUMNS,
            *shelf_lookup.active_list_columns(),
            offers.lists_column(),
            store.PART_REFERENCE_TARGET,
            sa.case((shown.c.place == 1, counts)).label(HITS),
        )
        .select_from(shown)
        .join(Part, Part.id == shown.c.id)
        .outerjoin(PartFit, store.FIT_JOIN)
        .order_by(shown.c.place)
    )


def _categories(
    vehicle: Vehicle, words: list[str], ids: set[int]
) -> tuple[dict[int, sa.Row], dict[int, list[dict[str, Any]]]]:
    """In one query (`_categories_statement`): the vehicle's first CATEGORY_LIMIT + 1 categories (by id) whose name
    has every word and the categories `ids` (the leaves holding matching parts), as plain rows with the columns the
    answer shows and `name_match`; and each one's ancestors as {id, name}, root to parent (as store.ancestor_trails
    has them), put together here along each row's parent."""
    if not words and not ids:
        return {}, {}
    parameters = {"vehicle_id": vehicle.id, "ids": sorted(ids)}
    parameters.update({f"word{index}": _like(word) for index, word in enumerate(words)})
    rows = db.session.connection().execute(_categories_statement(len(words)), parameters).all()
    found = {row.id: row for row in rows if row.found}
    english = names.english_wanted()
    crumbs = {row.id: {"id": row.id, **names.name_fields(row, english)} for row in rows if not row.found}
    parents = {row.id: row.parent_id for row in rows}
    trails: dict[int, list[dict[str, Any]]] = {}
    for category_id in found:
        trail, ancestor = [], parents[category_id]
        while ancestor is not None:
            trail.append(crumbs[ancestor])
            ancestor = parents[ancestor]
        trails[category_id] = trail[::-1]  # the root first
    return found, trails


@functools.cache
def _categories_statement(word_count: int) -> sa.Select:
    """The categories statement for a query of `word_count` words, built once. A recursive CTE from the categories
    found up to their roots reads each ancestor once (UNION: the leaves of a group share its row), each step's
    columns by primary key in subqueries (as a join, PostgreSQL hashed the whole category table at every step)."""
    in_vehicle = Category.vehicle_id == sa.bindparam("vehicle_id")
    named = (
        sa.select(Category.id)
        .where(in_vehicle, *_contains_all(Category.search_name, word_count))
        .order_by(Category.id)
        .limit(CATEGORY_LIMIT + 1)
    )
    name_match = Category.id.in_(named) if word_count else sa.false()
    chain = (
        sa.select(*_SHOWN_COLUMNS, name_match.label("name_match"), sa.true().label("found"))
        .where(in_vehicle, sa.or_(name_match, Category.id.in_(sa.bindparam("ids", expanding=True))))
        .cte("chain", recursive=True)
    )
    parent = aliased(Category)

    def of_parent(column: sa.ColumnElement[Any]) -> sa.ScalarSelect[Any]:
        return sa.select(getattr(parent, column.key)).where(parent.id == chain.c.parent_id).scalar_subquery()

    step = sa.select(
        chain.c.parent_id, *(of_parent(column) for column in _SHOWN_COLUMNS[1:]), sa.false(), sa.false()
    ).where(chain.c.parent_id.is_not(None))
    return sa.select(chain.union(step))


# What the answer shows of a category, and its parent (the chain's next step).
_SHOWN_COLUMNS = (
    Category.id,
    Category.parent_id,
    *store.NAME_COLUMNS,
    Category.is_leaf,
    Category.illustration_code,
    Category.unavailable,
)


def _part_view(
    part: sa.Row, leaf: Category, ancestors: list[dict[str, Any]], targets: dict[str, int], english: bool
) -> dict[str, Any]:
    """A part row as the category detail shows it, with its leaf and the path to it."""
    leaf_view = {"id": leaf.id, **names.name_fields(leaf, english)}
    return {**part_view(part, targets, english), "leaf": leaf_view, "breadcrumb": [*ancestors, leaf_view]}
