"""Every user gets a unique referral code, even when the random draw collides."""

from app.accounts import services


def test_a_colliding_referral_code_is_drawn_again(client, create_user, monkeypatch):
    existing = create_user()
    draws = iter([existing.referral_code, existing.referral_code, "NEWCODE2"])
    monkeypatch.setattr(services, "generate_referral_code", lambda: next(draws))

    response = client.post(
        "/api/auth/sign-up/email", json={"name": "Ali", "email": "ali@example.com", "password": "uzun-sifre-1"}
    )

    assert response.status_code == 201
    assert response.get_json()["user"]["referralCode"] == "NEWCODE2"


def test_codes_avoid_look_alike_characters():
    codes = {services.generate_referral_code() for _ in range(200)}

    assert all(len(code) == 8 for code in codes)
    assert not set("".join(codes)) & set("01OIL")
