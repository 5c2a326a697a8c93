"""Scanning the VIN in a real browser (issue 29, items 1 and 4): Chromium's fake camera plays a video of a barcode made
here (ffmpeg from a generated image), the live scan reads it with the vendored ZXing WebAssembly reader, fills the VIN
box and the vehicle opens; a phone paired with the counter PC sends the VIN there, scanned live or read from a photo
through its link; the phone layout keeps the Tara button in view; the scan dialog passes axe and says when the server
reads no printed text."""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import segno
from PIL import Image
from playwright.sync_api import expect

from app.sources.sandbox.catalog import VIN_GOLF
from tests.e2e.conftest import CHROMIUM, launch, require_chromium
from tests.e2e.test_vin_search import sign_in
from tests.support.axe import audit, report
from tests.support.committed_dealer import served_dealer
from tests.support.scan_images import text_engine_missing

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
WAIT_MS = 20_000
FRAME_TARGET_MS = 100
USED = "Bu eşleştirme bağlantısı zaten kullanıldı."


def barcode_image(kind: str, vin: str, path: Path) -> Path:
    """A black-on-white barcode of `vin`, as a sticker on a door pillar or the ruhsat carries it."""
    if kind == "qr_code":
        segno.make(vin, error="m", micro=False).save(str(path), scale=8, border=4)
    else:
        zxingcpp = pytest.importorskip("zxingcpp")  # the photo reader's package (issue 29, item 2)
        barcode = zxingcpp.create_barcode(vin, zxingcpp.BarcodeFormat.Code128)
        strip = Image.fromarray(zxingcpp.write_barcode_to_image(barcode, scale=3))
        strip.resize((strip.width, 160), Image.NEAREST).save(path)  # a 1D code: as tall as a sticker's
    return path


def fake_camera_video(image: Path, folder: Path) -> Path:
    """A looping .y4m for Chromium's fake camera: half a second of empty frame, then the barcode, at 640x480."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("REQUIRE_BROWSER is set but there is no ffmpeg for the fake camera's video")
        pytest.skip("the fake camera's video needs ffmpeg (apt-get install ffmpeg; .ci/run installs it)")
    video = folder / "camera.y4m"
    frame = "scale=600:440:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p"
    subprocess.run(  # noqa: S603 - the test's own command line
        [ffmpeg, "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", "color=c=white:s=640x480:d=0.5:r=10",
         "-loop", "1", "-t", "2", "-r", "10", "-i", str(image),
         "-filter_complex", f"[1:v]{frame}[code];[0:v]format=yuv420p[blank];[blank][code]concat=n=2:v=1[out]",
         "-map", "[out]", "-pix_fmt", "yuv420p", str(video)],
        check=True, timeout=60,
    )  # fmt: skip
    return video


def camera_browser(playwright, video: Path):
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )


@contextmanager
def chromium(video: Path | None = None) -> Iterator[Any]:
    """Real Chromium, its fake camera playing `video` (none given: no camera at all); closed on the way out."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = camera_browser(playwright, video) if video else launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


def new_tab(browser, errors: list[str], **options):
    context = browser.new_context(locale="tr-TR", **options)
    tab = context.new_page()
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return tab


def frame_times(tab) -> list[float]:
    """The per-frame detect() times the page measured (performance.now() around each call), oldest first."""
    return tab.evaluate("JSON.parse(sessionStorage.getItem('vin-scan-frame-ms') || '[]')")


def print_frame_figure(label: str, times: list[float]) -> None:
    """The first call loads and compiles the WebAssembly reader; the figure is the frames after it."""
    assert len(times) >= 2, f"too few frames decoded to measure: {times}"
    warm = times[1:]
    print(
        f"\n[{label}] live scan, per-frame decode in Chromium: median {statistics.median(warm):.1f} ms, "
        f"max {max(warm):.1f} ms over {len(warm)} frames (first, with the reader's load: {times[0]:.1f} ms); "
        f"target <= {FRAME_TARGET_MS} ms"
    )


@pytest.fixture
def scan_server(make_app, upstreams):
    app = make_app(**upstreams.settings)
    with served_dealer(app) as served:
        yield served


@pytest.fixture(params=["qr_code", "code_128"])
def camera_video(request, tmp_path) -> Path:
    require_chromium()
    return fake_camera_video(barcode_image(request.param, VIN_GOLF, tmp_path / "code.png"), tmp_path)


