"""The public demo page: the signed-in vehicle page's catalog over the demo vehicle, read-only.

`/demo` shows the vehicle (VIN masked, the stored catalog's size), its tree and root groups, or the results of `?q=`;
`/demo/categories/<id>` a category in the main area (a whole page with the tree opened down to it, or the HTMX
fragment); `/demo/categories/<id>/children` a tree branch. They read what the demo API reads (app.demo.services: stored
rows only, never an upstream, every category id checked against the demo vehicle first), under the demo API's
throttles, and render the catalog's templates with the demo's links: no copy log, and calls to register that pass
through `/demo/register`, which counts them by placement.

The routes the page requests report its analytics events for an anonymous visitor id kept in the demo's own cookie
(random; never the address): demo_loaded (a whole page of /demo), demo_category_clicked (a category opened in the main
area or in the tree), demo_category_detail_viewed (a leaf's parts and picture shown) and demo_to_register_click.
"""

from __future__ import annotations

import uuid
from typing import Any

from flask import Blueprint, Response, current_app, g, redirect, render_template, request, url_for
from flask_login import current_user

from app.analytics.services import capture
from app.catalog import presenters
from app.catalog.models import Category
from app.catalog.page_links import CatalogLinks
from app.core.errors import ApiError
from app.core.htmx import swappable, vary_on_htmx, wants_fragment
from app.core.security import public
from app.demo import services
from app.demo.throttles import demo_throttle, search_throttle
from app.vehicles.models import Vehicle

bp = Blueprint("demo_views", __name__, url_prefix="/demo")


def demo_links() -> CatalogLinks:
    """The demo's links, one object per request (the URL patterns it builds are the request's): no copy log, since
    the demo keeps nothing of its visitors but the analytics events."""
    return CatalogLinks(
        page_endpoint="demo_views.index",
        category_endpoint="demo_views.category",
        children_endpoint="demo_views.children",
        # A signed-in dealer has an account: no calls to register for them.
        register_endpoint=None if current_user.is_authenticated else "demo_views.register",
    )


PLACEMENTS = frozenset({"banner", "footer", "category_footer", "unavailable"})
UNKNOWN_PLACEMENT = "unknown"  # a click from a link we did not make is still a visitor on the way to register
VISITOR_COOKIE = "demo_visitor"
VISITOR_COOKIE_MAX_AGE = 365 * 24 * 3600


# --- routes -------------------------------------------------------------------------------------------------------


@bp.get("")
@public
@demo_throttle
def index():
    """The vehicle with its tree; the main area lists the root groups, or the results of `?q=`."""
    vehicle = services.demo_vehicle()
    query = request.args.get("q", "").strip()[: presenters.QUERY_MAX_LENGTH]
    if query and wants_fragment():
        return _answer(vehicle, _search(vehicle, query))
    tree = presenters.tree_view(services.tree(vehicle))
    main = _search(vehicle, query) if query else presenters.overview_main(vehicle, tree)
    if not wants_fragment():  # not the "All groups" breadcrumb followed within the page
        _event("demo_loaded", {"vehicle_id": vehicle.id, "search": bool(query)})
    return _answer(vehicle, main, tree)


@bp.get("/categories/<int:category_id>")
@public
@demo_throttle
def category(category_id: int):
    """A category in the main area; the whole page has the tree opened down to it."""
    vehicle = services.demo_vehicle()
    found = services.demo_category(vehicle, category_id)
    detail = services.category_detail(vehicle, found)
    _report_opened(vehicle, found, detail)
    main = presenters.category_main(vehicle, detail, request.args.get("part", type=int))
    if wants_fragment():
        return _answer(vehicle, main)
    return _answer(vehicle, main, presenters.opened_tree(vehicle, found, detail))


@bp.get("/categories/<int:category_id>/children")
@public
@demo_throttle
def children(category_id: int):
    """A tree branch opened: the group's node with its stored children (HTMX); without HTMX, the group's page."""
    if not wants_fragment():
        return redirect(url_for(".category", category_id=category_id), code=303)
    vehicle = services.demo_vehicle()
    found = services.demo_category(vehicle, category_id)
    _event("demo_category_clicked", {**_category_properties(vehicle, found), "opened_in": "tree"})
    opened = presenters.opened_node(found, services.children_of(found))
    html = render_template("catalog/_tree_node.html", links=demo_links(), node=opened)
    return vary_on_htmx(Response(html))


