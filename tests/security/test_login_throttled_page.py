"""The 429 page of a throttled login is kept once drawn (apps/web/throttled_login.py): the same
page as a fresh one, with this response's own CSRF token (which works) and CSP nonce."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client

from apps.web import throttled_login

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NONCE = re.compile(r'nonce="([^"]+)"')
OWN = re.compile(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": |nonce=)"[^"]+"')


@pytest.fixture
def throttled(settings, monkeypatch):
    settings.LOGIN_RATE_PER_ADDRESS = (1, 3600)
    monkeypatch.setattr(throttled_login, "_KEPT", {})
    caches["throttle"].clear()


def _post(client: Client, token: str, username: str = "finance", password: str = "wrong"):
    data = {"username": username, "password": password, "csrfmiddlewaretoken": token}
    return client.post("/login/", data, REMOTE_ADDR="203.0.113.9")


def test_the_kept_page_is_the_drawn_page_with_its_own_token_and_nonce(throttled, demo) -> None:
    client = Client(enforce_csrf_checks=True)
    token = TOKEN.search(client.get("/login/").content.decode()).group(1)
    assert _post(client, token).status_code == 200  # the one attempt the rate allows
    drawn = _post(client, token)
    kept = _post(client, token)
    assert drawn.status_code == kept.status_code == 429
    assert throttled_login._KEPT  # the second refusal was the kept page
    assert drawn["Retry-After"] and kept["Retry-After"]
    first, second = drawn.content.decode(), kept.content.decode()
    assert "Too many sign-in attempts; wait " in second
    assert "<rightsize-" not in second
    if drawn["Retry-After"] == kept["Retry-After"]:
        assert OWN.sub("", first) == OWN.sub("", second)
    tokens = set(TOKEN.findall(second)) | set(re.findall(r'"X-CSRFToken": "([^"]+)"', second))
    assert len(tokens) == 1 and tokens.isdisjoint(TOKEN.findall(first))
    nonces = set(NONCE.findall(second))
    assert len(nonces) == 1
    assert f"'nonce-{nonces.pop()}'" in kept["Content-Security-Policy"]

    # The kept page's token is a working one: once the window turns, signing in from it works.
    caches["throttle"].clear()
    ok = _post(client, tokens.pop(), password="rightsize-demo")
    assert ok.status_code == 302
