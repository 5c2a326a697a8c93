"""A shop's members through HTTP: an owner invites a manager and two clerks into two branches, they accept from the
mail and sign in; roles are guarded (a manager never touches an owner, the last owner stays); removing a member or
changing a role signs that member out at once; removed members keep what they did in the shop and get a shop of their
own; another shop's member finds none of this shop's ids."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.accounts.models import User
from app.extensions import db
from app.shops.models import Shop
from tests.shops.conftest import accept_as_new, invite


@pytest.fixture
def staffed(app, owner, person):
    """The owner's shop with two branches: a manager and a clerk in the first, a clerk in the second, signed in."""
    first = owner.get("/api/shop/branches").get_json()["items"][0]["id"]
    second = owner.api("POST", "/api/shop/branches", {"name": "Ümraniye", "address": "Alemdağ Cd. 5"}).get_json()["id"]
    for email, role, branch in (
        ("mudur@example.com", "manager", first),
        ("tezgah1@example.com", "clerk", first),
        ("tezgah2@example.com", "clerk", second),
    ):
        assert invite(owner, email, role, branch).status_code == 201
    people = {
        "manager": accept_as_new(app, "mudur@example.com", "Murat Müdür"),
        "clerk1": accept_as_new(app, "tezgah1@example.com", "Tuba Tezgâh"),
        "clerk2": accept_as_new(app, "tezgah2@example.com", "Tarık Tezgâh"),
    }
    return {"owner": owner, "first": first, "second": second, **people}


def member_id(email: str) -> str:
    return str(db.session.scalar(sa.select(User.id).where(User.email == email)))


def test_invited_people_join_with_their_role_and_branch_and_can_sign_in(staffed, person):
    listed = staffed["owner"].get("/api/shop/members").get_json()["items"]
    again = person("tezgah2@example.com")

    assert {(item["email"], item["role"], item["branchName"]) for item in listed} == {
        ("sahip@example.com", "owner", "Merkez"),
        ("mudur@example.com", "manager", "Merkez"),
        ("tezgah1@example.com", "clerk", "Merkez"),
        ("tezgah2@example.com", "clerk", "Ümraniye"),
    }
    assert again.get("/api/shop/branches").get_json()["currentBranchId"] == staffed["second"]
    assert staffed["clerk1"].get("/api/shop/branches").status_code == 200
    assert staffed["owner"].get("/api/shop/invitations").get_json() == {"items": [], "seatsInUse": 4}


def test_the_shop_page_lists_members_with_role_and_branch(staffed):
    page = staffed["manager"].get("/dukkan").get_data(as_text=True)

    assert "Tarık Tezgâh" in page and "Tezgâhtar" in page and "Ümraniye" in page


def test_a_manager_never_touches_an_owner_nor_makes_one(staffed):
    manager, owner_id = staffed["manager"], member_id("sahip@example.com")

    refusals = [
        manager.api("PATCH", f"/api/shop/members/{owner_id}", {"role": "clerk"}),
        manager.api("DELETE", f"/api/shop/members/{owner_id}"),
        manager.api("PATCH", f"/api/shop/members/{member_id('tezgah1@example.com')}", {"role": "owner"}),
        invite(manager, "yeni.sahip@example.com", "owner"),
    ]

    assert [answer.status_code for answer in refusals] == [403, 403, 403, 403]
    assert refusals[0].get_json()["error"] == {
        "code": "owner_only",
        "message": "Bir sahibi yalnızca bir sahip değiştirebilir ya da birini sahip yapabilir.",
    }
    assert staffed["owner"].get("/api/shop/members").status_code == 200  # nothing ended the owner's session


def test_clerks_and_managers_are_kept_to_their_role(staffed):
    clerk, manager = staffed["clerk1"], staffed["manager"]

    assert clerk.get("/api/shop/members").status_code == 403
    assert invite(clerk, "x@example.com", "clerk").status_code == 403
    assert clerk.api("POST", "/api/shop/branches", {"name": "Kartal"}).status_code == 403
    assert manager.get("/api/shop/activity").status_code == 403
    assert manager.get("/dukkan/hareketler").status_code == 403
    assert (
        manager.api("PATCH", f"/api/shop/members/{member_id('tezgah1@example.com')}", {"role": "manager"}).status_code
        == 200
    )


