"""Production: PostgreSQL via DATABASE_URL, secrets and hosts from the environment, HTTPS only."""

import os

from django.core.exceptions import ImproperlyConfigured

from apps.sites.logs import logging_config
from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES, env_bool
from config.settings.storage import default_storage_from_env

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be set to at least 50 characters in production")

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# A load balancer's health probes speak plain HTTP to the container.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
CSRF_COOKIE_HTTPONLY = True
STORAGES = {
    "default": default_storage_from_env(os.environ),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Keep each worker's database connection between requests (checked before reuse): opening a
# PostgreSQL connection per request tripled PostgreSQL's CPU per page view and more than doubled
# the pages' p95 at 50 users (bench/README.md).
# CONN_MAX_AGE=0 in the environment goes back to one connection per request. A new dict, so
# importing this module never changes the settings of a process already running on base.
DATABASES = {
    **DATABASES,
    "default": {
        **DATABASES["default"],
        "CONN_MAX_AGE": int(os.environ.get("CONN_MAX_AGE", "60")),
        "CONN_HEALTH_CHECKS": True,
    },
}

# One JSON object per log line, each with its request id (apps/sites/logs.py); LOG_JSON=0 for
# plain lines.
LOGGING = logging_config(json_lines=env_bool("LOG_JSON", True))
# Notifications by SMTP, from the environment.
MAILERS = {
    "default": {
        "BACKEND": os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"),
        "OPTIONS": {
            "host": os.environ.get("EMAIL_HOST", "localhost"),
            "port": int(os.environ.get("EMAIL_PORT", "25")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": env_bool("EMAIL_USE_TLS", False),
            "use_ssl": env_bool("EMAIL_USE_SSL", False),
            "timeout": int(os.environ.get("EMAIL_TIMEOUT", "10")),
        },
    }
}
