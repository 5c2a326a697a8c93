"""The admin's translation page and its API twin: unknown words by frequency with their names, adding a term (the
form and JSON, validated), the re-translation it queues, and who may see any of it."""

from __future__ import annotations

import pytest
from redis.exceptions import RedisError

from app.catalog import name_translation, store
from app.catalog.providers import Node, PartLine
from app.extensions import db, queues
from app.vehicles.models import Vehicle
from tests.catalog.test_pages import page, text_of
from tests.conftest import SITE, csrf_token_from


@pytest.fixture
def admin_client(client, create_user, sign_in):
    sign_in(create_user(role="admin").email)
    return client


@pytest.fixture
def unknown_words(app):
    """A catapi vehicle whose names hold two unknown words: 'quux' in three rows, 'zork' in one."""
    vehicle = Vehicle(vin="WVWZZZADMINTR0001", brand_name="Volkswagen", model="Golf", source="catapi")
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "catapi", None, [Node("1", "Engine"), Node("2", "Zork housing")])
    root = store.roots(vehicle.id)[0]
    store.save_nodes(vehicle.id, "catapi", root.id, [Node("103", "Lubrication", is_leaf=True)])
    leaf = store.children(root.id)[0]
    lines = [
        PartLine("1", "Quux bracket", position="1"),
        PartLine("2", "Quux bracket, front", position="2"),
        PartLine("3", "Quux", position="3"),
        PartLine("4", "Oil filter", position="4"),
    ]
    store.save_parts(vehicle.id, leaf.id, "catapi", lines)
    db.session.flush()
    return vehicle.id


def test_unknown_words_are_listed_by_frequency_with_their_names(admin_client, unknown_words):
    answer = admin_client.get("/api/admin/translations/untranslated").get_json()

    tokens = {item["token"]: item for item in answer["tokens"]}
    assert [item["token"] for item in answer["tokens"]][:2] == ["quux", "zork"]
    assert tokens["quux"]["rows"] == 3 and set(tokens["quux"]["names"]) == {
        "Quux bracket",
        "Quux bracket, front",
        "Quux",
    }
    assert tokens["zork"] == {"token": "zork", "rows": 1, "names": ["Zork housing"]}
    assert "oil" not in tokens and "filter" not in tokens


def test_the_page_lists_them_and_a_term_added_there_is_used_and_queued(admin_client, unknown_words):
    html = page(admin_client, "/admin/translations")
    assert "quux" in text_of(html) and "Quux bracket, front" in text_of(html)
    form = page(admin_client, "/admin/translations?english=quux")
    assert 'value="quux"' in form

    response = admin_client.post(
        "/admin/translations/terms",
        data={"english": " Quux ", "turkish": "kuks", "kind": "noun", "csrf_token": csrf_token_from(form)},
    )

    assert response.status_code == 303
    after = admin_client.get("/api/admin/translations/untranslated").get_json()
    assert [item["token"] for item in after["tokens"]] == ["zork"]
    job_ids = queues.get("translation").job_ids
    assert len(job_ids) == 1 and job_ids[0].startswith("tr-all-")
    assert "kuks" in text_of(page(admin_client, "/admin/translations"))


def test_the_api_adds_a_term_and_a_second_post_changes_it(admin_client, unknown_words):
    first = admin_client.post(
        "/api/admin/translations/terms", json={"english": "zork", "turkish": "zork"}, headers=SITE
    )
    second = admin_client.post(
        "/api/admin/translations/terms", json={"english": "ZORK", "turkish": "zorkuk", "kind": "noun"}, headers=SITE
    )

    assert first.status_code == second.status_code == 201
    assert second.get_json()["term"]["id"] == first.get_json()["term"]["id"]
    assert second.get_json()["retranslationJob"].startswith("tr-all-")
    terms = admin_client.get("/api/admin/translations/terms").get_json()["terms"]
    assert [(term["english"], term["turkish"]) for term in terms] == [("zork", "zorkuk")]


@pytest.mark.parametrize(
    "body",
    [
        {"english": "", "turkish": "x"},
        {"english": "quux", "turkish": ""},
        {"english": "quux", "turkish": "x", "kind": "verb"},
        {"english": "q" * 121, "turkish": "x"},
        {"english": "<script>", "turkish": "x"},
        {"english": "quux", "turkish": "a\u0000b"},
        {"english": ["quux"], "turkish": "x"},
    ],
)
def test_bad_terms_are_refused_in_turkish_and_nothing_is_saved(admin_client, body):
    response = admin_client.post("/api/admin/translations/terms", json=body, headers=SITE)

    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["message"]
    assert admin_client.get("/api/admin/translations/terms").get_json()["terms"] == []
    assert queues.get("translation").count == 0


