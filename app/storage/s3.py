"""S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, ...) through boto3."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from app.storage.base import CACHE_CONTROL, Storage, validate_key

_MISSING = {"404", "NoSuchKey", "NotFound"}


def s3_client(config: Mapping[str, Any]) -> Any:  # boto3 clients are generated at run time
    """A client from the S3_* settings; without keys it falls back to boto3's own chain (e.g. an instance role)."""
    endpoint = config.get("S3_ENDPOINT_URL") or None
    # Path-style by default with a custom endpoint: MinIO and most S3-compatible servers have no per-bucket hostnames.
    addressing = config.get("S3_ADDRESSING_STYLE") or ("path" if endpoint else "auto")
    session = boto3.session.Session(
        aws_access_key_id=config.get("S3_ACCESS_KEY_ID") or None,
        aws_secret_access_key=config.get("S3_SECRET_ACCESS_KEY") or None,
        region_name=config.get("S3_REGION") or "us-east-1",
    )
    client_config = Config(
        s3={"addressing_style": addressing},
        connect_timeout=5,
        read_timeout=30,
        retries={"max_attempts": 3, "mode": "standard"},
        # botocore's default CRC checksums on every upload are refused by some S3-compatible servers.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )
    return session.client("s3", endpoint_url=endpoint, config=client_config)


class S3Storage(Storage):
    name = "s3"

    def __init__(self, client: Any, bucket: str, base_url: str) -> None:
        self.client = client
        self.bucket = bucket
        self.base_url = base_url.rstrip("/")

    def __repr__(self) -> str:
        return f"S3Storage(bucket={self.bucket!r}, base_url={self.base_url!r})"

    def _write(self, key: str, data: bytes, content_type: str) -> None:
        self.client.put_object(
            Bucket=self.bucket, Key=key, Body=data, ContentType=content_type, CacheControl=CACHE_CONTROL
        )

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=validate_key(key))
        except ClientError as error:
            # A 403 is not taken for "absent": it means the credentials lack s3:GetObject/ListBucket, a setup fault.
            if error.response.get("Error", {}).get("Code") in _MISSING:
                return False
            raise
        return True
