"""Contract tests: the real catapi adapter against the catapi sandbox on loopback."""

from __future__ import annotations

import dataclasses
import io
import socket
import time

import pytest
from PIL import Image

from app.sources.base import Outcome
from app.sources.catapi import CatapiSettings, CatapiSource, CatapiUnavailableError, _parts_sheet
from app.sources.sandbox import catalog as sandbox
from app.sources.sandbox.catapi_server import SANDBOX_PASSWORD, SANDBOX_USERNAME, CatapiFaults, CatapiSandbox
from tests.support.clock import FakeClock
from tests.support.processes import wait_until

TIMEOUT_MS = 300


@pytest.fixture(scope="module")
def catapi_sandbox():
    server = CatapiSandbox(proxies=3).start()
    yield server
    server.stop()


@pytest.fixture
def upstream(catapi_sandbox):
    catapi_sandbox.reset()
    yield catapi_sandbox
    catapi_sandbox.reset()


def settings_for(upstream: CatapiSandbox, base_urls: list[str] | None = None, retries: int = 2) -> CatapiSettings:
    return CatapiSettings.from_config(
        {
            "CATAPI_BASE_URLS": ",".join(base_urls or upstream.urls),
            "CATAPI_TOKEN_URL": upstream.token_url,
            "CATAPI_USERNAME": SANDBOX_USERNAME,
            "CATAPI_PASSWORD": SANDBOX_PASSWORD,
            "PCAT_DECODE_TIMEOUT_MS": TIMEOUT_MS,
            "PCAT_DECODE_MAX_RETRIES": retries,
        }
    )


@pytest.fixture
def source(upstream):
    with CatapiSource(settings_for(upstream)) as adapter:
        yield adapter


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def api_calls(upstream: CatapiSandbox) -> list:
    return [call for call in upstream.calls() if call.server != "auth"]


# --- settings ------------------------------------------------------------------------------------------------------


def test_settings_defaults_follow_the_spec():
    config = {"CATAPI_BASE_URLS": "http://127.0.0.1:1/, http://127.0.0.1:2", "CATAPI_PASSWORD": "s3cret-value"}
    settings = CatapiSettings.from_config(config)
    assert settings.base_urls == ("http://127.0.0.1:1", "http://127.0.0.1:2")
    assert settings.token_url == "http://127.0.0.1:1/token"
    assert (settings.timeout_seconds, settings.max_retries, settings.attempts) == (6.0, 4, 5)
    assert "s3cret-value" not in repr(settings)


# --- VIN lookups ---------------------------------------------------------------------------------------------------


def test_one_car(source):
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.ONE and result.source == "catapi"
    car = result.car
    assert (car.source, car.brand, car.model, car.catalog_id) == ("catapi", "Volkswagen", "Golf", "volkswagen")
    golf = sandbox.sandbox_catalog().vehicle("vw-golf-7")
    assert car.car_id == golf.car_id and car.criteria == golf.criteria
    assert car.parameters["engine"] == "1.6 TDI" and car.year == 2017


def test_several_candidates(source):
    result = source.lookup_vin(sandbox.VIN_COROLLA)
    assert result.outcome is Outcome.CANDIDATES
    assert {car.model for car in result.cars} == {"Corolla"}
    assert len({car.car_id for car in result.cars}) == 2


@pytest.mark.parametrize("vin", [sandbox.VIN_CLIO, sandbox.VIN_BMW, sandbox.VIN_HONDA, sandbox.VIN_UNKNOWN])
def test_vins_catapi_does_not_know_give_no_car(source, vin):
    result = source.lookup_vin(vin)
    assert result.outcome is Outcome.NONE and result.cars == () and result.error is None


# --- proxies, retries and timeouts ---------------------------------------------------------------------------------


def test_calls_rotate_round_robin_over_the_proxies(source, upstream):
    for _ in range(3):
        source.lookup_vin(sandbox.VIN_GOLF)
    assert [call.server for call in api_calls(upstream)] == ["proxy-0", "proxy-1", "proxy-2"]


def test_a_hanging_proxy_is_skipped_and_the_next_answers(source, upstream):
    upstream.faults = CatapiFaults(hanging_proxies=frozenset({0}), hang_seconds=1.0)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.ONE
    assert TIMEOUT_MS <= result.elapsed_ms < 1000
    assert [call.server for call in api_calls(upstream)][-1] == "proxy-1"


def test_a_failing_proxy_is_skipped(source, upstream):
    upstream.faults = CatapiFaults(failing_proxies=frozenset({0}))
    assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
    assert [(call.server, call.status) for call in api_calls(upstream)] == [("proxy-0", 502), ("proxy-1", 200)]


