"""A vehicle's facts from what its source stored and from its VIN: never guessed, never raising on odd data."""

from __future__ import annotations

import pytest

from app.catalog.fit.facts import BuildDate, option_fact
from app.catalog.fit.vehicle_facts import build_date, facts_from, model_year, parse_criteria, vin_facts

GOLF_VIN = "WVWZZZAUZHW100001"
CLIO_VIN = "VF1RFB00X56100002"
HONDA_VIN = "1HGCM82633A004352"


def test_catapi_criteria_and_complete_option_list() -> None:
    raw = {
        "criteria": "modelCode=AU;engineCode=CLHA;buildDate=2017-03;year=2017",
        "optionCodes": ["1zd", "9AK", " ", 7],
        "parameters": {"year": "2017", "engine": "1.6 TDI", "gearbox": "DQ200", "body": "Hatchback"},
    }
    facts = facts_from(GOLF_VIN, "catapi", raw, {})
    assert facts.criteria == raw["criteria"]
    assert (facts.model_code, facts.engine_code, facts.build_date) == ("AU", "CLHA", BuildDate(2017, 3))
    assert (facts.model_year, facts.plant, facts.gearbox_code, facts.body_style) == (2017, "W", "DQ200", "HATCHBACK")
    assert facts.option_codes == {"1ZD", "9AK"} and facts.option_list_complete
    assert facts.known(option_fact("1ZD")) is True and facts.known(option_fact("1ZF")) is False
    # the engine's name is no engine code, and nothing tells the gearbox kind, the doors or the air conditioning
    assert facts.gearbox_kind is None and facts.doors is None and facts.aircon is None


def test_portal_build_data() -> None:
    raw = {
        "buildData": {
            "modelCode": "8E92",
            "engineCode": "B48B20A",
            "gearboxCode": "8HP",
            "buildDate": "06.2016",
            "market": "tr",
            "prCodes": ["S205A", "S534A"],
        }
    }
    facts = facts_from("WBA8E9G50GNU00004", "portal", raw, {})
    assert (facts.model_code, facts.engine_code, facts.gearbox_code) == ("8E92", "B48B20A", "8HP")
    assert (facts.build_date, facts.market) == (BuildDate(2016, 6), "TR")
    assert facts.known(option_fact("S205A")) is True and facts.known(option_fact("S430A")) is False
    # BMW's European VINs are not read for a model year; the portal's criteria would not be the catalog API's
    assert facts.model_year is None and facts.plant is None and facts.criteria is None


def test_scrape_gives_its_parameters_only() -> None:
    raw = {"criteria": "modelCode=BH;engine=1.5 dCi;year=2015", "parameters": {"modelCode": "BH", "year": "2015"}}
    facts = facts_from(CLIO_VIN, "scrape", raw, {})
    assert (facts.model_code, facts.model_year) == ("BH", 2015)
    assert facts.criteria is None and facts.option_codes is None and facts.build_date is None
    assert facts.known(option_fact("9AK")) is None


def test_browsed_car_only_what_its_parameters_fix() -> None:
    parameters = {"year": "2016", "engineCode": "CZCA", "gearbox": "DQ200", "body": "Hatchback", "modelCode": "AU"}
    facts = facts_from(None, "scrape", {"carId": "x"}, parameters)
    assert (facts.model_year, facts.engine_code, facts.gearbox_code, facts.model_code) == (2016, "CZCA", "DQ200", "AU")
    assert facts.plant is None and facts.build_date is None and facts.option_codes is None


def test_source_data_wins_over_the_listed_parameters() -> None:
    raw = {"criteria": "modelCode=AU2;buildDate=2017-03", "parameters": {"modelCode": "AU", "year": "2016"}}
    facts = facts_from(GOLF_VIN, "catapi", raw, {})
    assert facts.model_code == "AU2" and facts.model_year == 2017  # the VIN's model year beats the listing's


@pytest.mark.parametrize(
    ("vin", "year"),
    [
        (GOLF_VIN, 2017),
        ("WAUZZZ8V0JA000001", 2018),
        ("TMBJJ7NE1L0000001", 2020),
        ("WVWZZZ1KZ6W000001", 2006),  # a digit: the 2000s
        (HONDA_VIN, 2003),
        ("1FTFW1ET5EFA00001", 2014),  # position 7 a letter: from 2010
    ],
)
def test_model_year_where_the_make_encodes_it(vin: str, year: int) -> None:
    assert model_year(vin) == year
    assert vin_facts(vin)["model_year"] == year


@pytest.mark.parametrize(
    "vin", [CLIO_VIN, "WBA8E9G50GNU00004", "ZZZ99999999999999", "", None, "WVW", "WVWZZZAUZHW10000I"]
)
def test_no_model_year_from_other_makes_or_bad_vins(vin: str | None) -> None:
    assert vin_facts(vin) == {}


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "not a mapping",
        {"criteria": 5, "optionCodes": "9AK", "parameters": ["year"]},
        {"buildData": ["x"]},
        {"buildData": {"buildDate": "13.2017", "modelCode": "<script>", "prCodes": None, "market": True}},
        {"criteria": ";;=;modelCode=;buildDate=2017-13;year=abc"},
    ],
)
def test_odd_stored_data_leaves_facts_unknown(raw: object) -> None:
    for source in ("catapi", "portal", "scrape", "other"):
        facts = facts_from(CLIO_VIN, source, raw, {"year": "19999", "modelCode": "x" * 40})  # type: ignore[arg-type]
        assert facts.build_date is None and facts.model_code is None and facts.model_year is None
        assert facts.option_codes is None


def test_criteria_and_dates_as_written() -> None:
    assert parse_criteria("modelCode=AU; buildDate = 2017-03;junk;=x") == {"modelCode": "AU", "buildDate": "2017-03"}
    assert build_date("03.2017") == build_date("3/2017") == build_date("2017-03") == BuildDate(2017, 3)
    assert build_date("2017") is None and build_date(201703) is None and build_date("00.2017") is None
