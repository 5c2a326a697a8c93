"""The vehicle page's prefetch progress: how much of the tree the background walk (app.catalog.tasks) has stored.

The page renders the first state itself through the `catalog_progress` template global, so the bar shows at once,
and only while the walk runs; the bar then polls GET /vehicles/<id>/catalog-progress, which answers the same
fragment (templates/catalog/_progress.html) until the tree is stored whole, then a note that no longer polls.
A walk whose counts stand still (no worker running) is polled slowly. A poll that may no longer see the vehicle
answers 286, on which htmx stops polling and removes the bar.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_login import current_user

from app.catalog import services
from app.core import throttle
from app.core.errors import ApiError
from app.core.htmx import vary_on_htmx, wants_fragment
from app.core.security import shop_role
from app.extensions import limiter
from app.vehicles.models import Vehicle

bp = Blueprint("catalog_progress", __name__, url_prefix="/vehicles/<int:vehicle_id>")

POLL_SECONDS = 2
IDLE_POLL_SECONDS = 30
IDLE_AFTER_POLLS = 15  # about half a minute without a newly stored category
STOP_POLLING = 286  # htmx's status for "stop polling"

# Per user, and instead of the per-address default: a shop's counters share one address, and each open vehicle page
# polls 30 times a minute while its walk runs.
poll_throttle = limiter.limit(
    throttle.setting("CATALOG_PROGRESS_RATE_LIMIT"), key_func=throttle.user_or_address, scope="catalog-progress"
)


@bp.get("/catalog-progress")
@shop_role("clerk")
@poll_throttle
def progress(vehicle_id: int):
    """One poll of the bar (HTMX); without HTMX, the vehicle page, which shows the same bar."""
    try:
        vehicle = services.open_vehicle(current_user, vehicle_id)
    except ApiError:
        if wants_fragment():
            return vary_on_htmx(Response(status=STOP_POLLING))  # no longer allowed (or gone): the bar goes
        raise
    if not wants_fragment():
        return vary_on_htmx(redirect(url_for("catalog_views.vehicle_page", vehicle_id=vehicle.id), code=303))
    state = progress_state(vehicle, seen=request.args.get("seen", type=int), idle=request.args.get("idle", 0, type=int))
    return vary_on_htmx(Response(render_template("catalog/_progress.html", progress=state)))


@bp.app_template_global("catalog_progress")
def page_progress(vehicle: Vehicle) -> dict[str, Any] | None:
    """The bar's first state for the vehicle page; None when there is nothing to show (tree stored whole, or none)."""
    state = progress_state(vehicle)
    return None if state["done"] or not state["known"] else state


def progress_state(vehicle: Vehicle, seen: int | None = None, idle: int = 0) -> dict[str, Any]:
    """The walk's counts, and how to poll next: `seen` is the stored count the last poll showed, `idle` how many polls
    in a row it had not changed."""
    counts = services.prefetch_progress(vehicle)
    stored = counts["groupsDrilled"] + counts["leavesFetched"]
    idle = min(max(idle, 0) + 1, IDLE_AFTER_POLLS) if stored == seen else 0
    return {
        **counts,
        "vehicleId": vehicle.id,
        "known": counts["groups"] + counts["leaves"],
        "stored": stored,
        "idle": idle,
        "pollSeconds": IDLE_POLL_SECONDS if idle >= IDLE_AFTER_POLLS else POLL_SECONDS,
    }
