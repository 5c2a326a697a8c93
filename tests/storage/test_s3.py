"""The S3 backend against a real S3-compatible server on loopback (moto in server mode), over HTTP through boto3."""

import logging

import pytest
import requests

from app.storage import storage_for
from app.storage.s3 import S3Storage
from tests.storage.conftest import ACCESS_KEY, SECRET_KEY, image_bytes

KEY = "schemas/42/3f786850e387550fdab836ed7e6dc881de23001b.png"


@pytest.fixture
def s3_app(make_app, s3_settings):
    return make_app(**s3_settings)


def test_put_exists_and_url(s3_app, s3_settings, admin_s3, png):
    storage = storage_for(s3_app)
    public_url = f"{s3_settings['STORAGE_URL']}/{KEY}"

    assert isinstance(storage, S3Storage)
    assert not storage.exists(KEY)
    assert storage.put(KEY, png, "image/png") == public_url
    assert storage.exists(KEY)
    assert storage.url(KEY) == public_url
    stored = admin_s3.get_object(Bucket=s3_settings["S3_BUCKET"], Key=KEY)
    assert stored["Body"].read() == png
    assert stored["ContentType"] == "image/png"
    assert stored["CacheControl"] == "public, max-age=31536000, immutable"


def test_the_public_url_serves_the_picture(s3_app, png):
    url = storage_for(s3_app).put(KEY, png, "image/png")

    response = requests.get(url, timeout=5)

    assert response.status_code == 200
    assert response.content == png
    assert response.headers["Content-Type"] == "image/png"


def test_the_content_type_is_the_pictures_own(s3_app, s3_settings, admin_s3):
    storage_for(s3_app).put("schemas/1/a.png", image_bytes("JPEG"), "application/octet-stream")

    head = admin_s3.head_object(Bucket=s3_settings["S3_BUCKET"], Key="schemas/1/a.png")

    assert head["ContentType"] == "image/jpeg"


def test_store_once_fetches_only_when_the_key_is_absent(s3_app, s3_settings, admin_s3, png):
    storage = storage_for(s3_app)
    calls = []

    def fetch():
        calls.append(1)
        return png, "image/png"

    first = storage.store_once(KEY, fetch)
    second = storage.store_once(KEY, fetch)

    assert first == second == f"{s3_settings['STORAGE_URL']}/{KEY}"
    assert len(calls) == 1
    assert admin_s3.head_object(Bucket=s3_settings["S3_BUCKET"], Key=KEY)["ContentType"] == "image/png"


def test_a_second_put_of_the_same_bytes_is_harmless(s3_app, s3_settings, admin_s3, png):
    storage = storage_for(s3_app)

    storage.put(KEY, png, "image/png")
    storage.put(KEY, png, "image/png")

    assert admin_s3.get_object(Bucket=s3_settings["S3_BUCKET"], Key=KEY)["Body"].read() == png


def test_invalid_keys_are_refused_before_any_request(s3_app, png):
    storage = storage_for(s3_app)

    for call in (lambda: storage.put("../x.png", png, "image/png"), lambda: storage.exists("/x.png")):
        with pytest.raises(ValueError):
            call()


def test_errors_other_than_not_found_are_raised(s3_app):
    """A 403 means the credentials lack a permission: a setup fault to surface, not an absent object to re-upload."""
    from botocore.exceptions import ClientError
    from botocore.stub import Stubber

    storage = storage_for(s3_app)
    with Stubber(storage.client) as stub:
        stub.add_client_error("head_object", service_error_code="403", http_status_code=403)
        with pytest.raises(ClientError):
            storage.exists(KEY)


def test_no_secret_reaches_the_log_or_the_repr(s3_app, png, caplog):
    with caplog.at_level(logging.DEBUG, logger="app.storage"):
        storage = storage_for(s3_app)
        storage.put(KEY, png, "image/png")

    text = caplog.text + repr(storage)
    assert "stored" in caplog.text
    assert SECRET_KEY not in text
    assert ACCESS_KEY not in text


def test_the_client_uses_the_settings_credentials_region_and_endpoint(s3_app, s3_settings):
    client = storage_for(s3_app).client
    credentials = client._request_signer._credentials

    assert (credentials.access_key, credentials.secret_key) == (ACCESS_KEY, SECRET_KEY)
    assert client.meta.region_name == "us-east-1"
    assert client.meta.endpoint_url == s3_settings["S3_ENDPOINT_URL"]
