"""Phone to counter PC (issue 29, item 4): the PC's pairing shows a QR code of a one-time link; the phone sends one VIN
through it, and only the PC session that created it receives the VIN. Single use, ten minutes, rate limited, and a
clear Turkish refusal (never a 500) when Redis is down. A signed-out phone has a photo read through its link."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from app.auth.sessions import COOKIE_NAME
from app.extensions import redis_store
from app.sources.sandbox.catalog import VIN_GOLF
from app.vehicles.pairing import services
from app.vehicles.scan import reader
from tests.conftest import PASSWORD, SITE, csrf_token_from
from tests.support.scan_images import barcode_image
from tests.vehicles.test_decode_load import redis_down  # noqa: F401 - the fixture used here
from tests.vehicles.test_scan_api import BOUNDARY, HOSTILE, multipart, png

TR = {"Accept-Language": "tr"}
HTMX = {**TR, "HX-Request": "true"}
USED = "Bu eşleştirme bağlantısı zaten kullanıldı."
EXPIRED = "Bu eşleştirme bağlantısının süresi dolmuş ya da bağlantı geçersiz."
NOT_YOURS = "Bu eşleştirme başka bir oturuma ait."
UNAVAILABLE = "Telefonla eşleştirme şu anda kullanılamıyor."


def signed_in_client(app, user):
    client = app.test_client()
    answer = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert answer.status_code == 200
    return client


@pytest.fixture
def counter(app, create_user):
    """The counter PC: a signed-in dealer's browser."""
    return signed_in_client(app, create_user())


def pair(client, headers=HTMX):
    """Press "Telefonla tara" on the VIN page: (the answer, the phone's token, the poll's path)."""
    token = csrf_token_from(client.get("/vin", headers=TR).get_data(as_text=True))
    answer = client.post("/vin/pairings", data={"csrf_token": token}, headers=headers)
    page = BeautifulSoup(answer.get_data(as_text=True), "html.parser")
    link = page.select_one(".pairing-link a")
    poll = page.select_one("[hx-trigger^='every']")
    if link is None:
        return answer, None, None
    return answer, link["href"].rpartition("/vin/pair/")[2], poll["hx-get"]


def send(phone, token, vin=VIN_GOLF):
    return phone.post(f"/api/vin/pairings/{token}/vin", json={"vin": vin}, headers=TR)


def test_the_pc_shows_a_qr_code_of_the_phone_link_and_waits(counter):
    answer, token, poll = pair(counter)

    assert answer.status_code == 200
    page = BeautifulSoup(answer.get_data(as_text=True), "html.parser")
    assert page.select_one("#vin-pairing svg.pairing-qr title").get_text() == "Eşleştirme bağlantısının QR kodu"
    assert page.select_one(".pairing-link a")["href"].startswith("http://localhost/vin/pair/")
    assert "10 dakika" in page.get_text()
    assert page.select_one("form[action='/vin/pairings'] button").get_text(strip=True) == "Yeniden eşleştir"
    waiting = counter.get(poll, headers=HTMX)
    assert waiting.status_code == 204  # nothing yet: no swap, the QR code stays
    assert len(token) >= 20


def test_the_phone_page_needs_no_session_and_gives_none(app, counter):
    _answer, token, _poll = pair(counter)
    phone = app.test_client()

    page = phone.get(f"/vin/pair/{token}", headers=TR)

    assert page.status_code == 200
    form = BeautifulSoup(page.get_data(as_text=True), "html.parser").select_one("form[data-pair-send]")
    assert form["action"] == f"/api/vin/pairings/{token}/vin"
    assert form.select_one("button[data-vin-scan]").get_text(strip=True) == "Tara"
    assert all(COOKIE_NAME not in header for header in page.headers.getlist("Set-Cookie"))


def test_the_vin_sent_from_the_phone_reaches_the_pc_once(app, counter):
    _answer, token, poll = pair(counter)
    phone = app.test_client()

    sent = send(phone, token, VIN_GOLF.lower())
    received = counter.get(poll, headers=HTMX)
    again = counter.get(poll, headers=HTMX)

    assert sent.status_code == 200
    assert sent.get_json() == {"vin": VIN_GOLF}
    assert all(COOKIE_NAME not in header for header in sent.headers.getlist("Set-Cookie"))
    assert json.loads(received.headers["HX-Trigger"]) == {"vin-paired": {"vin": VIN_GOLF}}
    assert VIN_GOLF in BeautifulSoup(received.get_data(as_text=True), "html.parser").select_one("#vin-pairing").text
    assert "HX-Trigger" not in again.headers  # the pairing ended with the VIN
    assert EXPIRED in again.get_data(as_text=True)


