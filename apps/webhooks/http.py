"""One POST to a receiver: http(s) only, a timeout, no redirects followed, no proxies.

A receiver that answers 301/302 is a failed attempt ("redirect not followed"): following it
would send a signed body to a host nobody configured.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_ERROR_CHARS = 500


@dataclass(frozen=True)
class PostOutcome:
    status_code: int | None
    error: str
    ms: int

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: object,
        code: int,
        msg: str,
        headers: object,
        newurl: str,
    ) -> None:
        return None  # urllib then raises HTTPError with the 3xx code


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects())


def post_json(*, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> PostOutcome:
    started = time.monotonic()

    def elapsed() -> int:
        return round((time.monotonic() - started) * 1000)

    if urlsplit(url).scheme not in {"http", "https"}:
        return PostOutcome(None, f"refused: {urlsplit(url).scheme!r} is not http or https", 0)
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with _OPENER.open(request, timeout=timeout_s) as response:
            response.read(64 * 1024)
            return PostOutcome(response.status, "", elapsed())
    except urllib.error.HTTPError as exc:
        refusal = "redirect not followed" if 300 <= exc.code < 400 else f"HTTP {exc.code}"
        exc.close()
        return PostOutcome(exc.code, refusal, elapsed())
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason: object = getattr(exc, "reason", None) or exc
        return PostOutcome(None, f"{type(exc).__name__}: {reason}"[:MAX_ERROR_CHARS], elapsed())
