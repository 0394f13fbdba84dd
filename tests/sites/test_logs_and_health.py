"""Logs that keep errors and health for the orchestrator: every request has an id (taken from
X-Request-ID or new), a 500 under production settings is one JSON log line with that id,
/healthz answers without the database, /readyz names what is not ready."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from apps.sites.logs import request_id_for

PROJECT = Path(__file__).resolve().parent.parent.parent
PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "SECRET_KEY": "x" * 60,
    "ALLOWED_HOSTS": "testserver",
}


def test_a_proxy_request_id_is_kept_and_a_bad_one_replaced():
    assert request_id_for("req-42.a:b_c") == "req-42.a:b_c"
    assert re.fullmatch(r"[0-9a-f]{32}", request_id_for(None))
    assert re.fullmatch(r"[0-9a-f]{32}", request_id_for("bad id\nwith newline"))
    assert re.fullmatch(r"[0-9a-f]{32}", request_id_for("x" * 129))  # 128 characters at most


@pytest.mark.django_db
def test_every_response_carries_its_request_id(client):
    assert client.get("/login/", HTTP_X_REQUEST_ID="abc-123")["X-Request-ID"] == "abc-123"
    assert re.fullmatch(r"[0-9a-f]{32}", client.get("/login/")["X-Request-ID"])


def test_healthz_answers_without_a_login_or_the_database(client):
    response = client.get("/healthz")  # no django_db mark: any query would raise here
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_checks_database_storage_and_migrations(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "storage": "ok",
        "migrations": "ok",
    }


@pytest.mark.django_db
def test_readyz_names_unapplied_migrations(client, monkeypatch):
    monkeypatch.setattr("apps.web.views.health._migrated", {})
    monkeypatch.setattr(
        "apps.web.views.health.MigrationExecutor.migration_plan",
        lambda self, targets: [("catalog", "0099_next"), ("quotes", "0099_next")],
    )
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["migrations"] == "2 unapplied"


@pytest.mark.django_db
def test_readyz_names_an_unreachable_storage(client, monkeypatch):
    def refuse(name):
        raise ConnectionError("bucket gone")

    monkeypatch.setattr("apps.web.views.health.default_storage.exists", refuse)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["storage"] == "unreachable (ConnectionError)"


SCRIPT = """
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings
with override_settings(ROOT_URLCONF="tests.sites.boom_urls"):
    response = Client(raise_request_exception=False).get(
        "/boom/", secure=True, HTTP_X_REQUEST_ID="trace-500-abc"
    )
print("STATUS", response.status_code, response["X-Request-ID"])
"""


def test_a_500_under_production_settings_is_a_json_log_line_with_its_request_id(tmp_path):
    env = {
        **os.environ,
        **PRODUCTION_ENV,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "STATUS 500 trace-500-abc" in done.stdout, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    errors = [e for e in lines if e["level"] == "ERROR" and e["logger"] == "django.request"]
    assert len(errors) == 1, done.stderr[-2000:]
    error = errors[0]
    assert error["request_id"] == "trace-500-abc"
    assert error["status_code"] == 500 and error["path"] == "/boom/"
    assert "RuntimeError: boom for the log" in error["exception"]
