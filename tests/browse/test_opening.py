"""Opening a browsed car through HTTP: a catalog vehicle stored once for every dealer, whose vehicle page and catalog
are a decoded VIN's (tree, categories carrying catalogVehicleId, drawing with parts), from both catalogs; the brand
guard and unknown cars."""

from __future__ import annotations

import sqlalchemy as sa
from bs4 import BeautifulSoup

from app.extensions import db, queues
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.models import CatalogVehicle, Vehicle
from tests.catalog.test_categories import first_leaf
from tests.conftest import SITE, csrf_token_from

GOLF = "volkswagen"


def golf_car(client) -> str:
    model = client.get(f"/api/browse/catapi/{GOLF}/models").get_json()["models"][0]["id"]
    cars = client.get(f"/api/browse/catapi/{GOLF}/models/{model}/cars").get_json()["cars"]
    return next(car["carId"] for car in cars if car["name"] == "Golf VII 1.6 TDI")


def stored_count(external_id: str) -> int:
    query = sa.select(sa.func.count()).select_from(CatalogVehicle).where(CatalogVehicle.external_id == external_id)
    return db.session.scalar(query)


def open_car(client, path: str, status: int = 200) -> dict:
    response = client.post(path, json={}, headers=SITE)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_an_opened_car_is_a_catalog_vehicle_with_the_catalog_of_a_decoded_vin(client, dealer, upstreams):
    car = golf_car(client)

    opened = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")
    again = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")

    assert again == opened and opened["url"] == f"/vehicles/{opened['vehicleId']}"
    tree = client.get(f"/api/vehicles/{opened['vehicleId']}/categories").get_json()
    assert tree["categories"] and {item["catalogVehicleId"] for item in tree["categories"]} == {
        opened["catalogVehicleId"]
    }
    leaf = first_leaf(client, opened["vehicleId"])
    assert leaf["parts"] and leaf["category"]["catalogVehicleId"] == opened["catalogVehicleId"]
    stored = db.session.get(CatalogVehicle, opened["catalogVehicleId"])
    assert (stored.source, stored.catalog, stored.external_id, stored.model) == ("catapi", GOLF, car, "Golf")
    vehicle = db.session.get(Vehicle, opened["vehicleId"])
    assert vehicle.vin == "" and vehicle.brand_name == "Volkswagen"


def test_two_dealers_opening_the_same_car_share_one_catalog_vehicle(
    client, dealer, create_user, sign_in, make_subscription, upstreams
):
    car = golf_car(client)
    first = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")
    other = create_user()
    make_subscription(other, "active", plan_key="full")
    sign_in(other.email)

    second = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")

    assert second == first
    assert stored_count(external_id=car) == 1


def test_without_a_plan_a_car_is_not_opened(client, create_user, sign_in, billing_catalog, upstreams):
    sign_in(create_user().email)

    refused = open_car(client, "/api/browse/scrape/renault/vehicles/REN-BH/open", status=403)

    assert refused["error"]["code"] == "subscription_required"


def outside_the_site_header(html: str) -> str:
    """The page without the site's header (its VIN box and scan dialog, on every page at phone width)."""
    soup = BeautifulSoup(html, "html.parser")
    soup.select_one("header.site-header").decompose()
    return str(soup)


def test_the_page_opens_a_car_into_its_vehicle_page(client, dealer, upstreams):
    car = golf_car(client)
    model = client.get(f"/api/browse/catapi/{GOLF}/models").get_json()["models"][0]["id"]
    cars_page = client.get(f"/browse/catapi/{GOLF}/{model}").get_data(as_text=True)
    action = f"/browse/catapi/{GOLF}/cars/{car}/open"
    assert f'action="{action}"' in cars_page

    response = client.post(action, data={"csrf_token": csrf_token_from(cars_page)})

    assert response.status_code == 303 and response.headers["Location"].startswith("/vehicles/")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Volkswagen Golf" in page and "Motor" in page and "Şasi" not in outside_the_site_header(page)
    assert client.post(action).status_code == 403  # no CSRF token


def test_a_web_catalog_vehicle_opens_the_same_way(client, dealer, upstreams):
    opened = open_car(client, "/api/browse/scrape/renault/vehicles/REN-BH/open")

    tree = client.get(f"/api/vehicles/{opened['vehicleId']}/categories").get_json()
    assert tree["categories"] and tree["categories"][0]["catalogVehicleId"] == opened["catalogVehicleId"]
    assert db.session.get(Vehicle, opened["vehicleId"]).source == "scrape"


def test_opening_is_brand_bound_and_an_unknown_car_is_not_found(
    client, create_user, sign_in, make_subscription, upstreams
):
    user = create_user()
    make_subscription(user, "active", plan_key="single")  # Alfa Romeo only
    sign_in(user.email)

    refused = open_car(client, "/api/browse/scrape/renault/vehicles/REN-BH/open", status=403)
    missing = open_car(client, f"/api/browse/catapi/{GOLF}/cars/ffffffffffffffff/open", status=404)

    assert refused["error"]["code"] == "brand_not_in_plan"
    assert missing["error"]["code"] == "not_found_upstream"
    assert stored_count(external_id="REN-BH") == stored_count(external_id="ffffffffffffffff") == 0


