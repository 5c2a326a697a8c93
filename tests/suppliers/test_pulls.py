"""A supplier's list pulled from its URL by the job (a real RQ worker) from a distributor served on 127.0.0.1: the
auth sent, the kind sniffed, a failed pull keeping the last good list and saying so, the sweep queueing each
supplier once."""

from __future__ import annotations

import base64
import socket

from app.extensions import db, queues
from app.suppliers import pulls
from app.suppliers.models import Supplier, SupplierActive
from tests.conftest import SITE
from tests.shelf.conftest import csv_bytes, run_worker
from tests.suppliers.conftest import HEADER, ROWS, XML_FEED, create_supplier, import_list, lines_of


def _pull(client, supplier_id: int) -> dict:
    response = client.post(f"/api/suppliers/{supplier_id}/pull", headers=SITE)
    assert response.status_code == 202, response.get_json()
    run_worker()
    return client.get(f"/api/suppliers/{supplier_id}").get_json()


def test_a_pull_imports_the_list_with_the_remembered_mapping_and_sends_the_token(manager, feed):
    served, base = feed
    supplier = create_supplier(
        manager, source="url", url=f"{base}/liste", authKind="token", authHeader="X-Api-Key", authSecret="tkn-123"
    )
    first = import_list(manager, supplier["id"], csv_bytes([HEADER, *ROWS]))  # the mapping is chosen once
    served.body = csv_bytes([HEADER, ROWS[0]])

    state = _pull(manager, supplier["id"])

    assert served.seen[-1]["X-Api-Key"] == "tkn-123"
    assert state["lastPullError"] is None and state["lastPullAt"] and state["activeImportId"] != first["id"]
    assert [line.own_code for line in lines_of(state["activeImportId"])] == ["BSB-1001"]
    assert lines_of(first["id"]) == []


def test_basic_auth_and_an_xml_feed(manager, feed):
    served, base = feed
    served.body, served.content_type = XML_FEED.encode(), "application/xml"
    supplier = create_supplier(
        manager, source="url", url=f"{base}/fiyatlar", authKind="basic", authUser="bayi", authSecret="parola-9"
    )
    state = _pull(manager, supplier["id"])
    # No mapping chosen yet: the file waits for one, and the page says so.
    assert served.seen[-1]["Authorization"] == "Basic " + base64.b64encode(b"bayi:parola-9").decode()
    assert "sütun" in state["lastPullError"] and state["activeImportId"] is None


def test_a_failed_pull_keeps_the_last_good_list_and_says_so(manager, feed):
    served, base = feed
    supplier = create_supplier(manager, source="url", url=f"{base}/liste")
    good = import_list(manager, supplier["id"], csv_bytes([HEADER, *ROWS]))

    served.status, served.body = 403, b"yasak"
    refused = _pull(manager, supplier["id"])
    assert refused["activeImportId"] == good["id"] and "HTTP 403" in refused["lastPullError"]

    served.status, served.body = 200, b"\x00\x01 bozuk"
    broken = _pull(manager, supplier["id"])
    assert broken["activeImportId"] == good["id"] and broken["lastPullError"]
    assert len(lines_of(good["id"])) == 3

    served.status, served.body = 500, b"hata"
    manager.post(f"/api/suppliers/{supplier['id']}/pull", headers=SITE)
    run_worker()  # a 5xx is tried again later by RQ; the error is said meanwhile
    db.session.expire_all()
    assert "HTTP 500" in db.session.get(Supplier, supplier["id"]).last_pull_error
    assert db.session.get(SupplierActive, supplier["id"]).import_id == good["id"]

    page = manager.get(f"/dukkan/tedarikciler/{supplier['id']}").get_data(as_text=True)
    assert "HTTP 500" in page and "son çekme başarısız" in page.casefold()


def test_a_pull_to_a_private_address_is_refused_when_not_allowed(app, manager, feed, monkeypatch):
    _served, base = feed
    supplier = create_supplier(manager, source="url", url=f"{base}/liste")
    monkeypatch.setitem(app.config, "SUPPLIER_PULL_ALLOW_PRIVATE", False)
    db.session.get(Supplier, supplier["id"])
    assert pulls.PULL_JOB  # the job runs in this process: the setting is this app's
    from app.suppliers.tasks import pull_supplier_list

    with app.app_context():
        assert pull_supplier_list(supplier["id"]) == "failed"
        db.session.expire_all()
        assert "özel ağ" in db.session.get(Supplier, supplier["id"]).last_pull_error


def test_a_name_that_turns_private_after_the_check_is_not_connected_to(app, manager, feed, monkeypatch):
    """DNS rebinding: the supplier's host name resolves to a public address when the pull checks it, then to the
    machine itself; the pull connects to the address it checked, or to none."""
    served, base = feed
    port = base.rsplit(":", 1)[1]
    supplier = create_supplier(manager, source="url", url=f"http://liste.tedarik.example:{port}/liste")
    monkeypatch.setitem(app.config, "SUPPLIER_PULL_ALLOW_PRIVATE", False)
    answers = iter(["93.184.216.34"])  # public once, then 127.0.0.1, where the feed listens

    def rebinding(host, port, *args, **kwargs):
        assert host == "liste.tedarik.example", host
        address = next(answers, "127.0.0.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port)))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    from app.suppliers.tasks import pull_supplier_list

    with app.app_context():
        assert pull_supplier_list(supplier["id"]) == "failed"
        db.session.expire_all()
        assert "özel ağ" in db.session.get(Supplier, supplier["id"]).last_pull_error
    assert served.seen == []


def test_each_address_the_name_resolves_to_is_tried_in_turn(manager, feed, monkeypatch):
    served, base = feed
    port = base.rsplit(":", 1)[1]
    supplier = create_supplier(manager, source="url", url=f"http://liste.tedarik.example:{port}/liste")
    import_list(manager, supplier["id"], csv_bytes([HEADER, *ROWS]))
    served.body = csv_bytes([HEADER, ROWS[0]])

    def two_addresses(host, port, *args, **kwargs):
        # Nothing listens on 127.0.0.2 (the feed is on 127.0.0.1): refused at once, then the next is tried.
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port))) for address in ("127.0.0.2", "127.0.0.1")
        ]

    monkeypatch.setattr(socket, "getaddrinfo", two_addresses)
    state = _pull(manager, supplier["id"])

    assert state["lastPullError"] is None and len(served.seen) == 1
    assert served.seen[0]["Host"] == f"liste.tedarik.example:{port}"


def test_the_sweep_queues_each_due_supplier_once(app, manager, feed):
    _served, base = feed
    due = create_supplier(manager, source="url", url=f"{base}/liste", pullIntervalMinutes=15)
    create_supplier(manager, name="Yüklenen")  # an uploaded list is never pulled
    with app.app_context():
        assert pulls.sweep() == 1
        assert pulls.sweep() == 0  # its job is waiting: not a second one
        job = queues.get("default").fetch_job(pulls.pull_job_id(due["id"]))
        assert job is not None and job.args == (due["id"],)
