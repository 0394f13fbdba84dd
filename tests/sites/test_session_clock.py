"""The session's clocks (RELIABILITY 23): the absolute lifetime starts at login, and the idle
expiry is renewed at most once a minute (a session row write), never on every request."""

import time
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from apps.sites.middleware import SESSION_RENEWED_KEY, SESSION_STARTED_KEY
from apps.web.demo import DEMO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(demo) -> Client:
    client = Client()
    response = client.post("/login/", {"username": "finance", "password": DEMO_PASSWORD})
    assert response.status_code == 302
    return client


def _expiry(client: Client):
    return Session.objects.get(session_key=client.session.session_key).expire_date


def test_login_starts_the_eight_hour_clock(demo, client):
    before = time.time()
    response = client.post("/login/", {"username": "finance", "password": DEMO_PASSWORD})
    assert response.status_code == 302
    started = client.session[SESSION_STARTED_KEY]
    assert before <= started <= time.time()
    assert client.session[SESSION_RENEWED_KEY] == started


def test_a_request_within_the_minute_does_not_write_the_session(logged_in, clock):
    expiry = _expiry(logged_in)
    clock.at(0.5)
    response = logged_in.get("/")
    assert response.status_code == 200
    assert "sessionid" not in response.cookies  # nothing new to tell the browser
    assert _expiry(logged_in) == expiry


def test_a_request_after_the_minute_renews_the_idle_expiry(logged_in, clock):
    expiry = _expiry(logged_in)
    clock.at(1.5)
    response = logged_in.get("/")
    assert response.status_code == 200
    assert response.cookies["sessionid"]["max-age"] == 30 * 60
    assert _expiry(logged_in) - expiry >= timedelta(minutes=1.5) - timedelta(seconds=1)


def test_requests_inside_the_minute_do_not_stretch_the_idle_timeout(logged_in, clock):
    """Renewed at login (0), not at 0.9 min: the session ends 30 minutes after the renewal,
    29.1 minutes after the last request, never later than 30 minutes after it."""
    clock.at(0.9)
    assert logged_in.get("/").status_code == 200
    clock.at(30.5)
    response = logged_in.get("/reviews/queue/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/reviews/queue/"


def test_activity_every_few_minutes_keeps_the_session_for_hours(logged_in, clock):
    for minutes in range(3, 4 * 60, 3):
        clock.at(minutes)
        assert logged_in.get("/reviews/queue/").status_code == 200, minutes