def test_without_javascript_the_poll_opens_the_vin_page_on_the_sent_vin(app, counter):
    answer, token, poll = pair(counter, headers=TR)  # a plain form post: the page with the QR code
    assert answer.status_code == 200 and token

    assert send(app.test_client(), token).status_code == 200
    received = counter.get(poll, headers=TR)

    assert received.status_code == 303
    assert received.headers["Location"] == f"/vin?vin={VIN_GOLF}"


def test_the_link_takes_one_vin_only(app, counter):
    _answer, token, _poll = pair(counter)
    phone = app.test_client()
    assert send(phone, token).status_code == 200

    reused = send(app.test_client(), token, "WVWZZZ1KZ6W000002")
    page = phone.get(f"/vin/pair/{token}", headers=TR)

    assert reused.status_code == 410
    assert reused.get_json()["error"]["code"] == "pairing_used"
    assert reused.get_json()["error"]["message"].startswith(USED)
    assert page.status_code == 410
    assert USED in page.get_data(as_text=True)


def test_the_link_lives_ten_minutes(app, counter):
    _answer, token, poll = pair(counter)
    client = redis_store.client
    keys = [services.token_key(token), services.pairing_key(poll.rpartition("/")[2])]
    assert all(595 <= client.ttl(key) <= 600 for key in keys)

    for key in keys:  # the ten minutes are up
        client.expire(key, 0)
    expired = send(app.test_client(), token)
    page = app.test_client().get(f"/vin/pair/{token}", headers=TR)
    polled = counter.get(poll, headers=TR)

    assert expired.status_code == 410
    assert expired.get_json()["error"]["code"] == "pairing_expired"
    assert expired.get_json()["error"]["message"].startswith(EXPIRED)
    assert page.status_code == 410
    assert polled.status_code == 410
    assert EXPIRED in polled.get_data(as_text=True)


def test_a_sent_vin_never_outlives_the_pairing(app, counter):
    _answer, token, poll = pair(counter)
    key = services.pairing_key(poll.rpartition("/")[2])
    redis_store.client.expire(key, 30)  # nine and a half minutes gone

    assert send(app.test_client(), token).status_code == 200

    assert 0 < redis_store.client.ttl(key) <= 30


def test_another_session_s_poll_gets_nothing(app, counter, create_user):
    _answer, token, poll = pair(counter)
    assert send(app.test_client(), token).status_code == 200
    other_dealer = signed_in_client(app, create_user())

    refused = other_dealer.get(poll, headers=TR)
    refused_fragment = other_dealer.get(poll, headers=HTMX)
    received = counter.get(poll, headers=HTMX)

    assert refused.status_code == 403
    assert NOT_YOURS in refused.get_data(as_text=True)
    assert VIN_GOLF not in refused.get_data(as_text=True) + refused_fragment.get_data(as_text=True)
    assert "HX-Trigger" not in refused_fragment.headers
    assert json.loads(received.headers["HX-Trigger"]) == {"vin-paired": {"vin": VIN_GOLF}}  # still its own


def test_the_same_user_in_another_session_is_another_session(app, create_user):
    user = create_user()
    counter, other_browser = signed_in_client(app, user), signed_in_client(app, user)
    _answer, _token, poll = pair(counter)

    assert other_browser.get(poll, headers=TR).status_code == 403


def test_the_pairing_routes_of_the_pc_need_a_session(app, counter):
    _answer, _token, poll = pair(counter)
    stranger = app.test_client()

    form_token = csrf_token_from(stranger.get("/", headers=TR).get_data(as_text=True))

    assert stranger.post("/vin/pairings", headers=TR).status_code == 403  # no form token
    assert stranger.post("/vin/pairings", data={"csrf_token": form_token}, headers=TR).status_code == 302
    assert stranger.get(poll, headers=TR).status_code == 302
    assert stranger.get(poll, headers=TR).headers["Location"].startswith("/login")


def test_a_malformed_vin_or_token_is_refused_clearly(app, counter):
    _answer, token, _poll = pair(counter)
    phone = app.test_client()

    bad_vin = send(phone, token, "WVWZZZ1KZ6W00000I")
    bad_token = send(phone, "short")

    assert bad_vin.status_code == 400
    assert bad_vin.get_json()["error"]["code"] == "invalid_vin"
    assert bad_token.status_code == 410
    assert send(phone, token).status_code == 200  # a refused VIN did not spend the link