def test_the_live_scan_reads_the_vin_fills_the_box_and_the_vehicle_opens(scan_server, camera_video, request):
    url, dealer = scan_server
    errors: list[str] = []
    with chromium(camera_video) as browser:
        tab = new_tab(browser, errors)
        sign_in(tab, url, dealer)
        tab.goto(url + "/vin")
        tab.evaluate("sessionStorage.removeItem('vin-scan-frame-ms')")

        tab.get_by_role("button", name="Tara", exact=True).click()

        expect(tab).to_have_url(re.compile(r"/vehicles/\d+$"), timeout=WAIT_MS)
        expect(tab.get_by_text(VIN_GOLF)).to_be_visible()
        print_frame_figure(request.node.callspec.params["camera_video"], frame_times(tab))
    wasm_refused = [error for error in errors if "Content Security Policy" in error or "wasm" in error.lower()]
    assert wasm_refused == [] and errors == []


def test_on_the_landing_page_a_visitor_s_scan_shows_the_vehicle_preview(scan_server, tmp_path):
    video = fake_camera_video(barcode_image("qr_code", VIN_GOLF, tmp_path / "code.png"), tmp_path)
    url, _dealer = scan_server
    errors: list[str] = []
    with chromium(video) as browser:
        tab = new_tab(browser, errors, **PHONE)
        tab.goto(url + "/")

        tab.get_by_role("button", name="Tara", exact=True).click()

        expect(tab.locator(".vin-result-title")).to_have_text("Volkswagen Golf", timeout=WAIT_MS)
        expect(tab.locator("#vin-input")).to_have_value(VIN_GOLF)
        expect(tab).to_have_url(f"{url}/vin/preview?vin={VIN_GOLF}")
    assert errors == []


def test_a_phone_paired_with_the_counter_pc_sends_the_vin_there_once(scan_server, tmp_path):
    video = fake_camera_video(barcode_image("qr_code", VIN_GOLF, tmp_path / "code.png"), tmp_path)
    url, dealer = scan_server
    errors: list[str] = []
    with chromium(video) as browser:
        counter = new_tab(browser, errors)
        sign_in(counter, url, dealer)
        counter.goto(url + "/vin")
        counter.get_by_role("button", name="Telefonla tara").click()
        expect(counter.locator("#vin-pairing svg.pairing-qr")).to_be_visible()
        link = counter.locator(".pairing-link a").get_attribute("href")
        findings = audit(counter, "the counter PC's pairing panel (/vin)")
        assert not findings, report(findings)

        phone = new_tab(browser, errors, **PHONE)  # signed out, a browser of its own
        assert phone.goto(link).status == 200
        phone.get_by_role("button", name="Tara", exact=True).click()

        expect(phone.locator("[data-pair-status]")).to_have_text(f"Tezgâhtaki bilgisayara gönderildi: {VIN_GOLF}")
        expect(phone.get_by_role("button", name="Gönder")).to_be_disabled()  # the link is spent
        expect(counter).to_have_url(re.compile(r"/vehicles/\d+$"), timeout=WAIT_MS)  # the PC decoded it
        expect(counter.get_by_text(VIN_GOLF)).to_be_visible()

        reused = phone.goto(link)
        assert reused.status == 410
        expect(phone.get_by_text(USED)).to_be_visible()
    assert errors == [message for message in errors if "410" in message]  # the reused link's own answer only


def test_a_signed_out_phone_without_a_camera_sends_a_photo_s_vin_through_its_link(scan_server, tmp_path):
    """The photo path through the real route (POST /api/vin/pairings/<token>/photo) and the real reader: the phone has
    no camera and no session; the photo's VIN, tapped, goes to the counter PC, which decodes it."""

    url, dealer = scan_server
    errors: list[str] = []
    with chromium() as browser:  # no fake camera: getUserMedia fails, as on a phone that refuses it
        counter = new_tab(browser, errors)
        sign_in(counter, url, dealer)
        counter.goto(url + "/vin")
        counter.get_by_role("button", name="Telefonla tara").click()
        link = counter.locator(".pairing-link a").get_attribute("href")

        phone = new_tab(browser, errors, **PHONE)
        phone.goto(link)
        phone.get_by_role("button", name="Tara", exact=True).click()
        dialog = phone.get_by_role("dialog", name="VIN'i okutun")
        expect(dialog.get_by_role("status")).to_contain_text("fotoğrafını çekin ya da seçin")
        with phone.expect_response(re.compile(r"/api/vin/pairings/[^/]+/photo$")) as read:
            dialog.get_by_text("Fotoğraf çek / seç").locator("input[type=file]").set_input_files(
                barcode_image("qr_code", VIN_GOLF, tmp_path / "photo.png")
            )
        assert read.value.status == 200
        expect(dialog.get_by_role("status")).to_contain_text("Doğru VIN'e dokunun:")
        dialog.get_by_role("button", name=VIN_GOLF).click()

        expect(phone.locator("[data-pair-status]")).to_have_text(f"Tezgâhtaki bilgisayara gönderildi: {VIN_GOLF}")
        expect(counter).to_have_url(re.compile(r"/vehicles/\d+$"), timeout=WAIT_MS)
        expect(counter.get_by_text(VIN_GOLF)).to_be_visible()
    assert errors == []


