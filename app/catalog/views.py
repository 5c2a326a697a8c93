"""The vehicle page's catalog: the tree on the left, the selected category in the main area (breadcrumbs, then a
group's children, or a leaf's schema picture with its hotspots and its parts table), and the catalog search.

HTMX swaps the main area (`#catalog-main`) and opens tree branches one at a time; every URL is also a whole page, so
deep links and refresh work, and the tree is then rendered opened down to the selected category. `/vehicles/<id>`
itself is the catalog's page too (`vehicle_page`).

The public demo (app.demo.views) renders the same templates from its own stored reads: it shares the builders of what
the main area and the tree show (the public functions below), and each page passes its own `links`
(app.catalog.links).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.catalog import deep_links, references, search, services
from app.catalog.links import dealer_links
from app.catalog.models import Category
from app.core.errors import ApiError
from app.core.htmx import vary_on_htmx, wants_fragment
from app.sources.portal import ILLUSTRATION_PATTERN
from app.vehicles.models import Vehicle
from app.vehicles.services import get_vehicle

bp = Blueprint("catalog_views", __name__, url_prefix="/vehicles/<int:vehicle_id>")

PLAN_LIMITED = {"subscription_required", "brand_not_in_plan"}  # the refusal links to the plans
QUERY_MAX_LENGTH = 100


# --- routes -------------------------------------------------------------------------------------------------------


@bp.get("")
def vehicle_page(vehicle_id: int) -> Response:
    """A decoded or browsed vehicle with its tree (its catalog needs the brand in the plan); the main area lists the
    root groups, or the results of `?q=`."""
    vehicle = get_vehicle(vehicle_id)
    try:
        services.open_vehicle(current_user, vehicle.id)
    except ApiError as error:
        return _refused(vehicle, error)
    query = request.args.get("q", "").strip()[:QUERY_MAX_LENGTH]
    if query and wants_fragment():
        return _answer(vehicle, search_main(vehicle, query))
    tree = _tree(vehicle)
    main = search_main(vehicle, query) if query else overview_main(vehicle, tree)
    return _answer(vehicle, main, tree=tree)


@bp.get("/categories/<int:category_id>")
def category(vehicle_id: int, category_id: int):
    """A category in the main area; the whole page has the tree opened down to it."""
    return _category_page(
        vehicle_id,
        locate=lambda vehicle: services.category_in(vehicle, category_id),
        selected=lambda _parts: request.args.get("part", type=int),
    )


@bp.get("/catalog/<path:trail>")
def deep_link(vehicle_id: int, trail: str):
    """A part named by its group path, position and OEM code (app.catalog.deep_links): the link a clerk sends."""
    return _category_page(
        vehicle_id,
        locate=lambda vehicle: deep_links.resolve(vehicle, trail),
        selected=lambda parts: deep_links.part_named(parts, request.args.get("pos", ""), request.args.get("oem", "")),
    )


@bp.get("/references/<code>")
def reference(vehicle_id: int, code: str):
    """A reference row followed: the picture it points to, fetched from the upstream when it is not stored yet
    (app.catalog.references); a picture the catalog does not have opens the search for its code."""
    vehicle = get_vehicle(vehicle_id)
    links = dealer_links(vehicle.id)
    try:
        services.open_vehicle(current_user, vehicle.id)
        target = references.resolve(vehicle, code)
    except ApiError as error:
        if error.code == "reference_not_found":
            return redirect(links.home(code), code=303)
        return _refused(vehicle, error)
    return redirect(links.category(target), code=303)


@bp.get("/categories/<int:category_id>/children")
def children(vehicle_id: int, category_id: int):
    """A tree branch opened: the group's node with its children (HTMX); without HTMX, the group's page."""
    if not wants_fragment():
        return redirect(url_for(".category", vehicle_id=vehicle_id, category_id=category_id), code=303)
    try:
        vehicle = services.open_vehicle(current_user, vehicle_id)
        found = services.category_in(vehicle, category_id)
    except ApiError as error:
        # The tree has no room for a refusal: it is shown in the main area instead.
        return retargeted(error_main(error))
    opened = opened_node(found, services.children_of(vehicle, found))
    html = render_template("catalog/_tree_node.html", links=dealer_links(vehicle.id), node=opened, current=None)
    return vary_on_htmx(Response(html))


# --- answers ------------------------------------------------------------------------------------------------------


def _category_page(
    vehicle_id: int,
    locate: Callable[[Vehicle], Category],
    selected: Callable[[list[dict[str, Any]]], int | None],
) -> Response:
    """The category `locate` finds (by id or by path) with the part `selected` picks from its parts."""
    vehicle = get_vehicle(vehicle_id)
    try:
        services.open_vehicle(current_user, vehicle.id)
        found = locate(vehicle)
    except ApiError as error:
        return _refused(vehicle, error)
    detail = services.category_detail(vehicle, found)
    main = category_main(vehicle, detail, selected(detail["parts"]))
    if wants_fragment():
        return _answer(vehicle, main)
    return _answer(vehicle, main, tree=opened_tree(vehicle, found, detail))


def _answer(vehicle: Vehicle, main: dict[str, Any], tree: dict[str, Any] | None = None, status: int = 200) -> Response:
    """The main area alone for HTMX (always 200: htmx swaps no error status), else the vehicle page around it."""
    context = {"vehicle": vehicle, "main": main, "links": dealer_links(vehicle.id)}
    if wants_fragment():
        return vary_on_htmx(Response(render_template("catalog/_main_response.html", **context)))
    html = render_template("vehicles/vehicle.html", tree=tree, **context)
    return vary_on_htmx(Response(html, status=status))


def _refused(vehicle: Vehicle, error: ApiError) -> Response:
    """A refusal (no plan for the brand, no such category) in the main area; the page keeps the vehicle's facts."""
    main = error_main(error)
    if wants_fragment():
        return _answer(vehicle, main)
    tree = None if error.code in PLAN_LIMITED else _tree(vehicle)  # the tree is still the dealer's way on
    return _answer(vehicle, main, tree=tree, status=error.status)