def test_the_owner_removes_a_clerk_mid_session_who_is_signed_out_and_gets_a_shop_of_their_own(staffed, person):
    clerk = staffed["clerk1"]
    assert clerk.api("PUT", "/api/shop/my-branch", {"branchId": staffed["second"]}).status_code == 200
    removed_id = member_id("tezgah1@example.com")

    answer = staffed["owner"].api("DELETE", f"/api/shop/members/{removed_id}")
    api_after, page_after = clerk.get("/api/shop/branches"), clerk.get("/dukkan")
    back = person("tezgah1@example.com")
    own = back.get("/api/shop/branches").get_json()
    remaining = staffed["owner"].get("/api/shop/members").get_json()["items"]
    activity = staffed["owner"].get(f"/api/shop/activity?member={removed_id}").get_json()["items"]

    assert answer.status_code == 200
    assert api_after.status_code == 401
    assert page_after.status_code == 302 and "/login" in page_after.headers["Location"]
    assert [item["name"] for item in own["items"]] == ["Merkez"] and own["currentBranchId"] not in (
        staffed["first"],
        staffed["second"],
    )
    assert back.get("/api/shop/members").status_code == 200  # the owner of their own shop now
    assert "tezgah1@example.com" not in {item["email"] for item in remaining}
    assert [item["kind"] for item in activity] == ["member_joined"]  # what they did stays with the shop


def test_a_role_change_ends_the_members_sessions(staffed, person):
    manager_id = member_id("mudur@example.com")

    answer = staffed["owner"].api("PATCH", f"/api/shop/members/{manager_id}", {"role": "clerk"})
    after = staffed["manager"].get("/api/shop/branches")
    again = person("mudur@example.com")

    assert answer.status_code == 200 and answer.get_json()["role"] == "clerk"
    assert after.status_code == 401
    assert again.get("/api/shop/branches").status_code == 200
    assert again.get("/api/shop/members").status_code == 403


def test_the_last_owner_can_be_neither_removed_nor_demoted(staffed):
    owner, owner_id = staffed["owner"], member_id("sahip@example.com")

    demoted = owner.api("PATCH", f"/api/shop/members/{owner_id}", {"role": "manager"})
    removed = owner.api("DELETE", f"/api/shop/members/{owner_id}")
    promoted = owner.api("PATCH", f"/api/shop/members/{member_id('mudur@example.com')}", {"role": "owner"})
    demoted_now = owner.api("PATCH", f"/api/shop/members/{owner_id}", {"role": "manager"})

    assert (demoted.status_code, removed.status_code) == (409, 409)
    assert demoted.get_json()["error"]["message"] == "Dükkânın son sahibi çıkarılamaz ya da rolü düşürülemez."
    assert promoted.status_code == 200
    assert demoted_now.status_code == 200  # another owner stands now


def test_members_change_roles_and_leave_through_the_page(staffed):
    owner, clerk_id = staffed["owner"], member_id("tezgah2@example.com")

    changed = owner.form(f"/dukkan/uyeler/{clerk_id}/role", {"role": "manager"})
    roles = {item["email"]: item["role"] for item in owner.get("/api/shop/members").get_json()["items"]}
    removed = owner.form(f"/dukkan/uyeler/{clerk_id}/remove", {})
    refused = owner.form(f"/dukkan/uyeler/{member_id('sahip@example.com')}/remove", {})

    assert changed.status_code == 303 and roles["tezgah2@example.com"] == "manager"
    assert removed.status_code == 303
    assert "tezgah2@example.com" not in {item["email"] for item in owner.get("/api/shop/members").get_json()["items"]}
    assert "son sahibi" in owner.get(refused.headers["Location"]).get_data(as_text=True)


def test_a_member_of_another_shop_finds_no_id_of_this_shop(staffed, create_user, person):
    create_user(email="rakip@example.com")
    other = person("rakip@example.com")
    pending = invite(staffed["owner"], "bekleyen@example.com", "clerk").get_json()["id"]
    clerk_id, branch = member_id("tezgah1@example.com"), staffed["second"]

    answers = [
        other.api("PATCH", f"/api/shop/members/{clerk_id}", {"role": "clerk"}),
        other.api("DELETE", f"/api/shop/members/{clerk_id}"),
        other.api("POST", f"/api/shop/invitations/{pending}/resend"),
        other.api("DELETE", f"/api/shop/invitations/{pending}"),
        other.api("PATCH", f"/api/shop/branches/{branch}", {"name": "Ele geçti"}),
        other.api("DELETE", f"/api/shop/branches/{branch}"),
        other.api("PUT", "/api/shop/my-branch", {"branchId": branch}),
        other.api("POST", "/api/shop/invitations", {"email": "a@example.com", "role": "clerk", "branchId": branch}),
    ]
    pages = [
        other.form(f"/dukkan/uyeler/{clerk_id}/remove", {}),
        other.form(f"/dukkan/subeler/{branch}/delete", {}),
    ]

    assert [answer.status_code for answer in answers] == [404] * len(answers)
    assert answers[0].get_json()["error"]["message"] == "Dükkânınızda böyle bir üye yok."
    assert other.get(f"/api/shop/activity?member={clerk_id}").get_json()["items"] == []
    assert [page.status_code for page in pages] == [404, 404]  # as the API: not found, never a flashed refusal
    assert len(staffed["owner"].get("/api/shop/members").get_json()["items"]) == 4
    assert len(staffed["owner"].get("/api/shop/branches").get_json()["items"]) == 2
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Shop).where(Shop.name == "Ele geçti")) == 0