def test_a_server_without_its_text_engine_has_the_dialog_say_that_printed_text_is_not_read(scan_server, page, tmp_path):
    """A server whose text engine did not load (its package's import fails): a photo's barcode is still read, and the
    dialog says plainly that printed text is not (the answer's notice, in Turkish)."""
    with text_engine_missing():  # the live server runs in this process
        _photo_read_with_text_off(scan_server, page, tmp_path)


def _photo_read_with_text_off(scan_server, page, tmp_path) -> None:
    url, dealer = scan_server
    sign_in(page, url, dealer)
    page.goto(url + "/vin")

    page.get_by_role("button", name="Tara", exact=True).click()
    dialog = page.get_by_role("dialog", name="VIN'i okutun")
    photo = dialog.get_by_text("Fotoğraf çek / seç")
    expect(photo).to_be_visible()  # offered once the camera has failed, as a clerk would see it
    photo.locator("input[type=file]").set_input_files(barcode_image("qr_code", VIN_GOLF, tmp_path / "photo.png"))

    expect(dialog.get_by_role("status")).to_have_text(
        "Bu sunucuda yazılı metin okuma kapalı: yalnızca barkodlar okundu. Doğru VIN'e dokunun:"
    )
    expect(dialog.get_by_role("button", name=VIN_GOLF)).to_be_visible()


def test_on_a_360_px_phone_the_tara_button_shows_without_horizontal_scroll(scan_server, page):
    url, dealer = scan_server
    page.set_viewport_size(PHONE["viewport"])

    for path in ("/", "/vin"):
        if path == "/vin":
            sign_in(page, url, dealer)
        page.goto(url + path)
        button = page.get_by_role("button", name="Tara", exact=True)
        expect(button).to_be_in_viewport()
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, f"{path}: {box}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path


def test_without_a_camera_the_dialog_says_so_and_passes_axe(scan_server, page):
    """Headless Chromium without a fake device has no camera: the dialog tells the dealer, in Turkish, named."""
    url, dealer = scan_server
    sign_in(page, url, dealer)
    page.goto(url + "/vin")

    page.locator("#vin-scan-dialog").evaluate("(dialog) => { dialog.dataset.photoUrl = ''; }")  # no photo reader

    page.get_by_role("button", name="Tara", exact=True).click()

    dialog = page.get_by_role("dialog", name="VIN'i okutun")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("status")).to_have_text("Kamera açılamadı. VIN'i kutuya elle yazın.")
    expect(dialog.get_by_text("Fotoğraf çek / seç")).to_be_hidden()
    expect(dialog.get_by_role("button", name="Fener")).to_be_hidden()
    findings = audit(page, "the VIN scan dialog (/vin)")
    assert not findings, report(findings)
    dialog.get_by_role("button", name="Kapat").click()
    expect(dialog).to_be_hidden()


def test_without_a_camera_a_photo_s_candidates_are_offered_and_a_tap_decodes(scan_server, page, tmp_path):
    """The photo path against the documented answer of POST /api/vin/scan (the reader is issue 29, item 2; here the
    browser's request is answered by the test, so only this side is under test)."""
    url, dealer = scan_server
    sent: list[bytes] = []

    def answer(route) -> None:
        sent.append(route.request.post_data_buffer or b"")
        candidates = [{"vin": "WVWZZZAUZHW100007", "source": "text"}, {"vin": VIN_GOLF, "source": "text"}]
        route.fulfill(json={"candidates": candidates, "textReading": True})

    page.route(url + "/api/vin/scan", answer)
    sign_in(page, url, dealer)
    page.goto(url + "/vin")
    page.locator("#vin-scan-dialog").evaluate("(dialog) => { dialog.dataset.photoUrl = '/api/vin/scan'; }")

    page.get_by_role("button", name="Tara", exact=True).click()
    dialog = page.get_by_role("dialog", name="VIN'i okutun")
    expect(dialog.get_by_role("status")).to_contain_text("fotoğrafını çekin ya da seçin")
    dialog.get_by_text("Fotoğraf çek / seç").locator("input[type=file]").set_input_files(
        barcode_image("qr_code", VIN_GOLF, tmp_path / "photo.png")
    )
    expect(dialog.get_by_role("status")).to_have_text("Doğru VIN'e dokunun:")
    dialog.get_by_role("button", name=VIN_GOLF).click()

    expect(page).to_have_url(re.compile(r"/vehicles/\d+$"), timeout=WAIT_MS)
    assert b'name="image"' in sent[0]


