"""A vehicle's catalog for the dealer: the tree, a category's children or parts, its ancestors and whether the
upstream failed (loadError). Stored data answers first; a category never fetched is fetched once and stored."""

from __future__ import annotations

import hashlib
import logging
import uuid
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import get_locale
from flask_babel import gettext as _

from app.accounts.models import User
from app.billing.access import ensure_brand_access
from app.catalog import backfill, bridge, kept_views, names, on_offer, on_shelf, store
from app.catalog.fit import answers as fit_answers
from app.catalog.fit import services as fit_services
from app.catalog.fit import shapes as fit_shapes
from app.catalog.models import Category, Part
from app.catalog.providers import (
    CategoryRef,
    Picture,
    PictureRefusedError,
    ProviderError,
    ProviderRateLimitedError,
    TreeProvider,
    provider_for,
)
from app.core.db import begin_writes
from app.core.errors import ApiError
from app.extensions import db
from app.shelf import lookup as shelf_lookup
from app.storage import current_storage
from app.suppliers import offers
from app.vehicles.models import Vehicle
from app.vehicles.services import get_vehicle

log = logging.getLogger(__name__)


def open_vehicle(user: User, vehicle_id: int) -> Vehicle:
    """The vehicle, if the caller's plan covers its brand (catalog data is brand-bound)."""
    vehicle = get_vehicle(vehicle_id)
    if vehicle.brand_id is not None:
        ensure_brand_access(user, vehicle.brand_id)
    return vehicle


def tree(vehicle: Vehicle, user: User | None = None) -> dict[str, Any]:
    """The root categories, fetched from the upstream the first time (leaves' fit counts as `user` has them)."""
    roots = store.roots(vehicle.id)
    load_error = False
    if not roots:
        load_error = not fetch_roots(vehicle)
        roots = store.roots(vehicle.id)
    return {"categories": categories_view(roots, user), "loadError": load_error and not roots}


def prefetch_progress(vehicle: Vehicle) -> dict[str, Any]:
    """How far the background walk of the tree has got (the page shows it while it runs)."""
    state = store.walk_state_of(vehicle)
    known = state["groups"] + state["leaves"]
    stored = state["groupsDrilled"] + state["leavesFetched"]
    return {**state, "percent": int(stored * 100 / known) if known else 0, "done": store.is_complete(state)}


def stored_levels(
    vehicle: Vehicle, parent_ids: list[int], user: User | None = None
) -> dict[int | None, list[dict[str, Any]]]:
    """The stored roots (under None) and the stored children of `parent_ids`, by parent, from one query: the page's
    tree opened down to a category (leaves' fit counts as `user` has them)."""
    levels: dict[int | None, list[dict[str, Any]]] = {}
    categories = store.levels(vehicle.id, parent_ids)
    for category, view in zip(categories, categories_view(categories, user), strict=True):
        levels.setdefault(category.parent_id, []).append(view)
    return levels


def fetch_roots(vehicle: Vehicle) -> bool:
    """Store the vehicle's root categories: a copy of the tree another row of the same car has stored (a VIN and a
    browsed car, app.catalog.bridge), else the roots from the upstream; whether any were stored."""
    provider = provider_for(vehicle, current_app.config)
    if provider is None:
        return False
    if bridge.copy_same_car_tree(vehicle):
        return True
    vehicle_id, source = vehicle.id, vehicle.source
    try:
        nodes = provider.roots()
    except ProviderError as error:
        _failed(f"roots of vehicle {vehicle_id}", error)
        return False
    begin_writes(db.session)
    store.save_nodes(vehicle_id, source, None, nodes)
    return True


def _failed(what: str, error: ProviderError) -> None:
    """Log an upstream's failure; one that asked us to slow down puts its source in cooldown, so the background walk
    and the backfill leave it alone for the wait it asked for (the page still shows what is stored)."""
    log.warning("%s: %s", what, error)
    if isinstance(error, ProviderRateLimitedError):
        backfill.cool_down(error.source, error.retry_after)


def category_in(vehicle: Vehicle, category_id: int) -> Category:
    """The vehicle's category `category_id`, read only (a row with the columns of a Category)."""
    category = store.category(category_id)
    if category is None or category.vehicle_id != vehicle.id:
        raise ApiError("category_not_found", _("No such category was found for this vehicle."), 404)
    return category


