"""The JSON authentication API under /api/auth."""

from datetime import timedelta

import pytest
import sqlalchemy as sa

from app.accounts.models import User
from app.auth.models import AuthSession
from app.auth.sessions import COOKIE_NAME
from app.core.db import utcnow
from app.extensions import db
from tests.conftest import PASSWORD, SITE, link_token, outbox

NEW_USER = {"name": "Ahmet Yılmaz", "email": "Ahmet@Example.com", "password": "yedek-parca-2026"}


def signs_in(client, email: str, password: str) -> bool:
    """Whether `password` opens a session for `email` now (signed out again afterwards)."""
    response = client.post("/api/auth/sign-in/email", json={"email": email, "password": password}, headers=SITE)
    if response.status_code != 200:
        return False
    client.post("/api/auth/sign-out", json={}, headers=SITE)
    return True


def _users() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(User))


def test_sign_up_creates_the_user_signs_in_and_mails_welcome_and_verification(client):
    response = client.post("/api/auth/sign-up/email", json=NEW_USER)

    assert response.status_code == 201
    body = response.get_json()
    assert body["user"]["email"] == "ahmet@example.com"
    assert body["user"]["emailVerified"] is False
    assert len(body["user"]["referralCode"]) == 8
    assert body["session"]["persistent"] is True
    assert client.get_cookie(COOKIE_NAME) is not None
    assert client.get("/api/auth/get-session").get_json()["user"]["name"] == "Ahmet Yılmaz"
    assert [mail.template for mail in outbox()] == ["welcome", "verify_email"]
    assert "/verify-email?token=" in outbox("verify_email")[0].body_text


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"email": "a@b.co", "password": "yedek-parca-2026"}, "missing_field", 400),
        ({**NEW_USER, "email": "not-an-email"}, "invalid_email", 400),
        ({**NEW_USER, "password": "short"}, "weak_password", 400),
        ({**NEW_USER, "password": "ahmet@example.com"}, "weak_password", 400),
        ({**NEW_USER, "name": "x" * 101}, "field_too_long", 400),
        ({**NEW_USER, "password": "p" * 129}, "field_too_long", 400),
        ({**NEW_USER, "name": 42}, "invalid_field", 400),
    ],
)
def test_bad_sign_up_input_is_refused_and_creates_nothing(client, body, code, status):
    response = client.post("/api/auth/sign-up/email", json=body)

    assert response.status_code == status
    assert response.get_json()["error"]["code"] == code
    assert _users() == 0
    assert outbox() == []
    assert client.get_cookie(COOKIE_NAME) is None


def test_malformed_json_is_refused_in_turkish(client):
    response = client.post("/api/auth/sign-up/email", data="{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "invalid_json",
        "message": "İstek gövdesi geçerli bir JSON nesnesi değil.",
    }


def test_missing_field_message_names_the_field_in_turkish(client):
    response = client.post("/api/auth/sign-in/email", json={"email": "a@b.co"})

    assert response.get_json()["error"]["message"] == "Şifre zorunludur."


def test_sign_up_with_a_taken_email_is_409(client, create_user):
    create_user(email="ahmet@example.com")

    response = client.post("/api/auth/sign-up/email", json=NEW_USER)

    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "email_taken"
    assert _users() == 1


def test_sign_in_without_remember_me_sets_a_browser_session_cookie(client, create_user, sign_in):
    user = create_user()

    response = sign_in(user.email)

    cookie_header = response.headers["Set-Cookie"]
    assert cookie_header.startswith(f"{COOKIE_NAME}=")
    assert "HttpOnly" in cookie_header and "SameSite=Lax" in cookie_header
    assert "Expires" not in cookie_header
    assert response.get_json()["session"]["persistent"] is False


def test_sign_in_with_remember_me_sets_a_30_day_cookie(client, create_user, sign_in):
    user = create_user()

    response = sign_in(user.email, remember=True)

    assert "Expires" in response.headers["Set-Cookie"]
    row = db.session.scalar(sa.select(AuthSession).where(AuthSession.user_id == user.id))
    assert timedelta(days=29, hours=23) < row.expires_at - utcnow() <= timedelta(days=30)


