"""The session's two clocks: 30 minutes idle (sliding) and 8 hours absolute (RELIABILITY 23).

The idle clock is the session's expiry (SESSION_COOKIE_AGE), renewed by activity. Renewing it
means writing the session row, so it is renewed at most once a minute
(SESSION_RENEW_AFTER_SECONDS) rather than on every request: a Finance reviewer clicking through
the queue costs an UPDATE and a COMMIT a minute, not one per page. A session therefore ends
between 29 and 30 minutes after its last request, never later.
"""

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

SESSION_STARTED_KEY = "rightsize_session_started"
#: When the idle clock was last renewed (the session row written with a new expiry).
SESSION_RENEWED_KEY = "rightsize_session_renewed"


@receiver(user_logged_in)
def session_start_at_login(sender: object, request: HttpRequest, **kwargs: object) -> None:
    """The 8-hour clock starts at the login itself, not at the next request."""
    if request is not None and hasattr(request, "session"):
        now = time.time()
        request.session[SESSION_STARTED_KEY] = now
        request.session[SESSION_RENEWED_KEY] = now


class AbsoluteSessionLifetimeMiddleware:
    """Ends a session 8 hours after login whatever the activity, and renews the 30-minute idle
    expiry when it last moved more than SESSION_RENEW_AFTER_SECONDS ago (a change to the
    session is what makes SessionMiddleware save it and send the cookie again)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            started = request.session.get(SESSION_STARTED_KEY)
            now = time.time()
            if started is None:
                request.session[SESSION_STARTED_KEY] = now
            elif now - started > settings.SESSION_ABSOLUTE_SECONDS:
                logout(request)
                return redirect(f"{settings.LOGIN_URL_PATH}?next={request.path}")
            renewed = request.session.get(SESSION_RENEWED_KEY)
            if renewed is None or now - renewed >= settings.SESSION_RENEW_AFTER_SECONDS:
                request.session[SESSION_RENEWED_KEY] = now
        return self.get_response(request)
