"""The test suite: fast hashing, synchronous tasks, invalid template variables fail loudly."""

import tempfile

from .base import *  # noqa: F403
from .base import BASE_DIR, TEMPLATES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
MEDIA_ROOT = tempfile.mkdtemp(prefix="rightsize-test-media-")
FILE_UPLOAD_TEMP_DIR = tempfile.mkdtemp(prefix="rightsize-test-tmp-")
TEMPLATES[0]["OPTIONS"]["string_if_invalid"] = "INVALID_TEMPLATE_VARIABLE(%s)"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATICFILES_DIRS = [BASE_DIR / "static"]
