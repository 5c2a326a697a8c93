"""A stock list import started is noted in the shop's activity, with its file name (issue 41, part 7)."""

from __future__ import annotations

from tests.shelf.conftest import HEADER, csv_bytes, dealer, import_list  # noqa: F401 - the fixture used here


def test_a_list_import_is_in_the_shops_activity(client, dealer):  # noqa: F811
    finished = import_list(client, csv_bytes([HEADER, ["1K0 129 620 D", "Hava filtresi", "5", "250,00"]]), "raf.csv")
    items = client.get("/api/shop/activity").get_json()["items"]

    assert finished["status"] == "done"
    assert [item["detail"] for item in items if item["kind"] == "list_import"] == ["raf.csv"]
