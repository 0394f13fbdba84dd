"""Text hygiene and outages at the edge of every request.

``TextHygieneMiddleware`` refuses a request whose query string or form fields carry a NUL or
another control character (tab, CR and LF are fine), before any view or the database sees it:
PostgreSQL refuses U+0000 in text and answered those with a 500 (``/catalog/?q=%00``, a Finance
reason, the API's organisation). The refusal names the field.

``ApiJsonErrorsMiddleware`` makes every error under ``/api/`` JSON, even Django's own.

``server_error`` is the 500 handler: when the database is down it answers 503 with a retry
message and ``Retry-After``, without touching the database (no session, no user).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from http import HTTPStatus

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.utils.html import escape

#: Control characters no person types into a form field.
CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
RETRY_AFTER_SECONDS = 30
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def text_control_strip(text: str) -> str:
    """``text`` without control characters (tab, CR and LF kept)."""
    return CONTROL_RE.sub("", text)


def _first_control(data: QueryDict) -> tuple[str, str] | None:
    for key, values in data.lists():
        for text in (key, *values):
            found = CONTROL_RE.search(text)
            if found:
                return text_control_strip(key)[:60] or "(a field name)", found.group()
    return None


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def api_error_body(request: HttpRequest, message: str, status: int) -> dict[str, object]:
    """The API's error JSON: `{"error": "…"}` on the unversioned paths, and on /api/v1/
    `{"error": {"code", "message", "problems": []}}` (the code is the status's phrase)."""
    if request.path.startswith("/api/v1/"):
        code = HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
        return {"error": {"code": code, "message": message, "problems": []}}
    return {"error": message}


def _refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(api_error_body(request, message, status), status=status)
    body = f"<!doctype html><title>Refused</title><p role='alert'>{escape(message)}</p>"
    return HttpResponse(body, status=status, content_type="text/html; charset=utf-8")


class TextHygieneMiddleware:
    """400 for a NUL or control character in the query string or a form field."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = _first_control(request.GET)
        if found is None and request.method == "POST" and request.content_type in _FORM_TYPES:
            found = _first_control(request.POST)
        if found is not None:
            field, char = found
            return _refusal(
                request,
                f"{field}: contains a control character (U+{ord(char):04X}); "
                "remove it and try again",
                400,
            )
        return self.get_response(request)


def database_down(error: BaseException | None) -> bool:
    while error is not None:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        error = error.__cause__ or error.__context__
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: 503 with a retry message when the database is down, else a plain 500.
    Touches neither the database nor the session, which may be what failed."""
    if database_down(sys.exc_info()[1]):
        response = _refusal(
            request,
            "Rightsize cannot reach its database just now. Nothing was lost; "
            f"try again in {RETRY_AFTER_SECONDS} seconds.",
            503,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return _refusal(request, "Something went wrong on our side; it has been logged.", 500)


class ApiJsonErrorsMiddleware:
    """Under ``/api/`` every error is JSON ``{"error": …}``: Django's own HTML answers (400 for
    too many files, 403 for CSRF, 500 from a middleware) are rewritten, status and headers such
    as ``Retry-After`` kept."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            _is_api(request)
            and response.status_code >= 400
            and not str(response.get("Content-Type", "")).startswith("application/json")
        ):
            phrase = HTTPStatus(response.status_code).phrase.lower()
            rewritten = JsonResponse(
                api_error_body(request, phrase, response.status_code), status=response.status_code
            )
            if "Retry-After" in response:
                rewritten["Retry-After"] = response["Retry-After"]
            return rewritten
        return response
