"""The /raf pages: upload, preview with the mapping form, progress (HTMX fragment and without), result, and the
"Rafım" link; another dealer's imports are not found."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from app.extensions import db, limiter
from app.shelf.models import ShelfImport
from tests.conftest import SITE, csrf_token_from
from tests.shelf.conftest import MULTIPART, csv_bytes, multipart, run_worker, upload

ROWS = [
    ["Stok Kodu", "OEM No", "Ürün Adı", "Fiyat", "Stok"],
    ["KD-1", "1K0129620D", "<script>alert('x')</script>", "1.250,50", "3"],
    ["KD-2", "06A115561B", "Yağ filtresi", "on lira", "1"],
]


def page(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def upload_page(client, data: bytes, filename: str = "liste.csv"):
    token = csrf_token_from(client.get("/raf").get_data(as_text=True))
    body = multipart(data, filename, extra={"csrf_token": token})
    return client.post("/raf/yukle", data=body, content_type=MULTIPART)


def test_the_signed_in_header_links_to_the_shelf(client, dealer):
    links = page(client.get("/raf")).select("header nav a")
    assert any(link.get_text(strip=True) == "Rafım" and link["href"] == "/raf" for link in links)


def test_a_list_goes_from_upload_to_preview_to_progress_to_result(client, dealer):
    assert "Henüz liste yok" in client.get("/raf").get_data(as_text=True)

    uploaded = upload_page(client, csv_bytes(ROWS, encoding="utf-8"))
    assert uploaded.status_code == 303
    preview = client.get(uploaded.headers["Location"])
    html = preview.get_data(as_text=True)
    soup = page(preview)
    assert "<script>alert" not in html and "&lt;script&gt;" in html  # the dealer's cells are text
    assert soup.select_one("#map-oem option[selected]")["value"] == "1"
    assert soup.select_one("#map-own_code option[selected]")["value"] == "0"
    assert [cell.get_text() for cell in soup.select(".shelf-preview tbody tr")[1].select("td")][:3] == [
        "KD-2",
        "06A115561B",
        "Yağ filtresi",
    ]

    form = soup.select_one("form.shelf-mapping")
    chosen = {"csrf_token": csrf_token_from(html), "oem": "1", "own_code": "0", "name": "2", "price": "3", "stock": "4"}
    started = client.post(form["action"], data=chosen)
    assert started.status_code == 303
    importing = page(client.get(started.headers["Location"]))
    poll = importing.select_one("#shelf-progress")
    assert poll["hx-get"].endswith("/ilerleme") and importing.select_one("progress") is not None
    assert importing.select_one("noscript a")  # without JavaScript: a refresh link

    run_worker()
    fragment = client.get(poll["hx-get"], headers={"HX-Request": "true"})
    result = page(fragment)
    assert "HX-Request" in fragment.headers["Vary"] and result.select_one("html") is None
    assert result.select_one("#shelf-progress").get("hx-get") is None  # finished: no more polling
    assert "Aktarıldı: 1 satır; hatalı 1 satır alınmadı" in result.get_text()
    assert [cell.get_text() for cell in result.select(".shelf-errors td")] == ["3", "Fiyat okunamadı."]
    whole = client.get(poll["hx-get"])
    assert page(whole).select_one("html") is not None and "Fiyat okunamadı." in whole.get_data(as_text=True)

    shelf = client.get("/raf").get_data(as_text=True)
    assert "liste.csv · 1 satır" in shelf and "kullanımda" in shelf


def test_a_mapping_without_a_number_is_shown_again_with_the_error(client, dealer):
    uploaded = upload_page(client, csv_bytes(ROWS, encoding="utf-8"))
    html = client.get(uploaded.headers["Location"]).get_data(as_text=True)
    action = page(client.get(uploaded.headers["Location"])).select_one("form.shelf-mapping")["action"]

    refused = client.post(action, data={"csrf_token": csrf_token_from(html), "name": "2", "aftermarket": ["3"]})

    soup = page(refused)
    assert refused.status_code == 400
    assert "OEM numarasının veya kendi stok kodunuzun sütununu seçin." in soup.select_one(".alert-error").get_text()
    assert soup.select_one("#map-name option[selected]")["value"] == "2"
    assert soup.select_one("input[name=aftermarket][value='3']").has_attr("checked")


def test_an_unreadable_file_is_refused_on_the_page(client, dealer):
    refused = upload_page(client, b"\x00\x01\x02" * 100, "liste.csv")

    assert refused.status_code == 422
    assert "Bu dosya bir CSV veya Excel (.xlsx) listesi değil." in page(refused).select_one(".alert-error").get_text()


@pytest.fixture
def others_import(client, create_user, sign_in, dealer) -> int:
    """An import of another dealer; the client is signed in as `dealer` again afterwards."""
    other = create_user(email="baska@example.com")
    sign_in(other.email)
    import_id = upload(client, csv_bytes([["OEM"], ["A1"]])).get_json()["id"]
    sign_in(dealer.email)
    return import_id


def import_routes(app) -> list[tuple[str, str]]:
    """(method, rule) of every shelf route, page or API, that takes an import id."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("shelf") and "import_id" in rule.arguments:
            found.extend((method, rule.rule) for method in sorted(rule.methods - {"HEAD", "OPTIONS"}))
    return found


