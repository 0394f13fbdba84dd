"""Login throttling per client address and per username.

django-axes locks a username after 5 failures; it does nothing against one client posting
wrong passwords for a new random username each time, and every such attempt costs a password
hash (~0.55 s of CPU with PBKDF2). So before the form is even validated, each login POST is
counted in a fixed window per client address and per username; over the rate the answer is a
cheap 429 with ``Retry-After`` and no hashing at all.

A flood from many addresses at once still hashes each address's first attempts, so all
*failed* logins together also share one small budget (``LOGIN_RATE_GLOBAL``): once it is spent
for the current 10 s, further attempts are refused before hashing until the window turns.
Two per 10 s: with three sync gunicorn workers, two password hashes at once still leave one
worker for everyone else (on a loaded 2-core machine a hash takes seconds). Successful logins
never spend it, so twenty people signing in at nine are not slowed; during a
flood a person may have to wait a few seconds, but those already signed in keep their speed,
which is what the flood was slowing.

The client address is ``REMOTE_ADDR`` only: ``X-Forwarded-For`` is whatever the client says
(behind nginx, set REMOTE_ADDR from the proxy, e.g. with ``real_ip``). Counts live in the
``throttle`` cache (a file-based cache under var/, shared by every gunicorn worker on the host,
its folder listed at most once a second: apps/sites/throttle_cache.py; point it at Redis or
memcached when there is more than one host).
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

#: (attempts, window in seconds): generous for a person, useless for a flood.
LOGIN_RATE_PER_ADDRESS = (20, 60)
LOGIN_RATE_PER_USERNAME = (10, 60)
LOGIN_RATE_GLOBAL = (2, 10)


def _key(scope: str, key: str, window_s: int, now: float) -> str:
    digest = hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:32]
    return f"throttle:{scope}:{digest}:{int(now // window_s)}"


def _wait(window_s: int, now: float) -> int:
    return max(1, window_s - int(now % window_s))


def throttle_spent(*, scope: str, key: str, limit: int, window_s: int) -> int | None:
    """Without counting: the seconds to wait when ``key`` already reached ``limit``."""
    now = time.time()
    count = caches["throttle"].get(_key(scope, key, window_s, now), 0)
    return _wait(window_s, now) if count >= limit else None


def throttle_hit(*, scope: str, key: str, limit: int, window_s: int) -> int | None:
    """Count one attempt for ``key``; the seconds to wait when it is over ``limit`` in the
    current window, else None."""
    cache = caches["throttle"]
    now = time.time()
    cache_key = _key(scope, key, window_s, now)
    if cache.add(cache_key, 1, timeout=window_s + 1):
        count = 1
    else:
        try:
            count = cache.incr(cache_key)
        except ValueError:  # expired between add and incr
            cache.set(cache_key, 1, timeout=window_s + 1)
            count = 1
    if count > limit:
        return _wait(window_s, now)
    return None


def client_address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def login_throttle(request: HttpRequest, *, username: str) -> int | None:
    """Seconds to wait when this login POST is over the client's or the username's rate."""
    per_address = getattr(settings, "LOGIN_RATE_PER_ADDRESS", LOGIN_RATE_PER_ADDRESS)
    wait = throttle_hit(
        scope="login-address",
        key=client_address(request),
        limit=per_address[0],
        window_s=per_address[1],
    )
    if wait is not None:
        return wait
    if username:
        per_username = getattr(settings, "LOGIN_RATE_PER_USERNAME", LOGIN_RATE_PER_USERNAME)
        wait = throttle_hit(
            scope="login-username",
            key=username.strip().casefold(),
            limit=per_username[0],
            window_s=per_username[1],
        )
        if wait is not None:
            return wait
    everyone = getattr(settings, "LOGIN_RATE_GLOBAL", LOGIN_RATE_GLOBAL)
    return throttle_spent(scope="login-failed", key="all", limit=everyone[0], window_s=everyone[1])


def login_failure_count() -> None:
    """One failed login spends one unit of the shared budget."""
    everyone = getattr(settings, "LOGIN_RATE_GLOBAL", LOGIN_RATE_GLOBAL)
    throttle_hit(scope="login-failed", key="all", limit=everyone[0], window_s=everyone[1])
