"""VIN-less browsing as pages (signed in): makes, then a make's models, then a model's cars narrowed by its
parameters (the catalog API), or a make's variants narrowed one selector at a time (the web catalog). Every step is a
real URL (back, forward and refresh work); HTMX swaps the list part of a step when a choice changes. Refusals and
upstream faults show their Turkish message in the page, with a way to try again."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_login import current_user

from app.browse import brands, catapi_flow, opening, scrape_flow
from app.core.errors import ApiError
from app.core.htmx import swappable, wants_fragment
from app.core.security import shop_role
from app.core.validation import int_arg

bp = Blueprint("browse_views", __name__, url_prefix="/browse")


@bp.get("")
@shop_role("clerk")
def makes() -> Any:
    """Every make with its catalogs; `?make=<slug or name>` (the link of a VIN no catalog covered) opens that make."""
    found = _answer(lambda: brands.catalogs_by_brand(current_user))
    wanted = (request.args.get("make") or "").strip().casefold()
    if wanted and isinstance(found, dict):
        make = next((item for item in found["brands"] if wanted in {item["name"].casefold(), item["slug"]}), None)
        if make and make["catalogs"]:
            return redirect(_catalog_url(make["catalogs"][0], request.args.get("year")), code=303)
    return _page("browse/makes.html", found, wanted=wanted)


@bp.get("/catapi/<catalog>")
@shop_role("clerk")
def catapi_models(catalog: str) -> Any:
    found = _answer(lambda: catapi_flow.models(catalog))
    return _page("browse/models.html", found, catalog=catalog, year=request.args.get("year") or "")


@bp.get("/catapi/<catalog>/<model>")
@shop_role("clerk")
def catapi_cars(catalog: str, model: str) -> Response:
    """The model's cars; the parameter selects narrow them (HTMX replaces the list, the URL follows)."""
    chosen = [value for value in request.args.getlist("parameter") if value]

    def read() -> dict[str, Any]:
        parameters = catapi_flow.parameters(catalog, model)
        chosen.extend(_year_choice(parameters, request.args.get("year"), chosen))
        page = int_arg(request.args, "page", 1, maximum=1000)
        return {**parameters, **catapi_flow.cars(catalog, model, chosen, page)}

    found = _answer(read)
    context = {"catalog": catalog, "model": model, "chosen": chosen}
    template = "browse/_cars.html" if wants_fragment() else "browse/cars.html"
    return _page(template, found, **context)


@bp.get("/scrape/<brand>")
@shop_role("clerk")
def scrape_wizard(brand: str) -> Response:
    """The web catalog's variants of a make, one selector (body, engine, gearbox, year) at a time."""
    found = _answer(lambda: scrape_flow.wizard(brand, request.args))
    template = "browse/_wizard.html" if wants_fragment() else "browse/wizard.html"
    return _page(template, found, brand=brand)


def _year_choice(parameters: dict[str, Any], year: str | None, chosen: list[str]) -> list[str]:
    """The idx of the model-year value `year` (a VIN's model year), unless a year is chosen already."""
    years = next((item["values"] for item in parameters["parameters"] if item["key"] == "year"), [])
    if not year or any(value["idx"] in chosen for value in years):
        return []
    return [value["idx"] for value in years if value["value"] == year][:1]


@bp.post("/catapi/<catalog>/cars/<car>/open")
@shop_role("clerk")
def catapi_open(catalog: str, car: str) -> Response:
    """Open a car (a form button of the car list): its vehicle page, with the same tree a decoded VIN has."""
    return _opened(lambda: opening.open_catapi_car(current_user, catalog, car))


@bp.post("/scrape/<brand>/vehicles/<code>/open")
@shop_role("clerk")
def scrape_open(brand: str, code: str) -> Response:
    return _opened(lambda: opening.open_scrape_vehicle(current_user, brand, code))


def _opened(open_car: Any) -> Response:
    found = _answer(open_car)
    if isinstance(found, ApiError):
        return _page("browse/refused.html", found)
    return redirect(found["url"], code=303)


def _answer(read: Any) -> dict[str, Any] | ApiError:
    try:
        return read()
    except ApiError as error:
        return error


def _page(template: str, found: dict[str, Any] | ApiError, **context: Any) -> Response:
    """The page or fragment; a refusal's status through core.htmx.swappable (HTMX: 200)."""
    refused = isinstance(found, ApiError)
    response = Response(render_template(template, found=found, **context), status=found.status if refused else 200)
    return swappable(response, found.code if refused else "refused")


def _catalog_url(catalog: dict[str, Any], year: str | None) -> str:
    year = year if year and year.isdigit() and len(year) == 4 else None
    if catalog["source"] == "catapi":
        return url_for(".catapi_models", catalog=catalog["id"], year=year)
    return url_for(".scrape_wizard", brand=catalog["id"], year=year)
