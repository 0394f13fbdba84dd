"""Production settings for the benchmark: what a deployment runs, on plain HTTP on 127.0.0.1.

config.settings.production unchanged (DEBUG off, manifest static files, secure cookies, HSTS
off via SECURE_HSTS_SECONDS=0 and SECURE_SSL_REDIRECT=false in the environment), except that
collected static files go under var/bench/ so the benchmark never writes into var/staticfiles,
and are not pre-compressed (whitenoise's gzip + brotli of 1,000 admin files takes a minute of
the 10; the pages measured never serve a static file, and `{% static %}` still resolves through
the manifest).
"""

from config.settings.production import *  # noqa: F403
from config.settings.production import BASE_DIR

STATIC_ROOT = BASE_DIR / "var" / "bench" / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}

# `BENCH_LOGIN_THROTTLE=off` measures the login flood as it was before the throttle.
if __import__("os").environ.get("BENCH_LOGIN_THROTTLE") == "off":
    LOGIN_RATE_PER_ADDRESS = (10**9, 60)
    LOGIN_RATE_PER_USERNAME = (10**9, 60)
    LOGIN_RATE_GLOBAL = (10**9, 10)
