"""Where uploads and PDF reports live in production: the local disk (MEDIA_ROOT, one machine),
or an S3 bucket (any S3-compatible store) when ``AWS_STORAGE_BUCKET_NAME`` is set, so web and
worker processes on several hosts see the same files.

S3 needs the ``s3`` extra (``pip install '.[s3]'``: django-storages and boto3); development and
tests never import it. The variables (django-storages' own names):

- ``AWS_STORAGE_BUCKET_NAME`` (turns S3 on), ``AWS_S3_REGION_NAME``,
- ``AWS_S3_ENDPOINT_URL`` (MinIO, Ceph, R2 …; empty for AWS),
- ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` (or an instance role: leave them unset),
- ``AWS_LOCATION`` (a prefix inside the bucket, default ``rightsize``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def default_storage_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    bucket = env.get("AWS_STORAGE_BUCKET_NAME", "").strip()
    if not bucket:
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    options: dict[str, Any] = {
        "bucket_name": bucket,
        "location": env.get("AWS_LOCATION", "rightsize"),
        "default_acl": None,  # the bucket's own policy: private
        "querystring_auth": True,  # files are only ever streamed through Django anyway
        "file_overwrite": True,  # content-hash and per-version names: same name, same bytes
    }
    for option, name in (
        ("region_name", "AWS_S3_REGION_NAME"),
        ("endpoint_url", "AWS_S3_ENDPOINT_URL"),
        ("access_key", "AWS_ACCESS_KEY_ID"),
        ("secret_key", "AWS_SECRET_ACCESS_KEY"),
    ):
        if env.get(name):
            options[option] = env[name]
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}
