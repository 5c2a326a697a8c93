"""The account page: details, sign-in methods, password change and account deletion."""

import pytest

from app.accounts.models import User
from app.accounts.services import link_account
from app.auth.sessions import COOKIE_NAME, create_session, sign
from app.extensions import db
from tests.conftest import PASSWORD, SITE, csrf_token_from, outbox

NEW_PASSWORD = "yeni-sifre-2026"


def submit(client, url: str, data: dict):
    """Post a form from the account page with its CSRF token, as the browser would."""
    token = csrf_token_from(client.get("/account").get_data(as_text=True))
    return client.post(url, data={"csrf_token": token, **data})


def api_sign_in(client, email: str, password: str = PASSWORD) -> int:
    return client.post("/api/auth/sign-in/email", json={"email": email, "password": password}, headers=SITE).status_code


def sign_in_directly(client, user: User) -> None:
    """Sign in a user who has no password (a social-only account) without going through a provider."""
    client.set_cookie(COOKIE_NAME, sign(create_session(user, persistent=False).id))
    db.session.commit()


def signed_in_email(client) -> str | None:
    body = client.get("/api/auth/get-session").get_json()
    return body["user"]["email"] if body else None


@pytest.fixture
def dealer(create_user, sign_in):
    user = create_user(name="Kemal Oto", email="kemal@example.com")
    sign_in(user.email)
    return user


def test_account_page_needs_a_session(client):
    response = client.get("/account")

    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=/account"


def test_account_page_shows_the_details_in_turkish(client, dealer):
    response = client.get("/account")

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<h1 class="page-title">Hesabım</h1>' in html
    assert "Kemal Oto" in html and "kemal@example.com" in html and dealer.referral_code in html
    assert "Doğrulandı" in html and "Doğrulama e-postasını yeniden gönder" not in html
    assert 'name="current_password"' in html
    assert "Onaylamak için şifrenizi yazın" in html and "Bu işlem geri alınamaz" in html


def test_user_names_are_escaped(client, create_user, sign_in):
    sign_in(create_user(name="<script>alert(1)</script>").email)

    html = client.get("/account").get_data(as_text=True)

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_unverified_user_can_resend_the_verification_email(client, create_user, sign_in):
    user = create_user(email_verified=False)
    sign_in(user.email)
    assert "Doğrulanmadı" in client.get("/account").get_data(as_text=True)

    response = submit(client, "/account/verification-email", {})

    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert [mail.to_address for mail in outbox("verify_email")] == [user.email]
    assert f"{user.email} adresine yeni bir doğrulama bağlantısı gönderdik." in client.get("/account").get_data(
        as_text=True
    )


def test_social_connection_can_be_unlinked_when_a_password_remains(client, dealer):
    link_account(dealer, "google", "google-subject-1", "kemal@gmail.com")
    db.session.commit()
    assert "Google bağlantısını kaldır" in client.get("/account").get_data(as_text=True)

    response = submit(client, "/account/connections/google/unlink", {})

    assert response.status_code == 303
    html = client.get("/account").get_data(as_text=True)
    assert "Google ile giriş kaldırıldı." in html and "kemal@gmail.com" not in html


def test_the_last_sign_in_method_cannot_be_unlinked(client, create_user):
    user = create_user(password=None)
    link_account(user, "google", "google-subject-2", user.email)
    db.session.commit()
    sign_in_directly(client, user)

    response = submit(client, "/account/connections/google/unlink", {})

    assert response.status_code == 409
    assert "Bu, hesabınıza girmenin tek yolu." in response.get_data(as_text=True)
    db.session.expire_all()
    assert len(db.session.get(User, user.id).accounts) == 1


def test_changing_the_password_keeps_this_session_and_ends_the_others(app, client, dealer):
    other_device = app.test_client()
    assert api_sign_in(other_device, dealer.email) == 200

    response = submit(client, "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD})

    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert "Diğer cihazlardaki oturumlar kapatıldı." in client.get("/account").get_data(as_text=True)
    assert signed_in_email(client) == dealer.email
    assert signed_in_email(other_device) is None
    assert api_sign_in(app.test_client(), dealer.email, NEW_PASSWORD) == 200
    assert api_sign_in(app.test_client(), dealer.email, PASSWORD) == 401


def test_a_wrong_current_password_changes_nothing(app, client, dealer):
    response = submit(client, "/account/password", {"current_password": "wrong-one", "new_password": NEW_PASSWORD})

    assert response.status_code == 400
    assert "Mevcut şifre hatalı." in response.get_data(as_text=True)
    assert api_sign_in(app.test_client(), dealer.email, PASSWORD) == 200


def test_a_social_only_user_sets_a_password_without_a_current_one(app, client, create_user):
    user = create_user(password=None)
    sign_in_directly(client, user)
    html = client.get("/account").get_data(as_text=True)
    assert 'name="current_password"' not in html and "Şifre belirleyin" in html

    response = submit(client, "/account/password", {"new_password": NEW_PASSWORD})

    assert response.status_code == 303
    assert api_sign_in(app.test_client(), user.email, NEW_PASSWORD) == 200


def test_a_forged_post_without_the_csrf_token_changes_nothing(client, dealer):
    assert client.post("/account/delete", data={"confirmation": PASSWORD}).status_code == 403
    assert client.post("/account/password", data={"new_password": NEW_PASSWORD}).status_code == 403

    db.session.expire_all()
    assert db.session.get(User, dealer.id) is not None
    assert signed_in_email(client) == dealer.email


def test_delete_with_the_wrong_confirmation_deletes_nothing(client, dealer):
    response = submit(client, "/account/delete", {"confirmation": "wrong-password"})

    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Onay eşleşmedi. Hiçbir şey silinmedi." in html
    assert 'value="wrong-password"' not in html  # the typed password is not echoed back
    db.session.expire_all()
    assert db.session.get(User, dealer.id) is not None


def test_delete_with_the_password_removes_the_user_and_signs_out(client, dealer):
    user_id = dealer.id

    response = submit(client, "/account/delete", {"confirmation": PASSWORD})

    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "Hesabınız silindi." in client.get("/").get_data(as_text=True)
    assert client.get_cookie(COOKIE_NAME) is None
    db.session.expire_all()
    assert db.session.get(User, user_id) is None


def test_a_social_only_user_confirms_deletion_with_the_email(client, create_user):
    user = create_user(password=None)
    user_id = user.id
    sign_in_directly(client, user)
    assert "Onaylamak için e-posta adresinizi yazın" in client.get("/account").get_data(as_text=True)

    response = submit(client, "/account/delete", {"confirmation": user.email.upper()})

    assert response.status_code == 303
    db.session.expire_all()
    assert db.session.get(User, user_id) is None
