"""The decode orchestrator: validation, brand access, cache, lock, race, fallbacks, storage and the query log.

`decode()` is the one entry point for the API, the page and the benchmarks. It commits its own work (vehicle,
history link, query log, saved request) in one transaction, so a decode that ends in an error is still logged.

Candidates (issue 15): a candidate list is shared and cached like a vehicle, but the car a dealer picks from it is
that dealer's own (app.vehicles.picks). Their later decodes of the VIN answer their pick; other dealers get the list.
Only a source answering with exactly one car makes a vehicle everyone's (the VIN's confirmed vehicle).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _
from redis.exceptions import RedisError

from app.accounts.models import User
from app.billing.access import ensure_brand_access, our_brand
from app.core.db import begin_writes, insert_for, release_database, utcnow
from app.core.errors import ApiError
from app.extensions import db, redis_store
from app.sources import pool as source_pool
from app.sources import wmi
from app.sources.base import Car, LookupResult, Outcome
from app.sources.traffic import mark_dealer_traffic
from app.sources.vin_api import VinApiSettings
from app.vehicles import picks, refusals, scrape_cache
from app.vehicles.answers import DecodeAnswer, Pick, normalize_vin, vehicle_view
from app.vehicles.breaker import portal_breaker
from app.vehicles.cache import ResolveCache, positive_key
from app.vehicles.capacity import SLOTS, Taken
from app.vehicles.models import Vehicle, VinRequest
from app.vehicles.race import PortalGate, RaceReport, ask_within, run_race
from app.vehicles.signals import announce_stored
from app.vehicles.writes import ERROR_LOG_TEXT, log_and_link, log_and_link_alone, vehicle_row

log = logging.getLogger(__name__)

LOCK_POLL_SECONDS = 0.05
# What the fallbacks need once catapi has failed: the public decoder's timeout and a little, at most a quarter of
# the budget; the race gives up on sources still running that long before the deadline.
FALLBACK_MARGIN_SECONDS = 0.5

StageListener = Callable[[str, str], None]


def _ignore(_stage: str, _state: str) -> None:
    return None


# --- the run -----------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """What one decode learns on its way, for the query log. Ids are plain values: the commits that end read
    snapshots expire ORM objects, and reloading them would open a read snapshot again."""

    user: User
    user_id: Any
    shop_id: Any
    vin: str
    started: float
    deadline: float
    on_stage: StageListener
    brand_id: int | None = None
    brand_name: str | None = None
    redis_down: bool = False
    choose_again: bool = False  # the dealer asked for the candidates again: their own pick does not answer
    branch_id: int | None = None
    timings: dict[str, Any] = field(default_factory=dict)

    def elapsed_ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)

    def note(self, **values: Any) -> None:
        self.timings.update(values)


def decode(
    user: User,
    raw_vin: Any,
    pick: Pick | None = None,
    on_stage: StageListener = _ignore,
    *,
    choose_again: bool = False,
) -> DecodeAnswer:
    """Decode a VIN for `user`; refusals (bad VIN, brand not in the plan, bad pick) raise ApiError.

    `pick` chooses a candidate (it becomes the user's own pick); `choose_again` answers the candidate list even when
    the user has picked one, with their pick marked."""
    started = time.monotonic()
    try:
        vin = normalize_vin(raw_vin)
    except ApiError as refusal:
        refusals.record(user.id, raw_vin, refusal.code, shop_id=user.shop_id)
        raise
    budget = float(current_app.config["DECODE_BUDGET_SECONDS"])
    run = Run(
        user,
        user.id,
        user.shop_id,
        vin,
        started,
        started + budget,
        on_stage,
        choose_again=choose_again,
        branch_id=user.branch_id,
        timings={"wmi": vin[:3]},
    )
    try:
        answer = _answer(run, pick or Pick())
    except ApiError as refusal:
        _record_refusal(run, refusal)
        raise
    return _finish(run, answer)


def _answer(run: Run, pick: Pick) -> DecodeAnswer:
    cache = ResolveCache(redis_store.client)
    answer = None if pick.source else _cached_vehicle(run, cache)
    if answer is None:
        _check_wmi_brand(run)
        answer = _within_capacity(run, lambda: _picked(run, cache, pick) if pick.source else _resolve(run, cache))
    if run.choose_again and answer.kind == "candidates":
        answer.chosen = picks.own_key(run.shop_id, run.vin)
    return answer


def _record_refusal(run: Run, refusal: ApiError, source: str | None = None) -> None:
    refusals.record(
        run.user_id,
        run.vin,
        refusal.code,
        shop_id=run.shop_id,
        brand_id=run.brand_id,
        source=source,
        elapsed_ms=run.elapsed_ms(),
        timings=run.timings,
    )


def _cached_vehicle(run: Run, cache: ResolveCache) -> DecodeAnswer | None:
    """The hot path: a cached vehicle, checked against the caller's plan by the brand it carries; for a cached
    candidate list, the caller's own pick."""
    try:
        document = _positive(cache, run.vin)
    except RedisError as error:
        log.warning("decode %s: resolve cache unreadable: %s", run.vin[:3], error)
        run.redis_down = True
        return None
    if document is not None and document.get("kind") == "candidates":
        return _own_pick(run)
    brand_id = (document.get("vehicle") or {}).get("brandId") if document else None
    if brand_id is None:
        return None
    run.brand_id = brand_id
    run.note(cache_source="redis_positive", cache_hit_ms=run.elapsed_ms())
    ensure_brand_access(run.user, brand_id)
    run.on_stage("cache", "hit")
    return DecodeAnswer.from_cache(document)


def _positive(cache: ResolveCache, vin: str) -> dict[str, Any] | None:
    """The cached answer for `vin`. A cached vehicle not marked confirmed was cached before picks were per dealer
    (issue 15) and may be one dealer's pick: it is read as no answer, and the decode that follows replaces it."""
    document = cache.positive(vin)
    if document is not None and document.get("kind") == "vehicle":
        return document if (document.get("vehicle") or {}).get("confirmed") else None
    return document


def _own_pick(run: Run) -> DecodeAnswer | None:
    """The caller's own earlier choice among the VIN's candidates (none when they asked to choose again)."""
    vehicle = None if run.choose_again else picks.own_pick(run.shop_id, run.vin)
    if vehicle is None:
        return None
    if vehicle.brand_id is not None:
        run.brand_id = vehicle.brand_id
        ensure_brand_access(run.user, vehicle.brand_id)
    run.on_stage("cache", "hit")
    run.note(cache_source="db_hit", own_pick=True, cache_hit_ms=run.elapsed_ms())
    return _stored_answer(vehicle)


def _check_wmi_brand(run: Run) -> None:
    """Before any upstream call: refuse a VIN whose WMI names one of our brands outside the caller's plan."""
    info = wmi.identify(run.vin)
    brand = our_brand(info.brand_slug if info else None)
    if brand is not None:
        run.brand_id, run.brand_name = brand.id, brand.name
        ensure_brand_access(run.user, brand.id)


def _within_capacity(run: Run, resolve: Callable[[], DecodeAnswer]) -> DecodeAnswer:
    """Run a decode past the cache in one of the process's few slots, so hung upstreams cannot hold every server
    thread; with none free within the queue wait, the decode is refused as busy. Redis failing answers from the
    database alone."""
    release_database(db.session)  # nothing may hold the database while we wait for a slot, a lock or an upstream
    config = current_app.config
    waited_from = time.monotonic()
    taken, token = SLOTS.take(
        int(config["DECODE_MAX_CONCURRENT"]), float(config["DECODE_QUEUE_SECONDS"]), lambda: _answered(run)
    )
    if taken is not Taken.SLOT:
        run.note(slot_wait_ms=int((time.monotonic() - waited_from) * 1000))
    if taken is Taken.BUSY:
        return DecodeAnswer("busy")
    try:  # with a slot, or without one when another request's decode answered meanwhile (a cache read)
        return _without_redis(run) if run.redis_down else resolve()
    except RedisError as error:
        log.warning("decode %s: redis failed during the decode: %s", run.vin[:3], error)
        db.session.rollback()
        return _without_redis(run)
    finally:
        if token is not None:
            SLOTS.give_back(token)


def _answered(run: Run) -> bool:
    """While waiting for a slot: has another request's decode cached this VIN's answer?"""
    if run.redis_down:
        return False
    try:
        return bool(redis_store.client.exists(positive_key(run.vin)))
    except RedisError:
        return False


def _without_redis(run: Run) -> DecodeAnswer:
    """Redis is down: a stored vehicle still answers; a new VIN cannot take its lock, so nothing is decoded."""
    run.note(redis_down=True)
    stored = _stored_vehicle(run.vin)
    if stored is None:
        return _own_pick(run) or DecodeAnswer("store_down")
    run.note(cache_source="db_hit")
    return _stored_answer(stored)


def _resolve(run: Run, cache: ResolveCache) -> DecodeAnswer:
    """Cache and stored vehicle first, then the negative cache, then one decode per VIN under the lock."""
    answer = _cached(run, cache, "redis_positive", "redis_negative")
    if answer is None:
        release_database(db.session)  # the stored-vehicle read above ends before we wait on the lock or upstreams
    while answer is None:
        lock = cache.try_lock(run.vin, ttl_ms=int((run.deadline - run.started) * 1000) + 5000)
        if lock is not None:
            try:
                # The holder before us may have finished between our cache check and our lock: read again.
                return _cached(run, cache, "lock_wait", "lock_wait") or _decode_upstream(run, cache)
            finally:
                _release(cache, lock)
        answer = _wait_for_holder(run, cache)
    return answer


def _cached(run: Run, cache: ResolveCache, positive_label: str, negative_label: str) -> DecodeAnswer | None:
    started = time.monotonic()
    document = _positive(cache, run.vin)
    label = positive_label
    if document is None:
        stored = _stored_vehicle(run.vin)
        if stored is not None:
            document = _stored_answer(stored).to_cache()
            cache.remember(run.vin, document)
            label = "db_hit" if positive_label == "redis_positive" else positive_label
    if document is None or document.get("kind") == "candidates":
        own = _own_pick(run)
        if own is not None:
            return own
    if document is None:
        document = cache.negative(run.vin)
        label = negative_label
    if document is None:
        return None
    run.on_stage("cache", "hit")
    run.note(cache_source=label, cache_hit_ms=int((time.monotonic() - started) * 1000))
    return DecodeAnswer.from_cache(document)


def _wait_for_holder(run: Run, cache: ResolveCache) -> DecodeAnswer | None:
    """Wait while another request decodes this VIN, then read its answer (None: it left none, so try ourselves)."""
    waited_from = time.monotonic()
    run.on_stage("cache", "waiting")
    while cache.is_locked(run.vin) and time.monotonic() < run.deadline:
        time.sleep(LOCK_POLL_SECONDS)
    run.note(lock_wait_ms=int((time.monotonic() - waited_from) * 1000))
    answer = _cached(run, cache, "lock_wait", "lock_wait")
    if answer is None and time.monotonic() >= run.deadline:
        return _aborted(run)
    return answer


def _decode_upstream(run: Run, cache: ResolveCache) -> DecodeAnswer:
    run.note(cache_source="miss")
    run.on_stage("cache", "miss")
    mark_dealer_traffic()  # the upstreams are the dealer's now: background catalog work waits (app.sources.traffic)
    config = current_app.config
    info = wmi.identify(run.vin)
    breaker = portal_breaker()
    gate = PortalGate(routed=bool(info and info.routed_to_portal(source_pool.suspended_makes(config))), breaker=breaker)
    settle_by = run.deadline - _fallback_reserve(run)
    sources = scrape_cache.with_stored_scrape(run.vin, source_pool.catalog_sources(config))
    report = run_race(run.vin, sources, gate, run.deadline, run.on_stage, settle_by)
    scrape_cache.remember(run.vin, report, sources)
    _note_race(run, report)
    if report.aborted:
        return _aborted(run)
    answer = _race_answer(report)
    if answer is None and report.unavailable:
        return _unavailable(run)
    if answer is None:
        answer = _identify_without_catalog(run)
        if answer.kind == "aborted":
            return answer
        if report.certain_miss:
            cache.remember_negative(run.vin, answer.to_cache())
        return answer
    if answer.kind == "vehicle":
        answer = _store(run, answer)
    if answer.success:
        cache.remember(run.vin, answer.to_cache())
    return answer


def _release(cache: ResolveCache, lock: Any) -> None:
    try:
        cache.release(lock)
    except RedisError as error:  # the lock expires by itself (budget + 5 s)
        log.warning("decode lock %s not released: %s", lock.key, error)


def _fallback_reserve(run: Run) -> float:
    budget = run.deadline - run.started
    timeout = VinApiSettings.from_config(current_app.config).timeout_seconds
    return min(timeout + FALLBACK_MARGIN_SECONDS, budget / 4)


def _race_answer(report: RaceReport) -> DecodeAnswer | None:
    if report.winner is not None:
        return _vehicle_answer(report.winner.cars[0])
    for source in ("catapi", "scrape"):
        result = report.candidates(source)
        if result is not None:
            return _candidates_answer(result)
    return None


def _candidates_answer(result: LookupResult) -> DecodeAnswer:
    return DecodeAnswer("candidates", source=result.source, cars=[asdict(car) for car in result.cars])


def _vehicle_answer(car: Car) -> DecodeAnswer:
    return DecodeAnswer("vehicle", source=car.source, cars=[asdict(car)])


def _identify_without_catalog(run: Run) -> DecodeAnswer:
    """The public VIN decoder, then the offline WMI table: say what the car is, though no catalog covers it."""
    run.on_stage("vin_api", "running")
    result = ask_within(source_pool.vin_api_source(current_app.config), run.vin, run.deadline)
    if result is None:
        return _aborted(run)
    run.on_stage("vin_api", result.outcome.value)
    run.note(vin_api_used=True, vin_api_ms=result.elapsed_ms)
    if result.outcome is Outcome.ONE:
        car = result.cars[0]
        details = f" ({car.year})" if car.year else ""
        return DecodeAnswer("no_catalog", source="vin_api", identified=f"{car.brand} {car.model}{details}".strip())
    info = wmi.identify(run.vin)
    if info is not None:
        return DecodeAnswer("no_catalog", source="wmi", identified=info.brand)
    return DecodeAnswer("unknown")


def _unavailable(run: Run) -> DecodeAnswer:
    """Every catalog source failed: nobody can say whether a catalog covers the car, so nothing is cached and the
    public VIN decoder is not asked; the offline WMI table names the make for the message and the saved request."""
    info = wmi.identify(run.vin)
    return DecodeAnswer("unavailable", identified=info.brand if info else None)


def _aborted(run: Run) -> DecodeAnswer:
    run.on_stage("aborted", "aborted")
    run.note(aborted_ms=run.elapsed_ms())
    return DecodeAnswer("aborted", source="aborted")


def _note_race(run: Run, report: RaceReport) -> None:
    for source, result in report.results.items():
        run.note(**{f"{source}_ms": result.elapsed_ms})
    catapi, scrape = report.results.get("catapi"), report.results.get("scrape")
    run.note(
        catapi_car_count=len(catapi.cars) if catapi else 0,
        scrape_candidate_count=len(scrape.cars) if scrape else 0,
        portal_circuit_open=report.portal_circuit_open,
        portal_skipped=report.portal_skipped,
    )
    if report.catapi_failed:
        run.note(catapi_failed=True)
    if report.gave_up:
        run.note(gave_up=sorted(report.gave_up))


# --- a chosen candidate -------------------------------------------------------------------------------------------


def _picked(run: Run, cache: ResolveCache, pick: Pick) -> DecodeAnswer:
    """Store a candidate choice as the caller's own pick, from the cached list (or ask its source again when the
    cache has expired). A VIN confirmed meanwhile answers its confirmed vehicle: no pick is needed any more."""
    run.note(candidate_pick=pick.source)
    cached = _positive(cache, run.vin)
    if cached and cached.get("kind") == "vehicle":
        run.note(cache_source="redis_positive")
        return DecodeAnswer.from_cache(cached)
    if cached and cached.get("kind") == "candidates" and cached.get("source") == pick.source:
        run.note(cache_source="redis_positive")
        return _store_pick(run, pick, [Car(**car) for car in cached["cars"]])
    stored = _stored_vehicle(run.vin)
    if stored is not None:
        run.note(cache_source="db_hit")
        return _stored_answer(stored)
    return _pick_asking_again(run, cache, pick)


def _pick_asking_again(run: Run, cache: ResolveCache, pick: Pick) -> DecodeAnswer:
    """The cached list has expired: ask the pick's source again. A single car now is definitive: it is stored as the
    VIN's confirmed vehicle, whatever was chosen from the older list."""
    run.note(cache_source="miss")
    release_database(db.session)
    result = _ask_again(run, pick.source or "")
    if result is None:
        return _store_pick(run, pick, [])  # refused: nothing left to choose from
    if result.outcome is Outcome.ONE:
        answer = _store(run, _vehicle_answer(result.cars[0]))
        if answer.success:
            cache.remember(run.vin, answer.to_cache())
        return answer
    cache.remember(run.vin, _candidates_answer(result).to_cache())  # the list again, for the next dealer's pick
    return _store_pick(run, pick, list(result.cars))


def _store_pick(run: Run, pick: Pick, cars: list[Car]) -> DecodeAnswer:
    """Store the chosen candidate (once per VIN and candidate, shared) and make it the caller's pick; the cached
    answer stays the candidate list, for every other dealer."""
    index = pick.index_in(cars)
    if index is None:
        raise ApiError("invalid_candidate", _("The chosen car is not among the candidates. Decode the VIN again."))
    car = cars[index]
    return _store(run, _vehicle_answer(car), picks.candidate_key(car.source, car.car_id, index))


def _ask_again(run: Run, source_name: str) -> LookupResult | None:
    """The source's answer again (one car or candidates), or None when it has none."""
    source = source_pool.catalog_sources(current_app.config).get(source_name)
    result: LookupResult | None = ask_within(source, run.vin, run.deadline) if source else None
    if result is None or result.outcome not in (Outcome.ONE, Outcome.CANDIDATES):
        return None
    run.note(**{f"{source_name}_ms": result.elapsed_ms})
    return result


# --- storing and logging ------------------------------------------------------------------------------------------


def _store(run: Run, answer: DecodeAnswer, candidate_key: str = "") -> DecodeAnswer:
    """Store the decoded car, shared: as the VIN's confirmed vehicle, or (with `candidate_key`) as that candidate,
    made the caller's pick in the same transaction. When two decodes race, the first stored row stays."""
    car = Car(**answer.cars[0])
    brand = our_brand(wmi.slugify(car.brand))
    brand_id, brand_name = (brand.id, brand.name) if brand else (run.brand_id, run.brand_name)
    if brand_id is None:
        return DecodeAnswer("brand_unsupported", source=car.source, identified=f"{car.brand} {car.model}")
    begin_writes(db.session)
    inserted = db.session.execute(
        insert_for(db.session, Vehicle)
        .values(vehicle_row(run.vin, car, brand_id, brand_name or car.brand, candidate_key))
        .on_conflict_do_nothing(index_elements=[Vehicle.vin, Vehicle.candidate_key])
        .returning(Vehicle.id)
    ).scalar()
    if inserted is not None:
        announce_stored(inserted)  # the catalog walks its tree once this commit is done
    stored = _stored_vehicle(run.vin, candidate_key)
    if candidate_key:
        picks.replace(run.shop_id, run.user_id, run.vin, stored.id)
    answer = _stored_answer(stored)
    db.session.commit()  # committed before it is cached: requests waiting on the lock link their users to it
    return answer


def _stored_answer(stored: Vehicle) -> DecodeAnswer:
    return DecodeAnswer("vehicle", vehicle=vehicle_view(stored), source=stored.source)


def _stored_vehicle(vin: str, candidate_key: str = "") -> Vehicle | None:
    """The VIN's confirmed vehicle, or the stored row of one of its candidates."""
    return db.session.scalar(sa.select(Vehicle).where(Vehicle.vin == vin, Vehicle.candidate_key == candidate_key))


def _finish(run: Run, answer: DecodeAnswer) -> DecodeAnswer:
    """Write the query log, the history link and a saved request in one transaction that starts with a write (on
    PostgreSQL a found car's log row and link are one statement, on a connection of its own)."""
    vehicle = answer.vehicle or {}
    vehicle_id, car_brand_id = vehicle.get("id"), vehicle.get("brandId")
    refusal = _late_refusal(run, car_brand_id)
    if refusal is not None:
        _record_refusal(run, refusal, answer.source)  # the source found the car; the caller may not open it
        raise refusal
    run.note(result_kind=_result_kind(answer))
    run.timings.setdefault("candidate_pick", "none")
    row = _log_row(run, answer, car_brand_id)
    saves_request = answer.kind in REQUEST_KINDS
    # A found car's log row and history link are one statement on PostgreSQL: alone, its own transaction.
    if vehicle_id is not None and not saves_request and log_and_link_alone(db.session, row, vehicle_id):
        return answer
    begin_writes(db.session, durable=False)
    log_and_link(db.session.connection(), row, vehicle_id)
    if saves_request:
        _save_request(run.user_id, run.vin, answer.kind, answer.identified)
    db.session.commit()
    return answer


def _late_refusal(run: Run, car_brand_id: int | None) -> ApiError | None:
    """The WMI did not name our brand, the car does: the caller's plan must cover it."""
    if car_brand_id is None or car_brand_id == run.brand_id:
        return None
    run.brand_id = car_brand_id
    try:
        ensure_brand_access(run.user, car_brand_id)
    except ApiError as refusal:
        return refusal
    return None


def _result_kind(answer: DecodeAnswer) -> str:
    if answer.kind == "candidates":
        return f"{answer.source}_candidates"
    if answer.kind in ("vehicle", "aborted", "unavailable", "busy", "store_down"):
        return answer.kind
    return "unknown"


def _log_row(run: Run, answer: DecodeAnswer, car_brand_id: int | None) -> dict[str, Any]:
    return {
        "user_id": run.user_id,
        "shop_id": run.shop_id,
        "branch_id": run.branch_id,
        "vin": run.vin,
        "brand_id": car_brand_id or run.brand_id,
        "source": answer.source,
        "success": answer.success,
        "error_message": None if answer.success else ERROR_LOG_TEXT[answer.kind],
        "response_time_ms": run.elapsed_ms(),
        "timings": run.timings,
        "created_at": utcnow(),
    }


# Answers that save the dealer's VIN as a request of their kind, so we know which catalogs and outages dealers wait for.
REQUEST_KINDS = frozenset({"no_catalog", "unavailable"})


def _save_request(user_id: Any, vin: str, kind: str, description: str | None) -> None:
    """Save a VIN the dealer could not get, once per user, VIN and kind (a retry saves nothing more)."""
    db.session.execute(
        insert_for(db.session, VinRequest)
        .values(user_id=user_id, vin=vin, kind=kind, description=description, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[VinRequest.user_id, VinRequest.vin, VinRequest.kind])
    )
