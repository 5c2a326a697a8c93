"""The shop's pages with another shop's ids in the URL: the 404 page (as the API answers), never a flashed refusal, and
the other shop's branch, invitation and member are left as they were."""

from __future__ import annotations

from tests.shops.conftest import accept_as_new, invite


def test_another_shops_branch_invitation_and_member_are_not_found_on_the_pages(app, owner, create_user, person):
    branch = owner.api("POST", "/api/shop/branches", {"name": "Gizli Şube"}).get_json()["id"]
    pending = invite(owner, "bekleyen@example.com", "clerk").get_json()["id"]
    invite(owner, "uye@example.com", "clerk")
    accept_as_new(app, "uye@example.com", "Üye Tezgâh")
    member = next(
        item["id"] for item in owner.get("/api/shop/members").get_json()["items"] if item["name"] == "Üye Tezgâh"
    )
    before = [owner.get(url).get_json() for url in ("/api/shop/branches", "/api/shop/invitations", "/api/shop/members")]
    create_user(email="baska@example.com", name="Başka Sahip")
    other = person("baska@example.com")

    answers = [
        other.form(f"/dukkan/subeler/{branch}", {"name": "Ele Geçti"}),
        other.form(f"/dukkan/subeler/{branch}/delete", {}),
        other.form(f"/dukkan/davetler/{pending}/resend", {}),
        other.form(f"/dukkan/davetler/{pending}/revoke", {}),
        other.form(f"/dukkan/uyeler/{member}/role", {"role": "manager"}),
        other.form(f"/dukkan/uyeler/{member}/remove", {}),
    ]

    assert [answer.status_code for answer in answers] == [404] * 6
    assert all("Gizli Şube" not in answer.get_data(as_text=True) for answer in answers)
    after = [owner.get(url).get_json() for url in ("/api/shop/branches", "/api/shop/invitations", "/api/shop/members")]
    assert after == before


def test_a_refusal_about_ones_own_invitation_is_still_flashed(app, owner):
    pending = invite(owner, "iptal@example.com", "clerk").get_json()["id"]
    owner.form(f"/dukkan/davetler/{pending}/revoke", {})

    again = owner.form(f"/dukkan/davetler/{pending}/revoke", {})

    assert again.status_code == 303 and again.headers["Location"].endswith("/dukkan")
