"""The vehicle page's prefetch progress through HTTP: the bar that polls while the walk runs, the note once the tree is
stored, the slower poll of a walk that stands still, the page that shows the bar only while it is needed, and who may
poll. New strings are not translated yet, so their text is checked by its numbers only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from app.catalog.models import Category
from app.catalog.progress_views import IDLE_AFTER_POLLS, STOP_POLLING
from app.extensions import db
from tests.catalog.test_categories import get, run_prefetch
from tests.catalog.test_pages import HX, page, text_of
from tests.conftest import PASSWORD, SITE
from tests.support.markup import the

BAR = 'id="catalog-progress"'


def progress_url(vehicle_id: int) -> str:
    return f"/vehicles/{vehicle_id}/catalog-progress"


def poll(client, vehicle_id: int, **params: int) -> str:
    response = client.get(progress_url(vehicle_id), query_string=params, headers=HX)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert "HX-Request" in response.headers.get("Vary", "")
    return response.get_data(as_text=True)


def counts_of(client, vehicle_id: int) -> dict:
    return get(client, f"/api/vehicles/{vehicle_id}/categories/progress")


def drill_first_group(client, vehicle_id: int) -> dict:
    motor = get(client, f"/api/vehicles/{vehicle_id}/categories")["categories"][0]
    get(client, f"/api/vehicles/{vehicle_id}/categories/{motor['id']}")
    return motor


@contextmanager
def walk_queries() -> Iterator[list[str]]:
    """The walk-state reads (`count(*) FILTER (...)`) the requests inside send to the database."""
    seen: list[str] = []

    def record(_conn, _cursor, statement: str, *_args) -> None:
        if "FILTER (WHERE" in statement:
            seen.append(statement)

    sa.event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", record)


# --- the fragment -------------------------------------------------------------------------------------------------


def test_while_the_walk_runs_the_fragment_shows_the_counts_and_polls(client, bmw, upstreams):
    drill_first_group(client, bmw)
    counts = counts_of(client, bmw)

    html = poll(client, bmw)

    assert counts["done"] is False and 0 < counts["groupsDrilled"] < counts["groups"]
    stored = counts["groupsDrilled"] + counts["leavesFetched"]
    assert html.strip().startswith(f"<div {BAR}")
    poller = the(html, "#catalog-progress")
    assert poller["hx-get"] == f"{progress_url(bmw)}?seen={stored}&idle=0"
    assert (poller["hx-trigger"], poller["hx-swap"]) == ("every 2s", "outerHTML")
    bar = the(html, "progress")
    assert (bar["max"], bar["value"], bar["aria-labelledby"]) == (
        "100",
        str(counts["percent"]),
        "catalog-progress-label",
    )
    text = text_of(html)
    assert f"{counts['groupsDrilled']} / {counts['groups']}" in text
    assert f"{counts['leavesFetched']} / {counts['leaves']}" in text
    assert "hx-swap-oob" not in html


def test_a_walk_that_stands_still_is_polled_slowly_until_it_moves_again(client, bmw, upstreams):
    get(client, f"/api/vehicles/{bmw}/categories")  # the roots only: nothing drilled yet

    first = poll(client, bmw, seen=0, idle=0)
    still = poll(client, bmw, seen=0, idle=IDLE_AFTER_POLLS - 1)
    stiller = poll(client, bmw, seen=0, idle=IDLE_AFTER_POLLS)
    drill_first_group(client, bmw)
    moving = poll(client, bmw, seen=0, idle=IDLE_AFTER_POLLS)

    assert 'seen=0&amp;idle=1" hx-trigger="every 2s"' in first
    assert f'seen=0&amp;idle={IDLE_AFTER_POLLS}" hx-trigger="every 30s"' in still
    assert f'seen=0&amp;idle={IDLE_AFTER_POLLS}" hx-trigger="every 30s"' in stiller  # the count in the URL stays put
    assert 'seen=1&amp;idle=0" hx-trigger="every 2s"' in moving


def test_once_the_tree_is_stored_the_fragment_says_so_and_stops_polling(client, bmw, upstreams):
    get(client, f"/api/vehicles/{bmw}/categories")
    run_prefetch(bmw)
    counts = counts_of(client, bmw)

    html = poll(client, bmw, seen=3, idle=0)

    assert counts["done"] is True
    assert f'<p {BAR} class="catalog-progress is-done">' in html
    assert "hx-get" not in html and "hx-trigger" not in html and "<progress" not in html
    # Told once through the page's live region, which stays in place while the bar is swapped.
    assert '<span hx-swap-oob="innerHTML:#catalog-status">' in html
    text = text_of(html)
    assert str(counts["groups"]) in text and str(counts["leaves"]) in text


def test_the_counts_are_written_the_locale_s_way(client, bmw, upstreams):
    motor = get(client, f"/api/vehicles/{bmw}/categories")["categories"][0]
    leaves = [
        {"vehicle_id": bmw, "parent_id": motor["id"], "source": "portal", "external_id": f"x{n}", "name": f"Leaf {n}"}
        for n in range(1234)
    ]
    db.session.execute(sa.insert(Category).values(is_leaf=True), leaves)
    db.session.commit()

    turkish = text_of(poll(client, bmw))
    client.set_cookie("lang", "en")
    english = text_of(poll(client, bmw))

    assert "0 / 1.234" in turkish and "%0" in turkish
    assert "0 / 1,234" in english and "0%" in english


# --- the vehicle page ---------------------------------------------------------------------------------------------


def test_the_vehicle_page_shows_the_bar_while_the_walk_runs(client, bmw, upstreams):
    html = page(client, f"/vehicles/{bmw}")  # the page stores the roots; nothing else is stored yet

    counts = counts_of(client, bmw)
    assert html.index(BAR) < html.index("data-catalog")  # above the catalog, the same fragment the polls get
    assert f'hx-get="{progress_url(bmw)}?seen=0&amp;idle=0" hx-trigger="every 2s"' in html
    assert f"0 / {counts['groups']}" in text_of(html)
    leaf_page = page(client, f"/vehicles/{bmw}/categories/{drill_first_group(client, bmw)['id']}")
    assert BAR in leaf_page and 'seen=1&amp;idle=0"' in leaf_page


def test_the_vehicle_page_has_no_bar_once_the_tree_is_stored_and_reads_its_state_once(client, bmw, upstreams):
    get(client, f"/api/vehicles/{bmw}/categories")
    run_prefetch(bmw)

    with walk_queries() as queries:
        html = page(client, f"/vehicles/{bmw}")

    assert BAR not in html and "catalog-progress" not in html
    assert len(queries) == 1  # one aggregate over the vehicle's categories, no more


def test_a_plan_without_the_brand_gets_no_bar_on_the_page_and_no_polls(
    client, bmw, create_user, make_subscription, sign_in, upstreams
):
    get(client, f"/api/vehicles/{bmw}/categories")
    other = create_user()
    make_subscription(other, "active", plan_key="single")
    sign_in(other.email)

    with walk_queries() as queries:
        html = page(client, f"/vehicles/{bmw}", status=403)
        plain = client.get(progress_url(bmw))
        polled = client.get(progress_url(bmw), headers=HX)

    assert BAR not in html and queries == []
    assert plain.status_code == 403 and "Bu marka planınıza dahil değil." in plain.get_data(as_text=True)
    # htmx stops polling on 286 and swaps the empty answer in: the bar goes.
    assert polled.status_code == STOP_POLLING and polled.get_data(as_text=True) == ""


# --- who may poll -------------------------------------------------------------------------------------------------


def test_without_htmx_the_progress_url_leads_to_the_vehicle_page(client, bmw, upstreams):
    response = client.get(progress_url(bmw))

    assert response.status_code == 303 and response.headers["Location"] == f"/vehicles/{bmw}"
    assert "HX-Request" in response.headers["Vary"]


def test_a_signed_out_visitor_is_sent_to_sign_in(app, bmw, upstreams):
    visitor = app.test_client()

    plain = visitor.get(progress_url(bmw))
    polled = visitor.get(progress_url(bmw), headers=HX)

    assert plain.status_code == 302 and plain.headers["Location"].startswith("/login?next=")
    assert polled.status_code == 204 and polled.headers["HX-Redirect"].startswith("/login?next=")


def test_an_unknown_vehicle_is_not_found(client, bmw, upstreams):
    plain = client.get(progress_url(999999))
    polled = client.get(progress_url(999999), headers=HX)

    assert plain.status_code == 404 and "Sayfa bulunamadı" in plain.get_data(as_text=True)
    assert polled.status_code == STOP_POLLING and polled.get_data(as_text=True) == ""


def test_polls_are_throttled_per_user(make_app, bmw, upstreams, create_user, make_subscription):
    app = make_app(RATELIMIT_ENABLED=True, CATALOG_PROGRESS_RATE_LIMIT="5 per minute", **upstreams.settings)
    first, second = app.test_client(), app.test_client()  # two counters of one shop, behind one address
    for counter in (first, second):
        user = create_user()
        make_subscription(user, "active", plan_key="full")
        signed = counter.post("/api/auth/sign-in/email", json={"email": user.email, "password": PASSWORD}, headers=SITE)
        assert signed.status_code == 200
    allowed = 5

    statuses = {first.get(progress_url(bmw), headers=HX).status_code for _ in range(allowed)}
    throttled = first.get(progress_url(bmw), headers=HX)

    assert statuses == {200} and throttled.status_code == 429
    assert second.get(progress_url(bmw), headers=HX).status_code == 200
