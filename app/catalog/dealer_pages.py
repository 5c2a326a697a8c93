"""The dealer's vehicle page as its route modules answer it (app.catalog.views, app.catalog.fit.views): the main area
alone for HTMX, else the whole page around it, with the tree closed or opened down to a category; the leaves' fit
counts are the signed-in dealer's."""

from __future__ import annotations

from typing import Any

from flask import Response, render_template
from flask_login import current_user

from app.catalog import services
from app.catalog.models import Category
from app.catalog.page_links import dealer_links
from app.catalog.presenters import PLAN_LIMITED, error_main, opened_tree, tree_view
from app.core.errors import ApiError
from app.core.htmx import swappable, wants_fragment
from app.vehicles.models import Vehicle


def page_answer(
    vehicle: Vehicle, main: dict[str, Any], tree: dict[str, Any] | None = None, status: int = 200, code: str = "refused"
) -> Response:
    """The main area alone for HTMX, else the vehicle page around it; a refusal's status through core.htmx.swappable
    (HTMX: 200, and nothing the request wrote is kept)."""
    context = {"vehicle": vehicle, "main": main, "links": dealer_links(vehicle.id)}
    if wants_fragment():
        return swappable(Response(render_template("catalog/_main_response.html", **context), status=status), code)
    html = render_template("vehicles/vehicle.html", tree=tree, **context)
    return swappable(Response(html, status=status), code)


def category_answer(
    vehicle: Vehicle,
    category: Category,
    detail: dict[str, Any],
    main: dict[str, Any],
    status: int = 200,
    code: str = "refused",
) -> Response:
    """A category in the main area; the whole page has the tree opened down to it."""
    if wants_fragment():
        return page_answer(vehicle, main, status=status, code=code)
    tree = opened_tree(vehicle, category, detail, current_user)
    return page_answer(vehicle, main, tree=tree, status=status, code=code)


def refused_answer(vehicle: Vehicle, error: ApiError) -> Response:
    """A refusal (no plan for the brand, no such category) in the main area; the page keeps the vehicle's facts."""
    main = error_main(error)
    if wants_fragment():
        return page_answer(vehicle, main, status=error.status, code=error.code)
    tree = None if error.code in PLAN_LIMITED else closed_tree(vehicle)  # the tree is still the dealer's way on
    return page_answer(vehicle, main, tree=tree, status=error.status, code=error.code)


def closed_tree(vehicle: Vehicle) -> dict[str, Any]:
    return tree_view(services.tree(vehicle, current_user))
