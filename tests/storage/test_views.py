"""/storage/<key>: the local folder served by the app, to anyone, with long cache headers and nothing outside it."""

import pytest
from limits import parse_many

from app.storage import storage_for
from tests.storage.conftest import image_bytes

KEY = "schemas/7/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567.png"


def _open(app, path, method="GET", **kwargs):
    """Make the request and close the response (a served file stays open until its response is closed)."""
    response = app.test_client().open(path, method=method, **kwargs)
    response.get_data()
    response.close()
    return response


def test_a_stored_picture_is_served_without_a_session(local_app, png):
    storage_for(local_app).put(KEY, png, "image/png")

    response = _open(local_app, f"/storage/{KEY}")

    assert response.status_code == 200
    assert response.data == png
    assert response.mimetype == "image/png"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers.get("ETag")


def test_the_stored_content_type_is_served_whatever_the_name_says(local_app):
    jpeg = image_bytes("JPEG")
    storage_for(local_app).put("schemas/7/upstream-said-png.png", jpeg, "image/png")

    response = _open(local_app, "/storage/schemas/7/upstream-said-png.png")

    assert response.mimetype == "image/jpeg"
    assert response.data == jpeg


def test_a_revalidation_is_answered_not_modified(local_app, png):
    storage_for(local_app).put(KEY, png, "image/png")
    etag = _open(local_app, f"/storage/{KEY}").headers["ETag"]

    response = _open(local_app, f"/storage/{KEY}", headers={"If-None-Match": etag})

    assert response.status_code == 304


def test_head_has_the_headers_without_the_body(local_app, png):
    storage_for(local_app).put(KEY, png, "image/png")

    response = _open(local_app, f"/storage/{KEY}", method="HEAD")

    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert int(response.headers["Content-Length"]) == len(png)


def test_a_missing_key_is_the_html_not_found_page(local_app, png):
    storage_for(local_app).put(KEY, png, "image/png")

    response = _open(local_app, "/storage/schemas/7/missing.png")

    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_nothing_is_served_before_the_first_picture_is_stored(local_app):
    assert _open(local_app, f"/storage/{KEY}").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/storage/../secret.txt",
        "/storage/..%2Fsecret.txt",
        "/storage/%2e%2e/secret.txt",
        "/storage/schemas/..%2F..%2Fsecret.txt",
        "/storage/%2Fetc/passwd",
        "/storage//etc/passwd",
        f"/storage/.meta/{KEY}",
        "/storage/schemas/7/.tmp-leftover",
        "/storage/schemas/7/",
    ],
)
def test_nothing_outside_the_stored_objects_is_served(local_app, png, tmp_path, path):
    (tmp_path / "secret.txt").write_text("instance secret")  # beside the storage folder
    storage = storage_for(local_app)
    storage.put(KEY, png, "image/png")
    (storage.root / "schemas/7/.tmp-leftover").write_bytes(b"half written")

    response = _open(local_app, path, follow_redirects=True)  # Werkzeug first merges '//' with a redirect

    assert response.status_code == 404, path
    assert b"instance secret" not in response.data
    assert b"half written" not in response.data
    assert b"image/png" not in response.data


def test_the_route_is_closed_when_objects_live_in_s3(make_app, tmp_path, png):
    from app.storage.local import LocalStorage

    LocalStorage(tmp_path).put(KEY, png, "image/png")  # a leftover local copy must not be served
    app = make_app(
        STORAGE_BACKEND="s3", S3_BUCKET="b", STORAGE_URL="https://cdn.parcabul.test", STORAGE_DIR=str(tmp_path)
    )

    assert _open(app, f"/storage/{KEY}").status_code == 404


def test_pictures_do_not_count_against_the_rate_limit(app, make_app, tmp_path, png):
    # The limiter is shared by every app of the test run and keeps the session app's default limit.
    allowed = min(item.amount for item in parse_many(app.config["RATELIMIT_DEFAULT"]))
    storage_app = make_app(STORAGE_DIR=str(tmp_path))
    storage_for(storage_app).put(KEY, png, "image/png")
    client = storage_app.test_client()

    statuses = set()
    for _ in range(allowed + 1):
        response = client.get(f"/storage/{KEY}")
        statuses.add(response.status_code)
        response.close()

    assert statuses == {200}
