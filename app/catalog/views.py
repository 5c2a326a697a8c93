"""The vehicle page's catalog: the tree on the left, the selected category in the main area (breadcrumbs, then a
group's children, or a leaf's schema picture with its hotspots and its parts table), and the catalog search.

HTMX swaps the main area (`#catalog-main`) and opens tree branches one at a time; every URL is also a whole page, so
deep links and refresh work, and the tree is then rendered opened down to the selected category. `/vehicles/<id>`
itself is the catalog's page too (`vehicle_page`).

What the main area and the tree show is built in app.catalog.presenters, which the public demo (app.demo.views) and
the printed parts list share: the demo renders the same templates from its own stored reads, and each page passes its
own `links` (app.catalog.page_links).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_login import current_user
from markupsafe import Markup

from app.catalog import deep_links, on_offer, on_shelf, references, services
from app.catalog.dealer_pages import category_answer, closed_tree, page_answer, refused_answer
from app.catalog.models import Category
from app.catalog.page_links import dealer_links
from app.catalog.presenters import (
    QUERY_MAX_LENGTH,
    category_main,
    error_main,
    opened_node,
    overview_main,
    retargeted,
    search_main,
)
from app.core.errors import ApiError
from app.core.fragments import render_fragment
from app.core.htmx import vary_on_htmx, wants_fragment
from app.core.security import shop_role
from app.vehicles.models import Vehicle
from app.vehicles.services import get_vehicle

bp = Blueprint("catalog_views", __name__, url_prefix="/vehicles/<int:vehicle_id>")

# --- routes -------------------------------------------------------------------------------------------------------


@bp.get("")
@shop_role("clerk")
def vehicle_page(vehicle_id: int) -> Response:
    """A decoded or browsed vehicle with its tree (its catalog needs the brand in the plan); the main area lists the
    root groups, or the results of `?q=`."""
    vehicle = get_vehicle(vehicle_id)
    try:
        services.open_vehicle(current_user, vehicle.id)
    except ApiError as error:
        return refused_answer(vehicle, error)
    query = request.args.get("q", "").strip()[:QUERY_MAX_LENGTH]
    if query and wants_fragment():
        return page_answer(vehicle, search_main(vehicle, query, current_user))
    tree = closed_tree(vehicle)
    main = search_main(vehicle, query, current_user) if query else overview_main(vehicle, tree)
    return page_answer(vehicle, main, tree=tree)


@bp.get("/categories/<int:category_id>")
@shop_role("clerk")
def category(vehicle_id: int, category_id: int):
    """A category in the main area; the whole page has the tree opened down to it."""
    return _category_page(
        vehicle_id,
        locate=lambda vehicle: services.category_in(vehicle, category_id),
        selected=lambda _parts: request.args.get("part", type=int),
    )


@bp.get("/catalog/<path:trail>")
@shop_role("clerk")
def deep_link(vehicle_id: int, trail: str):
    """A part named by its group path, position and OEM code (app.catalog.deep_links): the link a clerk sends."""
    return _category_page(
        vehicle_id,
        locate=lambda vehicle: deep_links.resolve(vehicle, trail),
        selected=lambda parts: deep_links.part_named(parts, request.args.get("pos", ""), request.args.get("oem", "")),
    )


@bp.get("/references/<code>")
@shop_role("clerk")
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
        return refused_answer(vehicle, error)
    return redirect(links.category(target), code=303)


@bp.get("/categories/<int:category_id>/children")
@shop_role("clerk")
def children(vehicle_id: int, category_id: int):
    """A tree branch opened: the group's node with its children (HTMX); without HTMX, the group's page."""
    if not wants_fragment():
        return redirect(url_for(".category", vehicle_id=vehicle_id, category_id=category_id), code=303)
    try:
        vehicle = services.open_vehicle(current_user, vehicle_id)
        found = services.category_in(vehicle, category_id)
    except ApiError as error:
        # The tree has no room for a refusal: it is shown in the main area instead.
        return retargeted(error_main(error), error.status, error.code)
    opened = opened_node(found, services.children_of(vehicle, found, current_user))
    html = render_template("catalog/_tree_node.html", links=dealer_links(vehicle.id), node=opened)
    return vary_on_htmx(Response(html))


bp.add_app_template_global(on_shelf.shelf_line, "shelf_line")
bp.add_app_template_global(on_offer.offers_for, "offers_for")
bp.add_app_template_global(on_offer.offer_line, "offer_line")


@bp.app_template_global("catalog_tree")
def tree_html(tree: dict[str, Any], links: Any) -> Markup:
    """The tree, kept in the fragment cache without its current category: the drawings of one group share one kept
    tree, and the current one's link is marked after, at the end of its tag as the macro would (each tree link names
    its category once)."""
    html = render_fragment("catalog/_tree.html", tree={**tree, "current": None}, links=links)
    current = tree.get("current")
    if current is None:
        return html
    text = str(html)
    start = text.find(f'class="tree-link" data-category-id="{int(current)}"')
    end = text.find(">", start)  # the link's attributes hold no ">" (escaped in their values)
    if start < 0 or end < 0:
        return html
    return Markup(f'{text[:end]} aria-current="page"{text[end:]}')  # noqa: S704 - our markup, a constant added


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
        return refused_answer(vehicle, error)
    detail = services.category_detail(vehicle, found, current_user)
    return category_answer(vehicle, found, detail, category_main(vehicle, detail, selected(detail["parts"])))