def part_with_code(vehicle: Vehicle, part_id: int) -> Part:
    """The vehicle's part row `part_id`, refused when it is a reference row (its "N/A" is no code anyone orders)."""
    part = db.session.scalar(
        sa.select(Part)
        .join(Category, Part.category_id == Category.id)
        .where(Part.id == part_id, Category.vehicle_id == vehicle.id)
    )
    if part is None:
        raise ApiError("part_not_found", _("No such part was found for this vehicle."), 404)
    if part.reference_code:
        raise ApiError("part_has_no_code", _("This row is a reference to another illustration and has no code."), 422)
    return part


def category_detail(
    vehicle: Vehicle, category: Category, user: User | None = None, only: frozenset[str] | None = None
) -> dict[str, Any]:
    """The category with its children or its parts, its ancestors, and loadError when the upstream failed and
    nothing is stored. Fits are `user`'s shop's (its answers applied); `only` keeps the parts of these fit statuses."""
    provider = provider_for(vehicle, current_app.config)
    children: list[Category] = []
    parts: list[sa.Row] = []
    if category.is_leaf:
        parts = load_parts(category, provider, user)
    else:
        children = load_children(vehicle, category, provider)
    return detail_view(vehicle, category, children, parts, load_error=not children and not parts, user=user, only=only)


def detail_view(
    vehicle: Vehicle,
    category: Category,
    children: list[Category],
    parts: list[sa.Row],
    load_error: bool,
    user: User | None = None,
    only: frozenset[str] | None = None,
) -> dict[str, Any]:
    """A category's detail as the dealer page, the API and the demo show it. A leaf's `fit`: the drawing's question,
    the dealer's answers its rows use, his switch, and how many rows `only` left out (`hidden`). Each part row's
    `shelf`: the dealer's list row for it (app.catalog.on_shelf)."""
    user_id = user.id if user is not None else None
    asks = user_id and category.fit_maybe and _answers_show_on(parts)
    answers = fit_answers.answers_on(_shop_of(user), vehicle.id) if asks else fit_answers.Answers()
    shown = parts_view(vehicle, parts, answers, user_id)
    fits = [part["fit"] for part in shown]
    kept = [part for part in shown if only is None or part["fit"]["status"] in only]
    return {
        "category": _detail_category_view(category, fits),
        "children": children_view(children, user),
        "parts": kept,
        "schema": schema_view(category) if category.is_leaf else None,
        "ancestors": [{"id": item.id, **names.name_fields(item)} for item in store.ancestors(category)],
        "loadError": load_error,
        "fit": _detail_fit(category, parts, fits, answers, hidden=len(shown) - len(kept)),
        "offers": on_offer.offers_on_rows(user, kept, offers.listed_in(parts[0] if parts else None)),
    }


def _answers_show_on(parts: list[sa.Row]) -> bool:
    """Whether answers can show on these rows: a row the dealer's answers settled, or a maybe hanging on a fact (one
    whose catalog states nothing, or not computed yet, hangs on none): else they are not read."""
    return any(part[FIT_ANSWERED_AT] or _hangs_on_facts(part[FIT_DOCUMENT_AT]) for part in parts)


def _hangs_on_facts(document: Any) -> bool:
    return isinstance(document, dict) and bool(document.get("u"))


def _detail_category_view(category: Category, fits: list[dict[str, Any]]) -> dict[str, Any]:
    """The category itself; a leaf's fit counts are its rows' as the dealer sees them (read with them)."""
    view = category_view(category)
    if category.is_leaf and fits:  # also a leaf fetched just now, read before its counts were stored
        counted = fit_services.leaf_counts(part_fit["status"] for part_fit in fits)
        view["fit"] = fit_shapes.counts_view(counted["fit_yes"], counted["fit_no"], counted["fit_maybe"])
    return view


def _detail_fit(
    category: Category, parts: list[sa.Row], fits: list[dict[str, Any]], answers: fit_answers.Answers, hidden: int
) -> dict[str, Any] | None:
    if not category.is_leaf:
        return None
    used = {reason["fact"] for part_fit in fits for reason in part_fit["reasons"]}
    return {
        "question": fit_shapes.question_for(fits, answers),
        "answers": [fit_answers.answer_view(fact, value, "me") for fact, value in answers.own.items() if fact in used],
        "fittingOnly": bool(parts and parts[0][FITTING_ONLY_AT]),
        "hidden": hidden,
    }


