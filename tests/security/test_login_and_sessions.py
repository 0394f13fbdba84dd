"""Login lockout (RELIABILITY 22) and sessions (RELIABILITY 23)."""

from __future__ import annotations

import importlib
import logging
import sys
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.sessions.models import Session
from django.db.models import F
from django.test import Client

from apps.web.demo import DEMO_PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/login/"


def _login(client: Client, password: str, username: str = "finance", **meta: str):
    return client.post(LOGIN, {"username": username, "password": password}, **meta)


# --- lockout ---------------------------------------------------------------------------------


def test_fifth_failure_locks_the_username_with_429_and_logs_it(demo, caplog):
    client = Client()
    caplog.set_level(logging.WARNING, logger="axes")
    for attempt in range(1, 5):
        response = _login(client, "wrong")
        assert response.status_code == 200, attempt  # the form again, with an error
    locked = _login(client, "wrong")
    assert locked.status_code == 429
    assert "locked for 15 minutes" in locked.content.decode()
    assert _login(client, DEMO_PASSWORD).status_code == 429  # the right password too
    assert "_auth_user_id" not in client.session
    # axes masks the username in the log line; the attempt row keeps it for the admin
    assert any(
        r.name.startswith("axes") and "Locking out" in r.getMessage() for r in caplog.records
    )
    assert AccessAttempt.objects.get().username == "finance"


def test_rotating_addresses_and_spoofed_forwarded_for_do_not_bypass(demo):
    for n in range(5):
        _login(
            Client(),
            "wrong",
            REMOTE_ADDR=f"203.0.113.{n}",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
    fresh = Client(REMOTE_ADDR="192.0.2.77", HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert _login(fresh, DEMO_PASSWORD).status_code == 429


def test_lock_is_per_username(demo):
    for _ in range(5):
        _login(Client(), "wrong", username="finance")
    assert _login(Client(), DEMO_PASSWORD, username="account").status_code == 302


@pytest.mark.parametrize(("minutes", "status"), [(14, 429), (16, 302)])
def test_lock_lasts_15_minutes(demo, minutes, status):
    for _ in range(5):
        _login(Client(), "wrong")
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))
    assert _login(Client(), DEMO_PASSWORD).status_code == status


def test_success_resets_the_count(demo):
    for _ in range(4):
        _login(Client(), "wrong")
    assert _login(Client(), DEMO_PASSWORD).status_code == 302
    for _ in range(4):
        assert _login(Client(), "wrong").status_code == 200  # 4 new failures: not 8
    assert _login(Client(), DEMO_PASSWORD).status_code == 302


# --- sessions --------------------------------------------------------------------------------


def test_session_key_changes_at_login_and_cookie_flags(demo):
    client = Client()
    session = client.session
    session["seen_the_login_page"] = True
    session.save()
    before = session.session_key
    client.cookies["sessionid"] = before

    response = _login(client, DEMO_PASSWORD)
    assert response.status_code == 302
    cookie = response.cookies["sessionid"]
    assert cookie.value != before  # fixation: the pre-login key is not kept
    assert not Session.objects.filter(session_key=before).exists()
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == 30 * 60


def test_production_settings_make_cookies_secure(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "p" * 60)
    monkeypatch.setenv("ALLOWED_HOSTS", "rightsize.example.com")
    sys.modules.pop("config.settings.production", None)
    production = importlib.import_module("config.settings.production")
    try:
        assert production.SESSION_COOKIE_SECURE is True
        assert production.CSRF_COOKIE_SECURE is True
        assert production.SESSION_COOKIE_HTTPONLY is True
        assert production.SESSION_COOKIE_SAMESITE == "Lax"
        assert production.SECURE_SSL_REDIRECT is True
        assert production.DEBUG is False
    finally:
        sys.modules.pop("config.settings.production", None)


def test_secure_flag_is_set_on_the_cookie_when_configured(demo, settings):
    settings.SESSION_COOKIE_SECURE = True
    response = _login(Client(), DEMO_PASSWORD)
    assert response.cookies["sessionid"]["secure"] is True


@pytest.fixture
def logged_in(demo) -> Client:
    client = Client()
    assert _login(client, DEMO_PASSWORD).status_code == 302
    return client


def test_idle_30_minutes_sends_back_to_login(logged_in, clock):
    assert logged_in.get("/").status_code == 200
    clock.at(29)
    assert logged_in.get("/").status_code == 200  # activity renews the 30 minutes
    clock.at(29 + 29)
    assert logged_in.get("/").status_code == 200
    clock.at(29 + 29 + 31)
    response = logged_in.get("/reviews/queue/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/reviews/queue/"


def test_eight_hours_ends_the_session_whatever_the_activity(logged_in, clock):
    assert logged_in.get("/").status_code == 200  # the 8 hours start here
    for minutes in range(25, 8 * 60, 25):  # a request every 25 minutes: never idle
        clock.at(minutes)
        assert logged_in.get("/reviews/queue/").status_code == 200, minutes
    clock.at(8 * 60 + 5)
    response = logged_in.get("/reviews/queue/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert "_auth_user_id" not in logged_in.session
