"""Error responses: JSON shape under /api, HTML pages elsewhere, in the request's language."""

import pytest
from flask import Blueprint, abort

from app.core.errors import ApiError
from app.core.security import public


def test_unknown_api_path_is_json_404_in_turkish_by_default(client):
    response = client.get("/api/no-such-thing")

    assert response.status_code == 404
    assert response.is_json
    assert response.get_json() == {"error": {"code": "not_found", "message": "Aradığınız sayfa veya kayıt bulunamadı."}}
    assert "Aradığınız".encode() in response.data  # UTF-8, not \u escapes


def test_api_error_message_follows_accept_language(client):
    response = client.get("/api/no-such-thing", headers={"Accept-Language": "en-US,en;q=0.9"})

    assert response.get_json()["error"] == {
        "code": "not_found",
        "message": "The page or record you asked for was not found.",
    }


def test_unknown_page_is_html_404_in_turkish_with_a_way_back(client):
    response = client.get("/no-such-page")

    assert response.status_code == 404
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "Sayfa bulunamadı" in html
    assert 'href="/"' in html and "Ana sayfaya dön" in html


def test_wrong_method_on_api_is_json_405(client):
    response = client.post("/api/health", headers={"Accept-Language": "en"})

    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"
    assert "GET" in response.headers["Allow"]


@pytest.fixture
def failing_app(make_app):
    app = make_app()
    failures = Blueprint("failures", __name__)

    @failures.get("/api/test/refused")
    @public
    def refused():
        raise ApiError("vin_invalid", "Şasi numarası 17 karakter olmalı.", 422)

    @failures.get("/api/test/crash")
    @public
    def api_crash():
        raise RuntimeError("boom")

    @failures.get("/test/crash")
    @public
    def page_crash():
        raise RuntimeError("boom")

    @failures.get("/test/forbidden")
    @public
    def page_forbidden():
        abort(403)

    app.register_blueprint(failures)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    return app


def test_api_error_carries_code_message_and_status(failing_app):
    response = failing_app.test_client().get("/api/test/refused")

    assert response.status_code == 422
    assert response.get_json() == {"error": {"code": "vin_invalid", "message": "Şasi numarası 17 karakter olmalı."}}


def test_unexpected_api_failure_is_json_500_without_details(failing_app):
    response = failing_app.test_client().get("/api/test/crash", headers={"Accept-Language": "en"})

    assert response.status_code == 500
    body = response.get_json()
    assert body["error"]["code"] == "internal_error"
    assert "boom" not in response.get_data(as_text=True)


def test_unexpected_page_failure_is_turkish_html_500(failing_app):
    response = failing_app.test_client().get("/test/crash")

    assert response.status_code == 500
    html = response.get_data(as_text=True)
    assert "Bir şeyler ters gitti" in html
    assert "boom" not in html


def test_forbidden_page_is_html_in_english_when_asked(failing_app):
    response = failing_app.test_client().get("/test/forbidden?lang=en")

    assert response.status_code == 403
    assert "You are not allowed to do this." in response.get_data(as_text=True)
