"""The sign-in pages: login, register, logout, forgotten password, reset and e-mail verification."""

import pytest
import sqlalchemy as sa

from app.accounts.models import User
from app.accounts.services import find_user_by_email
from app.auth.sessions import COOKIE_NAME
from app.extensions import db
from tests.conftest import PASSWORD, csrf_token_from, link_token, outbox

NEW_DEALER = {"name": "Ayşe Kaya", "email": "ayse@example.com", "password": "fren-balatasi-7"}


def submit(client, url: str, data: dict, page: str | None = None):
    """Open the page (for its CSRF token) and post the form to `url`, as a browser would."""
    token = csrf_token_from(client.get(page or url).get_data(as_text=True))
    return client.post(url, data={"csrf_token": token, **data})


def session_cookie_header(response) -> str:
    return next(value for value in response.headers.getlist("Set-Cookie") if value.startswith(f"{COOKIE_NAME}="))


def _users() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(User))


def _signed_in_email(client) -> str | None:
    body = client.get("/api/auth/get-session").get_json()
    return body["user"]["email"] if body else None


@pytest.mark.parametrize(
    ("url", "heading"),
    [
        ("/login", "<h1>Giriş yap</h1>"),
        ("/register", "<h1>Hesabınızı oluşturun</h1>"),
        ("/forgot-password", "<h1>Şifrenizi mi unuttunuz?</h1>"),
        ("/reset-password?token=abc", "<h1>Yeni şifre belirleyin</h1>"),
        ("/verify-email?token=abc", "<h1>E-postanızı doğrulayın</h1>"),
    ],
)
def test_each_page_renders_in_turkish_with_a_csrf_protected_post_form(client, url, heading):
    response = client.get(url)

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert heading in html
    assert 'method="post"' in html and 'name="csrf_token"' in html


def test_signed_out_header_offers_sign_in_and_register(client):
    html = client.get("/").get_data(as_text=True)

    assert 'href="/login">Giriş yap</a>' in html
    assert 'href="/register">Kayıt ol</a>' in html
    assert "Çıkış yap" not in html


def test_register_creates_the_user_signs_in_and_mails_the_verification_link(client):
    response = submit(client, "/register", NEW_DEALER)

    assert response.status_code == 303 and response.headers["Location"] == "/welcome"
    assert "Expires" in session_cookie_header(response)  # a new dealer stays signed in
    assert _signed_in_email(client) == "ayse@example.com"
    header = client.get("/").get_data(as_text=True)
    assert "Ayşe Kaya" in header and "Hesabım" in header and "Çıkış yap" in header
    assert "/verify-email?token=" in outbox("verify_email")[0].body_text


def test_register_returns_to_the_page_asked_for(client):
    response = submit(client, "/register?next=/account", NEW_DEALER)

    assert response.headers["Location"] == "/account"


@pytest.mark.parametrize(
    ("changes", "status", "message"),
    [
        ({"email": "bayi1@example.com"}, 409, "Bu e-posta ile kayıtlı bir hesap zaten var."),
        ({"password": "kisa"}, 400, "Şifre en az 8 karakter olmalıdır."),
        ({"email": "not-an-email"}, 400, "Geçerli bir e-posta adresi girin."),
        ({"name": ""}, 400, "Adınızı girin."),
    ],
)
def test_bad_registration_shows_the_reason_on_the_form(client, create_user, changes, status, message):
    create_user(email="bayi1@example.com")

    response = submit(client, "/register", {**NEW_DEALER, **changes})

    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert _users() == 1
    assert client.get_cookie(COOKIE_NAME) is None


def test_login_with_remember_me_sets_a_persistent_cookie(client, create_user):
    user = create_user(name="Mehmet Usta")

    response = submit(client, "/login", {"email": user.email, "password": PASSWORD, "remember": "y"})

    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "Expires" in session_cookie_header(response)
    assert "Mehmet Usta" in client.get("/").get_data(as_text=True)


def test_login_without_remember_me_sets_a_browser_session_cookie(client, create_user):
    user = create_user()

    response = submit(client, "/login", {"email": user.email, "password": PASSWORD})

    assert "Expires" not in session_cookie_header(response)
    assert _signed_in_email(client) == user.email


