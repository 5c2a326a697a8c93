"""Internal admin routes under /api/internal/admin (X-Internal-Token, no session): the founder panel's actions."""

from __future__ import annotations

from flask import jsonify

from app.internal_admin.guard import InternalBlueprint, log_action, read_actor
from app.vehicles import admin as vehicles_admin
from app.vehicles.decode import normalize_vin

bp = InternalBlueprint("internal_admin_api", __name__)


@bp.post("/vehicles/<vin>/cache-clear")
def clear_vehicle_cache(vin: str):
    vin = normalize_vin(vin)
    actor, _body = read_actor()
    cleared, checked = vehicles_admin.clear_cache(vin)
    log_action(actor, "vehicle.cache_clear", vin, cleared=cleared)
    return jsonify(clearedKeys=cleared, totalKeysChecked=checked)


@bp.delete("/vehicles/<vin>")
def delete_vehicle(vin: str):
    vin = normalize_vin(vin)
    actor, _body = read_actor()
    deleted = vehicles_admin.delete_vehicle(vin)
    log_action(actor, "vehicle.delete", vin, vehicle_id=deleted.vehicle_id, user_links=deleted.cascaded_user_links)
    return jsonify(
        vehicleId=deleted.vehicle_id,
        brandName=deleted.brand_name,
        model=deleted.model,
        source=deleted.source,
        cascadedUserLinks=deleted.cascaded_user_links,
    )
