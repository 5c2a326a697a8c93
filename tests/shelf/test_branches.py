"""The shop's stock lists, one per branch: a manager imports (for his branch or another of his shop), a clerk looks
numbers up on his branch's list and is refused an import; another shop's imports are not found."""

from __future__ import annotations

import pytest

from app.extensions import db
from app.shelf.models import ShelfActive, ShelfImport
from tests.conftest import SITE
from tests.shelf.conftest import HEADER, MULTIPART, ROWS, csv_bytes, import_list, multipart, run_worker, start, upload
from tests.support.payments import sign_in_client
from tests.support.shops import add_branch, signed_in_colleague

LIST = csv_bytes([HEADER, *ROWS])


@pytest.fixture
def member_client(app, create_user, dealer):
    """`member_client(role, branch=None)`: a member of the dealer's shop, signed in on a client of his own."""
    return lambda role, branch=None: signed_in_colleague(app, create_user, dealer, role, branch)


def test_a_clerk_is_refused_an_import_and_a_manager_may(member_client):
    _clerk, clerk = member_client("clerk")
    _manager, manager = member_client("manager")

    refused = upload(clerk, LIST)
    page = clerk.post("/raf/yukle", data=multipart(LIST, "liste.csv"), content_type=MULTIPART, headers=SITE)

    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "forbidden"
    assert page.status_code == 403
    assert db.session.query(ShelfImport).count() == 0
    assert upload(manager, LIST).status_code == 201


def test_a_clerk_is_refused_the_mapping_and_the_imports(client, dealer, member_client):
    waiting = upload(client, LIST).get_json()
    _clerk, clerk = member_client("clerk")

    assert start(clerk, waiting["id"], waiting["suggestedMapping"]).status_code == 403
    assert clerk.get("/api/shelf/imports").status_code == 403
    assert clerk.get(f"/raf/aktarim/{waiting['id']}").status_code == 403
    assert db.session.get(ShelfImport, waiting["id"]).status == "uploaded"


def test_a_clerk_looks_numbers_up_on_his_branch_list(client, dealer, member_client):
    import_list(client, LIST)
    other_branch = add_branch(dealer.shop_id, "Ümraniye")
    _here, here = member_client("clerk")
    _there, there = member_client("clerk", other_branch)

    found = here.get("/api/shelf/lookup", query_string={"number": "KD-1001"}, headers=SITE)
    elsewhere = there.get("/api/shelf/lookup", query_string={"number": "KD-1001"}, headers=SITE)

    assert found.status_code == 200 and found.get_json()["stock"] == 3
    assert elsewhere.status_code == 404  # Ümraniye has no list yet
    assert there.get("/raf").status_code == 200


def test_a_manager_imports_the_list_of_another_branch_of_his_shop(client, dealer):
    other_branch = add_branch(dealer.shop_id, "Ümraniye")
    body = {"branchId": str(other_branch.id)}
    preview = client.post(
        "/api/shelf/imports", data=multipart(LIST, "liste.csv", extra=body), content_type=MULTIPART, headers=SITE
    ).get_json()
    assert start(client, preview["id"], preview["suggestedMapping"]).status_code == 202
    run_worker()

    db.session.expire_all()
    record = db.session.get(ShelfImport, preview["id"])
    assert (record.shop_id, record.branch_id, record.user_id) == (dealer.shop_id, other_branch.id, dealer.id)
    assert db.session.get(ShelfActive, other_branch.id).import_id == preview["id"]
    assert db.session.get(ShelfActive, dealer.branch_id) is None


def test_one_import_runs_per_branch_not_per_shop(client, dealer, member_client):
    other_branch = add_branch(dealer.shop_id, "Ümraniye")
    _manager, manager = member_client("manager", other_branch)
    here = upload(client, LIST).get_json()
    there = upload(manager, LIST).get_json()

    assert start(client, here["id"], here["suggestedMapping"]).status_code == 202
    assert start(manager, there["id"], there["suggestedMapping"]).status_code == 202
    assert upload(manager, LIST).status_code == 409  # Ümraniye's own import is running


def test_a_branch_of_another_shop_is_not_found(client, dealer, create_user):
    stranger = create_user()
    answer = client.post(
        "/api/shelf/imports",
        data=multipart(LIST, "liste.csv", extra={"branchId": str(stranger.branch_id)}),
        content_type=MULTIPART,
        headers=SITE,
    )

    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "branch_not_found"
    assert db.session.query(ShelfImport).count() == 0


def test_another_shop_sees_nothing_of_the_lists(app, client, dealer, create_user):
    done = import_list(client, LIST)
    stranger = create_user()
    other = app.test_client()
    sign_in_client(other, stranger.email)

    assert other.get(f"/api/shelf/imports/{done['id']}").status_code == 404
    assert other.get(f"/raf/aktarim/{done['id']}").status_code == 404
    assert other.get("/api/shelf/imports").get_json() == {"items": [], "activeId": None}
    assert other.get("/api/shelf/lookup", query_string={"number": "KD-1001"}).status_code == 404
    assert "liste.csv" not in other.get("/raf").get_data(as_text=True)


def test_a_clerk_sees_his_branch_list_without_the_upload_form(client, dealer, member_client):
    import_list(client, LIST)
    _clerk, clerk = member_client("clerk")

    page = clerk.get("/raf").get_data(as_text=True)
    managers = client.get("/raf").get_data(as_text=True)

    assert "liste.csv" in page and "/raf/yukle" not in page and "/raf/aktarim/" not in page
    assert "/raf/yukle" in managers
