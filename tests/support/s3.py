"""S3 test helpers."""

from __future__ import annotations

import json
from typing import Any


def create_public_bucket(s3: Any, name: str) -> None:  # a boto3 client has no importable type
    """A bucket whose objects anyone may read, as a public schema-picture bucket is set up."""
    s3.create_bucket(Bucket=name)
    statement = {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{name}/*"}
    s3.put_bucket_policy(Bucket=name, Policy=json.dumps({"Version": "2012-10-17", "Statement": [statement]}))