def children_of(vehicle: Vehicle, category: Category, user: User | None = None) -> dict[str, Any]:
    found = load_children(vehicle, category, provider_for(vehicle, current_app.config))
    return {"categories": children_view(found, user), "loadError": not found and not category.is_leaf}


def load_children(vehicle: Vehicle, category: Category, provider: TreeProvider | None) -> list[Category]:
    """Stored children; a group never drilled to the end is drilled for its subgroups (stored rows are kept)."""
    category_id, vehicle_id, source = category.id, vehicle.id, category.source
    if category.children_fetched_at is not None or provider is None:
        return store.children(category_id)
    try:
        nodes = provider.children(CategoryRef(category.external_id, category.link_path))
    except ProviderError as error:
        _failed(f"children of category {category_id}", error)
        return store.children(category_id)
    begin_writes(db.session)
    store.save_nodes(vehicle_id, source, category_id, nodes)
    return store.children(category_id)


def _shop_of(user: User | None) -> uuid.UUID | None:
    """Whose fit answers apply: the member's shop (issue 41)."""
    return user.shop_id if user is not None else None


def load_parts(category: Category, provider: TreeProvider | None, user: User | None = None) -> list[sa.Row]:
    """Stored part rows (with the fits of `user`'s shop); a leaf never fetched to the end is fetched (a failure leaves
    it to be tried again, and rows stored before are neither lost nor duplicated)."""
    category_id, vehicle_id, source = category.id, category.vehicle_id, category.source
    user_id, shop_id = (user.id if user is not None else None), _shop_of(user)
    if category.parts_fetched_at is not None or provider is None:
        return store.parts(category_id, user_id, shop_id)
    try:
        page = provider.parts(CategoryRef(category.external_id, category.link_path))
        storage_key = _copy_picture(vehicle_id, page.picture) if page.picture else None
    except ProviderError as error:
        _failed(f"parts of category {category_id}", error)
        return store.parts(category_id, user_id, shop_id)
    begin_writes(db.session)
    store.save_parts(vehicle_id, category_id, source, page.lines)
    if page.picture and storage_key:
        store.save_picture(category_id, page.picture, storage_key)
    return store.parts(category_id, user_id, shop_id)


def _copy_picture(vehicle_id: int, picture: Picture) -> str | None:
    """Copy the upstream picture into object storage once; its key names the vehicle and the upstream address. None
    when the upstream has no usable image there: the leaf is then stored without a picture."""
    key = f"schemas/{vehicle_id}/{hashlib.sha1(picture.url.encode()).hexdigest()}.png"  # noqa: S324 - a name
    try:
        current_storage().store_once(key, lambda: (picture.fetch(), "image/png"))
    except PictureRefusedError as error:
        log.info("picture %s refused: %s", picture.url, error)
        return None
    except Exception as error:  # any upstream or storage failure: the leaf is fetched again later
        raise ProviderError(f"picture {picture.url}: {error}") from error
    return key


def schema_view(category: Category) -> dict[str, Any] | None:
    found = store.picture_of(category.id)
    if found is None:
        return None
    picture, spots = found
    return {
        "imageUrl": current_storage().url(picture.storage_key),
        "width": picture.width,
        "height": picture.height,
        "hotspots": [  # by position, as the part rows
            {"position": position, "x1": x1, "y1": y1, "x2": x2, "y2": y2}
            for _key, _width, _height, position, x1, y1, x2, y2 in spots
        ],
    }


def children_view(children: list[Category], user: User | None = None) -> list[dict[str, Any]]:
    keys = store.thumbnails(children)
    storage = current_storage() if keys else None
    return [
        {**view, "thumbnail": storage.url(keys[child.id]) if storage and child.id in keys else None}
        for child, view in zip(children, categories_view(children, user), strict=True)
    ]


def categories_view(categories: list[Category], user: User | None = None) -> list[dict[str, Any]]:
    """The categories' views, their leaves' fit counts moved by `user`'s answers (one query, only when a leaf among
    them has a maybe)."""
    moves = fit_shapes.leaf_moves(_shop_of(user), categories)
    english = names.english_wanted()
    return [category_view(category, moves.get(category.id), english) for category in categories]