def test_a_phone_signed_in_elsewhere_must_send_json_from_this_site(app, counter, create_user):
    _answer, token, _poll = pair(counter)
    phone = signed_in_client(app, create_user())  # carries a session cookie: the /api cookie rule applies

    form_post = phone.post(f"/api/vin/pairings/{token}/vin", data={"vin": VIN_GOLF}, headers={**TR, **SITE})
    foreign = phone.post(
        f"/api/vin/pairings/{token}/vin", json={"vin": VIN_GOLF}, headers={**TR, "Origin": "https://evil.test"}
    )
    same_site = phone.post(f"/api/vin/pairings/{token}/vin", json={"vin": VIN_GOLF}, headers={**TR, **SITE})

    assert [form_post.status_code, foreign.status_code, same_site.status_code] == [403, 403, 200]


def test_creating_pairings_and_sending_vins_are_rate_limited(make_app, create_user):
    app = make_app(
        RATELIMIT_ENABLED=True, VIN_PAIRING_RATE_LIMIT="2 per minute", VIN_PAIRING_SEND_RATE_LIMIT="1 per minute"
    )
    counter = signed_in_client(app, create_user())
    first, _second, throttled = pair(counter), pair(counter), pair(counter)
    phone = app.test_client()

    sent = send(phone, first[1])
    second_send = send(phone, "x" * 32)

    assert throttled[0].status_code == 200  # htmx swaps only 2xx: the panel says why
    assert "Kısa sürede çok fazla eşleştirme yapıldı." in throttled[0].get_data(as_text=True)
    assert throttled[1] is None
    assert sent.status_code == 200
    assert second_send.status_code == 429


def test_with_redis_down_pairing_is_refused_clearly(app, counter, redis_down):  # noqa: F811
    _answer, token, poll = pair(counter)
    redis_down()

    fragment, _token, _poll = pair(counter)
    page, _token, _poll = pair(counter, headers=TR)
    sent = send(app.test_client(), token)
    polled = counter.get(poll, headers=TR)
    phone_page = app.test_client().get(f"/vin/pair/{token}", headers=TR)

    assert fragment.status_code == 200
    assert UNAVAILABLE in fragment.get_data(as_text=True)
    assert page.status_code == 503
    assert sent.status_code == 503
    assert sent.get_json()["error"]["code"] == "pairing_unavailable"
    assert polled.status_code == 503
    assert phone_page.status_code == 503
    assert UNAVAILABLE in phone_page.get_data(as_text=True)


def test_the_vin_pages_offer_the_scan_button_beside_each_vin_box(client, counter):
    landing = BeautifulSoup(client.get("/", headers=TR).get_data(as_text=True), "html.parser")
    search = BeautifulSoup(counter.get("/vin", headers=TR).get_data(as_text=True), "html.parser")

    for page, box in ((landing, "vin-input"), (search, "decode-vin")):
        button = page.select_one(f"button[data-vin-scan='{box}']")
        assert button.get_text(strip=True) == "Tara"
        assert page.select_one(f"#{button['aria-controls']}").name == "dialog"
        assert page.select_one("#vin-scan-dialog")["data-wasm"].endswith("/vendor/barcode-detector/zxing_reader.wasm")
    assert search.select_one("form[action='/vin/pairings'] button").get_text(strip=True) == "Telefonla tara"
    assert re.search(r"script-src 'self' 'wasm-unsafe-eval'", counter.get("/vin").headers["Content-Security-Policy"])


def test_the_phone_page_and_refusals_speak_english_when_asked(app, counter):
    """Pages in English by choice (?lang=), the API by Accept-Language (app.core.i18n)."""
    _answer, token, _poll = pair(counter)
    phone = app.test_client()
    english = {"Accept-Language": "en"}

    page = BeautifulSoup(phone.get(f"/vin/pair/{token}?lang=en").get_data(as_text=True), "html.parser")
    send(phone, token)
    reused = phone.post(f"/api/vin/pairings/{token}/vin", json={"vin": VIN_GOLF}, headers=english)

    assert page.select_one("h1").get_text(strip=True) == "Send the VIN to the counter PC"
    assert page.select_one("main button[data-vin-scan]").get_text(strip=True) == "Scan"
    dialog = page.select_one("#vin-scan-dialog")
    assert dialog["data-text-no-camera-no-photo"].startswith("The camera could not be opened.")
    assert reused.get_json()["error"]["message"].startswith("This pairing link has already been used.")


