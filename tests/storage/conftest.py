"""Storage fixtures: a local folder per test, and a real S3-compatible server (moto in server mode) on loopback."""

from __future__ import annotations

import io
import uuid

import boto3
import pytest
from botocore.config import Config
from moto.server import ThreadedMotoServer
from PIL import Image

from tests.support.s3 import create_public_bucket

ACCESS_KEY = "test-access-key"
SECRET_KEY = "test-secret-key-never-logged"
REGION = "us-east-1"


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (3, 2)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, format=fmt)
    return buffer.getvalue()


@pytest.fixture
def png() -> bytes:
    return image_bytes("PNG")


@pytest.fixture
def local_app(make_app, tmp_path):
    return make_app(STORAGE_BACKEND="local", STORAGE_DIR=str(tmp_path / "storage"), STORAGE_URL="")


@pytest.fixture(scope="session")
def moto_endpoint():
    """An S3-compatible HTTP server in this process, on a free loopback port."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()
    server._server.server_close()  # stop() leaves the listening socket open


@pytest.fixture
def _aws_isolated(monkeypatch, tmp_path):
    """Nothing from this machine's AWS configuration (profiles, files, variables) reaches boto3."""
    for name in (
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))


@pytest.fixture
def admin_s3(moto_endpoint, _aws_isolated):
    """A boto3 client of our own, for setting buckets up and checking what the app stored."""
    session = boto3.session.Session(aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=REGION)
    return session.client("s3", endpoint_url=moto_endpoint, config=Config(s3={"addressing_style": "path"}))


@pytest.fixture
def bucket(admin_s3) -> str:
    """A fresh bucket whose objects anyone may read, as a public schema-picture bucket is set up."""
    name = f"schemas-{uuid.uuid4().hex[:12]}"
    create_public_bucket(admin_s3, name)
    return name


@pytest.fixture
def s3_settings(moto_endpoint, bucket) -> dict:
    return {
        "STORAGE_BACKEND": "s3",
        "S3_BUCKET": bucket,
        "S3_ENDPOINT_URL": moto_endpoint,
        "S3_REGION": REGION,
        "S3_ACCESS_KEY_ID": ACCESS_KEY,
        "S3_SECRET_ACCESS_KEY": SECRET_KEY,
        "STORAGE_URL": f"{moto_endpoint}/{bucket}",
    }
