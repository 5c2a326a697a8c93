"""Signing up, out and in again through the pages, in a real browser."""

import time
import uuid

import pytest

from app.auth.sessions import COOKIE_NAME

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

PASSWORD = "fren-balatasi-7"
TWENTY_NINE_DAYS = 29 * 24 * 3600


def session_cookie(page) -> dict | None:
    return next((cookie for cookie in page.context.cookies() if cookie["name"] == COOKIE_NAME), None)


def expect_signed_out(page) -> None:
    header = page.locator(".site-header")
    assert header.get_by_role("link", name="Giriş yap").is_visible()
    assert header.get_by_role("button", name="Çıkış yap").count() == 0
    assert session_cookie(page) is None


def sign_out(page, live_server: str) -> None:
    page.locator(".site-header").get_by_role("button", name="Çıkış yap").click()
    page.wait_for_url(live_server + "/")


def test_sign_up_sign_out_and_sign_in_again_with_remember_me(live_server, page):
    name = "Tarayıcı Bayi"
    email = f"e2e-{uuid.uuid4().hex[:12]}@example.com"

    page.goto(live_server + "/register")
    page.get_by_label("Ad soyad").fill(name)
    page.get_by_label("E-posta").fill(email)
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Kayıt ol").click()
    page.wait_for_url(live_server + "/welcome")
    assert page.locator(".header-user").inner_text() == name

    sign_out(page, live_server)
    expect_signed_out(page)

    page.locator(".site-header").get_by_role("link", name="Giriş yap").click()
    page.get_by_label("E-posta").fill(email)
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_label("Beni hatırla").check()
    page.get_by_role("button", name="Giriş yap").click()
    page.wait_for_url(live_server + "/")
    page.reload()

    assert page.locator(".header-user").inner_text() == name
    assert session_cookie(page)["expires"] > time.time() + TWENTY_NINE_DAYS
    sign_out(page, live_server)
    expect_signed_out(page)
    assert page.console_errors == []


def test_a_wrong_password_keeps_the_dealer_on_the_form_with_the_reason(live_server, page):
    page.goto(live_server + "/login")
    page.get_by_label("E-posta").fill(f"nobody-{uuid.uuid4().hex[:12]}@example.com")
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Giriş yap").click()

    assert page.get_by_role("alert").inner_text() == "Bu e-posta ile kayıtlı bir hesap yok."
    expect_signed_out(page)
