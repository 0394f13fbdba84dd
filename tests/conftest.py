"""Shared fixtures: the catalog (from the fixture file, or loaded into the test database),
demo organisations and one logged-in client per role."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from apps.catalog.snapshot import CatalogSnapshot, snapshot_from_fixture

FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: A copy of ../shared/examples (the acceptance table), so the suite runs from a clone alone.
EXAMPLES = FIXTURES / "examples"
#: A copy of ../shared/tools/check_examples.py: its comparisons judge the engine's examples.
CHECK_EXAMPLES = FIXTURES / "check_examples.py"


@pytest.fixture(scope="session")
def catalog() -> CatalogSnapshot:
    """The bundled catalog, straight from fixtures/catalog.json (no database)."""
    return snapshot_from_fixture()


@pytest.fixture
def catalog_db(db):
    """The bundled catalog loaded into the test database (reloaded after a flush)."""
    from apps.catalog.models import System
    from apps.catalog.services import catalog_load, catalog_snapshot_clear

    if not System.objects.exists():
        catalog_load()
    catalog_snapshot_clear()
    yield
    catalog_snapshot_clear()


@pytest.fixture
def demo(db):
    """Demo organisations and one user per role (see apps/sites/demo.py)."""
    from apps.sites.models import Organisation
    from apps.web.demo import demo_seed

    demo_seed()
    return {o.slug: o for o in Organisation.objects.all()}


def _client_for(username: str) -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


@pytest.fixture
def clients(demo):
    """{role name: logged-in Client} plus "anonymous" and "other_customer" (org B)."""
    return {
        "anonymous": Client(),
        "account_team": _client_for("account"),
        "finance": _client_for("finance"),
        "admin": _client_for("admin"),
        "customer": _client_for("customer"),
        "other_customer": _client_for("globex"),
    }


@pytest.fixture(autouse=True)
def _throttle_counts_cleared():
    """Login throttling counts live in the cache: each test starts with none."""
    from django.core.cache import caches

    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


class Clock:
    """Moves both clocks the session reads: time.time (the absolute lifetime in the
    middleware) and timezone.now (the expiry in the database)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.offset = 0.0
        real_time, real_now = time.time, timezone.now
        monkeypatch.setattr(time, "time", lambda: real_time() + self.offset)
        monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=self.offset))

    def at(self, minutes: float) -> None:
        self.offset = minutes * 60


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)
