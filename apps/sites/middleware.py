"""Absolute session lifetime: after 8 hours the session ends whatever the activity."""

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

SESSION_STARTED_KEY = "rightsize_session_started"


@receiver(user_logged_in)
def session_start_at_login(sender: object, request: HttpRequest, **kwargs: object) -> None:
    """The 8-hour clock starts at the login itself, not at the next request."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_STARTED_KEY] = time.time()


class AbsoluteSessionLifetimeMiddleware:
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
        return self.get_response(request)