@bp.get("/register")
@public
@demo_throttle
def register():
    """A call to register followed: counted by its placement (any other as "unknown"), then the registration page."""
    placement = request.args.get("placement", "")
    _event("demo_to_register_click", {"placement": placement if placement in PLACEMENTS else UNKNOWN_PLACEMENT})
    return redirect(url_for("auth_pages.register"), code=303)


@bp.errorhandler(ApiError)
def _refused(error: ApiError) -> Response:
    """No demo vehicle: a 404 page that still leads to the registration. No such category (or another vehicle's):
    the message in the main area, as on the signed-in page (its 4xx through core.htmx.swappable: HTMX gets 200)."""
    if error.code == "demo_unavailable":
        html = render_template("demo/unavailable.html", message=error.message, links=demo_links())
        return Response(html, error.status)
    main = presenters.error_main(error)
    if wants_fragment():
        return presenters.retargeted(main, error.status, error.code)
    vehicle = services.demo_vehicle()
    return _answer(vehicle, main, presenters.tree_view(services.tree(vehicle)), status=error.status, code=error.code)


# --- answers ------------------------------------------------------------------------------------------------------


def _answer(
    vehicle: Vehicle, main: dict[str, Any], tree: dict[str, Any] | None = None, status: int = 200, code: str = "refused"
) -> Response:
    """The main area alone for HTMX, else the demo page around it."""
    context = {"vehicle": vehicle, "main": main, "links": demo_links()}
    if wants_fragment():
        return swappable(Response(render_template("catalog/_main_response.html", **context), status=status), code)
    summary = services.vehicle_summary(vehicle)
    html = render_template("demo/demo.html", tree=tree, summary=summary, **context)
    return swappable(Response(html, status=status), code)


@search_throttle
def _search(vehicle: Vehicle, query: str) -> dict[str, Any]:
    """The search's results, under the demo search's tighter budget (charged only when there is a query)."""
    return presenters.search_main(vehicle, query)


# --- analytics ----------------------------------------------------------------------------------------------------


def _report_opened(vehicle: Vehicle, category: Category, detail: dict[str, Any]) -> None:
    properties = _category_properties(vehicle, category)
    _event("demo_category_clicked", {**properties, "opened_in": "main"})
    if category.is_leaf:
        viewed = {**properties, "parts": len(detail["parts"]), "schema": detail["schema"] is not None}
        _event("demo_category_detail_viewed", viewed)


def _category_properties(vehicle: Vehicle, category: Category) -> dict[str, Any]:
    return {"vehicle_id": vehicle.id, "category_id": category.id, "leaf": category.is_leaf}


def _event(event: str, properties: dict[str, Any]) -> None:
    """Report a demo event for the visitor; it goes out once the request commits (not at all on an error)."""
    capture(_visitor_id(), event, properties)


def _visitor_id() -> str:
    """The visitor's id from the demo cookie, else a new random one that the answer sets (never the address: a shop's
    counters share one, and an address is personal data)."""
    known = request.cookies.get(VISITOR_COOKIE, "")
    if _is_visitor_id(known):
        return known
    if "demo_visitor" not in g:
        g.demo_visitor = str(uuid.uuid4())
    return g.demo_visitor


def _is_visitor_id(value: str) -> bool:
    try:
        return str(uuid.UUID(value)) == value
    except ValueError:
        return False


@bp.after_request
def _remember_visitor(response: Response) -> Response:
    """A visitor given an id keeps it, so their later events (this visit's and the next's) join the first."""
    visitor = g.pop("demo_visitor", None)
    if visitor:
        response.set_cookie(
            VISITOR_COOKIE,
            visitor,
            max_age=VISITOR_COOKIE_MAX_AGE,
            path=bp.url_prefix,
            httponly=True,
            samesite="Lax",
            secure=current_app.config["SESSION_COOKIE_SECURE"],
        )
    return response