def retargeted(main: dict[str, Any]) -> Response:
    """The main area, answered to a request for another part of the page (a tree branch) that has to show it."""
    html = render_template("catalog/_main_response.html", vehicle=None, main=main)
    headers = {"HX-Retarget": "#catalog-main", "HX-Reswap": "outerHTML"}
    return vary_on_htmx(Response(html, headers=headers))


# --- what the main area shows -------------------------------------------------------------------------------------


def overview_main(vehicle: Vehicle, tree: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "overview", "title": vehicle.title, "children": tree["nodes"], "loadError": tree["loadError"]}


def category_main(vehicle: Vehicle, detail: dict[str, Any], selected_part: int | None = None) -> dict[str, Any]:
    """`selected_part` (a search result followed to its leaf) is shown selected, with its hotspot."""
    category = node(detail["category"])
    rows, anchors = _part_rows(detail["parts"])
    selected = next((row for row in rows if row["id"] == selected_part), None)
    return {
        "kind": "category",
        "title": category["label"],
        "category": category,
        "ancestors": [_crumb(item) for item in detail["ancestors"]],
        "children": [node(child) for child in detail["children"]],
        "parts": rows,
        "anchors": anchors,
        "showModelCodes": any(row["modelCodes"] for row in rows),
        "selectedPart": selected["id"] if selected else None,
        "selectedPosition": selected["position"] if selected else None,
        "trail": deep_links.trail(detail),
        "schema": detail["schema"],
        "loadError": detail["loadError"],
    }


def error_main(error: ApiError) -> dict[str, Any]:
    return {
        "kind": "error",
        "title": _("Cannot be shown"),
        "message": error.message,
        "plan_limited": error.code in PLAN_LIMITED,
    }


