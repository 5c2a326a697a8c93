"""VIN-less browsing through HTTP against the sandboxes: the make list with its catalogs, the catalog API's flow
(models, parameters narrowing the cars, groups derived from the pictures, a picture with parts and hotspots), the web
catalog's flow (vehicles, groups, parts), the variant wizard and its selectors, the model lookup's three tiers, the
brand guard and upstream faults."""

from __future__ import annotations

import pytest

GOLF_CATALOG = "volkswagen"


def get(client, path: str, status: int = 200) -> dict:
    response = client.get(path)
    assert response.status_code == status, (path, response.get_json())
    return response.get_json()


def golf_model(client) -> str:
    return get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models")["models"][0]["id"]


def golf_car(client) -> str:
    cars = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models/{golf_model(client)}/cars")["cars"]
    return next(car["carId"] for car in cars if car["name"] == "Golf VII 1.6 TDI")


# --- makes and their catalogs -------------------------------------------------------------------------------------


def test_every_make_lists_its_catalogs_from_both_sources(client, dealer, upstreams):
    answer = get(client, "/api/browse/brands")

    by_name = {brand["name"]: brand for brand in answer["brands"]}
    assert answer["unavailableSources"] == []
    assert {"Volkswagen", "Renault", "BMW", "Toyota"} <= set(by_name)
    renault = by_name["Renault"]
    assert renault["inPlan"] is True and renault["slug"] == "renault" and renault["brandId"]
    assert {(catalog["source"], catalog["id"]) for catalog in renault["catalogs"]} == {
        ("catapi", "renault"),
        ("scrape", "renault"),
    }


def test_a_failing_source_is_named_and_the_others_still_listed(client, dealer, upstreams):
    upstreams.scrape.faults.garbage = True

    answer = get(client, "/api/browse/brands")

    assert answer["unavailableSources"] == ["scrape"]
    assert all(catalog["source"] == "catapi" for brand in answer["brands"] for catalog in brand["catalogs"])
    assert answer["brands"]


# --- the catalog API ----------------------------------------------------------------------------------------------


def test_models_filter_as_you_type(client, dealer, upstreams):
    assert [model["name"] for model in get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models?q=GOL")["models"]] == [
        "Golf"
    ]
    assert get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models?q=passat")["models"] == []


def test_the_model_s_parameters_narrow_its_cars(client, dealer, upstreams):
    model = golf_model(client)
    base = f"/api/browse/catapi/{GOLF_CATALOG}/models/{model}"
    parameters = {item["key"]: item["values"] for item in get(client, f"{base}/parameters")["parameters"]}
    every = get(client, f"{base}/cars")
    engine = next(value for value in parameters["engine"] if value["value"] == "1.6 TDI")

    narrowed = get(client, f"{base}/cars?parameter={engine['idx']}")
    year = narrowed["cars"][0]["parameters"]["year"]
    both = get(client, f"{base}/cars?parameter={engine['idx']}&parameter=year:{year}")

    assert {"year", "engine", "gearbox", "body"} <= set(parameters)
    assert 0 < narrowed["total"] < every["total"]
    assert {car["engine"] for car in narrowed["cars"]} == {"1.6 TDI"}
    assert 0 < both["total"] <= narrowed["total"]
    assert {(car["engine"], car["parameters"]["year"]) for car in both["cars"]} == {("1.6 TDI", year)}


def test_groups_come_from_the_pictures_and_lead_to_a_picture_with_parts_and_hotspots(client, dealer, upstreams):
    car = golf_car(client)
    groups = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/groups")
    first = groups["groups"][0]

    schemas = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/groups/{first['id']}/schemas")
    oil_filter = next(item for item in schemas["schemas"] if item["id"] == "103-010")
    detail = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/schemas/{oil_filter['id']}")

    assert groups["car"]["brand"] == "Volkswagen" and groups["car"]["carId"] == car
    assert (first["id"], first["name"], first["nameEn"]) == ("103", "Silindir bloğu", "Cylinder block")
    assert len(schemas["schemas"]) == first["schemaCount"]
    assert oil_filter["name"].startswith("Yağ filtresi") and oil_filter["nameEn"].startswith("Oil filter")
    assert detail["image"]["width"] > 0 and detail["hotspots"]
    positions = {part["position"] for part in detail["parts"] if part["position"]}
    assert {spot["position"] for spot in detail["hotspots"]} <= positions
    assert all(part["oemCode"] for part in detail["parts"])
    assert any(part["name"] == "Yağ filtresi" for part in detail["parts"])


def test_an_id_the_catalog_does_not_know_is_not_found_and_a_malformed_one_is_refused(client, dealer, upstreams):
    assert get(client, "/api/browse/catapi/atlantis/models", 404)["error"]["code"] == "not_found_upstream"
    assert get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/ffffffffffffffff/groups", 404)
    refused = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models/%3Cscript%3E/cars", 400)
    assert refused["error"]["code"] == "invalid_id"
    assert get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models/x/cars?page=0", 400)


# --- the web catalog ----------------------------------------------------------------------------------------------


def test_the_web_catalog_leads_from_a_make_to_a_group_s_parts(client, dealer, upstreams):
    vehicles = get(client, "/api/browse/scrape/renault/vehicles")["vehicles"]
    clio = next(item for item in vehicles if item["model"] == "Clio")
    base = f"/api/browse/scrape/renault/vehicles/{clio['catalogCode']}"

    groups = get(client, f"{base}/groups")
    parts = get(client, f"{base}/groups/{groups['groups'][0]['id']}/parts")

    assert groups["vehicle"]["catalogCode"] == clio["catalogCode"] and groups["groups"]
    assert parts["parts"] and all(part["oemCode"] for part in parts["parts"])
    assert parts["image"]["width"] > 0 and parts["hotspots"]
    assert (
        get(client, "/api/browse/scrape/renault/vehicles/REN-ZZ/groups", 404)["error"]["code"] == "not_found_upstream"
    )


