"""Logs a person can follow from a complaint to the line: every request carries an id.

``RequestIdMiddleware`` takes the id from the ``X-Request-ID`` header a proxy set (letters,
digits, ``-``, ``_``, ``.``, ``:``, at most 128 characters) or makes a new one, puts it on
``request.request_id``, in every log record written while the request runs
(``RequestIdFilter``), and in the response's ``X-Request-ID`` header. Django's own
``django.request`` logger writes every 500 with its traceback, so an unhandled error in
production is one JSON line (``JsonFormatter``) with the same id the user's browser received.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_request_id: ContextVar[str] = ContextVar("request_id", default="-")


def request_id_current() -> str:
    """The id of the request this thread is serving, "-" outside a request."""
    return _request_id.get()


def request_id_for(header: str | None) -> str:
    """The proxy's id when it is a plausible one, else a new uuid4 (32 hex digits)."""
    if header and _VALID.fullmatch(header):
        return header
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """First in MIDDLEWARE, so the id covers every other middleware and the 500 handler."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_for(request.headers.get(HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        token = _request_id.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Adds ``record.request_id`` (the current request's, or "-") to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id_current()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, and for Django's
    request records the status code, method and path; the traceback as one string."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id_current()),
        }
        status = getattr(record, "status_code", None)
        if status is not None:
            entry["status_code"] = status
        request = getattr(record, "request", None)
        if isinstance(request, HttpRequest):
            entry["method"] = request.method
            entry["path"] = request.path
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def logging_config(*, json_lines: bool) -> dict:
    """The LOGGING setting: JSON lines in production, plain lines in development and tests."""
    formatter = (
        {"()": "apps.sites.logs.JsonFormatter"}
        if json_lines
        else {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "apps.sites.logs.RequestIdFilter"}},
        "formatters": {"main": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": "main",
            }
        },
        "loggers": {
            # django.request: every 5xx with its traceback (ERROR) and every 4xx (WARNING)
            "django": {"handlers": ["console"], "level": "WARNING"},
            "axes": {"handlers": ["console"], "level": "WARNING"},
            "django_tasks": {"handlers": ["console"], "level": "INFO"},
            "django_tasks_db": {"handlers": ["console"], "level": "INFO"},
            "rightsize": {"handlers": ["console"], "level": "INFO"},
        },
    }