# Counts the camera tracks stopped; gives the fake camera a torch (it has none) and records what the page asks of it.
TRACK_SPY = """
window.stoppedTracks = 0;
window.torchAsked = [];
const stop = MediaStreamTrack.prototype.stop;
MediaStreamTrack.prototype.stop = function () { window.stoppedTracks++; return stop.call(this); };
const capabilities = MediaStreamTrack.prototype.getCapabilities;
MediaStreamTrack.prototype.getCapabilities = function () { return { ...capabilities.call(this), torch: true }; };
MediaStreamTrack.prototype.applyConstraints = async function (constraints) {
  window.torchAsked.push(constraints.advanced[0].torch);
};
"""


def test_a_code_that_is_no_vin_does_not_count_the_torch_toggles_and_closing_stops_the_camera(scan_server, tmp_path):
    video = fake_camera_video(barcode_image("qr_code", "https://example.com/kampanya", tmp_path / "code.png"), tmp_path)
    url, dealer = scan_server
    errors: list[str] = []
    with chromium(video) as browser:
        tab = new_tab(browser, errors)
        tab.add_init_script(TRACK_SPY)
        sign_in(tab, url, dealer)
        tab.goto(url + "/vin")

        tab.get_by_role("button", name="Tara", exact=True).click()
        dialog = tab.get_by_role("dialog", name="VIN'i okutun")
        expect(dialog.get_by_role("status")).to_have_text(
            "Okunan kod bir VIN değil. Şasi numarasının barkodunu çerçeveye tutun.", timeout=WAIT_MS
        )
        torch = dialog.get_by_role("button", name="Fener")
        torch.click()
        expect(torch).to_have_attribute("aria-pressed", "true")
        assert tab.evaluate("window.torchAsked") == [True]
        dialog.get_by_role("button", name="Kapat").click()

        expect(dialog).to_be_hidden()
        assert tab.evaluate("window.stoppedTracks") >= 1
        assert tab.evaluate("document.querySelector('[data-scan-video]').srcObject") is None
        expect(tab.locator("#decode-vin")).to_have_value("")
        assert len(frame_times(tab)) >= 2  # it kept reading while the code was no VIN
    assert errors == []


def test_on_a_phone_the_header_has_the_vin_box_and_its_scan_button_and_a_photo_opens_the_vehicle(
    scan_server, page, tmp_path
):
    """A page with no VIN box of its own (the quotes list): at phone width the header has one, with its Tara button, as
    the landing page has; a photo read through it fills the box and the vehicle opens. On a wide screen, and on a page
    with its own box, the header keeps to its links."""
    url, dealer = scan_server
    page.set_viewport_size(PHONE["viewport"])
    sign_in(page, url, dealer)
    page.goto(url + "/teklifler")

    header = page.get_by_role("banner")
    box = header.get_by_role("textbox", name="VIN ile araç bul")
    scan = header.get_by_role("button", name="Tara", exact=True)
    expect(box).to_be_in_viewport()
    expect(scan).to_be_in_viewport()
    assert page.locator(".site-header").bounding_box()["height"] < 64  # still one row
    assert box.bounding_box()["width"] >= 120  # room to see a VIN
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]

    scan.click()
    dialog = page.get_by_role("dialog", name="VIN'i okutun")
    photo = dialog.get_by_text("Fotoğraf çek / seç")
    expect(photo).to_be_visible()  # headless Chromium has no camera: the photo is offered
    photo.locator("input[type=file]").set_input_files(barcode_image("qr_code", VIN_GOLF, tmp_path / "photo.png"))
    dialog.get_by_role("button", name=VIN_GOLF).click()
    expect(page).to_have_url(re.compile(r"/vehicles/\d+$"), timeout=WAIT_MS)

    page.goto(url + "/vin")  # its own box: one Tara button on the page
    expect(page.get_by_role("button", name="Tara", exact=True)).to_have_count(1)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url + "/teklifler")
    expect(page.get_by_role("banner").get_by_role("textbox", name="VIN ile araç bul")).to_be_hidden()
