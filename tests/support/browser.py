"""Browser-test helpers (Playwright pages)."""

from __future__ import annotations

import uuid

PASSWORD = "triger-kayisi-9"


def register(page, live_server: str) -> str:
    page.goto(live_server + "/register")
    page.get_by_label("Ad soyad").fill("Abone Bayi")
    email = f"e2e-pay-{uuid.uuid4().hex[:12]}@example.com"
    page.get_by_label("E-posta").fill(email)
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Kayıt ol").click()
    page.wait_for_url(live_server + "/welcome")
    return email
