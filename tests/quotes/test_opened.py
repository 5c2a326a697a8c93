""" "Opened" means a person opened it (issue 40, item 5): link-preview fetchers and HEAD requests read the shared page
without marking it opened; the page's beacon, sent by a browser once the page is shown, marks it, once, and never for
the dealer himself or from another site. The page carries an Open Graph card (shop, car, total; nothing personal)."""

from __future__ import annotations

import pytest

from tests.conftest import SITE
from tests.quotes.conftest import BROWSER
from tests.support.markup import the

PREVIEW_AGENTS = {
    "WhatsApp": "WhatsApp/2.23.20.0 A",
    "Telegram": "TelegramBot (like TwitterBot)",
    "Facebook": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "iMessage": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) "
    "Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
    "Twitter": "Twitterbot/1.0",
    "Slack": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Slack bot": "Slackbot 1.0 (+https://api.slack.com/robots)",
    "Discord": "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "LinkedIn": "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    "Google": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Skype": "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5",
    "generic": "Mozilla/5.0 (compatible; SomeCrawler/1.0; +https://example.com/bot)",
    "none": "",
}


@pytest.fixture
def shared(app, client, bmw, leaf):
    """A sent quote for the BMW with a priced line: (quote id, the link's path, the beacon's path)."""
    client.put("/api/quotes/settings", json={"shopName": "Yıldız Oto", "phone": "0212 555 00 00", "kdvRate": "20"},
               headers=SITE)  # fmt: skip
    quote = client.post("/api/quotes", json={"vehicleId": bmw, "customer": "Ahmet Usta"}, headers=SITE).get_json()
    client.post(f"/api/quotes/{quote['id']}/lines", json={"kind": "free", "name": "Yağ", "unitPrice": "2875"},
                headers=SITE)  # fmt: skip
    path = (
        client.post(f"/api/quotes/{quote['id']}/share", headers=SITE).get_json()["url"].removeprefix("http://localhost")
    )
    beacon = the(app.test_client().get(path, headers=BROWSER).get_data(as_text=True), "body")["data-opened-beacon"]
    return quote["id"], path, beacon


def state(client, quote_id: int) -> tuple[str, str | None]:
    quote = client.get(f"/api/quotes/{quote_id}").get_json()
    return quote["status"], quote["share"]["firstOpenedAt"]


@pytest.mark.parametrize("agent", PREVIEW_AGENTS.values(), ids=PREVIEW_AGENTS.keys())
def test_a_link_preview_never_marks_the_quote_opened(app, client, shared, agent):
    quote_id, path, beacon = shared
    fetcher = app.test_client()

    page = fetcher.get(path, headers={"User-Agent": agent})
    head = fetcher.head(path, headers={"User-Agent": agent})
    ping = fetcher.post(beacon, headers={"User-Agent": agent, "Sec-Fetch-Site": "same-origin"})

    assert page.status_code == head.status_code == 200 and ping.status_code == 204
    assert state(client, quote_id) == ("sent", None)


def test_a_browser_s_view_marks_it_by_its_beacon_once_and_head_never(app, client, shared):
    quote_id, path, beacon = shared
    browser = app.test_client()

    browser.head(path, headers=BROWSER)
    browser.get(path, headers=BROWSER)
    read = state(client, quote_id)
    first = browser.post(beacon, headers=BROWSER)
    opened = state(client, quote_id)
    browser.post(beacon, headers=BROWSER)

    assert read == ("sent", None)  # the page read is no proof anyone looked at it
    assert first.status_code == 204 and opened[0] == "opened" and opened[1]
    assert state(client, quote_id) == opened  # the first opening stays the first


def test_the_dealer_s_own_view_and_a_post_from_another_site_do_not_mark_it(app, client, shared):
    quote_id, _path, beacon = shared

    own = client.post(beacon, headers=BROWSER)
    cross_site = app.test_client().post(beacon, headers={**BROWSER, "Sec-Fetch-Site": "cross-site"})
    foreign = app.test_client().post(
        beacon, headers={"User-Agent": BROWSER["User-Agent"], "Origin": "https://evil.example"}
    )
    unknown = app.test_client().post(beacon.replace("/teklif/", "/teklif/x"), headers=BROWSER)

    assert own.status_code == 204 and cross_site.status_code == foreign.status_code == 403
    assert unknown.status_code == 204  # says nothing of which links exist
    assert state(client, quote_id) == ("sent", None)


def test_the_page_draws_a_preview_card_with_the_shop_the_car_and_the_total_and_nothing_personal(app, client, shared):
    quote_id, path, _beacon = shared
    page = app.test_client().get(path, headers={"User-Agent": PREVIEW_AGENTS["WhatsApp"]}).get_data(as_text=True)
    title = client.get(f"/api/quotes/{quote_id}").get_json()["vehicleTitle"]

    card = {tag["property"]: tag["content"] for tag in the(page, "head").select("meta[property^='og:']")}
    with app.test_client().get(card["og:image"].removeprefix("http://localhost")) as image:
        picture = (image.status_code, image.mimetype, len(image.data))

    assert card["og:title"] == "Teklif · Yıldız Oto"
    assert card["og:description"] == f"{title} · toplam 3.450,00 ₺ (KDV dahil)"
    assert card["og:image"].startswith("http://localhost/")
    assert picture[:2] == (200, "image/png") and picture[2] < 50_000  # a small card picture, served by the app
    assert not any("Ahmet" in value or "0212" in value for value in card.values())
