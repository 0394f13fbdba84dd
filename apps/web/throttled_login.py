"""The login page that refuses a throttled attempt (429), drawn once per process and wait.

A login flood is answered with this page over and over (150 refusals a second in the bench),
and drawing the login template with its form was half of what a refusal cost. The page is the
same for every refused attempt but for the seconds to wait, this response's CSRF token and its
CSP nonce: it is kept per (language, seconds) with the token and the nonce cut out, and gets
the request's own back each time, through the same slots as the kept review pages
(apps.web.templatetags.fragments). It is drawn afresh, and not kept, when a message waits for
the person (the page shows and consumes it) or when the request has no CSP nonce.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from apps.web.templatetags.fragments import CSRF_SLOT, NONCE_SLOT

_NONCE = re.compile(r'nonce="([^"]+)"')

#: (language, seconds to wait) → the page with its CSRF token and nonce cut out.
_KEPT: dict[tuple[str | None, int], str] = {}


def throttled_message(wait: int) -> str:
    return f"Too many sign-in attempts; wait {wait} seconds and try again."


def throttled_response(
    request: HttpRequest, wait: int, draw: Callable[[], HttpResponse]
) -> HttpResponse:
    """The 429 page for an attempt refused for ``wait`` seconds; ``draw`` renders it afresh."""
    keepable = not request.user.is_authenticated and not len(get_messages(request))
    nonce = get_nonce(request) if keepable else None
    key = (get_language(), wait)
    html = _KEPT.get(key) if nonce is not None else None
    if html is not None:
        html = html.replace(CSRF_SLOT, get_token(request)).replace(NONCE_SLOT, str(nonce))
        response = HttpResponse(html, status=429)
    else:
        response = draw()
        if nonce is not None:
            _keep(key, response, nonce=str(nonce))
    response["Retry-After"] = str(wait)
    return response


def _keep(key: tuple[str | None, int], response: HttpResponse, *, nonce: str) -> None:
    html = response.content.decode(response.charset)
    # Django masks the secret anew for each get_token(): the page's own token is the one in it.
    drawn = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    if drawn is None or CSRF_SLOT in html or NONCE_SLOT in html:
        return
    html = html.replace(drawn.group(1), CSRF_SLOT)
    if any(found != nonce for found in _NONCE.findall(html)):
        return  # a nonce that is not this request's: never keep it
    _KEPT[key] = html.replace(f'nonce="{nonce}"', f'nonce="{NONCE_SLOT}"')
