"""VIN-less browsing as JSON under /api/browse (signed in). Lists of makes, models and variants are open to every
signed-in dealer, so a dealer sees what a plan would give; groups, drawings and parts only for the caller's brands.
Each answer is read live from its upstream (app.browse.upstream says how faults are answered)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_login import current_user

from app.browse import brands, catapi_flow, opening, scrape_flow
from app.browse.schemas import (
    BrowseBrands,
    CarGroups,
    Cars,
    CarsQuery,
    GroupSchemas,
    Models,
    ModelsQuery,
    Opened,
    Parameters,
    SchemaDetail,
    ScrapeGroups,
    ScrapeParts,
    ScrapeVehicles,
    Wizard,
    WizardChoices,
    WizardQuery,
    WizardVehicles,
    WizardVehiclesQuery,
)
from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import int_arg, optional_json_body

bp = Blueprint("browse_api", __name__, url_prefix="/api/browse")

UPSTREAM = (404, 502, 503)
BRAND_BOUND = (403, *UPSTREAM)


@bp.get("/brands")
@shop_role("clerk")
@documented(BrowseBrands, errors=(503,), summary="Every make with the catalogs that cover it")
def brand_list():
    return jsonify(brands.catalogs_by_brand(current_user))


# --- the catalog API (catapi) --------------------------------------------------------------------------------------


@bp.get("/catapi/<catalog>/models")
@shop_role("clerk")
@documented(Models, query=ModelsQuery, errors=UPSTREAM, summary="A catalog's models")
def catapi_models(catalog: str):
    return jsonify(catapi_flow.models(catalog, (request.args.get("q") or "")[:60]))


@bp.get("/catapi/<catalog>/models/<model>/parameters")
@shop_role("clerk")
@documented(Parameters, errors=UPSTREAM, summary="What a model's cars can be narrowed by (year, engine, ...)")
def catapi_parameters(catalog: str, model: str):
    return jsonify(catapi_flow.parameters(catalog, model))


@bp.get("/catapi/<catalog>/models/<model>/cars")
@shop_role("clerk")
@documented(Cars, query=CarsQuery, errors=UPSTREAM, summary="A model's cars, narrowed by parameter values")
def catapi_cars(catalog: str, model: str):
    page = int_arg(request.args, "page", 1, maximum=1000)
    return jsonify(catapi_flow.cars(catalog, model, request.args.getlist("parameter"), page))


@bp.post("/catapi/<catalog>/cars/<car>/open")
@shop_role("clerk")
@documented(Opened, errors=BRAND_BOUND, summary="Open a car: its catalog vehicle, stored once, and its vehicle page")
def catapi_open(catalog: str, car: str):
    optional_json_body()
    return jsonify(opening.open_catapi_car(current_user, catalog, car))


@bp.get("/catapi/<catalog>/cars/<car>/groups")
@shop_role("clerk")
@documented(CarGroups, errors=BRAND_BOUND, summary="A car's groups, derived from its schema pictures")
def catapi_groups(catalog: str, car: str):
    return jsonify(catapi_flow.groups(current_user, catalog, car))


@bp.get("/catapi/<catalog>/cars/<car>/groups/<group>/schemas")
@shop_role("clerk")
@documented(GroupSchemas, errors=BRAND_BOUND, summary="The schema pictures of a car's group")
def catapi_schemas(catalog: str, car: str, group: str):
    return jsonify(catapi_flow.schemas(current_user, catalog, car, group))


@bp.get("/catapi/<catalog>/cars/<car>/schemas/<schema>")
@shop_role("clerk")
@documented(SchemaDetail, errors=BRAND_BOUND, summary="A schema picture with its parts and hotspots")
def catapi_schema(catalog: str, car: str, schema: str):
    return jsonify(catapi_flow.schema(current_user, catalog, car, schema))


# --- the web catalog (scrape) --------------------------------------------------------------------------------------


@bp.get("/scrape/<brand>/vehicles")
@shop_role("clerk")
@documented(ScrapeVehicles, errors=UPSTREAM, summary="A make's vehicles in the web catalog")
def scrape_vehicles(brand: str):
    return jsonify(scrape_flow.vehicles(brand))


@bp.get("/scrape/<brand>/wizard")
@shop_role("clerk")
@documented(Wizard, query=WizardQuery, errors=(400, *UPSTREAM), summary="The variant wizard: one step's options")
def scrape_wizard(brand: str):
    return jsonify(scrape_flow.wizard(brand, request.args, request.args.get("step") or None))


@bp.get("/scrape/<brand>/selectors/<step>")
@shop_role("clerk")
@documented(
    Wizard, query=WizardChoices, errors=(400, *UPSTREAM), summary="A legacy selector: body, engine, gearbox or year"
)
def scrape_selector(brand: str, step: str):
    return jsonify(scrape_flow.wizard(brand, request.args, step))


@bp.get("/scrape/<brand>/wizard-vehicles")
@shop_role("clerk")
@documented(WizardVehicles, query=WizardVehiclesQuery, errors=(400, *UPSTREAM), summary="Variants by model name")
def scrape_wizard_vehicles(brand: str):
    return jsonify(scrape_flow.wizard_vehicles(brand, request.args.get("model") or "", request.args))


@bp.post("/scrape/<brand>/vehicles/<code>/open")
@shop_role("clerk")
@documented(Opened, errors=BRAND_BOUND, summary="Open a web-catalog vehicle as a catalog vehicle")
def scrape_open(brand: str, code: str):
    optional_json_body()
    return jsonify(opening.open_scrape_vehicle(current_user, brand, code))


@bp.get("/scrape/<brand>/vehicles/<code>/groups")
@shop_role("clerk")
@documented(ScrapeGroups, errors=BRAND_BOUND, summary="A web-catalog vehicle's groups")
def scrape_groups(brand: str, code: str):
    return jsonify(scrape_flow.groups(current_user, brand, code))


@bp.get("/scrape/<brand>/vehicles/<code>/groups/<group>/parts")
@shop_role("clerk")
@documented(ScrapeParts, errors=BRAND_BOUND, summary="A web-catalog group's parts, picture and hotspots")
def scrape_parts(brand: str, code: str, group: str):
    return jsonify(scrape_flow.parts(current_user, brand, code, group))