def test_each_selector_choice_narrows_the_variants_and_the_next_options(client, dealer, upstreams):
    first = get(client, "/api/browse/scrape/renault/wizard")
    body = first["options"][0]
    engines = get(client, f"/api/browse/scrape/renault/selectors/engine?body={body}")
    engine = engines["options"][0]
    narrowed = get(client, f"/api/browse/scrape/renault/wizard?body={body}&engine={engine}")

    assert first["step"] == "body" and first["steps"] == ["body", "engine", "gearbox", "year"]
    assert engines["step"] == "engine" and engines["selected"] == {"body": body} and len(engines["options"]) > 1
    assert narrowed["step"] == "gearbox" and narrowed["selected"] == {"body": body, "engine": engine}
    assert 0 < narrowed["variantCount"] < first["variantCount"]
    assert {variant["engine"] for variant in narrowed["variants"]} == {engine}
    years = get(client, f"/api/browse/scrape/renault/selectors/year?body={body}&engine={engine}")
    assert years["options"] and all(option.isdigit() for option in years["options"])
    refused = get(client, "/api/browse/scrape/renault/selectors/colour", 400)
    assert refused["error"]["code"] == "invalid_step"


@pytest.mark.parametrize(
    ("model", "tier"), [("clio", "exact"), ("CLİO", "exact"), ("cli", "prefix"), ("klio", "fuzzy"), ("zzzz", "none")]
)
def test_the_model_lookup_matches_exact_then_prefix_then_fuzzy(client, dealer, upstreams, model, tier):
    answer = get(client, f"/api/browse/scrape/renault/wizard-vehicles?model={model}")

    assert answer["matchTier"] == tier
    if tier == "none":
        assert answer["vehicles"] == []
    else:
        assert answer["vehicles"] and {vehicle["model"] for vehicle in answer["vehicles"]} == {"Clio"}


def test_the_model_lookup_needs_a_model(client, dealer, upstreams):
    assert get(client, "/api/browse/scrape/renault/wizard-vehicles", 400)["error"]["code"] == "invalid_model"
    assert get(client, f"/api/browse/scrape/renault/wizard-vehicles?model={'x' * 61}", 400)


# --- who may see what ---------------------------------------------------------------------------------------------


def test_lists_are_open_but_groups_drawings_and_parts_only_for_the_plan_s_brands(
    client, create_user, sign_in, make_subscription, upstreams
):
    user = create_user()
    make_subscription(user, "active", plan_key="single")  # the first brand by name: Alfa Romeo
    sign_in(user.email)
    model = golf_model(client)
    car = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models/{model}/cars")["cars"][0]["carId"]

    brands = {brand["name"]: brand for brand in get(client, "/api/browse/brands")["brands"]}
    refusals = [
        get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/groups", 403),
        get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/groups/103/schemas", 403),
        get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/schemas/103-010", 403),
        get(client, "/api/browse/scrape/renault/vehicles/REN-BH/groups", 403),
    ]

    assert brands["Volkswagen"]["inPlan"] is False
    assert {refusal["error"]["code"] for refusal in refusals} == {"brand_not_in_plan"}
    assert all("plan" in refusal["error"]["message"].lower() for refusal in refusals)


def test_without_a_plan_the_parts_are_refused_and_signed_out_nothing_is_shown(
    client, create_user, sign_in, billing_catalog, upstreams
):
    assert client.get("/api/browse/brands").status_code == 401
    sign_in(create_user().email)
    car = golf_car(client)

    refused = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/cars/{car}/groups", 403)

    assert refused["error"]["code"] == "subscription_required"


# --- upstream faults ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["garbage", "error_rate", "hang"])
def test_a_catalog_api_fault_is_a_turkish_502_with_a_retry(app, client, dealer, upstreams, monkeypatch, fault):
    monkeypatch.setitem(app.config, "BROWSE_UPSTREAM_TIMEOUT_MS", 1000)
    faults = upstreams.catapi.faults
    if fault == "error_rate":
        faults.error_rate = 1.0
    elif fault == "hang":
        faults.hang, faults.hang_seconds = True, 5.0
    else:
        faults.garbage = True

    refused = get(client, f"/api/browse/catapi/{GOLF_CATALOG}/models", 502)

    assert refused["error"]["code"] == "upstream_unavailable"
    assert "tekrar deneyin" in refused["error"]["message"]


@pytest.mark.parametrize("fault", ["garbage", "challenge", "error_rate"])
def test_a_web_catalog_fault_is_a_turkish_502_with_a_retry(app, client, dealer, upstreams, monkeypatch, fault):
    monkeypatch.setitem(app.config, "SCRAPE_BROWSER_FALLBACK", "false")  # a challenge the browser cannot pass either
    setattr(upstreams.scrape.faults, fault, 1.0 if fault == "error_rate" else True)

    for path in ("/api/browse/scrape/renault/vehicles", "/api/browse/scrape/renault/wizard"):
        refused = get(client, path, 502)
        assert refused["error"]["code"] == "upstream_unavailable"
        assert "tekrar deneyin" in refused["error"]["message"]