def search_main(vehicle: Vehicle, raw_query: str) -> dict[str, Any]:
    """The catalog search's results: categories with their hit counts, parts with their breadcrumbs."""
    main: dict[str, Any] = {"kind": "search", "title": _("Search: %(query)s", query=raw_query), "query": raw_query}
    try:
        found = search.search(vehicle, search.parse_query(raw_query))
    except ApiError as error:
        return {**main, "message": error.message}
    categories = [{**node(item), "trail": [_crumb(step) for step in item["ancestors"]]} for item in found["categories"]]
    parts = [
        {**part, "trail": [_crumb(step) for step in part["breadcrumb"]], "leafId": part["leaf"]["id"]}
        for part in _with_copy_labels(found["parts"])
    ]
    return {**main, **found, "categories": categories, "parts": parts}


def _part_rows(parts: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Part rows, the first row of each position carrying that position's anchor (what a hotspot links to)."""
    anchors: dict[str, str] = {}
    rows = []
    for part in _with_copy_labels(parts):
        position = part["position"]
        anchor = None
        if position and position not in anchors:
            anchor = anchors[position] = f"pos-{len(anchors) + 1}"
        rows.append({**part, "anchor": anchor})
    return rows, anchors


def _with_copy_labels(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each part row (a copy) with the name of its copy button, from one translation for the whole table: looking it
    up again for each of a hundred rows was a tenth of the page's rendering. The name begins with the button's text, so
    whoever works the page by voice can say what they see (WCAG 2.5.3, label in name)."""
    pattern = _("%(action)s: OEM code %(code)s", action=_("Copy"), code="%(code)s")
    return [{**part, "copyLabel": pattern % {"code": part["oemCode"]}} for part in parts]


# --- the tree -----------------------------------------------------------------------------------------------------


def _tree(vehicle: Vehicle) -> dict[str, Any]:
    return tree_view(services.tree(vehicle))


def tree_view(roots: dict[str, Any]) -> dict[str, Any]:
    """The root groups (`{"categories", "loadError"}` as the services give them), every branch closed."""
    return {"nodes": [node(root) for root in roots["categories"]], "loadError": roots["loadError"], "current": None}


def opened_tree(vehicle: Vehicle, selected: Category, detail: dict[str, Any]) -> dict[str, Any]:
    """The roots, opened along the selected category's ancestors (and the category itself when it is a group), from
    stored rows only: a stored category's ancestors and their children are stored."""
    ancestor_ids = [ancestor["id"] for ancestor in detail["ancestors"]]
    levels = services.stored_levels(vehicle, ancestor_ids)
    tree = tree_view({"categories": levels.get(None, []), "loadError": False})
    level = tree["nodes"]
    for ancestor_id in ancestor_ids:
        opened = next((item for item in level if item["id"] == ancestor_id), None)
        if opened is None:
            break
        opened["children"] = [node(child) for child in levels.get(ancestor_id, [])]
        level = opened["children"]
    else:
        opened = next((item for item in level if item["id"] == selected.id), None)
        if opened is not None and not selected.is_leaf and detail["children"]:
            opened["children"] = [node(child) for child in detail["children"]]
    return {**tree, "current": selected.id}


def opened_node(category: Category, branch: dict[str, Any]) -> dict[str, Any]:
    """A group's tree node opened on `branch` (its children); a branch that failed to load stays closed, marked."""
    opened = node(services.category_view(category))
    if branch["loadError"]:
        opened["loadError"] = True  # left closed; opening it again tries again
    else:
        opened["children"] = [node(child) for child in branch["categories"]]
    return opened


def node(view: dict[str, Any]) -> dict[str, Any]:
    """A category as the templates show it: the name without its {NNN-NNN} code (shown apart), children unknown."""
    return {**view, "label": _label(view), "children": None, "loadError": False}


def _crumb(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "label": _label(item)}


def _label(view: dict[str, Any]) -> str:
    """The name without the {NNN-NNN} illustration code (the page shows the code on its own)."""
    return " ".join(ILLUSTRATION_PATTERN.sub(" ", view["name"]).split()) or view["name"]
