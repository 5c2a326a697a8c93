"""The embedded default: a local folder, built once per app from the settings."""

import threading
from pathlib import Path

import pytest

from app.config import INSTANCE_DIR, PROJECT_ROOT, from_env
from app.storage import LocalStorage, current_storage, storage_for
from tests.storage.conftest import image_bytes

KEY = "schemas/42/3f786850e387550fdab836ed7e6dc881de23001b.png"


def test_put_then_exists_and_url(local_app, png):
    storage = storage_for(local_app)

    assert isinstance(storage, LocalStorage)
    assert not storage.exists(KEY)
    assert storage.put(KEY, png, "image/png") == f"/storage/{KEY}"
    assert storage.exists(KEY)
    assert (storage.root / KEY).read_bytes() == png
    assert storage.content_type(KEY) == "image/png"
    assert storage.url(KEY) == f"/storage/{KEY}"


def test_url_uses_storage_url_when_set(make_app, tmp_path):
    app = make_app(STORAGE_DIR=str(tmp_path), STORAGE_URL="https://cdn.parcabul.test/media/")

    assert storage_for(app).url(KEY) == f"https://cdn.parcabul.test/media/{KEY}"


def test_store_once_fetches_only_when_the_key_is_absent(local_app, png):
    storage = storage_for(local_app)
    calls = []

    def fetch():
        calls.append(1)
        return png, "image/png"

    first = storage.store_once(KEY, fetch)
    second = storage.store_once(KEY, fetch)

    assert first == second == f"/storage/{KEY}"
    assert len(calls) == 1
    assert (storage.root / KEY).read_bytes() == png


def test_store_once_stores_nothing_when_the_fetch_fails(local_app):
    storage = storage_for(local_app)

    def fetch():
        raise ConnectionError("upstream down")

    with pytest.raises(ConnectionError):
        storage.store_once(KEY, fetch)
    assert not storage.exists(KEY)


def test_two_workers_racing_for_one_key_both_succeed_with_one_intact_file(local_app, png):
    storage = storage_for(local_app)
    both_checked = threading.Barrier(2, timeout=10)
    urls, errors = [], []

    def fetch():
        both_checked.wait()  # both have found the key absent before either stores
        return png, "image/png"

    def work():
        try:
            urls.append(storage.store_once(KEY, fetch))
        except Exception as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    assert errors == []
    assert urls == [f"/storage/{KEY}"] * 2
    assert (storage.root / KEY).read_bytes() == png
    assert [path.name for path in storage.root.rglob(".tmp-*")] == []


def test_put_replaces_an_object_whole(local_app, png):
    storage = storage_for(local_app)
    storage.put(KEY, png, "image/png")
    jpeg = image_bytes("JPEG")

    storage.put(KEY, jpeg, "image/jpeg")

    assert (storage.root / KEY).read_bytes() == jpeg
    assert storage.content_type(KEY) == "image/jpeg"


@pytest.mark.parametrize("key", ["../outside.png", "/etc/passwd", ".meta/x.png"])
def test_put_refuses_unsafe_keys_and_writes_nothing(local_app, png, key):
    storage = storage_for(local_app)

    with pytest.raises(ValueError):
        storage.put(key, png, "image/png")
    assert not storage.root.exists() or list(storage.root.rglob("*")) == []


def test_put_refuses_what_is_not_an_image(local_app):
    storage = storage_for(local_app)

    with pytest.raises(ValueError):
        storage.put("schemas/1/page.html", b"<script>alert(1)</script>", "text/html")
    assert not storage.exists("schemas/1/page.html")


def test_exists_and_url_validate_keys(local_app):
    storage = storage_for(local_app)

    with pytest.raises(ValueError):
        storage.exists("../x")
    with pytest.raises(ValueError):
        storage.url("a/../../x")


def test_the_backend_is_built_once_per_app(local_app, make_app, tmp_path):
    other = make_app(STORAGE_DIR=str(tmp_path / "other"))

    assert storage_for(local_app) is storage_for(local_app)
    assert local_app.extensions["storage"] is storage_for(local_app)
    assert storage_for(other) is not storage_for(local_app)
    with local_app.app_context():
        assert current_storage() is storage_for(local_app)


def test_storage_settings_default_to_the_embedded_folder():
    config = from_env({"SECRET_KEY": "k"})

    assert config["STORAGE_BACKEND"] == "local"
    assert config["STORAGE_DIR"] == str(INSTANCE_DIR / "storage")
    assert config["STORAGE_URL"] == ""


def test_a_relative_storage_dir_is_taken_from_the_project_folder():
    config = from_env({"SECRET_KEY": "k", "STORAGE_DIR": "var/pictures", "STORAGE_BACKEND": " S3 "})

    assert Path(config["STORAGE_DIR"]) == PROJECT_ROOT / "var" / "pictures"
    assert config["STORAGE_BACKEND"] == "s3"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"STORAGE_BACKEND": "ftp"}, "STORAGE_BACKEND must be one of local, s3"),
        ({"STORAGE_BACKEND": "s3", "STORAGE_URL": "https://cdn.test"}, "needs S3_BUCKET"),
        ({"STORAGE_BACKEND": "s3", "S3_BUCKET": "b", "STORAGE_URL": ""}, "needs STORAGE_URL"),
    ],
)
def test_unworkable_settings_stop_the_app_from_starting(make_app, settings, message):
    with pytest.raises(RuntimeError, match=message):
        make_app(**settings)
