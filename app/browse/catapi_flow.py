"""Browsing the catalog API (catapi) without a VIN: catalogs -> models -> cars (narrowed by the model's parameters:
year, engine, gearbox, body) -> groups -> schema pictures -> a picture with its parts and hotspots.

catapi has no group list of its own for a car's pictures: the groups are derived from each schema picture's category
reference, named from the car's category tree (its root groups and their subgroups).
"""

from __future__ import annotations

from typing import Any

from app.accounts.models import User
from app.browse.upstream import catapi, checked_id, checked_value, drawing_view, ensure_brand_named, names, upstream
from app.core.text import fold
from app.sources.base import Car
from app.sources.catapi import SchemaInfo

PAGE_LIMIT = 25
SCHEMA_PAGE_LIMIT = 100
MAX_SCHEMA_PAGES = 50  # 5,000 pictures: more than any car has; a runaway upstream stops here
MAX_FILTERS = 12


def catalogs() -> list[dict[str, Any]]:
    with upstream("catapi catalogs"):
        found = catapi().catalogs()
    return [{"id": item.id, "name": item.name, "modelsCount": item.models_count} for item in found]


def models(catalog: str, query: str = "") -> dict[str, Any]:
    catalog = checked_id(catalog, "catalog")
    with upstream("catapi models"):
        found = catapi().models(catalog)
    wanted = fold(query)
    items = [{"id": item.id, "name": item.name} for item in found if wanted in fold(item.name)]
    return {"catalog": catalog, "models": items}


def parameters(catalog: str, model: str) -> dict[str, Any]:
    catalog, model = checked_id(catalog, "catalog"), checked_id(model, "model")
    with upstream("catapi car parameters"):
        found = catapi().car_parameters(catalog, model)
    return {
        "parameters": [
            {"key": item.key, "name": item.name, "values": [{"idx": v.idx, "value": v.value} for v in item.values]}
            for item in found
        ]
    }


def cars(catalog: str, model: str, filters: list[str], page: int) -> dict[str, Any]:
    """The model's cars, narrowed to those with every chosen parameter value (`filters`: idx values)."""
    catalog, model = checked_id(catalog, "catalog"), checked_id(model, "model")
    chosen = tuple(dict.fromkeys(checked_value(value, "parameter") for value in filters[:MAX_FILTERS]))
    with upstream("catapi cars"):
        found = catapi().cars(catalog, model, page=page, limit=PAGE_LIMIT, parameters=chosen)
    return {
        "cars": [car_view(car) for car in found.items],
        "total": found.total,
        "page": found.page,
        "hasMore": found.has_next,
    }


def car_view(car: Car) -> dict[str, Any]:
    return {
        "catalogId": car.catalog_id,
        "carId": car.car_id,
        "brand": car.brand,
        "model": car.model,
        "name": car.raw.get("name") or car.model,
        "year": car.year,
        "engine": car.engine,
        "parameters": car.parameters,
    }


def groups(user: User, catalog: str, car_id: str) -> dict[str, Any]:
    """The car's groups, one per category its pictures refer to, in the catalog's order (brand-bound)."""
    car = guarded_car(user, catalog, car_id)
    pictures = _pictures(catalog, car_id)
    category_names = _category_names(catalog, car_id)
    found: dict[str, dict[str, Any]] = {}
    for picture in pictures:
        key = picture.category_id or picture.group_id
        group = found.setdefault(key, {"id": key, **names(category_names.get(key, key)), "schemaCount": 0})
        group["schemaCount"] += 1
    return {"car": car_view(car), "groups": list(found.values())}


def schemas(user: User, catalog: str, car_id: str, group_id: str) -> dict[str, Any]:
    """The schema pictures of one of the car's groups (brand-bound)."""
    car = guarded_car(user, catalog, car_id)
    group_id = checked_id(group_id, "group")
    pictures = [item for item in _pictures(catalog, car_id) if (item.category_id or item.group_id) == group_id]
    return {
        "car": car_view(car),
        "groupId": group_id,
        "schemas": [{"id": item.group_id, **names(item.name), "imageUrl": item.image_url} for item in pictures],
    }


def schema(user: User, catalog: str, car_id: str, schema_id: str) -> dict[str, Any]:
    """A schema picture with its part rows and its hotspots in the picture's own pixels (brand-bound)."""
    car = guarded_car(user, catalog, car_id)
    schema_id = checked_id(schema_id, "schema")
    with upstream("catapi parts"):
        sheet = catapi().parts(catalog, car_id, schema_id)
    return {
        "car": car_view(car),
        "schemaId": schema_id,
        "image": {"url": sheet.image_url, "width": sheet.width, "height": sheet.height},
        **drawing_view(sheet.hotspots, sheet.parts),
    }


def guarded_car(user: User, catalog: str, car_id: str) -> Car:
    catalog, car_id = checked_id(catalog, "catalog"), checked_id(car_id, "car")
    with upstream("catapi car"):
        car = catapi().car(catalog, car_id)
    ensure_brand_named(user, car.brand)
    return car


def _pictures(catalog: str, car_id: str) -> list[SchemaInfo]:
    """Every schema picture of the car, page after page."""
    pictures: list[SchemaInfo] = []
    with upstream("catapi schemas"):
        for page in range(1, MAX_SCHEMA_PAGES + 1):
            found = catapi().schemas(catalog, car_id, page=page, limit=SCHEMA_PAGE_LIMIT)
            pictures.extend(found.items)
            if not found.has_next or not found.items:
                break
    return pictures


def _category_names(catalog: str, car_id: str) -> dict[str, str]:
    """The car's category names by id: its root groups and their subgroups."""
    source = catapi()
    with upstream("catapi groups"):
        roots = source.groups(catalog, car_id)
        found = {group.id: group.name for group in roots}
        for root in roots:
            if root.has_subgroups:
                found.update((group.id, group.name) for group in source.groups(catalog, car_id, root.id))
    return found
