"""Invitations through HTTP and the outbox: a Turkish mail with a single-use link valid 7 days (only its hash stored);
an expired, used or revoked link is refused in Turkish; resending kills the old link; an existing person moves from
an empty one-person shop at once, chooses explicitly when theirs has data, and is refused when it has other members
or a paid history."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import sqlalchemy as sa

from app.core.db import utcnow
from app.extensions import db
from app.shops import holdings
from app.shops.models import Shop, ShopInvitation
from tests.conftest import PASSWORD, outbox
from tests.shops.conftest import accept_as_new, invitation_path, invite

SEATS_FULL = (
    "Planınızın 2 koltuğunun hepsi dolu (üyeler ve açık davetler). Başka birini davet etmek için abonelik sayfasından "
    "koltuk ekleyin."
)
DEAD_LINK = "Bu davet bağlantısı geçersiz, süresi dolmuş, geri alınmış ya da zaten kullanılmış. Yeni bir davet isteyin."


def token_of(path: str) -> str:
    return path.rsplit("/", 1)[1]


def shops() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(Shop))


def test_the_invitation_mail_is_turkish_and_its_token_is_stored_only_hashed(owner, client):
    answer = invite(owner, "Yeni.Tezgah@Example.com", "clerk")
    mail = outbox("shop_invitation")[-1]
    token = token_of(invitation_path(client, "yeni.tezgah@example.com"))
    stored = db.session.scalar(sa.select(ShopInvitation))

    assert answer.status_code == 201 and answer.get_json()["email"] == "yeni.tezgah@example.com"
    assert mail.subject == "Selim Sahip sizi Parça Bul'da Selim Sahip dükkânına davet ediyor"
    assert "Tezgâhtar olarak" in mail.body_text and "7 gün içinde" in mail.body_text
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {stored.token_hash, str(stored.id)}
    assert timedelta(days=6, hours=23) < stored.expires_at - utcnow() <= timedelta(days=7)


def test_an_invitation_page_offers_the_account_form_and_the_api_the_same(owner, client):
    invite(owner, "yeni@example.com", "manager")
    path = invitation_path(client, "yeni@example.com")

    page = client.get(path).get_data(as_text=True)
    preview = client.get(f"/api/shop/invitation?token={token_of(path)}").get_json()

    assert "Selim Sahip dükkânına Müdür olarak katılın" in page and 'name="password"' in page
    assert preview == {
        "shopName": "Selim Sahip",
        "email": "yeni@example.com",
        "role": "manager",
        "action": "create",
        "reason": None,
    }


def test_a_new_account_through_the_api_is_signed_in_in_the_shop(owner, client):
    invite(owner, "api@example.com", "clerk")
    token = token_of(invitation_path(client, "api@example.com"))

    answer = client.post(
        "/api/shop/invitation/accept",
        json={"token": token, "name": "Api Tezgâh", "password": PASSWORD},
        headers={"Origin": "http://localhost"},
    )

    assert answer.status_code == 201 and answer.get_json()["role"] == "clerk"
    assert client.get("/api/shop/branches").status_code == 200
    assert client.get("/api/shop/members").status_code == 403


def test_a_used_link_is_refused_in_turkish(app, owner, client):
    invite(owner, "bir@example.com", "clerk")
    path = invitation_path(client, "bir@example.com")
    accept_as_new(app, "bir@example.com", "Bir Kez")

    page = client.get(path)
    api = client.get(f"/api/shop/invitation?token={token_of(path)}")

    assert page.status_code == 400 and DEAD_LINK in page.get_data(as_text=True)
    assert api.status_code == 400 and api.get_json()["error"] == {"code": "invitation_invalid", "message": DEAD_LINK}


def test_a_revoked_link_is_refused_in_turkish(owner, client):
    invitation_id = invite(owner, "iptal@example.com", "clerk").get_json()["id"]
    path = invitation_path(client, "iptal@example.com")

    revoked = owner.api("DELETE", f"/api/shop/invitations/{invitation_id}")
    accepted = client.post(
        "/api/shop/invitation/accept",
        json={"token": token_of(path), "name": "İptal", "password": PASSWORD},
        headers={"Origin": "http://localhost"},
    )

    assert revoked.status_code == 200
    assert owner.get("/api/shop/invitations").get_json()["items"] == []
    assert accepted.status_code == 400 and accepted.get_json()["error"]["message"] == DEAD_LINK
    assert DEAD_LINK in client.get(path).get_data(as_text=True)


def test_an_expired_link_is_refused_in_turkish(owner, client, monkeypatch):
    invite(owner, "gec@example.com", "clerk")
    path = invitation_path(client, "gec@example.com")
    eight_days_on = utcnow() + timedelta(days=8)
    monkeypatch.setattr("app.shops.invitations.utcnow", lambda: eight_days_on)

    page = client.get(path)

    assert page.status_code == 400 and DEAD_LINK in page.get_data(as_text=True)


def test_resending_makes_a_new_link_and_the_old_one_dies(app, owner, client):
    invitation_id = invite(owner, "tekrar@example.com", "clerk").get_json()["id"]
    old = invitation_path(client, "tekrar@example.com")

    resent = owner.api("POST", f"/api/shop/invitations/{invitation_id}/resend")
    new = invitation_path(client, "tekrar@example.com")

    assert resent.status_code == 200 and new != old
    assert client.get(old).status_code == 400
    assert client.get(new).status_code == 200
    accept_as_new(app, "tekrar@example.com", "Tekrar")


def test_an_open_invitation_and_a_member_are_not_invited_twice(owner):
    invite(owner, "iki@example.com", "clerk")

    twice = invite(owner, "iki@example.com", "clerk")
    member = invite(owner, "sahip@example.com", "clerk")

    assert twice.status_code == 409 and twice.get_json()["error"]["code"] == "already_invited"
    assert member.status_code == 409 and member.get_json()["error"]["code"] == "already_member"


def test_inviting_past_the_plans_seats_is_refused_in_turkish_with_the_add_seat_link(create_user, person, seats_for):
    seats_for(create_user(email="iki.koltuk@example.com", name="İki Koltuk"), seats=2)
    owner = person("iki.koltuk@example.com")

    first = invite(owner, "bir@example.com", "clerk")
    refused = invite(owner, "iki@example.com", "clerk")
    page = owner.get("/dukkan").get_data(as_text=True)

    assert first.status_code == 201
    assert refused.status_code == 409 and refused.get_json()["error"] == {
        "code": "seats_full",
        "message": SEATS_FULL,
        "details": {"addSeatUrl": "/subscription#seats"},
    }
    assert [mail.to_address for mail in outbox("shop_invitation")] == ["bir@example.com"]
    assert "Kullanılan koltuk: 2 koltuğun 2 tanesi" in page
    assert '<a href="/subscription#seats">Koltuk ekle</a>' in page


def test_a_shop_without_a_plan_has_only_its_owners_seat(create_user, person):
    create_user(email="plansiz@example.com", name="Plansız Sahip")
    owner = person("plansiz@example.com")

    refused = invite(owner, "kimse@example.com", "clerk")

    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "seats_full"
    assert refused.get_json()["error"]["message"].startswith("Planınızın 1 koltuğunun hepsi dolu")
    assert outbox("shop_invitation") == []


def test_invitations_are_sent_revoked_and_resent_from_the_shop_page(owner):
    sent = owner.form("/dukkan/davetler", {"email": "sayfa@example.com", "role": "clerk"})
    page = owner.get("/dukkan").get_data(as_text=True)
    invitation_id = owner.get("/api/shop/invitations").get_json()["items"][0]["id"]
    resent = owner.form(f"/dukkan/davetler/{invitation_id}/resend", {})
    revoked = owner.form(f"/dukkan/davetler/{invitation_id}/revoke", {})

    assert sent.status_code == resent.status_code == revoked.status_code == 303
    assert "sayfa@example.com" in page
    assert len(outbox("shop_invitation")) == 2
    assert owner.get("/api/shop/invitations").get_json()["items"] == []


def test_a_person_with_an_empty_shop_moves_at_once_and_the_empty_shop_goes(owner, create_user, person):
    create_user(email="bos@example.com", name="Boş Dükkân")
    invite(owner, "bos@example.com", "clerk")
    newcomer = person("bos@example.com")
    path = invitation_path(newcomer.client, "bos@example.com")
    before = shops()

    offered = newcomer.get(path).get_data(as_text=True)
    joined = newcomer.form(path, {}, page=path)

    assert "katıldığınızda kapatılacak" in offered
    assert joined.status_code == 303
    assert shops() == before - 1
    assert "bos@example.com" in {item["email"] for item in owner.get("/api/shop/members").get_json()["items"]}
    assert newcomer.get("/api/shop/branches").get_json()["items"] == owner.get("/api/shop/branches").get_json()["items"]


def test_a_person_whose_shop_has_data_must_choose_to_leave_it_behind(owner, create_user, person):
    create_user(email="dolu@example.com", name="Dolu Dükkân")
    newcomer = person("dolu@example.com")
    newcomer.api("POST", "/api/shop/branches", {"name": "Kartal"})  # their shop has a record now
    invite(owner, "dolu@example.com", "clerk")
    token = token_of(invitation_path(newcomer.client, "dolu@example.com"))
    before = shops()

    offered = newcomer.get(f"/api/shop/invitation?token={token}").get_json()
    unasked = newcomer.api("POST", "/api/shop/invitation/accept", {"token": token})
    chosen = newcomer.api("POST", "/api/shop/invitation/accept", {"token": token, "leaveDataBehind": True})

    assert offered["action"] == "choose"
    assert unasked.status_code == 409 and unasked.get_json()["error"] == {
        "code": "choice_needed",
        "message": "Şu anki dükkânınızda veri var (araçlar, teklifler, listeler ya da geçmiş). Katılırsanız bu veri "
        "eski dükkânınızda kalır: geride bırakmak istediğinizi onaylayın.",
    }
    assert chosen.status_code == 200 and chosen.get_json()["role"] == "clerk"
    assert shops() == before  # the old shop keeps its data
    assert [item["name"] for item in newcomer.get("/api/shop/branches").get_json()["items"]] == ["Merkez"]


def test_a_person_whose_shop_has_other_members_is_refused_in_turkish(app, owner, create_user, person, seats_for):
    seats_for(create_user(email="patron@example.com", name="Başka Patron"))
    boss = person("patron@example.com")
    invite(boss, "calisan@example.com", "clerk")
    accept_as_new(app, "calisan@example.com", "Çalışan")
    invite(owner, "patron@example.com", "manager")
    token = token_of(invitation_path(boss.client, "patron@example.com"))

    refused = boss.api("POST", "/api/shop/invitation/accept", {"token": token, "leaveDataBehind": True})

    assert refused.status_code == 409
    assert refused.get_json()["error"]["message"].startswith("Şu anki dükkânınızın başka üyeleri var.")
    assert "patron@example.com" not in {item["email"] for item in owner.get("/api/shop/members").get_json()["items"]}


def test_a_person_whose_shop_has_a_paid_history_is_refused_in_turkish(owner, create_user, person, monkeypatch):
    payer = create_user(email="odeyen@example.com")
    monkeypatch.setattr(holdings, "_paid_history_checks", [lambda shop_id: shop_id == payer.shop_id])
    newcomer = person("odeyen@example.com")
    invite(owner, "odeyen@example.com", "clerk")
    path = invitation_path(newcomer.client, "odeyen@example.com")

    page = newcomer.get(path).get_data(as_text=True)
    refused = newcomer.api("POST", "/api/shop/invitation/accept", {"token": token_of(path), "leaveDataBehind": True})

    assert "ücretli abonelik geçmişi var" in page
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "cannot_join"


def test_an_existing_account_signed_out_is_asked_to_sign_in(owner, create_user, client):
    create_user(email="var@example.com")
    invite(owner, "var@example.com", "clerk")
    path = invitation_path(client, "var@example.com")

    page = client.get(path).get_data(as_text=True)
    refused = client.post(
        "/api/shop/invitation/accept",
        json={"token": token_of(path), "name": "Var", "password": PASSWORD},
        headers={"Origin": "http://localhost"},
    )

    assert "Daveti kabul etmek için giriş yapın." in page
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "sign_in_first"


def test_another_account_cannot_accept_an_invitation(owner, create_user, person):
    create_user(email="someone@example.com")
    invite(owner, "hedef@example.com", "clerk")
    someone = person("someone@example.com")
    token = token_of(invitation_path(someone.client, "hedef@example.com"))

    refused = someone.api("POST", "/api/shop/invitation/accept", {"token": token})

    assert refused.status_code == 403
    assert refused.get_json()["error"]["message"] == "Bu davet başka bir e-posta adresi için."


def test_the_mailed_link_is_tracked_when_tracking_is_on(make_app, create_user, seats_for):
    tracked = make_app(TRACKING_SECRET="tracking-secret-for-tests")
    seats_for(create_user(email="izli@example.com", name="İzli Sahip"))
    browser = tracked.test_client()
    browser.post(
        "/api/auth/sign-in/email",
        json={"email": "izli@example.com", "password": PASSWORD},
        headers={"Origin": "http://localhost"},
    )
    browser.post(
        "/api/shop/invitations",
        json={"email": "yeni@example.com", "role": "clerk"},
        headers={"Origin": "http://localhost"},
    )

    mail = outbox("shop_invitation")[-1]
    newcomer = tracked.test_client()
    path = invitation_path(newcomer, "yeni@example.com")

    assert "/t/" in mail.body_text and "/davet/" not in mail.body_text
    assert newcomer.get(path).status_code == 200
