"""Login floods are refused cheaply: per client address and per username,
before the password is hashed. Before: nothing throttled by client; 12 clients posting wrong
passwords for random usernames cost ~0.55 s of CPU each and slowed everyone ~100×."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.sites.throttle import LOGIN_RATE_PER_ADDRESS, LOGIN_RATE_PER_USERNAME

pytestmark = pytest.mark.django_db


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
