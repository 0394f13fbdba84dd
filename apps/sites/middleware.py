"""Absolute session lifetime: after 8 hours the session ends whatever the activity."""

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

SESSION_STARTED_KEY = "rightsize_session_started"


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
