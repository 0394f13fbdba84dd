"""Settings shared by every environment. Production differences come from the environment."""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

from apps.sites.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# Where the process writes (static files collected, uploads spooled, throttle counts, uploads
# on disk): the checkout's var/, or RIGHTSIZE_VAR_DIR for an installed wheel or a container.
VAR_DIR = Path(os.environ.get("RIGHTSIZE_VAR_DIR") or BASE_DIR / "var")


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get(
    "SECRET_KEY", "dev-only-not-secret-rightsize-0123456789abcdefghijklmnop"
)
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_tasks_db",
    "simple_history",
    "import_export",
    "apps.sites",
    "apps.catalog",
    "apps.quotes",
    "apps.webhooks",
    "apps.review",
    "apps.reports",
    "ninja",
    "apps.api",
    "apps.web",
    "apps.cli",
]

MIDDLEWARE = [
    "apps.sites.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.sites.hygiene.ApiJsonErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.sites.hygiene.TextHygieneMiddleware",
    "apps.sites.middleware.AbsoluteSessionLifetimeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_URL_PATH = "/login/"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Login lockout (RELIABILITY 22): 5 failures per username in 15 min lock it for 15 min.
# Login throttling (apps/sites/throttle.py) counts in a cache every gunicorn worker shares:
# Django's file-based cache, its size checked at most once a second (apps/sites/throttle_cache).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {
        "BACKEND": "apps.sites.throttle_cache.ThrottleFileCache",
        "LOCATION": str(VAR_DIR / "throttle"),
        "TIMEOUT": 300,
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}
# While a login flood is on, one password hash at a time per host (apps/sites/throttle.py).
LOGIN_HASHING_LOCK = VAR_DIR / "login-hashing.lock"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
# Locking per username (not per IP) is deliberate: rotating IPs must not bypass it.
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
AXES_LOCKOUT_TEMPLATE = "sites/locked.html"

# Sessions (RELIABILITY 23): 30 min idle, 8 h absolute. The idle expiry is renewed (the session
# row written) at most once a minute, not on every request (apps/sites/middleware.py).
SESSION_COOKIE_AGE = 30 * 60
SESSION_SAVE_EVERY_REQUEST = False
SESSION_RENEW_AFTER_SECONDS = 60
SESSION_ABSOLUTE_SECONDS = 8 * 60 * 60
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or VAR_DIR / "staticfiles")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "/media-not-served/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Uploads: the quote size limit, and where Django spills large uploads.
QUOTE_MAX_UPLOAD_BYTES = int(os.environ.get("QUOTE_MAX_UPLOAD_BYTES", str(10 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = QUOTE_MAX_UPLOAD_BYTES + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_TEMP_DIR = os.environ.get("FILE_UPLOAD_TEMP_DIR") or str(VAR_DIR / "tmp")
Path(FILE_UPLOAD_TEMP_DIR).mkdir(parents=True, exist_ok=True)
# Spooled uploads get an anonymous temp file: a killed worker leaves nothing behind.
FILE_UPLOAD_HANDLERS = [
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "apps.sites.uploads.AnonymousTemporaryFileUploadHandler",
]
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 5

# Security headers (RELIABILITY 19).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Background work (PDF reports): Django 6 tasks on the database backend; `db_worker` runs them.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Finance blood pressure: spend thresholds in USD (calm < 10k, raised < 100k, high < 1M).
RIGHTSIZE_FINANCE_THRESHOLDS = (10_000, 100_000, 1_000_000)

# Plain lines with the request id here; production.py writes JSON lines (apps/sites/logs.py).
LOGGING = logging_config(json_lines=env_bool("LOG_JSON", False))

# How often a process compares its catalog snapshot with the catalog revision (seconds).
CATALOG_REVISION_CHECK_SECONDS = float(os.environ.get("CATALOG_REVISION_CHECK_SECONDS", "1"))

# Notifications (apps.review.notifications): printed to the console in development; production
# sends through SMTP configured from the environment (config/settings/production.py).
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Rightsize <rightsize@localhost>")
#: Where the site is served, for links in emails ("https://rightsize.example.com"); blank in
#: development, where links are relative.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
