"""The absolute session lifetime starts at login (RELIABILITY 23)."""

import time

import pytest

from apps.sites.middleware import SESSION_STARTED_KEY

pytestmark = pytest.mark.django_db


def test_login_starts_the_eight_hour_clock(demo, client):
    before = time.time()
    response = client.post("/login/", {"username": "finance", "password": "rightsize-demo"})
    assert response.status_code == 302
    started = client.session[SESSION_STARTED_KEY]
    assert before <= started <= time.time()
