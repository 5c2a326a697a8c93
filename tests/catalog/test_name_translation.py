"""tr- jobs through a real RQ worker (forked work horses, committed data, both backends): a dictionary change reaches
every stored name in batches, a second run changes nothing, a rate-limited provider defers the batch instead of
failing it, and a prefetch that stored names behind the dictionary queues them. And `flask catalog retranslate
--inline` through Flask's CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from rq.registry import FinishedJobRegistry, ScheduledJobRegistry

import worker
from app.catalog import name_translation, store
from app.catalog.models import Category, Part
from app.catalog.providers import Node, PartLine
from app.extensions import db, queues, redis_store
from app.translation import RateLimitedError
from app.translation import services as names
from app.translation.glossary import save_term
from app.translation.models import TranslationTerm
from app.vehicles.models import Vehicle

VIN = "WVWZZZTRJOBS00001"
UNKNOWN = "Quux bracket, front left"


@contextmanager
def committed_catalog(app, parts: int = 5) -> Iterator[int]:
    """A committed catapi vehicle (English names) with a group, a leaf and `parts` rows, one name holding a word the
    dictionary does not know; removed afterwards with any terms added meanwhile."""
    with app.app_context():
        redis_store.client.flushdb()
        vehicle = Vehicle(vin=VIN, brand_name="Volkswagen", model="Golf", source="catapi")
        db.session.add(vehicle)
        db.session.flush()
        vehicle_id = vehicle.id
        store.save_nodes(vehicle_id, "catapi", None, [Node("1", "Engine")])
        root = store.roots(vehicle_id)[0]
        store.save_nodes(vehicle_id, "catapi", root.id, [Node("103", "Lubrication {103-010}", is_leaf=True)])
        leaf = store.children(root.id)[0]
        lines = [PartLine(f"04L 115 56{index}", "Oil filter", position=str(index + 2)) for index in range(parts - 1)]
        store.save_parts(vehicle_id, leaf.id, "catapi", [PartLine("04L 115 561", UNKNOWN, position="1"), *lines])
        db.session.commit()
        db.session.remove()
    try:
        yield vehicle_id
    finally:
        with app.app_context():
            db.session.execute(sa.delete(Vehicle).where(Vehicle.vin == VIN))
            db.session.execute(sa.delete(TranslationTerm))
            db.session.commit()
            db.session.remove()
            redis_store.client.flushdb()


def quux_row(vehicle_id: int) -> Part:
    return db.session.scalar(sa.select(Part).where(Part.vehicle_id == vehicle_id, Part.name == UNKNOWN))


@pytest.mark.no_isolation
def test_a_new_term_reaches_every_stored_name_through_the_worker_in_batches(app, monkeypatch):
    monkeypatch.setattr(name_translation, "BATCH_SIZE", 2)  # inherited by the forked work horses: several batches
    with committed_catalog(app) as vehicle_id:
        with app.app_context():
            before = quux_row(vehicle_id)
            assert before.name_tr_complete is False and "Quux" in before.name_tr
            save_term("quux", "kuks", "noun", None)
            db.session.commit()
            assert name_translation.queue_retranslation().startswith("tr-all-")
            db.session.remove()

        worker.run_worker(app, burst=True)

        with app.app_context():
            after = quux_row(vehicle_id)
            version = names.current_translator().version
            assert after.name_tr_complete is True and "kuks" in after.name_tr.lower()
            assert after.translation_version == version
            behind = sa.select(sa.func.count()).select_from(Part).where(Part.translation_version != version)
            assert db.session.scalar(behind) == 0
            leaf = db.session.scalar(sa.select(Category).where(Category.id == after.category_id))
            assert leaf.translated_at is not None
            finished = set(FinishedJobRegistry(queue=queues.get("translation")).get_job_ids())
            assert {f"tr-{vehicle_id}-1", f"tr-{vehicle_id}-2", f"tr-{vehicle_id}-3"} <= finished
            # Nothing left behind: a second run would change nothing.
            assert not name_translation.queue_pending(vehicle_id)
            db.session.remove()


@pytest.mark.no_isolation
def test_a_job_run_twice_changes_nothing_the_second_time(app):
    with committed_catalog(app) as vehicle_id, app.app_context():
        save_term("quux", "kuks", "noun", None)
        db.session.commit()
        assert name_translation.translate_batch(vehicle_id, 1) == 7  # the group, the leaf and five rows
        stamp = db.session.scalar(sa.select(sa.func.max(Category.translated_at)))
        db.session.remove()

        assert name_translation.translate_batch(vehicle_id, 1) == 0
        assert db.session.scalar(sa.select(sa.func.max(Category.translated_at))) == stamp
        db.session.remove()


class RateLimitedProvider:
    def __init__(self, _config) -> None:
        pass

    def translate_terms(self, terms: list[str]) -> dict[str, str]:
        raise RateLimitedError(retry_after=120)


@pytest.mark.no_isolation
def test_a_rate_limited_provider_defers_the_batch_instead_of_failing_it(app, monkeypatch):
    monkeypatch.setitem(app.config, "TRANSLATION_PROVIDER", f"{__name__}:RateLimitedProvider")
    with committed_catalog(app) as vehicle_id:
        with app.app_context():
            assert name_translation.queue_pending(vehicle_id)  # the provider's version is not the stored one
            db.session.remove()

        worker.run_worker(app, burst=True)

        with app.app_context():
            queue = queues.get("translation")
            job = queue.fetch_job(f"tr-{vehicle_id}-1")
            assert job.get_status() == "finished" and job.return_value() == 0
            assert f"tr-{vehicle_id}-1-later1" in ScheduledJobRegistry(queue=queue).get_job_ids()
            assert quux_row(vehicle_id).translation_version != names.job_translator().version
            db.session.remove()


def test_retranslate_inline_brings_stored_names_up_to_a_new_term(runner):
    vehicle = Vehicle(vin="WVWZZZCLITR000001", brand_name="Volkswagen", model="Golf", source="catapi")
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "catapi", None, [Node("1", "Engine", is_leaf=True)])
    leaf = store.roots(vehicle.id)[0]
    store.save_parts(vehicle.id, leaf.id, "catapi", [PartLine("1", "Quux bracket", position="1")])
    save_term("quux", "kuks", "noun", None)

    result = runner.invoke(args=["catalog", "retranslate", "--inline"])
    again = runner.invoke(args=["catalog", "retranslate", "--inline"])

    assert result.exit_code == 0, result.output
    part = db.session.scalar(sa.select(Part).where(Part.vehicle_id == vehicle.id))
    assert (part.name_tr, part.name_tr_complete) == ("Kuks braketi", True)
    assert "up to date" in again.output
