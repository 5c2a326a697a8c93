"""The app class keeps Flask's answer to `ensure_sync` per function: plain functions run as they are, an `async def`
view is still wrapped as Flask wraps it, and requests answer as before."""

from __future__ import annotations

import pytest

from app.core.service_app import ServiceFlask


def test_a_plain_function_is_itself_and_asked_once(monkeypatch):
    app = ServiceFlask(__name__)
    asked = []
    original = ServiceFlask.__mro__[1].ensure_sync

    def counted(self, func):
        asked.append(func)
        return original(self, func)

    monkeypatch.setattr(ServiceFlask.__mro__[1], "ensure_sync", counted)

    def view():
        return "ok"

    assert app.ensure_sync(view) is view
    assert app.ensure_sync(view) is view
    assert asked == [view]


def test_an_async_view_is_wrapped_as_flask_wraps_it():
    app = ServiceFlask(__name__)

    async def view():
        return "ok"

    try:
        import asgiref  # noqa: F401
    except ImportError:
        with pytest.raises(RuntimeError):  # Flask's own refusal without flask[async]
            app.ensure_sync(view)
        return
    wrapped = app.ensure_sync(view)
    assert wrapped is not view and wrapped() == "ok"


def test_views_and_hooks_still_answer():
    app = ServiceFlask(__name__)
    seen = []
    app.before_request(lambda: seen.append("before"))
    app.add_url_rule("/", "home", lambda: "hello")

    answers = [app.test_client().get("/").get_data(as_text=True) for _ in range(2)]

    assert answers == ["hello", "hello"] and seen == ["before", "before"]
