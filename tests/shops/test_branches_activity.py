"""Branches and the shop's activity through HTTP: add, edit, delete (never the last; members move), each member's
chosen branch; the owner's activity page and API filtered by member, kind, branch and dates, its CSV, and the nightly
purge of entries past 12 months."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import sqlalchemy as sa

from app.core.db import utcnow
from app.extensions import db
from app.shops.models import ShopActivity
from app.shops.tasks import purge_activity
from tests.shops.conftest import accept_as_new, invite


def test_branches_are_added_edited_and_deleted_never_the_last(owner):
    first = owner.get("/api/shop/branches").get_json()["items"][0]["id"]
    added = owner.api("POST", "/api/shop/branches", {"name": "Kadıköy", "phone": "0216 000 00 00"})
    kadikoy = added.get_json()["id"]
    edited = owner.api("PATCH", f"/api/shop/branches/{kadikoy}", {"name": "Kadıköy 2", "address": "Moda Cd. 1"})
    deleted = owner.api("DELETE", f"/api/shop/branches/{first}")
    last = owner.api("DELETE", f"/api/shop/branches/{kadikoy}")

    assert added.status_code == 201
    assert edited.get_json() == {"id": kadikoy, "name": "Kadıköy 2", "address": "Moda Cd. 1", "phone": "0216 000 00 00"}
    assert deleted.status_code == 200 and deleted.get_json()["id"] == kadikoy
    assert owner.get("/api/shop/branches").get_json() == {"items": [edited.get_json()], "currentBranchId": kadikoy}
    assert last.status_code == 409
    assert last.get_json()["error"]["message"] == "Bir dükkânın en az bir şubesi olur: son şube silinemez."


def test_a_deleted_branchs_members_move_to_the_chosen_branch(app, owner):
    first = owner.get("/api/shop/branches").get_json()["items"][0]["id"]
    second = owner.api("POST", "/api/shop/branches", {"name": "Ümraniye"}).get_json()["id"]
    third = owner.api("POST", "/api/shop/branches", {"name": "Kartal"}).get_json()["id"]
    invite(owner, "tezgah@example.com", "clerk", second)
    clerk = accept_as_new(app, "tezgah@example.com", "Tezgâh")

    deleted = owner.form(f"/dukkan/subeler/{second}/delete", {"move_to": str(third)})

    assert deleted.status_code == 303
    assert clerk.get("/api/shop/branches").get_json()["currentBranchId"] == third
    assert {item["id"] for item in owner.get("/api/shop/branches").get_json()["items"]} == {first, third}


def test_every_member_chooses_the_branch_they_work_in(app, owner):
    second = owner.api("POST", "/api/shop/branches", {"name": "Ümraniye"}).get_json()["id"]
    invite(owner, "tezgah@example.com", "clerk")
    clerk = accept_as_new(app, "tezgah@example.com", "Tezgâh")
    first = clerk.get("/api/shop/branches").get_json()["currentBranchId"]

    by_api = clerk.api("PUT", "/api/shop/my-branch", {"branchId": second})
    remembered = clerk.get("/api/shop/branches").get_json()["currentBranchId"]
    by_page = clerk.form("/dukkan/sube-sec", {"branch_id": str(first)})
    wrong = clerk.api("PUT", "/api/shop/my-branch", {"branchId": "yok"})

    assert by_api.status_code == 200 and remembered == second
    assert by_page.status_code == 303
    assert clerk.get("/api/shop/branches").get_json()["currentBranchId"] == first
    assert wrong.status_code == 404


def test_branches_are_added_and_edited_on_the_shop_page(owner):
    added = owner.form("/dukkan/subeler", {"name": "Pendik", "address": "", "phone": "0216"})
    pendik = owner.get("/api/shop/branches").get_json()["items"][-1]
    edited = owner.form(f"/dukkan/subeler/{pendik['id']}", {"name": "Pendik Merkez", "address": "Sahil", "phone": ""})
    nameless = owner.form("/dukkan/subeler", {"name": " ", "address": "", "phone": ""})

    assert added.status_code == edited.status_code == nameless.status_code == 303
    assert owner.get("/api/shop/branches").get_json()["items"][-1] == {
        "id": pendik["id"],
        "name": "Pendik Merkez",
        "address": "Sahil",
        "phone": None,
    }
    assert "Şubenin bir adı olmalı." in owner.get("/dukkan").get_data(as_text=True)
    assert len(owner.get("/api/shop/branches").get_json()["items"]) == 2


def _shop_with_history(app, owner):
    second = owner.api("POST", "/api/shop/branches", {"name": "Ümraniye"}).get_json()["id"]
    invite(owner, "mudur@example.com", "manager", second)
    manager = accept_as_new(app, "mudur@example.com", "Murat Müdür")
    manager.api("POST", "/api/shop/branches", {"name": "Kartal"})
    return manager, second


def test_the_owner_sees_the_activity_filtered_by_member_kind_branch_and_dates(app, owner):
    manager, second = _shop_with_history(app, owner)
    everything = owner.get("/api/shop/activity").get_json()
    manager_id = next(item["memberId"] for item in everything["items"] if item["memberName"] == "Murat Müdür")
    today = utcnow().date()

    by_member = owner.get(f"/api/shop/activity?member={manager_id}").get_json()["items"]
    by_kind = owner.get("/api/shop/activity?kind=branch_added").get_json()["items"]
    by_branch = owner.get(f"/api/shop/activity?branch={second}").get_json()["items"]
    by_dates = owner.get(f"/api/shop/activity?since={today}&until={today}").get_json()["items"]
    before = owner.get(f"/api/shop/activity?until={today - timedelta(days=1)}").get_json()["items"]
    bad_date = owner.get("/api/shop/activity?since=dün")

    assert [item["kind"] for item in everything["items"]] == [
        "branch_added",
        "member_joined",
        "invitation_sent",
        "branch_added",
    ]
    assert [(item["kind"], item["detail"]) for item in by_member] == [
        ("branch_added", "Kartal"),
        ("member_joined", "Murat Müdür (manager)"),
    ]
    assert [item["detail"] for item in by_kind] == ["Kartal", "Ümraniye"]
    assert {item["branchName"] for item in by_branch} == {"Ümraniye"} and len(by_branch) == 2
    assert len(by_dates) == 4 and before == []
    assert bad_date.status_code == 400
    assert manager.get("/api/shop/activity").status_code == 403


def test_the_activity_page_and_its_csv(app, owner):
    _shop_with_history(app, owner)

    page = owner.get("/dukkan/hareketler?kind=branch_added").get_data(as_text=True)
    exported = owner.get("/dukkan/hareketler.csv?kind=branch_added")
    api_csv = owner.get("/api/shop/activity.csv")
    rows = list(csv.reader(io.StringIO(exported.get_data(as_text=True).lstrip("\ufeff"))))

    assert "Kim ne yaptı" in page and "Şube eklendi" in page and "Davet gönderildi</td>" not in page
    assert exported.mimetype == "text/csv" and "attachment" in exported.headers["Content-Disposition"]
    assert rows[0] == ["Zaman", "Üye", "Şube", "Türü", "Ayrıntı"]
    assert [(row[1], row[3], row[4]) for row in rows[1:]] == [
        ("Murat Müdür", "Şube eklendi", "Kartal"),
        ("Selim Sahip", "Şube eklendi", "Ümraniye"),
    ]
    assert len(list(csv.reader(io.StringIO(api_csv.get_data(as_text=True))))) == 5


def test_entries_older_than_12_months_are_purged_by_the_scheduled_job(app, owner):
    import worker

    _shop_with_history(app, owner)
    oldest = db.session.scalar(sa.select(sa.func.min(ShopActivity.id)))
    db.session.execute(
        sa.update(ShopActivity).where(ShopActivity.id == oldest).values(created_at=utcnow() - timedelta(days=366))
    )
    db.session.commit()

    result = purge_activity()

    assert result == {"purged": 1}
    assert len(owner.get("/api/shop/activity").get_json()["items"]) == 3
    assert "app.shops.tasks.purge_activity" in {entry.func for entry in worker.SCHEDULE}