def test_a_vin_decoded_after_its_car_was_browsed_opens_with_the_stored_tree(client, dealer, upstreams):
    car = golf_car(client)
    browsed = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")
    browsed_leaf = first_leaf(client, browsed["vehicleId"])
    before = len(upstreams.catapi.calls(path_prefix=f"/catalogs/{GOLF}/"))

    decoded = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE).get_json()["vehicle"]
    tree = client.get(f"/api/vehicles/{decoded['id']}/categories").get_json()
    leaf = first_leaf(client, decoded["id"])

    assert decoded["id"] != browsed["vehicleId"]
    assert [item["name"] for item in tree["categories"]] == [
        item["name"] for item in client.get(f"/api/vehicles/{browsed['vehicleId']}/categories").get_json()["categories"]
    ]
    assert [part["oemCode"] for part in leaf["parts"]] == [part["oemCode"] for part in browsed_leaf["parts"]]
    assert leaf["schema"]["hotspots"] == browsed_leaf["schema"]["hotspots"]
    assert {item["catalogVehicleId"] for item in tree["categories"]} == {None}
    assert len(upstreams.catapi.calls(path_prefix=f"/catalogs/{GOLF}/")) == before  # nothing fetched again


def test_a_car_browsed_after_its_vin_was_decoded_opens_with_the_stored_tree(client, dealer, upstreams):
    decoded = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE).get_json()["vehicle"]
    first_leaf(client, decoded["id"])  # its tree stored down to a drawing
    before = len(upstreams.catapi.calls(path_prefix=f"/catalogs/{GOLF}/groups2"))

    browsed = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car_of(decoded)}/open")
    tree = client.get(f"/api/vehicles/{browsed['vehicleId']}/categories").get_json()

    assert {item["catalogVehicleId"] for item in tree["categories"]} == {browsed["catalogVehicleId"]}
    assert len(upstreams.catapi.calls(path_prefix=f"/catalogs/{GOLF}/groups2")) == before


def car_of(decoded: dict) -> str:
    return db.session.get(Vehicle, decoded["id"]).raw_data["carId"]


def test_a_car_opened_before_opens_from_storage_without_its_upstream(
    client, dealer, create_user, sign_in, make_subscription, upstreams
):
    car = golf_car(client)
    first = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")
    scraped = open_car(client, "/api/browse/scrape/renault/vehicles/REN-BH/open")
    before = len(upstreams.catapi.calls(path_prefix=f"/catalogs/{GOLF}/"))
    upstreams.catapi.faults.error_rate = upstreams.scrape.faults.error_rate = 1.0  # both upstreams down

    assert open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open") == first
    assert open_car(client, "/api/browse/scrape/renault/vehicles/REN-BH/open") == scraped
    assert len(upstreams.catapi.calls(path_prefix=f"/catalogs/{GOLF}/")) == before
    outsider = create_user()
    make_subscription(outsider, "active", plan_key="single")  # Alfa Romeo only
    sign_in(outsider.email)
    refused = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open", status=403)
    assert refused["error"]["code"] == "brand_not_in_plan"


def test_a_stored_car_without_a_sold_brand_is_guarded_by_its_stored_make(
    client, dealer, create_user, sign_in, make_subscription, upstreams
):
    car = golf_car(client)
    first = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")
    db.session.execute(sa.update(Vehicle).where(Vehicle.id == first["vehicleId"]).values(brand_id=None))
    db.session.commit()  # as if no plan sold its make when it was stored

    assert open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open") == first
    outsider = create_user()
    make_subscription(outsider, "active", plan_key="single")  # Alfa Romeo only
    sign_in(outsider.email)
    refused = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open", status=403)
    assert refused["error"]["code"] == "brand_not_in_plan"


def test_an_opened_car_goes_to_the_top_of_the_dealers_history(
    client, dealer, create_user, sign_in, make_subscription, upstreams
):
    decoded = client.post("/api/vehicles/decode", json={"vin": VIN_GOLF}, headers=SITE).get_json()["vehicle"]
    opened = open_car(client, "/api/browse/scrape/renault/vehicles/REN-BH/open")

    history = client.get("/api/vehicles/history").get_json()["items"]
    page = client.get("/vin").get_data(as_text=True)

    assert [item["id"] for item in history] == [opened["vehicleId"], decoded["id"]]
    assert f'href="/vehicles/{opened["vehicleId"]}"' in page and "Katalogdan" in page
    other = create_user()
    make_subscription(other, "active", plan_key="full")
    sign_in(other.email)
    assert client.get("/api/vehicles/history").get_json()["items"] == []


def test_a_newly_opened_car_has_its_tree_walk_queued_once_it_is_stored(client, dealer, upstreams):
    car = golf_car(client)
    refused = open_car(client, f"/api/browse/catapi/{GOLF}/cars/ffffffffffffffff/open", status=404)
    assert refused["error"]["code"] and queues.get("prefetch").job_ids == []

    opened = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")

    queue = queues.get("prefetch")
    assert queue.job_ids == [f"prefetch-init-{opened['vehicleId']}"]
    job = queue.fetch_job(f"prefetch-init-{opened['vehicleId']}")
    assert (job.func_name, job.args) == ("app.catalog.tasks.prefetch_init", (opened["vehicleId"],))
    queue.empty()
    open_car(client, f"/api/browse/catapi/{GOLF}/cars/{car}/open")
    assert queue.job_ids == []  # stored before: nothing new to walk
