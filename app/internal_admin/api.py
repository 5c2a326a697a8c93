"""Internal admin routes under /api/internal/admin (X-Internal-Token, no session): the founder panel's actions."""

from __future__ import annotations

from flask import jsonify

from app.core.openapi import INTERNAL, documented
from app.internal_admin.audit import audited
from app.internal_admin.guard import InternalBlueprint, read_actor
from app.internal_admin.schemas import ActorBody, CacheCleared, InternalHeaders, VehicleDeleted
from app.vehicles import admin as vehicles_admin
from app.vehicles.answers import normalize_vin

bp = InternalBlueprint("internal_admin_api", __name__)


@bp.post("/vehicles/<vin>/cache-clear")
@documented(
    CacheCleared,
    body=ActorBody,
    headers=InternalHeaders,
    errors=(401,),
    security=INTERNAL,
    public=True,
    summary="Clear a VIN's resolve cache and lock",
)
def clear_vehicle_cache(vin: str):
    vin = normalize_vin(vin)
    actor, _body = read_actor()
    with audited(actor, "vehicle.cache_clear", "vehicle", vin) as record:
        cleared, checked = vehicles_admin.clear_cache(vin)
        record.before = {"cacheKeys": cleared}
        record.after = {"cacheKeys": []}
        record.details["cleared"] = cleared
    return jsonify(clearedKeys=cleared, totalKeysChecked=checked)


@bp.delete("/vehicles/<vin>")
@documented(
    VehicleDeleted,
    body=ActorBody,
    headers=InternalHeaders,
    errors=(401, 404),
    security=INTERNAL,
    public=True,
    summary="Delete a decoded vehicle and every link to it",
)
def delete_vehicle(vin: str):
    vin = normalize_vin(vin)
    actor, _body = read_actor()
    with audited(actor, "vehicle.delete", "vehicle", vin) as record:
        deleted = vehicles_admin.delete_vehicle(vin)
        record.before = {
            "vehicleId": deleted.vehicle_id,
            "brandName": deleted.brand_name,
            "model": deleted.model,
            "source": deleted.source,
            "userLinks": deleted.cascaded_user_links,
        }
        record.details.update(vehicle_id=deleted.vehicle_id, user_links=deleted.cascaded_user_links)
    return jsonify(
        vehicleId=deleted.vehicle_id,
        brandName=deleted.brand_name,
        model=deleted.model,
        source=deleted.source,
        cascadedUserLinks=deleted.cascaded_user_links,
    )
