"""The sandbox distributors through HTTP: credentials, pages, lookup, XML and CSV feeds, the data's shape, faults."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest
import requests

from app.sources.sandbox.distributor import API_KEY_HEADER, DistributorFaults, DistributorSandbox, demo_distributors
from app.sources.sandbox.distributor_data import (
    DISTRIBUTORS,
    default_lines,
    gtin_check_digit,
    lines,
    normalised,
    oe_numbers,
    products,
)
from app.sources.sandbox.knobs import apply_fault_settings


def _parsed(body: bytes) -> ET.Element:
    return ET.fromstring(body)  # noqa: S314 (the sandbox's own feed from loopback; defusedxml is no dependency)


@pytest.fixture(scope="module")
def _running():
    sandbox = DistributorSandbox().start()
    yield sandbox
    sandbox.stop()


@pytest.fixture
def sandbox(_running):
    _running.reset()
    yield _running
    _running.reset()


@pytest.fixture
def connections(sandbox):
    return {connection.key: connection for connection in sandbox.connections()}


def _api(connection, path, key=None, **params):
    headers = {API_KEY_HEADER: connection.api_key if key is None else key}
    return requests.get(f"{connection.api_url}{path}", headers=headers, params=params, timeout=10)


def test_the_demo_connections_name_three_distributors_in_three_currencies(connections):
    assert {connection.currency for connection in connections.values()} == {"TRY", "EUR", "USD"}
    assert {connection.auth_kind for connection in connections.values()} == {"basic", "token"}
    assert demo_distributors("http://x/")[0].feed_url == "http://x/anadolu/fiyat-listesi.xml"
    assert demo_distributors("") == ()


def test_the_knobs_are_settings_too():
    faults = DistributorFaults()
    environ = {"SANDBOX_DISTRIBUTOR_LINES": "300000", "SANDBOX_DISTRIBUTOR_ERROR_STATUS": "503"}
    assert sorted(apply_fault_settings(faults, "distributor", environ)) == ["error_status", "lines"]
    assert (faults.lines, faults.error_status) == (300_000, 503)


@pytest.mark.parametrize("key", ["", "yanlis-anahtar", "ege-demo-anahtar-2"])
def test_the_api_refuses_a_missing_or_wrong_key(connections, key):
    response = _api(connections["anadolu"], "/urunler", key=key)
    assert response.status_code == 401
    assert "hata" in response.json()


@pytest.mark.parametrize("auth", [None, ("anadolu", "yanlis"), ("ege", "ege-sifre")])
def test_the_feeds_refuse_missing_or_wrong_credentials(connections, auth):
    for suffix in ("xml", "csv"):
        url = connections["anadolu"].feed_url.replace(".xml", f".{suffix}")
        response = requests.get(url, auth=auth, timeout=10)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Basic")


def test_pages_cover_the_list_without_overlap(connections):
    connection = connections["ege"]
    first = _api(connection, "/urunler", sayfa=1, adet=50).json()
    second = _api(connection, "/urunler", sayfa=2, adet=50).json()
    assert first["toplamKayit"] == len(default_lines("ege"))
    assert first["toplamSayfa"] == -(-first["toplamKayit"] // 50)
    codes = [item["stokKodu"] for item in first["urunler"] + second["urunler"]]
    assert len(codes) == len(set(codes)) == 100
    item = first["urunler"][0]
    assert set(item) == {"stokKodu", "marka", "ureticiKodu", "urunAdi", "fiyat", "paraBirimi", "stok", "barkod", "oeNo"}
    assert item["paraBirimi"] == "EUR"
    assert all(isinstance(count, int) for count in item["stok"].values())
    last = _api(connection, "/urunler", sayfa=first["toplamSayfa"] + 1, adet=50).json()
    assert last["urunler"] == []


def test_stock_is_words_at_one_distributor_and_counts_at_another(connections):
    anadolu = _api(connections["anadolu"], "/urunler", adet=20).json()["urunler"]
    ege = _api(connections["ege"], "/urunler", adet=20).json()["urunler"]
    assert {value for item in anadolu for value in item["stok"].values()} <= {"Var", "Yok"}
    assert set(ege[0]["stok"]) == {"İzmir", "Manisa", "Denizli"}


@pytest.mark.parametrize(
    "params", [{"sayfa": "0"}, {"sayfa": "x"}, {"adet": "501"}, {"adet": "-3"}, {"sayfa": "9" * 5000}, {"adet": "²"}]
)
def test_bad_paging_is_a_400(connections, params):
    assert _api(connections["anadolu"], "/urunler", **params).status_code == 400


def test_a_lookup_finds_a_number_in_any_spelling(connections):
    line = next(line for line in default_lines("anadolu") if line.oems)
    for spelling in (line.oems[0], line.oems[0].replace(" ", "-"), normalised(line.oems[0]).lower()):
        found = _api(connections["anadolu"], "/urunler/ara", no=spelling).json()["urunler"]
        assert line.code in {item["stokKodu"] for item in found}
    by_code = _api(connections["anadolu"], "/urunler/ara", no=line.code).json()["urunler"]
    assert [item["stokKodu"] for item in by_code] == [line.code]
    assert _api(connections["anadolu"], "/urunler/ara", no="ZZ9999999999").json()["urunler"] == []
    assert _api(connections["anadolu"], "/urunler/ara", no="-").status_code == 400


def test_the_xml_feed_is_one_flat_element_per_line(connections):
    connection = connections["anadolu"]
    response = requests.get(connection.feed_url, auth=(connection.username, connection.password), timeout=30)
    assert response.status_code == 200
    root = _parsed(response.content)
    assert root.tag == "Urunler"
    rows = list(root)
    assert len(rows) == len(default_lines("anadolu"))
    assert all(len(list(cell)) == 0 for cell in rows[0])  # flat: the children are the columns
    first = {cell.tag: cell.text or "" for cell in rows[0]}
    assert {"StokKodu", "Marka", "UrunAdi", "OENo", "Barkod", "Fiyat", "ParaBirimi", "Stok"} <= set(first)
    expected = default_lines("anadolu")[0]
    assert first["StokKodu"] == expected.code
    assert first["Fiyat"] == f"{expected.price:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")


def test_the_csv_feeds_are_semicolon_separated_in_their_encodings(connections):
    marmara = connections["marmara"]
    response = requests.get(marmara.feed_url, headers={API_KEY_HEADER: marmara.api_key}, timeout=30)
    rows = list(csv.reader(io.StringIO(response.content.decode("cp1254")), delimiter=";"))
    assert rows[0][:3] == ["StokKodu", "Marka", "UreticiKodu"]
    assert len(rows) - 1 == len(default_lines("marmara"))
    ege = connections["ege"]
    body = requests.get(ege.feed_url.replace(".xml", ".csv"), auth=(ege.username, ege.password), timeout=30).content
    assert body.startswith(b"\xef\xbb\xbf")
    assert "LEMFÖRDER" in body.decode("utf-8-sig")


def test_the_lists_are_deterministic_and_made_from_the_catalog():
    anadolu = DISTRIBUTORS[0]
    assert list(lines(anadolu, count=300)) == list(lines(anadolu, count=300))
    catalog_numbers = {product.oem for product in products()}
    assert all(set(line.oems) <= catalog_numbers for line in default_lines("ege"))
    assert len({line.brand for line in default_lines("ege")}) >= 5


def test_the_distributors_overlap_at_different_prices():
    offers: dict[tuple[str, str], dict[str, object]] = {}
    for distributor in DISTRIBUTORS:
        for line in default_lines(distributor.key):
            if line.oems:
                offers.setdefault((line.oems[0], line.brand), {})[distributor.key] = line.price
    shared = [prices for prices in offers.values() if len(prices) >= 2]
    assert len(shared) > 1_000


def test_near_misses_lines_without_oe_and_invalid_eans_are_there():
    every = default_lines("anadolu")
    near_misses = [line for line in every if line.near_miss_of]
    assert len(near_misses) > 100
    for line in near_misses[:200]:
        named = oe_numbers(line.oe_text)
        assert normalised(line.near_miss_of) not in named
        assert named  # it names a number, just not the real one
    assert sum(1 for line in every if not line.oe_text) > 100
    invalid = [line.ean for line in every if gtin_check_digit(line.ean[:12]) != line.ean[12]]
    assert 0 < len(invalid) < len(every) * 0.1
    assert any(line.oe_text.count("/") or line.oe_text.count(",") for line in every)


def test_the_size_knob_streams_that_many_lines(sandbox, connections):
    sandbox.faults.lines = 2_345
    connection = connections["ege"]
    response = requests.get(connection.feed_url, auth=(connection.username, connection.password), timeout=30)
    assert len(_parsed(response.content)) == 2_345
    page = _api(connection, "/urunler", sayfa=3, adet=500).json()
    assert page["toplamKayit"] == 2_345 and len(page["urunler"]) == 500


@pytest.mark.parametrize("status", [500, 503])
def test_an_error_status_fault_answers_every_request_with_it(sandbox, connections, status):
    sandbox.faults.error_status = status
    connection = connections["anadolu"]
    assert _api(connection, "/urunler").status_code == status
    assert (
        requests.get(connection.feed_url, auth=(connection.username, connection.password), timeout=10).status_code
        == status
    )


def test_changed_credentials_refuse_the_right_ones(sandbox, connections):
    sandbox.faults.credentials_changed = True
    connection = connections["anadolu"]
    assert _api(connection, "/urunler").status_code == 401
    assert (
        requests.get(connection.feed_url, auth=(connection.username, connection.password), timeout=10).status_code
        == 401
    )


def test_a_hang_outlasts_a_clients_timeout(sandbox, connections):
    sandbox.faults.hang_seconds = 2
    with pytest.raises(requests.Timeout):
        requests.get(f"{connections['anadolu'].api_url}/urunler", timeout=0.3)


def test_a_truncated_feed_is_not_well_formed(sandbox, connections):
    sandbox.faults.truncated = True
    connection = connections["ege"]
    body = requests.get(connection.feed_url, auth=(connection.username, connection.password), timeout=30).content
    with pytest.raises(ET.ParseError):
        _parsed(body)


def test_calls_are_recorded(sandbox, connections):
    _api(connections["marmara"], "/urunler", key="x")
    assert [call.status for call in sandbox.calls("/marmara/")] == [401]
