"""Seeding the demo vehicle: decode DEMO_VIN through catapi (the source with schema pictures and hotspots), store it
as a shared vehicle, and get its whole tree stored.

`flask seed` (and so `make run`) stores the vehicle and queues the tree for the worker through the ordinary prefetch
job: the sandbox Golf's tree (139 categories, 10,583 parts, 116 pictures) takes about 10 s to store, too long to
hold up start-up. `flask demo seed` walks it in the foreground instead, with progress lines. Both stop at once when
the vehicle and its tree are stored already, and the seed step only ever reaches the catapi sandbox on loopback
unless DEMO_SEED=on asks for the configured upstream.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from urllib.parse import urlsplit

import sqlalchemy as sa
from flask import current_app

from app.billing.access import our_brand
from app.catalog import services as catalog
from app.catalog import store
from app.catalog.providers import provider_for
from app.catalog.tasks import enqueue_prefetch
from app.core.db import begin_writes, insert_for
from app.extensions import db, queues
from app.sources import pool as source_pool
from app.sources import wmi
from app.sources.base import Outcome
from app.sources.catapi import CatapiSettings, CatapiSource
from app.vehicles.models import Vehicle
from app.vehicles.writes import vehicle_row

log = logging.getLogger(__name__)

PROGRESS_EVERY = 10  # categories between two progress lines of the foreground walk

Progress = Callable[[str], None]


class DemoSeedError(Exception):
    """The demo vehicle could not be stored (catapi has no single car for the VIN, its brand is unknown, ...)."""


def demo_vehicle() -> str:
    """Seed step: the demo vehicle and its tree, when DEMO_VEHICLE_ID is empty and catapi is the local sandbox."""
    config = current_app.config
    if config.get("DEMO_VEHICLE_ID") is not None:
        return "DEMO_VEHICLE_ID is set; nothing to seed"
    mode, vin = config.get("DEMO_SEED", "auto"), config.get("DEMO_VIN") or ""
    if mode == "off" or not vin:
        return "off (DEMO_SEED=off or no DEMO_VIN)"
    source = catapi_source()
    if source is None:
        return "catapi is not configured; no demo vehicle"
    if mode != "on" and not on_loopback(source.settings):
        return "catapi is not the local sandbox; set DEMO_SEED=on or run `flask demo seed` to seed from it"
    try:
        return seed(vin, wait=False)
    except DemoSeedError as error:
        # The demo is optional: a failure here must not stop the other seed steps or `make run`.
        log.warning("demo vehicle %s not seeded: %s", vin, error)
        return f"not seeded: {error}"


def seed(vin: str, wait: bool, progress: Progress | None = None) -> str:
    """Store the vehicle of `vin` unless it is stored, then its tree: walked here when `wait`, else queued."""
    vehicle_id = stored_vehicle_id(vin)
    added = vehicle_id is None
    if vehicle_id is None:
        vehicle_id = store_vehicle(vin)
    return fill_tree(vehicle_id, wait, progress, added=added)


def fill_tree(vehicle_id: int, wait: bool, progress: Progress | None = None, added: bool = False) -> str:
    vehicle = db.session.get(Vehicle, vehicle_id)
    if vehicle is None:
        raise DemoSeedError(f"no vehicle {vehicle_id}")
    label = f"vehicle {vehicle_id} ({vehicle.title})"
    if store.tree_complete(vehicle):
        return f"{label} and its tree are stored already"
    prefix = f"{label} stored" if added else label
    if wait:
        walk(vehicle_id, progress)
        categories, parts, pictures = store.counts(vehicle_id)
        return f"{prefix}; tree stored: {categories} categories, {parts} parts, {pictures} pictures"
    if queue_walk(vehicle_id):
        return f"{prefix}; its tree is queued for the worker (job prefetch-init-{vehicle_id})"
    return f"{prefix}; its tree is being stored by the worker already"


def catapi_source() -> CatapiSource | None:
    source = source_pool.catalog_sources(current_app.config).get("catapi")
    return source if isinstance(source, CatapiSource) else None


def on_loopback(settings: CatapiSettings) -> bool:
    """Whether every catapi address is on this machine: the sandbox `make run` starts, never a real upstream."""
    urls = [*settings.base_urls, settings.token_url]
    return bool(settings.base_urls) and all(_loopback_host(urlsplit(url).hostname or "") for url in urls)


def _loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def stored_vehicle_id(vin: str) -> int | None:
    return db.session.scalar(sa.select(Vehicle.id).where(Vehicle.vin == vin, Vehicle.candidate_key == ""))


def store_vehicle(vin: str) -> int:
    """Decode `vin` through catapi and store its one car as the VIN's shared vehicle (as a dealer's decode would)."""
    source = catapi_source()
    if source is None:
        raise DemoSeedError("catapi is not configured")
    result = source.lookup_vin(vin)
    if result.outcome is not Outcome.ONE:
        raise DemoSeedError(f"catapi answered {result.outcome.value} for {vin}, not one car {result.error or ''}")
    car = result.cars[0]
    brand = our_brand(wmi.slugify(car.brand))  # the decode's own brand rule, not a copy
    if brand is None:
        raise DemoSeedError(f"brand {car.brand!r} is not among the seeded brands")
    begin_writes(db.session)
    db.session.execute(
        insert_for(db.session, Vehicle)
        .values(vehicle_row(vin, car, brand.id, brand.name))  # the same row a decode stores
        .on_conflict_do_nothing(index_elements=[Vehicle.vin, Vehicle.candidate_key])
    )
    # Committed before its tree is queued: a worker already running must find the vehicle.
    db.session.commit()
    vehicle_id = stored_vehicle_id(vin)
    log.info("demo vehicle %s stored from catapi as vehicle %s", vin, vehicle_id)
    return vehicle_id


def queue_walk(vehicle_id: int) -> bool:
    """Queue the ordinary prefetch of the vehicle, unless it is queued or running; False when it already is."""
    if not queues.free_id("prefetch", f"prefetch-init-{vehicle_id}"):
        return False
    enqueue_prefetch(vehicle_id)  # the walk resumes from what is stored
    return True


def walk(vehicle_id: int, progress: Progress | None = None) -> None:
    """Store the vehicle's whole tree here and now, level by level; what is stored already costs no upstream call.

    Uses the catalog's own fetch-and-store functions (the ones the prefetch jobs run) and commits each category,
    so an interrupted walk resumes where it stopped. A category the upstream fails on is left for a later run.
    """
    vehicle = db.session.get(Vehicle, vehicle_id)
    provider = provider_for(vehicle, current_app.config) if vehicle else None
    if vehicle is None or provider is None:
        raise DemoSeedError(f"vehicle {vehicle_id} has no configured tree source")
    if not store.roots(vehicle_id) and not catalog.fetch_roots(vehicle):
        raise DemoSeedError(f"the upstream did not give the root categories of vehicle {vehicle_id}")
    db.session.commit()
    pending = list(store.roots(vehicle_id))
    done = failed = 0
    while pending:
        category = pending.pop(0)
        if category.is_leaf:
            catalog.load_parts(category, provider)
        else:
            pending.extend(catalog.load_children(vehicle, category, provider))
        db.session.commit()  # expires the category: the marks below are read back as stored
        done += 1
        if (category.parts_fetched_at if category.is_leaf else category.children_fetched_at) is None:
            failed += 1
        if progress and (done % PROGRESS_EVERY == 0 or not pending):
            progress(f"demo: {done} categories stored, {len(pending)} to go")
    if failed:
        log.warning("demo vehicle %s: %d categories failed upstream; run `flask demo seed` again", vehicle_id, failed)