def test_a_bad_form_shows_its_error_in_the_page(admin_client):
    form = page(admin_client, "/admin/translations")

    response = admin_client.post(
        "/admin/translations/terms",
        data={"english": "<b>", "turkish": "x", "kind": "noun", "csrf_token": csrf_token_from(form)},
    )

    assert response.status_code == 400
    assert "Latin" in text_of(response.get_data(as_text=True))


@pytest.mark.parametrize(
    ("path", "signed_out"), [("/admin/translations", 302), ("/api/admin/translations/untranslated", 401)]
)
def test_dealers_and_visitors_are_refused(client, create_user, sign_in, path, signed_out):
    assert client.get(path).status_code == signed_out  # the page sends visitors to sign in; the API says 401
    sign_in(create_user().email)
    assert client.get(path).status_code == 403


def test_a_term_post_without_csrf_is_refused(admin_client):
    response = admin_client.post("/admin/translations/terms", data={"english": "quux", "turkish": "kuks"})

    assert response.status_code == 403
    assert "Formun süresi dolmuş" in text_of(response.get_data(as_text=True))
    assert admin_client.get("/api/admin/translations/terms").get_json()["terms"] == []


def test_a_removed_term_is_unknown_again_and_queues_the_retranslation(admin_client, unknown_words):
    added = admin_client.post(
        "/api/admin/translations/terms", json={"english": "zork", "turkish": "zork"}, headers=SITE
    )
    term_id = added.get_json()["term"]["id"]
    queues.get("translation").empty()

    removed = admin_client.delete(f"/api/admin/translations/terms/{term_id}", json={}, headers=SITE)
    again = admin_client.delete(f"/api/admin/translations/terms/{term_id}", json={}, headers=SITE)

    assert removed.status_code == 200 and removed.get_json()["retranslationJob"].startswith("tr-all-")
    assert again.status_code == 404 and again.get_json()["error"]["message"]
    assert admin_client.get("/api/admin/translations/terms").get_json()["terms"] == []
    assert "zork" in {
        item["token"] for item in admin_client.get("/api/admin/translations/untranslated").get_json()["tokens"]
    }


def test_the_page_removes_a_term(admin_client, unknown_words):
    form = page(admin_client, "/admin/translations")
    admin_client.post(
        "/admin/translations/terms",
        data={"english": "quux", "turkish": "kuks", "kind": "noun", "csrf_token": csrf_token_from(form)},
    )
    term_id = admin_client.get("/api/admin/translations/terms").get_json()["terms"][0]["id"]
    html = page(admin_client, "/admin/translations")
    assert f"/admin/translations/terms/{term_id}/delete" in html

    response = admin_client.post(
        f"/admin/translations/terms/{term_id}/delete", data={"csrf_token": csrf_token_from(html)}
    )

    assert response.status_code == 303
    assert "Kaldırıldı" in text_of(page(admin_client, "/admin/translations"))
    assert admin_client.get("/api/admin/translations/terms").get_json()["terms"] == []
    assert admin_client.post(f"/admin/translations/terms/{term_id}/delete").status_code == 403


def test_with_redis_down_the_term_is_saved_and_the_answers_say_the_stored_names_wait(admin_client, monkeypatch):
    def redis_down(on_commit: bool = False) -> str:
        raise RedisError("down")

    monkeypatch.setattr(name_translation, "queue_retranslation", redis_down)
    form = page(admin_client, "/admin/translations")

    saved = admin_client.post(
        "/api/admin/translations/terms", json={"english": "zork", "turkish": "zork"}, headers=SITE
    )
    admin_client.post(
        "/admin/translations/terms",
        data={"english": "quux", "turkish": "kuks", "kind": "noun", "csrf_token": csrf_token_from(form)},
    )

    assert saved.status_code == 201 and saved.get_json()["retranslationJob"] is None
    assert "flask catalog retranslate" in text_of(page(admin_client, "/admin/translations"))
    assert len(admin_client.get("/api/admin/translations/terms").get_json()["terms"]) == 2
