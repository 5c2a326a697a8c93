"""The rendered-fragment cache (app.core.fragments): kept by the full content of what was rendered, bounded, and
bypassed for a context it cannot serialise exactly."""

from __future__ import annotations

import sys

from bs4 import BeautifulSoup
from flask_babel import refresh
from flask_wtf.csrf import generate_csrf

from app.catalog.page_links import dealer_links
from app.core.fragments import EXTENSION_KEY, FORM_TOKEN_SLOT, PAGE_PATH_SLOT, FragmentCache
from app.vehicles.models import Vehicle
from tests.conftest import PASSWORD, SITE, csrf_token_from

TEMPLATE = "catalog/_main.html"


def _main(name: str) -> dict:
    return {"kind": "error", "title": name, "message": f"<{name}>", "plan_limited": False}


def test_the_same_content_is_rendered_once_and_new_content_again(app):
    cache = FragmentCache(max_bytes=100_000)
    with app.test_request_context("/"):
        links = dealer_links(1)
        first = cache.render(TEMPLATE, main=_main("a"), links=links)
        again = cache.render(TEMPLATE, main=_main("a"), links=links)
        other = cache.render(TEMPLATE, main=_main("b"), links=links)

    assert first is again and "&lt;a&gt;" in first
    assert "&lt;b&gt;" in other and "&lt;a&gt;" not in other
    assert cache.size == sys.getsizeof(first) + sys.getsizeof(other)


def test_the_cache_keeps_to_its_budget_dropping_the_least_recently_used(app):
    with app.test_request_context("/"):
        links = dealer_links(1)
        size = sys.getsizeof(FragmentCache(max_bytes=0).render(TEMPLATE, main=_main("a"), links=links))
        cache = FragmentCache(max_bytes=2 * size + size // 2)  # room for two
        first = cache.render(TEMPLATE, main=_main("a"), links=links)
        first_b = cache.render(TEMPLATE, main=_main("b"), links=links)
        assert cache.render(TEMPLATE, main=_main("a"), links=links) is first  # "a" is now the most recent
        cache.render(TEMPLATE, main=_main("c"), links=links)  # "b" goes
        kept_a = cache.render(TEMPLATE, main=_main("a"), links=links)
        again_b = cache.render(TEMPLATE, main=_main("b"), links=links)

    assert kept_a is first
    assert len(cache._entries) == 2 and cache.size <= cache.max_bytes
    assert again_b is not first_b and again_b == first_b  # rendered again, the same HTML


def test_a_fragment_larger_than_the_whole_budget_is_rendered_and_not_kept(app):
    cache = FragmentCache(max_bytes=50)
    with app.test_request_context("/"):
        html = cache.render(TEMPLATE, main=_main("a"), links=dealer_links(1))

    assert "&lt;a&gt;" in html and len(html) > 50
    assert not cache._entries and cache.size == 0


def test_a_context_that_cannot_be_serialised_exactly_is_rendered_each_time(app):
    cache = FragmentCache(max_bytes=100_000)
    with app.test_request_context("/"):
        vehicle = Vehicle(vin="WVWZZZAUZHW100001", brand_name="Volkswagen", model="Golf", source="catapi")
        html = cache.render(TEMPLATE, main=_main("a"), links=dealer_links(1), vehicle=vehicle)

    assert "&lt;a&gt;" in html and not cache._entries


def test_the_locale_is_part_of_the_key(app):
    cache = FragmentCache(max_bytes=100_000)
    for language in ("tr", "en"):
        with app.test_request_context(f"/?lang={language}"):
            refresh()  # the test's app context has cached a locale
            cache.render(TEMPLATE, main=_main("a"), links=dealer_links(1))

    assert len(cache._entries) == 2


def test_a_kept_form_gets_each_request_s_own_csrf_token(app, monkeypatch):
    """The fragment is kept with a slot where its forms' token goes; each render fills it with the request's token."""
    cache = FragmentCache(max_bytes=100_000)
    monkeypatch.setitem(app.extensions, EXTENSION_KEY, cache)
    template = app.jinja_env.from_string('<form method="post">{{ form_token_field }}</form>')
    monkeypatch.setattr(app.jinja_env, "get_template", lambda name, *args, **kwargs: template)
    for _ in range(2):
        with app.test_request_context("/"):
            html = app.jinja_env.globals["cached_fragment"]("form.html", name="same")
            assert FORM_TOKEN_SLOT not in html
            assert csrf_token_from(html) == generate_csrf()  # the request's own token, not kept

    assert len(cache._entries) == 1 and FORM_TOKEN_SLOT in next(iter(cache._entries.values()))


# --- the site's header and footer, kept for every page ---------------------------------------------------------------


def _header(html: str):
    page = BeautifulSoup(html, "html.parser")
    return page.select_one("header.site-header")


def test_the_kept_site_header_is_each_dealer_s_own_and_returns_to_the_page_it_is_on(app, create_user):
    """The header (kept by language and dealer) names the signed-in dealer, carries each request's own token in its
    forms, and its language switch returns to the page it is on; two dealers on the same pages see only their own."""
    first, second = create_user(name="Birinci Bayi"), create_user(name="İkinci Bayi")
    seen = {}
    for dealer in (first, second, first):
        client = app.test_client()
        response = client.post(
            "/api/auth/sign-in/email", json={"email": dealer.email, "password": PASSWORD}, headers=SITE
        )
        assert response.status_code == 200
        for path in ("/vin", "/raf?page=1"):
            html = client.get(path).get_data(as_text=True)
            header = _header(html)
            assert header.select_one(".header-user").get_text() == dealer.name
            other = second if dealer is first else first
            assert other.name not in header.get_text() and other.email not in html
            assert header.select_one('.language-switch input[name="next"]')["value"] == path
            tokens = {field["value"] for field in header.select('input[name="csrf_token"]')}
            assert FORM_TOKEN_SLOT not in html and PAGE_PATH_SLOT not in html and len(tokens) == 1
            seen.setdefault(dealer.email, set()).update(tokens)
    assert len(seen) == 2 and not seen[first.email] & seen[second.email]  # each session its own token

    anonymous = app.test_client().get("/login").get_data(as_text=True)
    assert _header(anonymous).select_one(".header-user") is None and "Birinci Bayi" not in anonymous
