"""`make run`'s demo distributors (the sandbox on 127.0.0.1): a manager adds them in one step, once; their lists are
pulled through the real pull job (a real RQ worker) with their columns already chosen, and matched by their OE field."""

from __future__ import annotations

import pytest

from app.sources.sandbox.distributor import demo_distributors
from tests.conftest import SITE
from tests.shelf.conftest import run_worker
from tests.suppliers.conftest import lines_of, numbers_of

LINES = 30


@pytest.fixture
def distributor(upstreams):
    upstreams.distributor.faults.lines = LINES  # a short list each
    return upstreams.distributor


def test_a_manager_adds_the_demo_distributors_once_and_their_lists_are_pulled(app, shop, manager, distributor):
    page = manager.get("/dukkan/tedarikciler").get_data(as_text=True)
    expected = {connection.name for connection in demo_distributors(app.config["SANDBOX_DISTRIBUTOR_URL"])}

    added = manager.post("/dukkan/tedarikciler/ornekler", data={"csrf_token": shop["manager"].form_token})
    again = manager.post("/dukkan/tedarikciler/ornekler", data={"csrf_token": shop["manager"].form_token})
    run_worker()
    suppliers = manager.get("/api/suppliers", headers=SITE).get_json()["items"]

    assert "Örnek tedarikçileri ekle" in page
    assert added.status_code == 303 and again.status_code == 303
    assert {item["name"] for item in suppliers} == expected and len(suppliers) == len(expected)
    for item in suppliers:
        state = manager.get(f"/api/suppliers/{item['id']}", headers=SITE).get_json()
        assert state["lastPullError"] is None, state
        lines = lines_of(state["activeImportId"])
        assert len(lines) == LINES
        assert {kind for kind, _key in numbers_of(state["activeImportId"])} >= {"own", "oe"}


def test_a_clerk_cannot_add_them(shop):
    clerk = shop["clerk"]
    refused = clerk.client.post("/dukkan/tedarikciler/ornekler", data={"csrf_token": clerk.form_token})
    assert refused.status_code == 403
