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

The budget is checked before the hash and spent after it, so attempts that arrive together
all pass the check: at each turn of the window, every worker hashed at once and the people
signed in waited a second for any of them. So while a flood is on (the previous window's
budget was spent), at most one password is hashed at a time on the host
(``login_hashing_slot``, an exclusive lock on a file every worker shares); an attempt that finds
the lock taken is refused for a second, before hashing. Outside a flood nothing waits: people
signing in together at nine hash side by side.

The client address is ``REMOTE_ADDR`` only: ``X-Forwarded-For`` is whatever the client says
(behind nginx, set REMOTE_ADDR from the proxy, e.g. with ``real_ip``). Counts live in the
``throttle`` cache (a file-based cache under var/, shared by every gunicorn worker on the host,
its folder listed at most once a second: apps/sites/throttle_cache.py; point it at Redis or
memcached when there is more than one host).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

#: (attempts, window in seconds): generous for a person, useless for a flood.
LOGIN_RATE_PER_ADDRESS = (20, 60)
LOGIN_RATE_PER_USERNAME = (10, 60)
LOGIN_RATE_GLOBAL = (2, 10)


#: How long an attempt refused for a busy hashing slot is asked to wait.
HASHING_BUSY_WAIT_S = 1


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


def _flood_on(now: float) -> bool:
    """The shared failure budget was spent in the previous window: a flood is on."""
    limit, window_s = getattr(settings, "LOGIN_RATE_GLOBAL", LOGIN_RATE_GLOBAL)
    previous = caches["throttle"].get(_key("login-failed", "all", window_s, now - window_s), 0)
    return bool(previous >= limit)


@contextmanager
def login_hashing_slot() -> Iterator[int | None]:
    """Around the password hash: None to go on, or the seconds to wait when a flood is on and
    another worker on this host is hashing. The lock is the kernel's (``flock``): a worker
    that dies mid-hash releases it."""
    if not _flood_on(time.time()):
        yield None
        return
    path = os.fspath(settings.LOGIN_HASHING_LOCK)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield HASHING_BUSY_WAIT_S
            return
        try:
            yield None
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
