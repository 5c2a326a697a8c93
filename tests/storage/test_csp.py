"""The browser policy lets pages show pictures from wherever storage publishes them (Authentication rule 11)."""

import pytest

from app.core.security import content_security_policy
from app.storage import storage_for
from tests.support.csp import csp_directives


def test_local_pictures_are_site_relative_and_allowed_by_self(local_app):
    csp = csp_directives(local_app.test_client().get("/"))

    assert storage_for(local_app).url("schemas/1/a.png") == "/storage/schemas/1/a.png"
    assert csp["img-src"] == ["'self'", "data:"]
    assert csp["connect-src"] == ["'self'"]


@pytest.mark.parametrize(
    ("storage_url", "origin"),
    [
        ("https://cdn.parcabul.test", "https://cdn.parcabul.test"),
        ("https://s3.eu-central-1.amazonaws.test/parcabul-schemas", "https://s3.eu-central-1.amazonaws.test"),
        ("http://127.0.0.1:9000/parcabul-schemas/", "http://127.0.0.1:9000"),
        ("https://key:secret@cdn.parcabul.test/media", "https://cdn.parcabul.test"),
    ],
)
def test_an_absolute_storage_url_is_allowed_by_its_origin(make_app, tmp_path, storage_url, origin):
    # A CSP source with a path matches only that path, so the bucket path must not be what is listed.
    app = make_app(STORAGE_URL=storage_url, STORAGE_DIR=str(tmp_path))
    csp = csp_directives(app.test_client().get("/"))

    assert storage_for(app).url("schemas/1/a.png") == storage_url.rstrip("/") + "/schemas/1/a.png"
    assert csp["img-src"] == ["'self'", "data:", origin]
    assert csp["connect-src"][:2] == ["'self'", origin]
    assert "secret" not in " ".join(csp["img-src"] + csp["connect-src"])


def test_an_s3_storage_url_is_allowed(make_app, tmp_path):
    app = make_app(STORAGE_BACKEND="s3", S3_BUCKET="b", STORAGE_URL="https://b.s3.eu-central-1.amazonaws.test")
    csp = csp_directives(app.test_client().get("/"))

    assert "https://b.s3.eu-central-1.amazonaws.test" in csp["img-src"]
    assert "https://b.s3.eu-central-1.amazonaws.test" in csp["connect-src"]


def test_a_site_relative_storage_url_adds_nothing():
    csp = content_security_policy({"STORAGE_URL": "/media"})

    assert csp["img-src"] == ["'self'", "data:"]
    assert csp["connect-src"] == ["'self'"]
