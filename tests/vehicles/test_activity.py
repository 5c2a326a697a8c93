"""The shop's decodes in its activity (issue 41, part 7): each one a member made that found a car, with the member and
the branch they worked in, read from the query log; a refused decode and another shop's decodes are not there."""

from __future__ import annotations

from app.sources.sandbox.catalog import VIN_BMW, VIN_GOLF
from tests.conftest import SITE
from tests.support.shops import add_branch, colleague
from tests.vehicles.test_shop_sharing import signed_in_client


def decode(client, vin: str):
    return client.post("/api/vehicles/decode", json={"vin": vin}, headers=SITE)


def test_a_members_decode_is_in_the_shops_activity_with_their_branch(
    app, client, dealer, create_user, make_subscription, upstreams
):
    branch = add_branch(dealer.shop_id, "Ümraniye")
    clerk = colleague(create_user, dealer, "clerk", branch, name="Tezgâhtar Ali")
    outsider = create_user(name="Başka Bayi")
    make_subscription(outsider, "active", plan_key="full")

    assert decode(signed_in_client(app, clerk), VIN_GOLF).status_code == 200
    assert decode(client, "KISA-VIN").status_code == 400  # refused: no decode to note
    assert decode(signed_in_client(app, outsider), VIN_BMW).status_code == 200
    decodes = client.get("/api/shop/activity?kind=decode").get_json()["items"]
    in_branch = client.get(f"/api/shop/activity?branch={branch.id}").get_json()["items"]
    page = client.get("/dukkan/hareketler").get_data(as_text=True)

    assert [(item["detail"], item["memberName"], item["branchName"]) for item in decodes] == [
        (VIN_GOLF, "Tezgâhtar Ali", "Ümraniye")
    ]
    assert [item["detail"] for item in in_branch] == [VIN_GOLF]
    assert VIN_GOLF in page and VIN_BMW not in page
