"""Referrals through HTTP: sign-up with a code (API and page), applying one later (validated, idempotent), the alias
refusal, qualification when the referee's e-mail is verified (at once for a verified one), the 3/5 milestones banked
as credit days with their mails, the stats and the list, and the account page."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa

from app.accounts.models import User
from app.extensions import db
from app.referrals.models import Referral, ReferralReward
from tests.conftest import PASSWORD, SITE, csrf_token_from, link_token, outbox


def sign_up(client, email: str, code: str | None, name: str = "Yeni Bayi", ip: str = "127.0.0.1"):
    """Sign up through the API from `ip` (each dealer from their own shop: the sign-up limit counts per address)."""
    body = {"name": name, "email": email, "password": "yedek-parca-2026"}
    if code is not None:
        body["referralCode"] = code
    return client.post("/api/auth/sign-up/email", json=body, headers=SITE, environ_base={"REMOTE_ADDR": ip})


def verify(client, email: str) -> None:
    mail = next(mail for mail in reversed(outbox("verify_email")) if mail.to_address == email)
    assert client.get(f"/api/auth/verify-email?token={link_token(mail.body_text)}").status_code == 200


def stats(client, email: str) -> dict:
    client.post("/api/auth/sign-in/email", json={"email": email, "password": PASSWORD}, headers=SITE)
    return client.get("/api/referrals/stats").get_json()


def users() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(User))


def test_a_sign_up_with_a_code_is_a_referral_that_qualifies_when_the_e_mail_is_verified(client, create_user):
    referrer = create_user(email="usta@example.com", name="Usta Bayi")

    assert sign_up(client, "cirak@example.com", referrer.referral_code, name="Çırak Bayi").status_code == 201
    pending = stats(client, "usta@example.com")
    listed = client.get("/api/referrals").get_json()
    verify(client, "cirak@example.com")
    qualified = client.get("/api/referrals/stats").get_json()

    assert (pending["pending"], pending["qualified"]) == (1, 0)
    assert pending["shareUrl"].endswith(f"/register?ref={referrer.referral_code}")
    assert listed["items"] == [
        {
            "refereeName": "Çırak Bayi",
            "maskedEmail": "ci***@example.com",
            "status": "pending",
            "createdAt": listed["items"][0]["createdAt"],
            "qualifiedAt": None,
        }
    ]
    assert (qualified["pending"], qualified["qualified"]) == (0, 1)
    assert qualified["milestones"] == [
        {"every": 3, "days": 7, "progress": 1, "remaining": 2},
        {"every": 5, "days": 14, "progress": 1, "remaining": 4},
    ]
    [mail] = outbox("referral_qualified")
    assert mail.to_address == "usta@example.com" and "Çırak Bayi" in mail.subject
    assert mail.body_text.count("/account/referrals") == 1


def test_an_alias_of_the_referrer_s_own_address_is_refused_and_nothing_is_written(client, create_user):
    referrer = create_user(email="usta.bayi@gmail.com")
    before = users()

    for alias in ("ustabayi@gmail.com", "Usta.Bayi+ikinci@gmail.com", "u.s.t.a.bayi+x@GMAIL.com"):
        refused = sign_up(client, alias, referrer.referral_code)
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "self_referral"
    assert users() == before and outbox() == []


def test_a_bad_code_at_sign_up_is_refused_before_anything_is_written(client, create_user):
    before = users()

    unknown = sign_up(client, "yeni@example.com", "ZZZZZZZZ")
    malformed = sign_up(client, "yeni@example.com", "<script>")

    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "referral_code_not_found"
    assert malformed.status_code == 400 and malformed.get_json()["error"]["code"] == "invalid_referral_code"
    assert users() == before


def test_a_code_applied_later_is_validated_and_idempotent(client, create_user, sign_in):
    first, second = create_user(), create_user()
    referee = create_user(email_verified=False)
    sign_in(referee.email)

    applied = client.post("/api/referrals/apply", json={"code": first.referral_code}, headers=SITE)
    again = client.post("/api/referrals/apply", json={"code": first.referral_code.lower()}, headers=SITE)
    other = client.post("/api/referrals/apply", json={"code": second.referral_code}, headers=SITE)
    unknown = client.post("/api/referrals/apply", json={"code": "ZZZZZZZZ"}, headers=SITE)
    missing = client.post("/api/referrals/apply", json={}, headers=SITE)

    assert applied.status_code == again.status_code == 200
    assert applied.get_json() == {"status": "pending", "referrerName": first.name} == again.get_json()
    assert other.status_code == 409 and other.get_json()["error"]["code"] == "already_referred"
    assert unknown.status_code == 404 and missing.status_code == 400
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Referral)) == 1


def test_own_code_applied_later_is_refused(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)

    refused = client.post("/api/referrals/apply", json={"code": user.referral_code}, headers=SITE)

    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "self_referral"


def test_a_referee_already_verified_qualifies_at_once(client, create_user, sign_in):
    referrer = create_user()
    sign_in(create_user(email_verified=True).email)  # as after a social sign-in

    applied = client.post("/api/referrals/apply", json={"code": referrer.referral_code}, headers=SITE)

    assert applied.get_json()["status"] == "qualified"
    assert [mail.to_address for mail in outbox("referral_qualified")] == [referrer.email]


def test_milestones_recur_every_3_for_7_days_and_every_5_for_14(client, create_user):
    referrer = create_user(email="usta@example.com")

    for number in range(1, 16):
        email = f"cirak{number}@example.com"
        answer = sign_up(client, email, referrer.referral_code, ip=f"10.0.0.{number}")
        assert answer.status_code == 201, answer.get_json()
        verify(client, email)

    rewards = db.session.execute(
        sa.select(ReferralReward.every, ReferralReward.reached_at_count, ReferralReward.days).order_by(
            ReferralReward.reached_at_count, ReferralReward.every
        )
    ).all()
    assert [tuple(row) for row in rewards] == [
        (3, 3, 7), (5, 5, 14), (3, 6, 7), (3, 9, 7), (5, 10, 14), (3, 12, 7), (3, 15, 7), (5, 15, 14),
    ]  # fmt: skip
    db.session.expire_all()
    assert db.session.get(User, referrer.id).referral_credit_days == 5 * 7 + 3 * 14
    summary = stats(client, "usta@example.com")
    assert (summary["qualified"], summary["rewardDaysTotal"], summary["bankedDays"]) == (15, 77, 77)
    assert [mail.subject for mail in outbox("referral_reward")][:2] == [
        "7 gün ücretsiz kullanım kazandınız",
        "14 gün ücretsiz kullanım kazandınız",
    ]
    assert len(outbox("referral_reward")) == 8


def test_the_banked_days_lengthen_the_referrer_s_trial(app, client, create_user, sign_in, billing_catalog):
    referrer = create_user(email="usta@example.com")
    for number in range(1, 4):
        sign_up(client, f"cirak{number}@example.com", referrer.referral_code, ip=f"10.0.1.{number}")
        verify(client, f"cirak{number}@example.com")
    sign_in(referrer.email)

    trial = client.post("/api/subscriptions/trial", json={}, headers=SITE)

    assert trial.status_code == 201, trial.get_json()
    body = trial.get_json()
    days = (date.fromisoformat(body["endDate"][:10]) - date.fromisoformat(body["startDate"][:10])).days
    assert days == app.config["TRIAL_DAYS"] + 7
    assert client.get("/api/referrals/stats").get_json()["bankedDays"] == 0


def test_the_register_page_takes_the_code_from_the_share_link(client, create_user):
    referrer = create_user()
    page = client.get(f"/register?ref={referrer.referral_code}").get_data(as_text=True)

    assert f'value="{referrer.referral_code}"' in page and "Davet kodu (isteğe bağlı)" in page
    response = client.post(
        "/register",
        data={
            "csrf_token": csrf_token_from(page),
            "name": "Sayfa Bayi",
            "email": "sayfa@example.com",
            "password": "yedek-parca-2026",
            "referral_code": referrer.referral_code,
        },
    )
    assert response.status_code in (302, 303)
    assert db.session.scalar(sa.select(Referral.referrer_id)) == referrer.id


def test_the_account_page_shows_the_link_the_progress_and_the_referees(client, create_user, sign_in):
    referrer = create_user(email="usta@example.com")
    sign_up(client, "cirak@example.com", referrer.referral_code, name="Çırak <b>Bayi</b>")
    sign_in("usta@example.com")

    page = client.get("/account/referrals").get_data(as_text=True)

    assert f"/register?ref={referrer.referral_code}" in page
    assert "Çırak &lt;b&gt;Bayi&lt;/b&gt;" in page and "ci***@example.com" in page
    assert "Bekliyor" in page and "Davet mi edildiniz?" in page
    invited = client.post(
        "/account/referrals/invite", data={"csrf_token": csrf_token_from(page), "email": "komsu@example.com"}
    )
    assert invited.status_code == 303
    assert "Davet komsu@example.com adresine gönderiliyor." in client.get("/account/referrals").get_data(as_text=True)
    assert 'href="/account/referrals"' in client.get("/account").get_data(as_text=True)


def test_a_code_applied_on_the_page_shows_errors_in_turkish(client, create_user, sign_in):
    user = create_user()
    sign_in(user.email)
    page = client.get("/account/referrals").get_data(as_text=True)

    refused = client.post(
        "/account/referrals/apply", data={"csrf_token": csrf_token_from(page), "code": user.referral_code}
    )

    assert refused.status_code == 400 and "Kendi davet kodunuzu kullanamazsınız." in refused.get_data(as_text=True)


def test_the_routes_need_a_session(client):
    assert client.get("/api/referrals/stats").status_code == 401
    assert client.get("/api/referrals").status_code == 401
    assert client.post("/api/referrals/apply", json={"code": "ABCDEFGH"}).status_code == 401
    assert client.get("/account/referrals").status_code in (302, 303)


def test_an_invitation_mails_the_link_once_and_refuses_members_and_the_inviter(client, create_user, sign_in):
    inviter = create_user(email="usta.bayi@example.com", name="Usta Bayi")
    create_user(email="uye@example.com")
    sign_in(inviter.email)

    sent = client.post("/api/referrals/invite", json={"email": "Komsu@Example.com"}, headers=SITE)
    again = client.post("/api/referrals/invite", json={"email": "komsu@example.com"}, headers=SITE)
    member = client.post("/api/referrals/invite", json={"email": "u.y.e+1@example.com"}, headers=SITE)
    own = client.post("/api/referrals/invite", json={"email": "ustabayi@example.com"}, headers=SITE)
    bad = client.post("/api/referrals/invite", json={"email": "değil bir adres"}, headers=SITE)

    assert sent.get_json() == {"status": True, "alreadyInvited": False}
    assert again.get_json() == {"status": True, "alreadyInvited": True}
    assert member.status_code == 409 and member.get_json()["error"]["code"] == "already_registered"
    assert own.status_code == 400 and own.get_json()["error"]["code"] == "self_referral"
    assert bad.status_code == 400
    [mail] = outbox("referral_invitation")
    assert mail.to_address == "komsu@example.com" and mail.subject == "Usta Bayi sizi Parça Bul'a davet ediyor"
    assert f"/register?ref={inviter.referral_code}" in mail.body_text


def test_invitations_are_limited_per_dealer(app, client, create_user, sign_in, monkeypatch):
    monkeypatch.setitem(app.config, "REFERRAL_INVITE_RATE_LIMIT", "2 per hour")
    sign_in(create_user().email)

    answers = [
        client.post("/api/referrals/invite", json={"email": f"komsu{n}@example.com"}, headers=SITE).status_code
        for n in range(3)
    ]

    assert answers == [200, 200, 429]
