"""The templates' `url_for` with the static files' URLs made once per process: a page links six of them (styles,
scripts, icon), each a route build of werkzeug's, the same every time. Other endpoints are built as before."""

from __future__ import annotations

from typing import Any

from flask import Flask, request


def init_static_urls(app: Flask) -> None:
    build = app.url_for
    kept: dict[tuple[str, str], str] = {}  # bounded: the filenames are the templates' own constants

    def url_for(endpoint: str, **values: Any) -> str:
        if endpoint != "static" or len(values) != 1 or "filename" not in values:
            return build(endpoint, **values)
        key = (request.script_root, values["filename"])  # the same file behind another mount point is another URL
        found = kept.get(key)
        if found is None:
            found = kept[key] = build(endpoint, **values)
        return found

    app.jinja_env.globals["url_for"] = url_for