@pytest.mark.parametrize(("email", "password"), [("bayi1@example.com", "wrong-password"), ("nobody@x.co", PASSWORD)])
def test_wrong_credentials_are_one_turkish_refusal(client, create_user, email, password):
    create_user(email="bayi1@example.com")

    response = client.post("/api/auth/sign-in/email", json={"email": email, "password": password})

    assert response.status_code == 401
    assert response.get_json()["error"] == {"code": "invalid_credentials", "message": "E-posta veya şifre hatalı."}
    assert client.get_cookie(COOKIE_NAME) is None


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        ("suspended", "account_suspended", "Hesabınız askıya alındı. Lütfen destek ile iletişime geçin."),
        ("banned", "account_banned", "Hesabınız kapatıldı. Lütfen destek ile iletişime geçin."),
    ],
)
def test_inactive_users_cannot_sign_in(client, create_user, status, code, message):
    user = create_user(status=status)

    response = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD})

    assert response.status_code == 403
    assert response.get_json()["error"] == {"code": code, "message": message}


def test_sign_out_ends_the_session_everywhere_it_is_used(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)
    stolen_cookie = client.get_cookie(COOKIE_NAME).value

    assert client.post("/api/auth/sign-out", json={}, headers=SITE).get_json() == {"success": True}

    assert client.get("/api/auth/get-session").get_json() is None
    client.set_cookie(COOKIE_NAME, stolen_cookie)
    assert client.get("/api/account/connections").status_code == 401


def test_get_session_is_null_without_a_session(client):
    assert client.get("/api/auth/get-session").get_json() is None


@pytest.mark.parametrize("tamper", ["forged.signature", "", "onlyid", "{id}.AAAA", "{id}x.{sig}"])
def test_forged_cookies_are_treated_as_signed_out(client, create_user, sign_in, tamper):
    user = create_user()
    sign_in(user.email)
    session_id, _, signature = client.get_cookie(COOKIE_NAME).value.partition(".")

    client.set_cookie(COOKIE_NAME, tamper.format(id=session_id, sig=signature))

    assert client.get("/api/auth/get-session").get_json() is None
    assert client.get("/api/account/connections").status_code == 401


def test_expired_session_is_signed_out(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)
    db.session.execute(sa.update(AuthSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.session.commit()

    assert client.get("/api/auth/get-session").get_json() is None


def test_session_cookie_is_signed_with_the_auth_secret(make_app, create_user):
    user = create_user()
    first = make_app(AUTH_SECRET="secret-one").test_client()
    first.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD})
    cookie = first.get_cookie(COOKIE_NAME).value

    other = make_app(AUTH_SECRET="secret-two").test_client()
    other.set_cookie(COOKIE_NAME, cookie)

    assert first.get("/api/auth/get-session").get_json()["user"]["email"] == user.email
    assert other.get("/api/auth/get-session").get_json() is None


def test_email_exists_check(client, create_user):
    create_user(email="var@example.com")

    assert client.post("/api/auth/email-exists", json={"email": " VAR@example.com"}).get_json() == {"exists": True}
    assert client.post("/api/auth/email-exists", json={"email": "yok@example.com"}).get_json() == {"exists": False}


def test_email_exists_check_is_rate_limited(client):
    answers = [client.post("/api/auth/email-exists", json={"email": "a@b.co"}).status_code for _ in range(31)]

    assert answers[:30] == [200] * 30
    assert answers[30] == 429


def test_password_reset_flow_sets_the_new_password_once(client, create_user, sign_in):
    user = create_user()
    response = client.post("/api/auth/forget-password", json={"email": user.email})
    assert response.status_code == 200
    token = link_token(outbox("reset_password")[0].body_text)

    first = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "yeni-sifre-123"})
    again = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "baska-sifre-456"})

    assert first.status_code == 200
    assert again.status_code == 400
    assert again.get_json()["error"] == {
        "code": "invalid_token",
        "message": "Bu bağlantı geçersiz, süresi dolmuş ya da zaten kullanılmış.",
    }
    sign_in(user.email, password="yeni-sifre-123")
    old = client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert old.status_code == 401


def test_password_reset_ends_existing_sessions(app, client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)
    client.post("/api/auth/forget-password", json={"email": user.email}, headers=SITE)
    token = link_token(outbox("reset_password")[0].body_text)

    app.test_client().post("/api/auth/reset-password", json={"token": token, "newPassword": "yeni-sifre-123"})

    assert client.get("/api/auth/get-session").get_json() is None