def test_each_failed_attempt_that_another_follows_is_told_at_once(source, upstream):
    """The decode race lets the portal join on the first failed attempt, not after every retry."""
    upstream.faults = CatapiFaults(failing_proxies=frozenset({0, 1}))
    told: list[tuple[str, int]] = []

    result = source.lookup_vin(
        sandbox.VIN_GOLF, on_retry=lambda reason: told.append((reason, len(api_calls(upstream))))
    )

    assert result.outcome is Outcome.ONE
    assert told == [("HTTP 502", 1), ("HTTP 502", 2)]  # each told before the next attempt went out


def test_the_last_failed_attempt_is_not_told_as_a_retry(source, upstream):
    upstream.faults = CatapiFaults(failing_proxies=frozenset({0, 1, 2}))
    told: list[str] = []

    result = source.lookup_vin(sandbox.VIN_GOLF, on_retry=told.append)

    assert result.outcome is Outcome.FAILURE
    assert len(told) == 2  # three attempts (two retries): the third failure ends the lookup instead


def test_a_refusing_proxy_is_skipped(upstream):
    with CatapiSource(settings_for(upstream, [closed_port_url(), upstream.urls[0]])) as adapter:
        assert adapter.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE


def test_all_proxies_hanging_is_a_failure_after_every_retry(source, upstream):
    upstream.faults = CatapiFaults(hang=True, hang_seconds=1.0)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE
    assert "after 3 attempts" in result.error and "Timeout" in result.error
    assert 3 * TIMEOUT_MS <= result.elapsed_ms < 3 * TIMEOUT_MS + 700
    # The sandbox records a hung request when it ends, after the adapter gave up on it.
    wait_until(lambda: len(api_calls(upstream)) >= 3, timeout=5, what="the sandbox ends the three hung requests")
    assert [call.server for call in api_calls(upstream)] == ["proxy-0", "proxy-1", "proxy-2"]


def test_all_proxies_failing_counts_the_retries(upstream):
    upstream.faults = CatapiFaults(failing_proxies=frozenset({0, 1, 2}))
    with CatapiSource(settings_for(upstream, retries=4)) as adapter:
        result = adapter.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "after 5 attempts" in result.error and "HTTP 502" in result.error
    assert len(api_calls(upstream)) == 5


def test_server_errors_are_a_failure(source, upstream):
    upstream.faults = CatapiFaults(error_rate=1.0)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "HTTP 503" in result.error
    assert len(api_calls(upstream)) == 3


def test_garbage_bodies_are_a_failure(source, upstream):
    upstream.faults = CatapiFaults(garbage=True)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "unreadable JSON" in result.error


def test_slow_but_in_time_answers_succeed(source, upstream):
    upstream.faults = CatapiFaults(latency_ms=100)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.ONE and result.elapsed_ms >= 100


# --- the token -----------------------------------------------------------------------------------------------------


def test_token_is_fetched_once_and_reused(source, upstream):
    source.lookup_vin(sandbox.VIN_GOLF)
    source.lookup_vin(sandbox.VIN_COROLLA)
    assert len(upstream.calls(server="auth")) == 1


def test_token_is_renewed_when_it_expires(upstream, monkeypatch):
    """The adapter renews a token shortly before its lifetime ends, so no call is refused for an expired one."""
    clock = FakeClock()
    monkeypatch.setattr(upstream, "clock", clock)
    upstream.faults = CatapiFaults(token_ttl_seconds=100)  # renewed 10 s early (a tenth of its lifetime)
    with CatapiSource(settings_for(upstream), clock=clock) as source:
        assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
        clock.advance(89)
        assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
        assert len(upstream.calls(server="auth")) == 1  # still in its lifetime: reused
        clock.advance(2)
        assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
    assert len(upstream.calls(server="auth")) == 2
    assert all(call.status == 200 for call in api_calls(upstream))


def test_token_is_renewed_once_on_401(source, upstream):
    source.lookup_vin(sandbox.VIN_GOLF)
    upstream.revoke_tokens()
    assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
    assert [call.status for call in api_calls(upstream)] == [200, 401, 200]
    assert len(upstream.calls(server="auth")) == 2


def test_calls_without_a_token_are_refused(upstream):
    import requests

    response = requests.get(f"{upstream.urls[0]}/catalogs/", timeout=2)
    assert response.status_code == 401


def test_wrong_credentials_are_a_failure(upstream):
    settings = settings_for(upstream)
    wrong = CatapiSettings(settings.base_urls, settings.token_url, SANDBOX_USERNAME, "wrong", 0.3, 2)
    with CatapiSource(wrong) as adapter:
        result = adapter.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "credentials refused" in result.error
    assert "wrong" not in result.error


# --- browsing ------------------------------------------------------------------------------------------------------