def test_the_import_routes_are_all_walked(app):
    assert len(import_routes(app)) >= 5


def test_another_dealers_import_is_not_found_on_any_route(app, client, others_import):
    csrf = csrf_token_from(client.get("/raf").get_data(as_text=True))
    answers = {}
    for method, rule in import_routes(app):
        path = rule.replace("<int:import_id>", str(others_import))
        if rule.startswith("/api/"):
            body = {"oem": 0} if method != "GET" else None
            answers[method, path] = client.open(path, method=method, json=body, headers=SITE)
        else:
            answers[method, path] = client.open(path, method=method, data={"csrf_token": csrf, "oem": "0"})
            if method == "GET":
                answers[method, path, "htmx"] = client.get(path, headers={"HX-Request": "true"})
    answers["unknown"] = client.get("/api/shelf/imports/2147483648")

    assert {key: answer.status_code for key, answer in answers.items()} == dict.fromkeys(answers, 404)
    shown = answers["GET", f"/api/shelf/imports/{others_import}"].get_json()
    assert shown["error"]["message"] == "Bu liste aktarımı bulunamadı."
    assert client.get("/api/shelf/imports").get_json() == {"items": [], "activeId": None}
    assert "baska" not in client.get("/raf").get_data(as_text=True)
    db.session.expire_all()
    untouched = db.session.get(ShelfImport, others_import)
    assert untouched.status == "uploaded" and untouched.mapping is None


def test_uploads_share_one_budget_per_dealer_on_the_api_and_the_page(
    app, client, dealer, monkeypatch, create_user, sign_in
):
    monkeypatch.setitem(app.config, "SHELF_UPLOAD_RATE_LIMIT", "3 per minute")
    monkeypatch.setattr(limiter, "enabled", True)  # one object for every app: the last one built set it
    data = csv_bytes(ROWS)

    statuses = [
        upload(client, data).status_code,
        upload_page(client, data).status_code,
        upload(client, data).status_code,
    ]
    refused_api, refused_page = upload(client, data), upload_page(client, data)

    assert statuses == [201, 303, 201]
    assert refused_api.status_code == 429 and refused_api.get_json()["error"]["code"] == "rate_limited"
    assert refused_page.status_code == 429 and "Çok fazla istek" in refused_page.get_data(as_text=True)
    sign_in(create_user(email="ikinci-raf@example.com").email)
    assert upload(client, data).status_code == 201  # another dealer's budget is their own
