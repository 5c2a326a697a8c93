"""Contract tests: the real portal adapter against the dealer-portal sandbox on loopback."""

from __future__ import annotations

import socket

import pytest
import requests
from bs4 import BeautifulSoup

from app.sources.base import Outcome
from app.sources.portal import (
    PortalNode,
    PortalRejectedError,
    PortalSettings,
    PortalSource,
    PortalUnavailableError,
    _part,
    is_leaf_link,
    parse_part,
)
from app.sources.sandbox import catalog as sandbox
from app.sources.sandbox.portal_server import (
    LINK_SHAPES,
    SANDBOX_PASSWORD,
    SANDBOX_USERNAME,
    PortalFaults,
    PortalSandbox,
)
from tests.support.clock import FakeClock

TIMEOUT_MS = 1000
GOLF = sandbox.sandbox_catalog().vehicle("vw-golf-7")
BMW = sandbox.sandbox_catalog().vehicle("bmw-3-f30")


@pytest.fixture(scope="module")
def portal_sandbox():
    server = PortalSandbox().start()
    yield server
    server.stop()


@pytest.fixture
def upstream(portal_sandbox):
    portal_sandbox.reset()
    yield portal_sandbox
    portal_sandbox.reset()


def settings_for(upstream: PortalSandbox, password: str = SANDBOX_PASSWORD) -> PortalSettings:
    return PortalSettings.from_config(
        {
            "PORTAL_BASE_URL": upstream.url + "/",
            "PORTAL_USERNAME": SANDBOX_USERNAME,
            "PORTAL_PASSWORD": password,
            "PORTAL_TIMEOUT_MS": TIMEOUT_MS,
        }
    )


@pytest.fixture
def source(upstream):
    with PortalSource(settings_for(upstream)) as adapter:
        yield adapter


def first_subgroup_pictures(source: PortalSource, service: str, vehicle: str) -> list[PortalNode]:
    main = source.main_groups(service, vehicle)[0]
    sub = source.children(service, vehicle, main.external_id)[0]
    return source.children(service, vehicle, sub.external_id)


def all_pictures(source: PortalSource, service: str, vehicle: str) -> list[PortalNode]:
    return [
        picture
        for main in source.main_groups(service, vehicle)
        for sub in source.children(service, vehicle, main.external_id)
        for picture in source.children(service, vehicle, sub.external_id)
    ]


# --- settings ------------------------------------------------------------------------------------------------------


def test_settings_defaults_follow_the_spec():
    settings = PortalSettings.from_config({"PORTAL_BASE_URL": "http://127.0.0.1:1/", "PORTAL_PASSWORD": "s3cret"})
    assert settings.base_url == "http://127.0.0.1:1"
    assert settings.timeout_seconds == 8.0 and settings.username == ""
    assert "s3cret" not in repr(settings)


# --- VIN lookups ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("vin", "vehicle", "service"), [(sandbox.VIN_GOLF, GOLF, "vw"), (sandbox.VIN_BMW, BMW, "bmw")])
def test_one_car(source, upstream, vin, vehicle, service):
    result = source.lookup_vin(vin)
    assert result.outcome is Outcome.ONE and result.source == "portal"
    car = result.car
    assert (car.source, car.brand, car.model, car.year) == ("portal", vehicle.brand, vehicle.model, vehicle.year)
    assert car.car_id == vehicle.car_id and car.catalog_id == service and car.raw["service"] == service
    assert car.parameters["modelCode"] == vehicle.model_code
    assert [call.path for call in upstream.calls()] == ["/login", "/login", f"/{service}/vin"]


def test_a_vin_the_portal_does_not_know_gives_no_car(source, upstream):
    result = source.lookup_vin(sandbox.VIN_CLIO)  # Renault is routed to the portal, which does not know this car
    assert result.outcome is Outcome.NONE and result.error is None
    assert upstream.calls("/renault/vin")


@pytest.mark.parametrize("vin", [sandbox.VIN_HONDA, sandbox.VIN_UNKNOWN])
def test_a_make_not_routed_to_the_portal_makes_no_request(source, upstream, vin):
    result = source.lookup_vin(vin)
    assert result.outcome is Outcome.NONE and result.error is None
    assert upstream.calls() == []


def test_a_suspended_make_makes_no_request(upstream):
    settings = PortalSettings(upstream.url, SANDBOX_USERNAME, SANDBOX_PASSWORD, suspended=frozenset({"volkswagen"}))
    with PortalSource(settings) as adapter:
        assert adapter.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.NONE
    assert upstream.calls() == []


# --- login session -------------------------------------------------------------------------------------------------


def test_one_login_serves_many_pages(source, upstream):
    source.lookup_vin(sandbox.VIN_GOLF)
    source.lookup_vin(sandbox.VIN_BMW)
    source.main_groups("vw", GOLF.car_id)
    assert len(upstream.calls("/login")) == 2  # the form and its POST, once


