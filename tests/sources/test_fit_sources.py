"""Issue 30 through the sources: each sandbox states which cars a part row is for, each adapter reads it, the providers
turn it into applicability, and the decoded car's facts (facts_from) answer yes, no or maybe as a real catalog does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from app.catalog.fit.conditions import All, DateRange, Not, OneOf, fact_is, has_option
from app.catalog.fit.evaluate import DIFFERS, MAYBE, NO, NOT_KNOWN, UNKNOWN, YES, Fit, evaluate, judge
from app.catalog.fit.facts import (
    AIRCON,
    AUTOMATIC,
    BUILD_DATE,
    CRITERIA,
    GEARBOX_KIND,
    MODEL_CODE,
    BuildDate,
    VehicleFacts,
)
from app.catalog.fit.vehicle_facts import facts_from
from app.catalog.providers import CatapiTree, CategoryRef, PartLine, PortalTree, ScrapeTree, TreeProvider
from app.sources.base import Car
from app.sources.catapi import CatapiSource
from app.sources.portal import PortalSource
from app.sources.sandbox import catalog as sandbox
from app.sources.sandbox.catapi_server import CatapiSandbox
from app.sources.sandbox.portal_server import PortalSandbox
from app.sources.sandbox.scrape_server import ScrapeSandbox
from app.sources.scrape import ScrapeSource
from app.vehicles.writes import vehicle_row
from tests.sources.test_catapi import settings_for as catapi_settings
from tests.sources.test_portal import settings_for as portal_settings
from tests.sources.test_scrape import settings_for as scrape_settings

DRAWINGS = 12  # the first pictures of each car, enough for a typical share without walking ten thousand rows


@pytest.fixture(scope="module")
def catapi():
    server = CatapiSandbox(proxies=1).start()
    with CatapiSource(catapi_settings(server)) as source:
        yield source
    server.stop()


@pytest.fixture(scope="module")
def portal():
    server = PortalSandbox().start()
    with PortalSource(portal_settings(server)) as source:
        yield source
    server.stop()


@pytest.fixture(scope="module")
def scrape():
    server = ScrapeSandbox().start()
    with ScrapeSource(scrape_settings(server, SCRAPE_BROWSER_FALLBACK="false")) as source:
        yield source
    server.stop()


def decoded(vin: str, car: Car) -> VehicleFacts:
    """The facts of the car as a decode stores it (app.vehicles.writes.vehicle_row's raw_data)."""
    return facts_from(vin, car.source, vehicle_row(vin, car, 1, car.brand)["raw_data"], {})


def leaves(tree: TreeProvider, limit: int = DRAWINGS) -> Iterator[CategoryRef]:
    found = 0
    pending = [CategoryRef(node.external_id, node.link_path) for node in tree.roots()]
    while pending and found < limit:
        for node in tree.children(pending.pop(0)):
            ref = CategoryRef(node.external_id, node.link_path)
            if node.is_leaf:
                found += 1
                yield ref
            else:
                pending.append(ref)


def drawings(tree: TreeProvider, facts: VehicleFacts) -> list[list[tuple[PartLine, Fit]]]:
    return [
        [(line, evaluate(facts, line.applicability or All())) for line in tree.parts(leaf).lines]
        for leaf in leaves(tree)
    ]


def assert_typical(pictures: list[list[tuple[PartLine, Fit]]]) -> None:
    """A typical drawing (the median of the pictures) has 20-40 % rows that do not fit and a few maybes."""
    shares = sorted(Counter(fit.status for _, fit in rows)[NO] / len(rows) for rows in pictures)
    assert 0.20 <= shares[len(shares) // 2] <= 0.40, shares
    statuses = Counter(fit.status for rows in pictures for _, fit in rows)
    total = sum(statuses.values())
    assert 0.20 <= statuses[NO] / total <= 0.40, statuses
    assert 0.01 <= statuses[MAYBE] / total <= 0.08, statuses


def catalog_rows(vehicle: sandbox.Vehicle) -> dict[str, sandbox.CatalogPart]:
    return {part.oem: part for schema in vehicle.all_schemas() for part in schema.parts}


def month(date: sandbox.BuildDate | None) -> BuildDate | None:
    """The sandbox's month as the fit package's (an upstream shares no code with its clients)."""
    return None if date is None else BuildDate(date.year, date.month)


def by_kind(
    pictures: list[list[tuple[PartLine, Fit]]], vehicle: sandbox.Vehicle
) -> list[tuple[sandbox.CatalogPart, PartLine, Fit]]:
    rows = catalog_rows(vehicle)
    return [(rows[line.oem_code], line, fit) for lines in pictures for line, fit in lines if line.oem_code in rows]


def test_golf_through_the_catalog_api(catapi):
    golf = sandbox.sandbox_catalog().vehicle("vw-golf-7")
    [car] = catapi.cars_for_vin(sandbox.VIN_GOLF)
    assert car.raw["optionCodes"] == list(golf.build.options)
    facts = decoded(sandbox.VIN_GOLF, car)
    assert (facts.model_code, str(facts.build_date), facts.model_year, facts.plant) == (
        "AU",
        str(golf.build.build_date),
        2017,
        "W",
    )
    assert facts.option_list_complete and facts.criteria == car.criteria

    tree = CatapiTree(catapi, car.catalog_id, car.car_id, car.criteria)
    pictures = drawings(tree, facts)
    assert_typical(pictures)
    rows = by_kind(pictures, golf)
    for part, line, fit in rows:
        row_fit = part.fit
        if row_fit and row_fit.model_codes and row_fit.model_codes != ("AU",):
            # another engine's part: the API leaves it out for the car's criteria
            assert fit.status == NO and Not(fact_is(CRITERIA, car.criteria)) in line.applicability.items
            assert any(reason.fact == CRITERIA and reason.negated for reason in fit.reasons)
        if row_fit and row_fit.model_codes == ("AU",):
            assert Not(fact_is(CRITERIA, car.criteria)) not in (line.applicability or All()).items
        if row_fit and row_fit.note in ("with air conditioning", "without air conditioning") and fit.status != NO:
            assert fit.status == MAYBE and fit.question == AIRCON  # no source tells the air conditioning
        if (
            part.remark
            and part.remark.startswith("PR: ")
            and fit.status == NO
            and part.remark[4:] in golf.build.options
        ):
            pytest.fail("a fitted option's row cannot be a no by its option")
    kinds = {kind for part, _, fit in rows for kind in _kinds(part, fit)}
    assert {"variant no", "variant yes", "note maybe"} <= kinds


def test_bmw_through_the_portal(portal):
    bmw = sandbox.sandbox_catalog().vehicle("bmw-3-f30")
    [car] = portal.cars_for_vin(sandbox.VIN_BMW, "bmw")
    assert car.raw["buildData"]["prCodes"] == list(bmw.build.options)
    facts = decoded(sandbox.VIN_BMW, car)
    assert (facts.model_code, str(facts.build_date), facts.market) == ("F30", str(bmw.build.build_date), "TR")
    # BMW's European VINs are not read for a model year or plant: the year is the portal's listing's
    assert (facts.gearbox_code, facts.model_year, facts.plant) == ("8HP", 2016, None)

    tree = PortalTree(portal, car.raw["service"], car.raw["vehicleId"])
    pictures = drawings(tree, facts)
    assert_typical(pictures)
    for part, line, fit in by_kind(pictures, bmw):
        row_fit = part.fit
        if row_fit and row_fit.model_codes:
            assert OneOf(MODEL_CODE, frozenset(row_fit.model_codes)) in line.applicability.items
            model_differs = any(r.fact == MODEL_CODE and r.code == DIFFERS for r in fit.reasons)
            assert model_differs == (row_fit.model_codes != ("F30",))
            assert fit.status == NO or not model_differs
        if row_fit and row_fit.options:  # the PR column, against the complete SA code list
            assert fit.status in (YES, NO)
        if row_fit and (row_fit.date_from or row_fit.date_to):
            assert DateRange(month(row_fit.date_from), month(row_fit.date_to)) in line.applicability.items
            inside = (
                (row_fit.date_from or bmw.build.build_date)
                <= bmw.build.build_date
                <= (row_fit.date_to or bmw.build.build_date)
            )
            assert fit.status == (NO if not inside else fit.status)
        if row_fit and row_fit.note == "automatic gearbox":  # written "otomatik şanzıman"
            assert fit.status == MAYBE and fit.question == GEARBOX_KIND
            assert fit.reasons[0].code == UNKNOWN and fit.reasons[0].wanted == AUTOMATIC


def test_clio_through_the_web_catalog(scrape):
    clio = sandbox.sandbox_catalog().vehicle("renault-clio-4")
    [car] = scrape.cars_for_vin(sandbox.VIN_CLIO)
    facts = decoded(sandbox.VIN_CLIO, car)
    assert (facts.model_code, str(facts.build_date), facts.model_year) == ("BH", str(clio.build.build_date), 2015)
    assert facts.option_codes is None and facts.criteria is None  # the web catalog gives no option codes

    tree = ScrapeTree(scrape, car.catalog_id)
    pictures = drawings(tree, facts)
    assert_typical(pictures)
    for part, line, fit in by_kind(pictures, clio):
        row_fit = part.fit
        if row_fit and row_fit.model_codes:  # the model-codes column
            assert line.model_codes == row_fit.model_codes
            model_differs = any(r.fact == MODEL_CODE and r.code == DIFFERS for r in fit.reasons)
            assert model_differs == (row_fit.model_codes != ("BH",))
            assert fit.status == NO or not model_differs
            if model_differs:
                assert next(r.value for r in fit.reasons if r.fact == MODEL_CODE) == "BH"
        if row_fit and row_fit.dates:  # printed in the remark, settled by the VIN answer's build month
            assert fit.status in (YES, NO) and any(r.fact == BUILD_DATE for r in fit.reasons)
        if part.remark and part.remark.startswith("PR: "):  # no option list: the option is asked about
            assert fit.status == NO or has_option(part.remark[4:]).fact in fit.unknowns


def test_a_browsed_car_knows_only_its_variant(catapi):
    """A car opened from the catalog's listing (no VIN): its variant is known, its build month and options are not.
    Each row is answered by what the listing fixes: another engine's row is a no (the API leaves it out for the car's
    criteria), a row of the car's own variant is a maybe, "not known" (the catalog states nothing more of it), a row
    that names a build-date range is a maybe (never settled by a listing), and no row is a yes without a reason."""
    golf = sandbox.sandbox_catalog().vehicle("vw-golf-7")
    listing = next(item for item in golf.listings[1:] if item.engine != golf.engine)
    car = catapi.car(golf.catalog_id, listing.car_id)
    facts = facts_from(None, "catapi", vehicle_row("", car, 1, "Volkswagen")["raw_data"], car.parameters)
    variant = golf.build.variant_codes[listing.engine]
    assert facts.model_code == variant != "AU"
    assert facts.build_date is None and facts.option_codes is None and facts.plant is None

    tree = CatapiTree(catapi, golf.catalog_id, listing.car_id, car.criteria)
    rows = [(part, judge(facts, line.applicability)) for part, line, _ in by_kind(drawings(tree, facts), golf)]
    others = [fit for part, fit in rows if part.fit and part.fit.model_codes and part.fit.model_codes != (variant,)]
    own = [fit for part, fit in rows if part.fit and part.fit.model_codes == (variant,) and not part.notice]
    dated = [fit for part, fit in rows if part.fit and (part.fit.date_from or part.fit.date_to)]

    assert others and own and dated
    for fit in others:  # another engine's part: the API leaves it out for the car's criteria
        assert fit.status == NO
        assert [(reason.fact, reason.code, reason.negated) for reason in fit.reasons] == [(CRITERIA, "matches", True)]
    for fit in own:  # the car's own variant, nothing else stated: not known
        assert fit == NOT_KNOWN
    for fit in dated:  # a listing fixes no build month: the range is never settled
        assert fit.status == MAYBE
    assert all(fit.reasons for _, fit in rows if fit.status == YES)


def _kinds(part: sandbox.CatalogPart, fit: Fit) -> Iterator[str]:
    if part.fit and part.fit.model_codes:
        yield f"variant {fit.status}"
    if part.fit and part.fit.note:
        yield f"note {fit.status}"