def test_catalogs_and_models(source):
    catalogs = {item.id: item for item in source.catalogs()}
    assert {"volkswagen", "renault", "toyota", "bmw", "fiat", "ford", "hyundai", "opel", "peugeot", "dacia"} <= set(
        catalogs
    )
    assert catalogs["toyota"].models_count == 1
    assert [model.name for model in source.models("toyota")] == ["Corolla"]


def test_cars_are_paged_with_a_total_count(source):
    corolla = source.models("toyota")[0]
    first = source.cars("toyota", corolla.id, page=1, limit=5)
    assert first.total > 5 and len(first.items) == 5 and first.has_next
    pages = [source.cars("toyota", corolla.id, page=page, limit=5) for page in range(1, (first.total + 4) // 5 + 1)]
    car_ids = [car.car_id for page in pages for car in page.items]
    assert len(car_ids) == first.total == len(set(car_ids))
    assert not pages[-1].has_next
    expected = {car.car_id for car in source.lookup_vin(sandbox.VIN_COROLLA).cars}
    assert expected <= set(car_ids)


def test_group_tree_shapes(source):
    golf = source.lookup_vin(sandbox.VIN_GOLF).car
    mains = source.groups(golf.catalog_id, golf.car_id)
    assert [group.id for group in mains] == [str(number) for number in range(1, 10)]
    assert all(group.parent_id is None and group.has_subgroups for group in mains)
    subgroups = source.groups(golf.catalog_id, golf.car_id, mains[5].id)
    assert subgroups and all(group.parent_id == "6" and group.id.startswith("6") for group in subgroups)
    leaves = source.groups(golf.catalog_id, golf.car_id, subgroups[0].id)
    assert leaves and all(leaf.has_parts and leaf.image_url and "{" in leaf.name for leaf in leaves)


def test_unknown_car_is_a_rejection_not_a_retry(source, upstream):
    from app.sources.catapi import CatapiRejectedError

    with pytest.raises(CatapiRejectedError):
        source.groups("volkswagen", "no-such-car")
    assert len(api_calls(upstream)) == 1


def test_schemas_are_paged_and_name_their_category(source):
    golf = source.lookup_vin(sandbox.VIN_GOLF).car
    page = source.schemas(golf.catalog_id, golf.car_id, page=2, limit=40)
    assert 80 <= page.total <= 200 and len(page.items) == 40
    assert all(item.category_id and item.group_id.startswith(item.category_id) for item in page.items)


@pytest.fixture
def patient_source(upstream):
    """For calls that do real work upstream (drawing a PNG), where the 300 ms fault-test timeout is too tight."""
    settings = dataclasses.replace(settings_for(upstream), timeout_seconds=10.0)
    with CatapiSource(settings) as adapter:
        yield adapter


def test_parts_sheet_hotspots_fit_a_real_png(patient_source):
    source = patient_source
    golf = source.lookup_vin(sandbox.VIN_GOLF).car
    schema = source.schemas(golf.catalog_id, golf.car_id, page=1, limit=1).items[0]
    sheet = source.parts(golf.catalog_id, golf.car_id, schema.group_id)
    assert sheet.parts and sheet.hotspots
    for spot in sheet.hotspots:
        assert 0 <= spot.x1 < spot.x2 <= sheet.width and 0 <= spot.y1 < spot.y2 <= sheet.height
    positioned = {part.position for part in sheet.parts if part.position}
    assert positioned <= {spot.position for spot in sheet.hotspots}
    image = Image.open(io.BytesIO(source.image(sheet.image_url)))
    image.load()
    assert image.format == "PNG" and image.size == (sheet.width, sheet.height)


def test_parts_carry_oem_numbers_remarks_and_reference_rows(source):
    golf = source.lookup_vin(sandbox.VIN_GOLF).car
    schemas = source.schemas(golf.catalog_id, golf.car_id, page=1, limit=100).items
    rows = [row for schema in schemas[:40] for row in source.parts(golf.catalog_id, golf.car_id, schema.group_id).parts]
    assert any(row.unavailable for row in rows) and any(row.remark for row in rows)
    references = [row for row in rows if row.oem == sandbox.REFERENCE_OEM]
    assert references
    for row in references:
        assert ("bk. tablo: " in row.name or "bakınız tablo, konum: " in row.name) and row.remark in row.name


def test_parts_carry_the_sandbox_quantities(source):
    golf = source.lookup_vin(sandbox.VIN_GOLF).car
    vehicle = sandbox.sandbox_catalog().vehicle("vw-golf-7")
    schemas = source.schemas(golf.catalog_id, golf.car_id, page=1, limit=100).items[:20]
    for schema in schemas:
        rows = source.parts(golf.catalog_id, golf.car_id, schema.group_id).parts
        expected = {part.key: part.quantity for part in vehicle.schema(schema.group_id).parts}
        assert {row.id: row.quantity for row in rows} == expected  # rows come grouped by position
    parts = [part for schema in vehicle.all_schemas() for part in schema.parts]
    assert {part.quantity for part in parts} >= {None, 1, 2, 3, 4}
    assert all(part.quantity is None for part in parts if part.reference_code)
    assert not any(part.remark and part.remark.endswith("x") and part.remark[:-1].isdigit() for part in parts)


def parts_payload(*quantities: object) -> dict:
    parts = [{"id": str(index), "number": f"5Q0 615 30{index}", "name": "Brake disc", "positionNumber": "1"}
             for index in range(len(quantities) + 1)]  # fmt: skip
    for part, quantity in zip(parts, quantities, strict=False):  # the last part has no quantity at all
        part["quantity"] = quantity
    return {"img": "", "imgWidth": 10, "imgHeight": 10, "partGroups": [{"parts": parts}], "positions": []}


def test_a_quantity_is_read_robustly_and_garbage_costs_only_the_quantity():
    quantities = (2, "3", "2x", "4 St.", "1,5", "as needed", "", None, -1, 0, True, {"n": 2}, [2], "9" * 20, 2.0)

    sheet = _parts_sheet(parts_payload(*quantities))

    expected = [2, 3, 2, 4, None, None, None, None, None, None, None, None, None, None, 2, None]
    assert [row.quantity for row in sheet.parts] == expected


def test_a_part_without_its_number_is_still_an_unreadable_answer():
    payload = parts_payload(2)
    del payload["partGroups"][0]["parts"][0]["number"]
    with pytest.raises(CatapiUnavailableError):
        _parts_sheet(payload)


# --- the generated catalog -----------------------------------------------------------------------------------------


def test_generation_is_deterministic_per_seed():
    assert sandbox.generate_catalog(11) == sandbox.generate_catalog(11)
    assert sandbox.generate_catalog(11) != sandbox.generate_catalog(12)


def test_generation_is_fast():
    started = time.monotonic()
    sandbox.generate_catalog(99)
    assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("seed", [sandbox.DEFAULT_SEED, 1, 2])
def test_full_size_vehicle_meets_the_teaser_ranges(seed):
    categories, parts, schemas = sandbox.sandbox_catalog(seed).vehicle("vw-golf-7").counts()
    assert 15 <= categories <= 30 and 9_000 <= parts <= 11_000 and 80 <= schemas <= 200


def test_oem_numbers_follow_each_makers_style():
    import re

    styles = {
        "vw-golf-7": r"[0-9A-Z]{3} \d{3} \d{3}( [A-Z]{1,2})?",
        "renault-clio-4": r"\d{4} \d{3} \d{3}",
        "toyota-corolla-hybrid": r"\d{5}-\d{5}",
        "bmw-3-f30": r"\d{2} \d{2} \d \d{3} \d{3}",
    }
    catalog = sandbox.sandbox_catalog()
    for key, pattern in styles.items():
        numbers = [part.oem for schema in catalog.vehicle(key).all_schemas() for part in schema.parts]
        assert all(re.fullmatch(pattern, oem) for oem in numbers if oem != sandbox.REFERENCE_OEM), key


def test_vin_table_says_which_source_knows_which_car():
    catalog = sandbox.sandbox_catalog()
    known = {
        (vin, source): [vehicle.model for vehicle in catalog.cars_for_vin(vin, source)]
        for vin in (sandbox.VIN_GOLF, sandbox.VIN_CLIO, sandbox.VIN_COROLLA, sandbox.VIN_BMW)
        for source in ("catapi", "scrape", "portal")
    }
    assert {pair: models for pair, models in known.items() if models} == {
        (sandbox.VIN_GOLF, "catapi"): ["Golf"],
        (sandbox.VIN_GOLF, "portal"): ["Golf"],
        (sandbox.VIN_CLIO, "scrape"): ["Clio"],
        (sandbox.VIN_COROLLA, "catapi"): ["Corolla", "Corolla"],
        (sandbox.VIN_BMW, "portal"): ["3 Series"],
    }
    for vin in (sandbox.VIN_HONDA, sandbox.VIN_UNKNOWN):
        assert not any(catalog.cars_for_vin(vin, source) for source in ("catapi", "scrape", "portal"))


def test_parts_have_stable_keys_and_turkish_names():
    golf = sandbox.sandbox_catalog().vehicle("vw-golf-7")
    parts = [part for schema in golf.all_schemas() for part in schema.parts]
    assert len({part.key for part in parts}) == len(parts)
    assert all(part.name_tr != part.name_en for part in parts if not part.name_en.startswith("Piston"))