def test_an_expired_session_is_renewed_once(source, upstream, monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(upstream, "clock", clock)
    upstream.faults = PortalFaults(session_ttl_seconds=60)
    assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
    clock.advance(59)
    assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
    clock.advance(2)
    assert source.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.ONE
    statuses = [(call.method, call.path, call.status) for call in upstream.calls()]
    assert statuses[3:] == [
        ("GET", "/vw/vin", 200),  # still signed in
        ("GET", "/vw/vin", 302),
        ("GET", "/login", 200),
        ("POST", "/login", 302),
        ("GET", "/vw/vin", 200),
    ]


def test_a_portal_restart_is_survived_while_browsing(source, upstream):
    assert source.main_groups("vw", GOLF.car_id)
    upstream.expire_sessions()
    assert [node.external_id for node in source.main_groups("vw", GOLF.car_id)] == [str(n) for n in range(1, 10)]


def test_wrong_credentials_are_a_failure(upstream):
    with PortalSource(settings_for(upstream, password="wrong")) as adapter:
        result = adapter.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "PortalLoginError" in result.error
    assert [call.path for call in upstream.calls()] == ["/login", "/login"]


def test_a_broken_login_is_a_failure(source, upstream):
    upstream.faults = PortalFaults(login_broken=True)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "PortalUnavailableError" in result.error


def test_pages_without_a_session_go_to_login(upstream):
    url = f"{upstream.url}/vw/groups"
    response = requests.get(url, params={"vehicle": GOLF.car_id}, allow_redirects=False, timeout=2)
    assert response.status_code == 302 and response.headers["Location"].endswith("/login")


# --- browsing ------------------------------------------------------------------------------------------------------


def test_main_groups_carry_turkish_names(source):
    mains = source.main_groups("vw", GOLF.car_id)
    assert [(node.external_id, node.name) for node in mains] == [(c.id, c.name_tr) for c in GOLF.categories]
    assert mains[0].name == "Motor" and not any(node.is_leaf for node in mains)


def test_drilling_down_reaches_leaves_with_illustration_codes(source):
    main = source.main_groups("bmw", BMW.car_id)[0]
    subs = source.children("bmw", BMW.car_id, main.external_id)
    expected = BMW.categories[0].children
    assert [(node.external_id, node.name) for node in subs] == [(c.id, c.name_tr) for c in expected]
    assert not any(node.is_leaf for node in subs)
    pictures = source.children("bmw", BMW.car_id, subs[0].external_id)
    schemas = expected[0].schemas
    assert [node.name for node in pictures] == [schema.title_tr for schema in schemas]
    assert all(node.is_leaf and node.illustration_code == node.external_id for node in pictures)


def test_every_link_shape_is_a_leaf(source, upstream):
    pictures = first_subgroup_pictures(source, "vw", GOLF.car_id)
    by_shape = {upstream.link_shape(GOLF, node.external_id): node for node in pictures}
    assert set(by_shape) == set(LINK_SHAPES)
    assert "/extern/vw/vin_items?" in by_shape["vin_items"].link_path
    assert "/extern/vw/mdl_items?" in by_shape["mdl_items"].link_path
    assert by_shape["bom"].link_path.startswith("bom?")  # relative to the service directory
    for node in by_shape.values():
        parts = source.parts(node.link_path, "vw")
        schema = GOLF.schema(node.external_id)
        expected = [p for p in schema.parts if node is not by_shape["part_detail"] or p.position == "1"]
        assert [(p.oem, p.name) for p in parts] == [(p.oem, p.name_tr) for p in expected]


@pytest.mark.parametrize(
    ("link", "leaf"),
    [
        ("/extern/etka/vin_items?vehicle=1&code=103-010", True),
        ("/extern/etka/mdl_items?model=AU", True),
        ("bom?vehicle=1&code=103-010", True),
        ("/vw/bom", True),
        ("https://portal.example/vw/board?code=1", True),
        ("/vw/part_detail?code=103-010&pos=3", True),
        ("/vw/groups?vehicle=1&parent=103", False),
        ("/extern/etka/vin_items_overview", False),
        ("/vw/bomb", False),
    ],
)
def test_leaf_detection_by_link_shape(link, leaf):
    assert is_leaf_link(link) is leaf


def test_node_flags_are_carried(source):
    pictures = first_subgroup_pictures(source, "vw", GOLF.car_id)
    assert any(node.unavailable for node in pictures) and not all(node.unavailable for node in pictures)
    assert any(node.presel for node in pictures)
    assert any(node.remark and "itibaren" in node.remark for node in pictures)
    assert all(GOLF.model_code in node.model_codes for node in pictures)
    assert any(len(node.model_codes) == 2 for node in pictures)


def test_unknown_vehicle_is_an_error(source):
    with pytest.raises(PortalRejectedError):
        source.main_groups("vw", BMW.car_id)  # a BMW is not in the vw service


# --- parts ---------------------------------------------------------------------------------------------------------


def test_parts_carry_turkish_names_flags_and_remarks(source):
    pictures = all_pictures(source, "vw", GOLF.car_id)
    rows = [row for node in pictures[:12] for row in source.parts(node.link_path, "vw")]
    assert rows and any(any(char in row.name for char in "ğışçöüİ") for row in rows)
    assert any(row.unavailable for row in rows) and not all(row.unavailable for row in rows)
    assert any(row.remark and row.reference_code is None for row in rows)
    assert any(row.model_codes == (GOLF.model_code,) for row in rows)
    assert any(row.position is None for row in rows)
    names = {part.name_tr for schema in GOLF.all_schemas() for part in schema.parts}
    assert all(row.name in names for row in rows)


def test_reference_rows_are_recognised(source):
    node = next(
        node
        for node in first_subgroup_pictures(source, "vw", GOLF.car_id)
        if any(part.reference_code for part in GOLF.schema(node.external_id).parts)
        and "part_detail" not in node.link_path
    )
    rows = source.parts(node.link_path, "vw")
    expected = [part for part in GOLF.schema(node.external_id).parts if part.reference_code]
    references = [row for row in rows if row.is_reference]
    assert [row.reference_code for row in references] == [part.reference_code for part in expected]
    for row in references:
        assert row.oem == "N/A" and "tablo" in row.name
        assert "tablo" not in row.label and row.reference_code not in row.label and row.label
        assert row.name.startswith(row.label)
    assert all(row.label == row.name for row in rows if not row.is_reference)


def test_parts_carry_the_adet_column(source):
    pictures = [node for node in all_pictures(source, "vw", GOLF.car_id) if "part_detail" not in node.link_path]
    for node in pictures[:8]:
        rows = source.parts(node.link_path, "vw")
        assert [row.quantity for row in rows] == [part.quantity for part in GOLF.schema(node.external_id).parts]


@pytest.mark.parametrize(
    ("cell", "quantity"),
    [("3", 3), ("3 adet", 3), ("3x", 3), ("1,5", None), ("gerektiği kadar", None), ("", None), ("-2", None)],
)
def test_the_adet_cell_is_read_robustly(cell, quantity):
    html = (
        '<table><tr class="part"><td class="pos">1</td><td class="oem">34 11 6 860 242</td>'
        f'<td class="name">Fren diski</td><td class="qty">{cell}</td><td class="remark"></td></tr></table>'
    )

    row = _part(BeautifulSoup(html, "html.parser").select_one("tr.part"))

    assert (row.oem, row.position, row.quantity) == ("34 11 6 860 242", "1", quantity)


def test_a_reference_row_takes_no_quantity():
    assert parse_part("N/A", "Termostat, bk. tablo: 229-070", "3", "229-070", False, quantity=2).quantity is None
    assert parse_part("11 53 7 600 584", "Termostat", "3", None, False, quantity=2).quantity == 2


@pytest.mark.parametrize(
    ("name", "remark", "code", "label"),
    [
        ("Termostat, bk. tablo: 229-070", "229-070", "229-070", "Termostat"),
        ("Segman takımı, bakınız tablo, konum: 601-080", "601-080", "601-080", "Segman takımı"),
        ("Radyatör, bk. tablo: 229-070", "", None, "Radyatör, bk. tablo: 229-070"),  # no code in the remark
        ("Radyatör", "229-070", None, "Radyatör"),  # no phrasing
    ],
)
def test_reference_row_parsing(name, remark, code, label):
    row = parse_part("N/A", name, "3", remark, False)
    assert (row.reference_code, row.label) == (code, label)
    assert parse_part("5Q0 615 301 F", name, "3", remark, False).reference_code is None


# --- failures ------------------------------------------------------------------------------------------------------


def test_garbage_is_a_failure(source, upstream):
    upstream.faults = PortalFaults(garbage=True)
    result = source.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and "PortalUnavailableError" in result.error
    with pytest.raises(PortalUnavailableError):
        source.main_groups("vw", GOLF.car_id)
    with pytest.raises(PortalUnavailableError):
        source.parts(f"/extern/vw/vin_items?vehicle={GOLF.car_id}&code=103-010")


def test_server_errors_are_a_failure(source, upstream):
    upstream.faults = PortalFaults(error_rate=1.0)
    result = source.lookup_vin(sandbox.VIN_BMW)
    assert result.outcome is Outcome.FAILURE and "HTTP 503" in result.error


def test_a_slow_portal_times_out_as_a_failure(upstream):
    settings = PortalSettings(upstream.url, SANDBOX_USERNAME, SANDBOX_PASSWORD, timeout_seconds=0.2)
    upstream.faults = PortalFaults(latency_ms=500)
    with PortalSource(settings) as adapter:
        result = adapter.lookup_vin(sandbox.VIN_GOLF)
    assert result.outcome is Outcome.FAILURE and result.elapsed_ms < 500


def test_an_unreachable_portal_is_a_failure():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with PortalSource(PortalSettings(f"http://127.0.0.1:{port}", "u", "p")) as adapter:
        assert adapter.lookup_vin(sandbox.VIN_GOLF).outcome is Outcome.FAILURE
