"""Login floods are refused cheaply: per client address and per username,
before the password is hashed. Before: nothing throttled by client; 12 clients posting wrong
passwords for random usernames cost ~0.55 s of CPU each and slowed everyone ~100×."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.sites.throttle import LOGIN_RATE_PER_ADDRESS, LOGIN_RATE_PER_USERNAME

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mid_window_clock(monkeypatch) -> float:
    """The throttle's clock held 35 s into a minute (5 s into a 10-s window): its windows are
    the clock's own minutes and tens of seconds, so a test's twenty attempts that straddled
    15:45:59 → 15:46:00 were counted in two windows and the 21st was let through (seen on
    a slow machine). Nothing else's clock is touched."""
    import time
    import types

    from apps.sites import throttle

    now = time.time() // 60 * 60 + 35.0
    monkeypatch.setattr(throttle, "time", types.SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """Each call of authenticate() (where the password hashing happens), by username."""
    import django.contrib.auth.forms as auth_forms

    calls: list[str] = []
    real = auth_forms.authenticate

    def counted(request=None, **credentials):
        calls.append(credentials.get("username", ""))
        return real(request, **credentials)

    monkeypatch.setattr(auth_forms, "authenticate", counted)
    return calls


def attempt(client: Client, username: str, address: str = "203.0.113.7", **extra):
    return client.post(
        "/login/",
        {"username": username, "password": "wrong"},
        REMOTE_ADDR=address,
        **extra,
    )


def test_one_address_flooding_random_usernames_is_refused_before_hashing(hashes) -> None:
    client = Client()
    limit = LOGIN_RATE_PER_ADDRESS[0]
    statuses = [attempt(client, f"user{n}").status_code for n in range(limit)]
    assert set(statuses) == {200}  # wrong passwords: the form again
    assert len(hashes) == limit
    refused = attempt(client, "user-next")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "Too many sign-in attempts" in refused.content.decode()
    assert len(hashes) == limit  # the refusal hashed nothing


def test_a_spoofed_forwarded_for_does_not_reset_the_count(hashes) -> None:
    client = Client()
    for n in range(LOGIN_RATE_PER_ADDRESS[0]):
        attempt(client, f"user{n}", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
    assert attempt(client, "x", HTTP_X_FORWARDED_FOR="198.51.100.250").status_code == 429


def test_another_address_is_not_slowed_by_the_flood(hashes, demo) -> None:
    client = Client()
    for n in range(LOGIN_RATE_PER_ADDRESS[0] + 5):
        attempt(client, f"user{n}")
    other = Client()
    response = other.post(
        "/login/",
        {"username": "account", "password": "rightsize-demo"},
        REMOTE_ADDR="192.0.2.10",
    )
    assert response.status_code == 302


def test_one_username_from_rotating_addresses_is_throttled(hashes) -> None:
    client = Client()
    limit = LOGIN_RATE_PER_USERNAME[0]
    for n in range(limit):
        attempt(client, "ghost", address=f"198.51.100.{n}")
    assert attempt(client, "ghost", address="198.51.100.200").status_code == 429
    assert hashes.count("ghost") == limit


def test_a_flood_from_many_addresses_shares_one_budget(hashes, settings, demo) -> None:
    # 12 clients on 12 addresses: each under its own rate, together over the shared one.
    settings.LOGIN_RATE_GLOBAL = (5, 10)
    client = Client()
    statuses = [attempt(client, f"u{n}", address=f"198.51.100.{n}").status_code for n in range(12)]
    assert statuses[:5] == [200] * 5
    assert set(statuses[5:]) == {429}
    assert len(hashes) == 5

    # Successful logins never spend the budget: twenty people signing in at nine.
    settings.LOGIN_RATE_GLOBAL = (1, 10)
    from django.core.cache import caches

    caches["throttle"].clear()
    for n in range(3):
        ok = Client().post(
            "/login/",
            {"username": "account", "password": "rightsize-demo"},
            REMOTE_ADDR=f"192.0.2.{n}",
        )
        assert ok.status_code == 302


@pytest.fixture
def flood_lock(settings, tmp_path):
    """The hashing lock in a scratch folder; the shared budget 2 failures per 10 s."""
    settings.LOGIN_HASHING_LOCK = tmp_path / "login-hashing.lock"
    settings.LOGIN_RATE_GLOBAL = (2, 10)
    return settings.LOGIN_HASHING_LOCK


def _previous_window_spent() -> None:
    """As after a flood's last 10 s: the previous window's budget (2) spent."""
    from django.core.cache import caches

    from apps.sites import throttle

    caches["throttle"].clear()
    caches["throttle"].set(throttle._key("login-failed", "all", 10, throttle.time.time() - 10), 2)


def _attempt_while_held(path, username: str, address: str):
    """An attempt while another worker is mid-hash: the file locked from a second open file."""
    import fcntl
    import os

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        return attempt(Client(), username, address=address)
    finally:
        os.close(fd)


def test_during_a_flood_one_hash_at_a_time(hashes, flood_lock) -> None:
    _previous_window_spent()
    refused = _attempt_while_held(flood_lock, "someone", "198.51.100.30")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "1"  # HASHING_BUSY_WAIT_S
    assert hashes == []  # refused before hashing
    # The other worker done: the next attempt hashes (and fails: the form again).
    assert attempt(Client(), "someone", address="198.51.100.30").status_code == 200
    assert hashes == ["someone"]


def test_during_a_flood_a_person_signs_in_when_the_slot_is_free(demo, flood_lock) -> None:
    _previous_window_spent()
    ok = Client().post(
        "/login/",
        {"username": "account", "password": "rightsize-demo"},
        REMOTE_ADDR="192.0.2.40",
    )
    assert ok.status_code == 302


def test_without_a_flood_nobody_waits_for_the_lock(hashes, flood_lock) -> None:
    from django.core.cache import caches

    caches["throttle"].clear()  # the previous window spent nothing
    response = _attempt_while_held(flood_lock, "someone", "198.51.100.31")
    assert response.status_code == 200
    assert hashes == ["someone"]