def test_login_honours_a_local_next_and_ignores_a_foreign_one(client, create_user):
    user = create_user()
    credentials = {"email": user.email, "password": PASSWORD}

    assert submit(client, "/login?next=/account", credentials).headers["Location"] == "/account"
    client.post("/logout", data={"csrf_token": csrf_token_from(client.get("/").get_data(as_text=True))})
    assert submit(client, "/login?next=https://evil.example/", credentials).headers["Location"] == "/"


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("bayi1@example.com", "wrong-password", "E-posta veya şifre hatalı."),
        ("nobody@example.com", PASSWORD, "Bu e-posta ile kayıtlı bir hesap yok."),
    ],
)
def test_wrong_login_says_precisely_what_is_wrong_and_signs_nobody_in(client, create_user, email, password, message):
    create_user(email="bayi1@example.com")

    response = submit(client, "/login", {"email": email, "password": password})

    html = response.get_data(as_text=True)
    assert response.status_code == 401
    assert message in html and 'role="alert"' in html
    assert f'value="{email}"' in html  # the dealer does not retype the address
    assert client.get_cookie(COOKIE_NAME) is None


def test_empty_login_form_names_each_missing_field(client):
    response = submit(client, "/login", {"email": "", "password": ""})

    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "E-posta adresinizi girin." in html and "Şifrenizi girin." in html
    assert 'aria-invalid="true"' in html


def test_social_error_is_explained_on_the_login_page(client):
    html = client.get("/login?social_error=1").get_data(as_text=True)

    assert "Sosyal hesapla giriş tamamlanamadı. Lütfen tekrar deneyin." in html


@pytest.mark.parametrize("url", ["/login", "/register"])
def test_signed_in_users_are_sent_home_from_login_and_register(client, create_user, sign_in, url):
    sign_in(create_user().email)

    response = client.get(url)

    assert response.status_code == 302 and response.headers["Location"] == "/"


def test_a_forged_post_without_the_csrf_token_is_refused(client, create_user):
    user = create_user()

    response = client.post("/login", data={"email": user.email, "password": PASSWORD})
    refused_signup = client.post("/register", data=NEW_DEALER)

    assert response.status_code == 403 and refused_signup.status_code == 403
    assert "Formun süresi dolmuş" in response.get_data(as_text=True)
    assert client.get_cookie(COOKIE_NAME) is None
    assert find_user_by_email(NEW_DEALER["email"]) is None


def test_logout_ends_the_session(client, create_user, sign_in):
    sign_in(create_user().email)
    old_cookie = client.get_cookie(COOKIE_NAME).value

    response = submit(client, "/logout", {}, page="/")

    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert client.get("/api/auth/get-session").get_json() is None
    client.set_cookie(COOKIE_NAME, old_cookie)
    assert client.get("/api/auth/get-session").get_json() is None