def test_forget_password_for_an_unknown_email_answers_the_same_and_mails_nothing(client):
    response = client.post("/api/auth/forget-password", json={"email": "yok@example.com"})

    assert response.status_code == 200
    assert response.get_json()["status"] is True
    assert outbox() == []


def test_expired_reset_token_is_refused(client, create_user):
    from app.auth.models import Verification

    user = create_user()
    client.post("/api/auth/forget-password", json={"email": user.email})
    token = link_token(outbox("reset_password")[0].body_text)
    db.session.execute(sa.update(Verification).values(expires_at=utcnow() - timedelta(minutes=1)))
    db.session.commit()

    response = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "yeni-sifre-123"})

    assert response.status_code == 400


def test_reset_with_a_weak_password_keeps_the_token_usable(client, create_user):
    user = create_user()
    client.post("/api/auth/forget-password", json={"email": user.email})
    token = link_token(outbox("reset_password")[0].body_text)

    weak = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "kisa"})
    assert weak.status_code == 400
    assert signs_in(client, user.email, PASSWORD)  # the refused reset changed nothing
    assert not signs_in(client, user.email, "kisa")

    good = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "yeni-sifre-123"})

    assert good.status_code == 200
    assert signs_in(client, user.email, "yeni-sifre-123")
    assert not signs_in(client, user.email, PASSWORD)


def test_verify_email_marks_the_user_verified_once(client):
    client.post("/api/auth/sign-up/email", json=NEW_USER)
    token = link_token(outbox("verify_email")[0].body_text)

    assert client.get(f"/api/auth/verify-email?token={token}").get_json() == {"status": True}
    assert client.get("/api/auth/get-session").get_json()["user"]["emailVerified"] is True
    assert client.get(f"/api/auth/verify-email?token={token}").status_code == 400


def test_verify_email_redirects_only_within_the_site(client):
    client.post("/api/auth/sign-up/email", json=NEW_USER)
    token = link_token(outbox("verify_email")[0].body_text)

    response = client.get(f"/api/auth/verify-email?token={token}&callbackURL=https://evil.example/")

    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_a_reset_token_does_not_verify_an_email(client, create_user):
    user = create_user(email_verified=False)
    client.post("/api/auth/forget-password", json={"email": user.email})
    token = link_token(outbox("reset_password")[0].body_text)

    assert client.get(f"/api/auth/verify-email?token={token}").status_code == 400
    db.session.expire_all()
    assert db.session.get(User, user.id).email_verified is False
    client.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
    assert client.get("/api/auth/get-session").get_json()["user"]["emailVerified"] is False


def test_resend_verification_only_for_unverified_users(client, create_user):
    unverified = create_user(email_verified=False)
    verified = create_user()

    client.post("/api/auth/send-verification-email", json={"email": unverified.email})
    client.post("/api/auth/send-verification-email", json={"email": verified.email})

    assert [mail.to_address for mail in outbox("verify_email")] == [unverified.email]


def test_tokens_are_stored_hashed(client, create_user):
    from app.auth.models import Verification

    user = create_user()
    client.post("/api/auth/forget-password", json={"email": user.email})
    token = link_token(outbox("reset_password")[0].body_text)

    stored = db.session.scalar(sa.select(Verification.token_hash))
    assert stored != token and token not in stored and len(stored) == 64


def test_sign_in_is_throttled_per_email_and_per_address(make_app, create_user):
    user = create_user()
    client = make_app(SIGN_IN_RATE_LIMIT="3 per minute").test_client()

    def attempt(email: str, address: str) -> int:
        return client.post(
            "/api/auth/sign-in/email",
            json={"email": email, "password": "wrong-password"},
            environ_base={"REMOTE_ADDR": address},
        ).status_code

    same_email_many_addresses = [attempt(user.email, f"198.51.100.{n}") for n in range(1, 5)]
    many_emails_one_address = [attempt(f"x{n}@example.com", "203.0.113.9") for n in range(1, 5)]

    assert same_email_many_addresses == [401, 401, 401, 429]
    assert many_emails_one_address == [401, 401, 401, 429]
