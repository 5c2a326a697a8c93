"""A quote sent is noted in the shop's activity, as the member who sent it (issue 41, part 7)."""

from __future__ import annotations

from tests.quotes.test_api import post, quote  # noqa: F401 - the fixture used here


def test_a_sent_quote_is_in_the_shops_activity_as_the_senders(client, quote):  # noqa: F811
    post(client, f"/api/quotes/{quote['id']}/lines", {"kind": "free", "name": "Yağ", "unitPrice": "100"})
    before = client.get("/api/shop/activity").get_json()["items"]

    post(client, f"/api/quotes/{quote['id']}/share")
    after = client.get("/api/shop/activity").get_json()["items"]

    assert [item for item in before if item["kind"] == "quote_sent"] == []
    sent = [item for item in after if item["kind"] == "quote_sent"]
    assert [item["detail"] for item in sent] == [f"#{quote['id']}"]
    assert sent[0]["memberName"]
