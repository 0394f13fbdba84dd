from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware (typing only).

    Views that take one sit behind `require_roles`, so the user is signed in: a `User`, never
    the anonymous one, by the time the view body runs."""

    htmx: HtmxDetails
    user: User