# --- a photo read through the link (a signed-out phone) -----------------------------------------------------------


def send_photo(phone, token, data, headers=TR):
    return phone.post(
        f"/api/vin/pairings/{token}/photo",
        data=multipart(data, "photo.png"),
        headers=headers,
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )


@pytest.fixture(scope="module")
def label():
    return png(barcode_image(VIN_GOLF, "DataMatrix"))


def test_a_photo_through_a_live_link_gives_the_scan_answer_and_leaves_the_link_usable(app, counter, label):
    _answer, token, poll = pair(counter)
    phone = app.test_client()

    read = send_photo(phone, token, label)
    signed_in_read = counter.post(
        "/api/vin/scan",
        data=multipart(label, "photo.png"),
        headers={**TR, **SITE},
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )

    assert read.status_code == 200, read.get_json()
    assert read.get_json() == signed_in_read.get_json()  # the same reader, the same answer
    assert read.get_json()["candidates"][0]["vin"] == VIN_GOLF
    assert all(COOKIE_NAME not in header for header in read.headers.getlist("Set-Cookie"))
    assert send(phone, token).status_code == 200  # the chosen VIN still goes through the unspent link
    assert json.loads(counter.get(poll, headers=HTMX).headers["HX-Trigger"]) == {"vin-paired": {"vin": VIN_GOLF}}


@pytest.mark.parametrize("link", ["used", "expired", "malformed"])
def test_a_dead_link_is_refused_before_the_photo_is_read(app, counter, label, monkeypatch, link):
    _answer, token, poll = pair(counter)
    if link == "used":
        assert send(app.test_client(), token).status_code == 200
    elif link == "expired":
        for key in (services.token_key(token), services.pairing_key(poll.rpartition("/")[2])):
            redis_store.client.expire(key, 0)
    else:
        token = "not-a-token!"

    def never(*_args, **_kwargs):
        raise AssertionError("the photo of a dead link was read")

    monkeypatch.setattr(reader, "open_image", never)
    refused = send_photo(app.test_client(), token, label)

    assert refused.status_code == 410
    assert refused.get_json()["error"]["code"] == ("pairing_used" if link == "used" else "pairing_expired")
    assert refused.get_json()["error"]["message"].startswith(USED if link == "used" else EXPIRED)


@pytest.mark.parametrize("name", ["not_an_image", "over_12_mb", "decompression_bomb", "truncated_jpeg", "empty"])
def test_a_hostile_file_through_the_link_is_refused_clearly_and_spends_nothing(app, counter, name):
    _answer, token, _poll = pair(counter)
    data, status, code = HOSTILE[name]
    phone = app.test_client()

    refused = send_photo(phone, token, data)

    assert (refused.status_code, refused.get_json()["error"]["code"]) == (status, code)
    assert any(letter in refused.get_json()["error"]["message"] for letter in "çğıöşüÇĞİÖŞÜ")
    assert send(phone, token).status_code == 200


def test_photos_through_a_link_are_rate_limited_per_address(make_app, create_user, label):
    app = make_app(RATELIMIT_ENABLED=True, VIN_PAIRING_PHOTO_RATE_LIMIT="2 per minute")
    _answer, token, _poll = pair(signed_in_client(app, create_user()))
    phone = app.test_client()

    statuses = [send_photo(phone, token, label).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert send(phone, token).status_code == 200  # the send keeps its own budget


def test_the_phone_page_sends_a_photo_through_its_link_when_signed_out(app, counter, create_user):
    _answer, token, _poll = pair(counter)
    signed_out = app.test_client().get(f"/vin/pair/{token}", headers=TR)
    signed_in = signed_in_client(app, create_user()).get(f"/vin/pair/{token}", headers=TR)

    def photo_url(page):
        dialog = BeautifulSoup(page.get_data(as_text=True), "html.parser").select_one("#vin-scan-dialog")
        return dialog["data-photo-url"]

    assert photo_url(signed_out) == f"/api/vin/pairings/{token}/photo"
    assert photo_url(signed_in) == "/api/vin/scan"  # the user's own reader and budget


def test_a_phone_signed_in_elsewhere_must_send_its_photo_from_this_site(app, counter, create_user, label):
    _answer, token, _poll = pair(counter)
    phone = signed_in_client(app, create_user())

    foreign = send_photo(phone, token, label, headers={**TR, "Origin": "https://evil.test"})
    same_site = send_photo(phone, token, label, headers={**TR, **SITE})

    assert [foreign.status_code, same_site.status_code] == [403, 200]
