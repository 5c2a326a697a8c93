"""A referral in a real browser, its mail through a real SMTP server and RQ worker: a dealer signs up with a share
link, an admin opens the verification mail in /admin/mail and follows its link, and the referrer's progress changes."""

from __future__ import annotations

import re
import uuid

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

import worker
from app.accounts.models import User
from app.accounts.services import create_user
from app.core.loopback import LoopbackServer
from app.extensions import db, redis_store
from app.notifications.local_mail import MailCatcher
from app.notifications.models import OutboxEmail
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

TAG = uuid.uuid4().hex[:8]
REFERRER = f"usta-{TAG}@example.com"
ADMIN = f"yonetici-{TAG}@example.com"
REFEREE = f"cirak-{TAG}@example.com"


@pytest.fixture
def mail_server(make_app, tmp_path):
    """A live server whose mail goes to an SMTP catcher; a committed referrer and admin, removed afterwards."""
    catcher = MailCatcher(tmp_path / "mailbox").start()
    app = make_app(MAIL_URL=catcher.url, MAILBOX_DIR=str(tmp_path / "mailbox"))
    with app.app_context():
        redis_store.client.flushdb()
        referrer = create_user(email=REFERRER, name="Usta Bayi", password=PASSWORD, email_verified=True)
        create_user(email=ADMIN, name="Yönetici", password=PASSWORD, role="admin", email_verified=True)
        db.session.commit()
        code = referrer.referral_code
        db.session.remove()
    server = LoopbackServer(app, name="live-server").start()
    app.config["BASE_URL"] = server.url  # the links in the mail
    try:
        yield server.url, app, code
    finally:
        server.stop()
        catcher.stop()
        with app.app_context():
            db.session.execute(sa.delete(User).where(User.email.in_([REFERRER, ADMIN, REFEREE])))
            db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address.in_([REFERRER, REFEREE])))
            db.session.commit()
            db.session.remove()
            redis_store.client.flushdb()


def sign_in_as(page, url: str, email: str) -> None:
    page.goto(url + "/login")
    page.get_by_label("E-posta").fill(email)
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Giriş yap").click()
    page.wait_for_url(url + "/")


def confirmed_count(page, url: str) -> str:
    page.goto(url + "/account/referrals")
    return page.locator("#referral-qualified").inner_text()


def test_a_referred_sign_up_is_verified_from_the_admins_mailbox_and_the_referrer_progresses(mail_server, page):
    url, app, code = mail_server
    browser = page.context.browser
    referrer = browser.new_context(locale="tr-TR").new_page()
    admin = browser.new_context(locale="tr-TR").new_page()
    sign_in_as(referrer, url, REFERRER)
    assert confirmed_count(referrer, url) == "0"

    page.goto(f"{url}/register?ref={code}")
    expect(page.get_by_label("Davet kodu (isteğe bağlı)")).to_have_value(code)
    page.get_by_label("Ad soyad").fill("Çırak Bayi")
    page.get_by_label("E-posta").fill(REFEREE)
    page.get_by_label("Şifre").fill("yedek-parca-2026")
    page.get_by_role("button", name="Kayıt ol").click()
    page.wait_for_url(re.compile(r"/welcome$"))
    worker.run_worker(app, burst=True)  # the email queue: the mails go to the SMTP server

    sign_in_as(admin, url, ADMIN)
    admin.goto(url + "/admin/mail")
    admin.get_by_role("link", name="E-posta adresinizi doğrulayın").click()
    expect(admin.locator(".mail-headers")).to_contain_text(REFEREE)
    admin.locator(".mail-body").get_by_role("link", name="Aç").click()
    admin.get_by_role("button", name="E-postamı doğrula").click()
    expect(admin.locator(".notice-success")).to_contain_text("doğrulandı")

    assert confirmed_count(referrer, url) == "1"
    expect(referrer.locator(".referral-list")).to_contain_text("Çırak Bayi")
    expect(referrer.locator(".referral-list")).to_contain_text("Doğrulandı")
    assert page.console_errors == []
