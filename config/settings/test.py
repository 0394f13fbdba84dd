"""The test suite: fast hashing, synchronous tasks, invalid template variables fail loudly."""

import tempfile
from pathlib import Path

from config.settings.base import *  # noqa: F403
from config.settings.base import BASE_DIR, DATABASES, TEMPLATES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="rightsize-test-media-"))
FILE_UPLOAD_TEMP_DIR = tempfile.mkdtemp(prefix="rightsize-test-tmp-")
TEMPLATES[0]["OPTIONS"]["string_if_invalid"] = "INVALID_TEMPLATE_VARIABLE(%s)"  # type: ignore[index]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATICFILES_DIRS = [BASE_DIR / "static"]

# SQLite tests use a file (one per run), not shared-cache memory: shared-cache memory answers
# "database table is locked" without waiting, while a file in WAL mode waits on the busy
# timeout as production does (the two-deciders test, RELIABILITY 24, needs the real behaviour).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.mkdtemp(prefix="rightsize-test-db-")) / "test.sqlite3")
    }
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "throttle",
    },
}
# Tests log in hundreds of times from 127.0.0.1; the throttle tests set their own rates.
LOGIN_RATE_GLOBAL = (10**6, 10)
# A held catalog is compared with the revision once a minute in tests (each process's own edits
# are seen at once through the signal), so query budgets do not depend on the machine's speed;
# the revision tests set their own interval.
CATALOG_REVISION_CHECK_SECONDS = 60.0