def category_view(
    category: Category, fit_moves: dict[str, int] | None = None, english: bool | None = None
) -> dict[str, Any]:
    """A category; a leaf's `fit` counts its rows' fits by the vehicle's facts, `fit_moves` (a dealer's answers'
    moves of its maybes) applied; `english` when the caller knows the request's language already."""
    return {
        "id": category.id,
        "parentId": category.parent_id,
        "catalogVehicleId": category.catalog_vehicle_id,
        "externalId": category.external_id,
        **names.name_fields(category, english),
        "unavailable": category.unavailable,
        "remark": category.remark,
        "modelCodes": category.model_codes,
        "presel": category.presel,
        "leaf": category.is_leaf,
        "illustrationCode": category.illustration_code,
        "thumbnail": None,
        "fit": fit_shapes.leaf_fit_view(category, fit_moves),
    }


def parts_view(
    vehicle: Vehicle,
    parts: list[sa.Row],
    answers: fit_answers.Answers | None = None,
    user_id: uuid.UUID | None = None,
) -> list[dict[str, Any]]:
    """The rows' views with `user_id`'s shelf list on them, kept for every request that reads the same rows on the
    same list (app.catalog.kept_views; a list's rows never change once in use)."""
    targets = reference_targets(vehicle, parts)
    english = names.english_wanted()
    colleagues = answers.colleagues if answers is not None else {}
    locale = str(get_locale())
    in_use = shelf_lookup.list_in_use_of(parts[0] if parts else None) if user_id is not None else None
    listed = [in_use.import_id, in_use.activated_at] if in_use is not None else None
    others = user_id is not None and shelf_lookup.others_listed(parts[0] if parts else None)
    if others:
        listed = [listed, on_shelf.shelf_lists_key(user_id, others)]
    key = kept_views.page_key(parts, FITTING_ONLY_AT, (english, locale, sorted(colleagues), listed), targets)

    def made() -> list[dict[str, Any]]:
        views = [part_view(part, targets, english, colleagues, locale) for part in parts]
        on_shelf.add_shelf(user_id, views, in_use, others)
        return views

    return KEPT_PART_VIEWS.views(key, made)


def reference_targets(vehicle: Vehicle, parts: list[sa.Row]) -> dict[str, int]:
    """The categories of the vehicle's illustrations the reference rows among `parts` point to, by code: read with
    the rows when they carry them (store.parts), else looked up."""
    if not parts:
        return {}
    fields = parts[0]._fields
    code_at = fields.index("reference_code")  # read by position: by name, four times slower
    codes = {part[code_at] for part in parts if part[code_at]}
    if not codes:
        return {}
    if store.REFERENCE_TARGET not in fields:
        return store.illustration_index(vehicle.id, codes)
    target_at = fields.index(store.REFERENCE_TARGET)
    return {part[code_at]: part[target_at] for part in parts if part[code_at] and part[target_at] is not None}


def part_view(
    part: sa.Row,
    targets: dict[str, int],
    english: bool | None = None,
    colleagues: dict[str, Any] | None = None,
    locale: str | None = None,
) -> dict[str, Any]:
    """A part row (store.PART_COLUMNS, then store.FIT_COLUMNS) in the request's language; `targets` maps reference
    codes to the stored categories of their illustrations; `colleagues`' answers are offered on a maybe. Read by
    position: by name, a row's fourteen reads cost four times the rest."""
    english = names.english_wanted() if english is None else english
    (part_id, _category_id, oem_code, name, name_lang, name_tr, complete, label, position, unavailable, remark,
     model_codes, reference_code, quantity, fit_status, fit_document, answered) = part[:FITTING_ONLY_AT]  # fmt: skip
    shown = names.fields_of(name, name_lang, name_tr, complete, english)
    return {
        "id": part_id,
        "oemCode": oem_code,
        **shown,
        "label": names.shown_label(shown["name"], name, label, reference_code),
        "position": position,
        "unavailable": unavailable,
        "remark": names.shown_remark(remark, name_lang, english),
        "quantity": quantity,
        "modelCodes": model_codes,
        "reference": {"code": reference_code, "categoryId": targets.get(reference_code)} if reference_code else None,
        "fit": fit_shapes.part_fit_view(fit_status, fit_document, bool(answered), colleagues or {}, locale),
        "shelf": None,  # the dealer's list row, set for a whole page at once (app.catalog.on_shelf)
    }


PART_WIDTH = len(store.PART_COLUMNS)
FITTING_ONLY_AT = PART_WIDTH + len(store.FIT_COLUMNS)  # the dealer's switch, after a row's fit (store.parts)
FIT_DOCUMENT_AT, FIT_ANSWERED_AT = FITTING_ONLY_AT - 2, FITTING_ONLY_AT - 1
KEPT_PART_VIEWS = kept_views.KeptViews()