def test_logout_needs_the_csrf_token(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    assert client.post("/logout").status_code == 403
    assert _signed_in_email(client) == user.email


def test_forgotten_password_flow_sets_the_new_password_once(client, create_user):
    user = create_user()

    sent = submit(client, "/forgot-password", {"email": user.email})
    confirmation = client.get(sent.headers["Location"]).get_data(as_text=True)
    token = link_token(outbox("reset_password")[0].body_text)
    reset_page = client.get(f"/reset-password?token={token}").get_data(as_text=True)
    reset = submit(client, "/reset-password", {"token": token, "password": "yeni-sifre-2026"}, page="/reset-password")
    login_page = client.get(reset.headers["Location"]).get_data(as_text=True)

    assert sent.status_code == 303
    assert "Bu e-postaya ait bir hesap varsa" in confirmation
    assert f'value="{token}"' in reset_page
    assert reset.status_code == 303 and reset.headers["Location"] == "/login"
    assert "Şifreniz değiştirildi. Yeni şifrenizle giriş yapın." in login_page
    assert submit(client, "/login", {"email": user.email, "password": PASSWORD}).status_code == 401
    assert submit(client, "/login", {"email": user.email, "password": "yeni-sifre-2026"}).status_code == 303
    again = submit(client, "/reset-password", {"token": token, "password": "baska-sifre-99"}, page="/reset-password")
    assert again.status_code == 400
    assert "Bu bağlantı geçersiz, süresi dolmuş ya da zaten kullanılmış." in again.get_data(as_text=True)


def test_forgot_password_answers_the_same_for_an_unknown_email(client):
    response = submit(client, "/forgot-password", {"email": "nobody@example.com"})

    assert response.status_code == 303
    assert "Bu e-postaya ait bir hesap varsa" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert outbox() == []


def test_reset_with_a_weak_password_shows_why_and_keeps_the_link_usable(client, create_user):
    user = create_user()
    submit(client, "/forgot-password", {"email": user.email})
    token = link_token(outbox("reset_password")[0].body_text)

    weak = submit(client, "/reset-password", {"token": token, "password": "kisa"}, page="/reset-password")
    strong = submit(client, "/reset-password", {"token": token, "password": "yeni-sifre-2026"}, page="/reset-password")

    assert weak.status_code == 400 and "Şifre en az 8 karakter olmalıdır." in weak.get_data(as_text=True)
    assert strong.status_code == 303


def test_verify_page_spends_the_token_only_when_the_button_is_pressed(client):
    submit(client, "/register", NEW_DEALER)
    token = link_token(outbox("verify_email")[0].body_text)

    for _ in range(2):  # a mail scanner opening the link twice
        page = client.get(f"/verify-email?token={token}").get_data(as_text=True)
    assert "E-postamı doğrula" in page
    assert find_user_by_email(NEW_DEALER["email"]).email_verified is False

    confirmed = submit(client, "/verify-email", {"token": token}, page="/")
    db.session.expire_all()
    assert confirmed.status_code == 303 and confirmed.headers["Location"] == "/account"
    assert find_user_by_email(NEW_DEALER["email"]).email_verified is True
    assert "E-posta adresiniz doğrulandı." in client.get("/account").get_data(as_text=True)

    again = submit(client, "/verify-email", {"token": token}, page="/")
    assert again.status_code == 400
    assert "Bu bağlantı geçersiz" in again.get_data(as_text=True)


@pytest.mark.parametrize(
    ("status", "message"),
    [
        ("suspended", "Hesabınız askıya alındı. Lütfen destek ile iletişime geçin."),
        ("banned", "Hesabınız kapatıldı. Lütfen destek ile iletişime geçin."),
    ],
)
def test_inactive_user_cannot_sign_in_on_the_page(client, create_user, status, message):
    user = create_user(status=status)

    response = submit(client, "/login", {"email": user.email, "password": PASSWORD})

    assert response.status_code == 403
    assert message in response.get_data(as_text=True)
    assert client.get_cookie(COOKIE_NAME) is None


def test_suspended_user_with_a_session_sees_the_turkish_page_and_can_sign_out(client, create_user, sign_in):
    user = create_user(name="Askıdaki Bayi")
    sign_in(user.email)
    user.status = "suspended"
    db.session.commit()

    response = client.get("/account")

    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert "Hesabınız askıya alındı. Lütfen destek ile iletişime geçin." in html
    assert "Askıdaki Bayi" in html and 'action="/logout"' in html
    assert submit(client, "/logout", {}, page="/account").status_code == 303
    assert client.get("/api/auth/get-session").get_json() is None


def test_login_is_throttled_with_the_form_still_shown(make_app, create_user):
    user = create_user()
    client = make_app(SIGN_IN_RATE_LIMIT="3 per minute").test_client()

    statuses = [
        submit(client, "/login", {"email": user.email, "password": "wrong-password"}).status_code for _ in range(4)
    ]
    throttled = submit(client, "/login", {"email": user.email, "password": PASSWORD})

    assert statuses == [401, 401, 401, 429]
    html = throttled.get_data(as_text=True)
    assert throttled.status_code == 429
    assert "Çok fazla deneme yapıldı." in html and 'action="/login"' in html
    assert client.get_cookie(COOKIE_NAME) is None


def test_page_views_do_not_count_towards_the_sign_in_limit(make_app):
    client = make_app(SIGN_IN_RATE_LIMIT="3 per minute").test_client()

    assert {client.get("/login").status_code for _ in range(5)} == {200}
