"""Load on the pages: gunicorn on 127.0.0.1, Finance reviewers clicking through their day.

The server is what production runs: `gunicorn config.wsgi` with WORKERS sync workers,
production settings (bench.settings), PostgreSQL when it answers (else SQLite), database
connections kept between requests (production's CONN_MAX_AGE default). It listens on a free
port on 127.0.0.1 only and is stopped in a `finally`, whatever happens.

The load is a small threaded client of our own (not locust: its gevent monkey-patching does
not mix with the rest of the benchmark in one process, and we want exact percentiles, not
locust's rounded buckets). Each virtual user is one browser tab of one of twenty Finance
reviewers, logged in through the login form (CSRF token, session cookie). It loops: think
0.5–1.5 s (uniform, fixed before measuring), then one of four requests, equally likely:
- the review page        GET /reviews/<uuid>/
- its htmx partial       GET /reviews/<uuid>/            with HX-Request: true
- the Finance queue      GET /reviews/queue/
- approve                POST /reviews/<uuid>/approve/   (htmx, from the queue row)
Every approve decides a different review of the backlog (load_setup), so a 409 is an error.
An error is any status but 200, a timeout (10 s) or a broken connection.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import threading
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench.common import ROOT, VAR, bench_env, percentile

HOST = "127.0.0.1"
WORKERS = 3
LEVELS = (10, 50, 100)
LEVEL_S = 15.0
RAMP = (150, 200, 300)
RAMP_S = 10.0
THINK_S = (0.5, 1.5)
TIMEOUT_S = 10.0
SATURATION_P95_MS = 1000.0
ENDPOINTS = ("review_page", "review_partial", "queue", "approve")
PIDFILE = VAR / "gunicorn.pid"


@dataclass
class Browser:
    """One logged-in person: the two cookies Django needs."""

    username: str
    cookies: dict[str, str] = field(default_factory=dict)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def remember(self, response: http.client.HTTPResponse) -> None:
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]


def _call(
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    *,
    browser: Browser | None = None,
    headers: dict[str, str] | None = None,
    body: str | None = None,
) -> tuple[int, bytes, http.client.HTTPResponse]:
    sent = dict(headers or {})
    if browser is not None and browser.cookies:
        sent["Cookie"] = browser.cookie_header()
    if body is not None:
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=sent)
    response = conn.getresponse()
    data = response.read()
    if browser is not None:
        browser.remember(response)
    return response.status, data, response


def login(port: int, username: str, password: str, source: str | None = None) -> Browser:
    """The login form, as a browser fills it: GET for the CSRF token, POST, follow nothing.
    ``source``: the loopback address this person's machine has (127.0.1.N), so the login
    throttle sees twenty people, not one."""
    browser = Browser(username)
    conn = http.client.HTTPConnection(
        HOST, port, timeout=30, source_address=(source, 0) if source else None
    )
    try:
        status, page, _ = _call(conn, "GET", "/login/", browser=browser)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or token is None:
            raise RuntimeError(f"login page answered {status}")
        form = {
            "csrfmiddlewaretoken": token.group(1).decode(),
            "username": username,
            "password": password,
            "next": "/",
        }
        status, _, _ = _call(conn, "POST", "/login/", browser=browser, body=urlencode(form))
        if status != 302 or "sessionid" not in browser.cookies:
            raise RuntimeError(f"login as {username} answered {status}")
    finally:
        conn.close()
    return browser


@dataclass
class Sample:
    endpoint: str
    ms: float
    status: int  # 0: no answer (timeout, refused, reset)

    @property
    def ok(self) -> bool:
        return self.status == 200


class Load:
    """Virtual users against a running server; one `level` at a time."""

    def __init__(
        self, port: int, browsers: list[Browser], targets: dict[str, Any], server_pid: int = 0
    ) -> None:
        self.port = port
        self.server_pid = server_pid
        self.browsers = browsers
        self.pages: list[str] = targets["review_pages"]
        self.backlog: deque[str] = deque(targets["backlog"])
        self.backlog_lock = threading.Lock()
        self.backlog_exhausted = 0

    def _next_backlog(self) -> str | None:
        with self.backlog_lock:
            if self.backlog:
                return self.backlog.popleft()
            self.backlog_exhausted += 1
            return None

    def _one(
        self, conn: http.client.HTTPConnection, browser: Browser, rng: random.Random
    ) -> Sample:
        endpoint = rng.choice(ENDPOINTS)
        headers: dict[str, str] = {}
        body = None
        method = "GET"
        if endpoint == "approve" and (target := self._next_backlog()) is not None:
            method, path = "POST", f"/reviews/{target}/approve/"
            body = urlencode({"version": "1", "reason": "Within budget (bench)."})
            headers = {
                "HX-Request": "true",
                "HX-Target": f"row-{target}",
                "X-CSRFToken": browser.cookies.get("csrftoken", ""),
                "Referer": f"http://{HOST}:{self.port}/reviews/queue/",
            }
        elif endpoint in ("review_page", "review_partial"):
            path = f"/reviews/{rng.choice(self.pages)}/"
            if endpoint == "review_partial":
                headers = {"HX-Request": "true", "HX-Target": "results"}
        else:
            endpoint, path = "queue", "/reviews/queue/"
        started = time.perf_counter()
        try:
            status, _, _ = _call(conn, method, path, browser=browser, headers=headers, body=body)
        except (OSError, http.client.HTTPException):
            conn.close()
            status = 0
        return Sample(endpoint, (time.perf_counter() - started) * 1000, status)

    def level(self, users: int, seconds: float) -> dict[str, Any]:
        """`users` virtual users for `seconds`; requests started in the window are counted."""
        samples: list[Sample] = []
        lock = threading.Lock()
        started = time.perf_counter()
        stop_at = started + seconds

        def user(n: int) -> None:
            rng = random.Random(n * 7919 + users)
            browser = self.browsers[n % len(self.browsers)]
            conn = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT_S)
            mine: list[Sample] = []
            time.sleep(rng.uniform(0, THINK_S[1]))  # users arrive spread over 1.5 s
            while time.perf_counter() < stop_at:
                mine.append(self._one(conn, browser, rng))
                time.sleep(rng.uniform(*THINK_S))
            conn.close()
            with lock:
                samples.extend(mine)

        threads = [threading.Thread(target=user, args=(n,), daemon=True) for n in range(users)]
        cpu_before = server_cpu_s(self.server_pid)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=seconds + TIMEOUT_S + 5)
        elapsed = time.perf_counter() - started
        stats = level_stats(samples, elapsed, users)
        used = {k: v - cpu_before.get(k, 0.0) for k, v in server_cpu_s(self.server_pid).items()}
        if samples:
            stats["cpu_ms_per_request"] = {
                k: round(v / len(samples) * 1000, 1) for k, v in used.items()
            }
        return stats


def server_cpu_s(server_pid: int) -> dict[str, float]:
    """CPU seconds used so far by gunicorn (master and workers) and by PostgreSQL (every
    postgres process, plus the backends the postmaster has reaped: with one connection per
    request they come and go). A busy shared machine stretches wall-clock latency; CPU per
    request is what the server itself costs. PostgreSQL's figure includes any other
    database work on the machine at the time."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"gunicorn": 0.0, "postgres": 0.0}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()  # noqa: SIM115 - tiny procfs read
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        ppid, own = int(fields[1]), (int(fields[11]) + int(fields[12])) / tick
        if server_pid and (int(entry) == server_pid or ppid == server_pid):
            used["gunicorn"] += own
        elif name == "postgres":
            reaped = (int(fields[13]) + int(fields[14])) / tick if ppid == 1 else 0.0
            used["postgres"] += own + reaped
    return used


def level_stats(samples: list[Sample], elapsed_s: float, users: int) -> dict[str, Any]:
    """p50/p95/p99 over every request of the level, rps = completed requests ÷ elapsed."""
    times = [s.ms for s in samples]
    stats: dict[str, Any] = {
        "users": users,
        "requests": len(samples),
        "rps": round(len(samples) / elapsed_s, 1) if elapsed_s else 0.0,
        "p50_ms": round(percentile(times, 0.50), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "p99_ms": round(percentile(times, 0.99), 1),
        "errors": sum(1 for s in samples if not s.ok),
        "error_statuses": dict(Counter(str(s.status) for s in samples if not s.ok)),
        "by_endpoint": {},
    }
    for endpoint in ENDPOINTS:
        mine = [s for s in samples if s.endpoint == endpoint]
        if mine:
            stats["by_endpoint"][endpoint] = {
                "requests": len(mine),
                "p50_ms": round(percentile([s.ms for s in mine], 0.50), 1),
                "p95_ms": round(percentile([s.ms for s in mine], 0.95), 1),
                "errors": sum(1 for s in mine if not s.ok),
            }
    return stats


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_start(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """gunicorn in its own process group, its pid in var/bench/gunicorn.pid for the cleanup."""
    log = open(VAR / "gunicorn.log", "ab")  # noqa: SIM115 - closed with the process
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi:application",
            "--workers",
            str(WORKERS),
            "--bind",
            f"{HOST}:{port}",
            "--timeout",
            "60",
            "--pid",
            str(PIDFILE),
            "--no-control-socket",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited {server.returncode}: see var/bench/gunicorn.log")
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            status, _, _ = _call(conn, "GET", "/login/")
            conn.close()
            if status == 200:
                return server
        time.sleep(0.3)
    server_stop(server)
    raise RuntimeError("gunicorn did not answer /login/ within 30 s")


def server_stop(server: subprocess.Popen[bytes] | None) -> None:
    """TERM the gunicorn master we started (by its id), then KILL its group if it lingers."""
    pid = server.pid if server is not None else None
    if pid is None and PIDFILE.exists():
        with contextlib.suppress(ValueError, OSError):
            pid = int(PIDFILE.read_text().strip())
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    if server is not None:
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            server.wait(timeout=5)
    PIDFILE.unlink(missing_ok=True)


def stale_server_stop() -> None:
    """A gunicorn a killed earlier run left behind (its pid file is still there): stop it,
    by that pid, only when the process is still that gunicorn."""
    if not PIDFILE.exists():
        return
    with contextlib.suppress(ValueError, OSError):
        pid = int(PIDFILE.read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        if b"gunicorn" in cmdline and b"config.wsgi" in cmdline:
            os.killpg(pid, signal.SIGTERM)
    PIDFILE.unlink(missing_ok=True)


def saturation(levels: list[dict[str, Any]]) -> dict[str, Any]:
    """The first level whose p95 passes 1 s (its users and rps), and the most requests per
    second any level served with p95 under 1 s."""
    calm = [s for s in levels if s["p95_ms"] <= SATURATION_P95_MS]
    best = max(calm, key=lambda s: s["rps"]) if calm else {"users": None, "rps": None}
    found = {"best_rps_under_1s": best["rps"], "best_users_under_1s": best["users"]}
    for stats in levels:
        if stats["p95_ms"] > SATURATION_P95_MS:
            return {"reached": True, "users": stats["users"], "rps": stats["rps"], **found}
    return {"reached": False, "users": None, "rps": None, **found}


FLOODERS = 12
FLOOD_S = 10.0


def _flooder(port: int, stop_at: float, seed: int, statuses: Counter[int], lock: threading.Lock):
    """One anonymous client posting wrong passwords for random usernames, as fast as it can:
    a fresh CSRF token once, then POST after POST."""
    rng = random.Random(seed)
    browser = Browser(username=f"flood-{seed}")
    # Each flooder on its own address (127.0.2.N): the worst case for a per-address throttle.
    conn = http.client.HTTPConnection(
        HOST, port, timeout=TIMEOUT_S, source_address=(f"127.0.2.{seed + 1}", 0)
    )
    seen: Counter[int] = Counter()
    try:
        _status, page, _ = _call(conn, "GET", "/login/", browser=browser)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        while time.perf_counter() < stop_at:
            form = {
                "csrfmiddlewaretoken": token.group(1).decode() if token else "",
                "username": f"nobody-{rng.randrange(10**9)}",
                "password": "wrong-password",
            }
            try:
                status, _, _ = _call(
                    conn,
                    "POST",
                    "/login/",
                    browser=browser,
                    body=urlencode(form),
                    headers={"Referer": f"http://{HOST}:{port}/login/"},
                )
            except (OSError, http.client.HTTPException):
                conn.close()
                status = 0
            seen[status] += 1
            if status == 429:
                time.sleep(0.05)  # a tight loop, not a busy spin on the client's own CPU
    finally:
        conn.close()
        with lock:
            statuses.update(seen)


def login_flood(load: Load, port: int) -> dict[str, Any]:
    """Logged-in p95 at 10 users while FLOODERS anonymous clients flood the login form,
    against the same 10 users just before, without the flood: a figure, not a timed test."""
    normal = load.level(10, FLOOD_S)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    stop_at = time.perf_counter() + FLOOD_S + 1.0
    threads = [
        threading.Thread(target=_flooder, args=(port, stop_at, n, statuses, lock), daemon=True)
        for n in range(FLOODERS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # let the flood reach its rate before measuring
    during = load.level(10, FLOOD_S)
    for thread in threads:
        thread.join(timeout=TIMEOUT_S + 5)
    normal_p95 = normal.get("p95_ms")
    return {
        "flooders": FLOODERS,
        "seconds": FLOOD_S,
        "login_posts": sum(statuses.values()),
        "login_statuses": {str(k): v for k, v in sorted(statuses.items())},
        "logged_in_p95_ms_normal": normal_p95,
        "logged_in_p95_ms_during_flood": during.get("p95_ms"),
        "logged_in_p50_ms_during_flood": during.get("p50_ms"),
        "logged_in_errors_during_flood": during.get("errors"),
        "ratio": round(during["p95_ms"] / normal_p95, 2)
        if normal_p95 and during.get("p95_ms")
        else None,
    }


WRK_CONNECTIONS = (10, 50)
WRK_S = 10
WRK_SCRIPT = """
local paths = {%(paths)s}
local cookies = {%(cookies)s}
local n = 0
request = function()
  n = n + 1
  local path = paths[(n %% #paths) + 1]
  return wrk.format("GET", path, {["Cookie"] = cookies[(n %% #cookies) + 1]})
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK-RESULT %%d %%d %%d %%d %%d %%d %%d %%.0f %%.0f %%.0f\\n",
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
"""


def wrk_review_page(load: Load, port: int) -> dict[str, Any]:
    """The review page alone, as fast as the server answers: wrk (no think time) with 10 and
    50 open connections for WRK_S seconds each, round the review pages and the reviewers'
    sessions. The 50-connection rps is the page's saturation throughput at WORKERS sync
    workers; CPU per request is gunicorn's and PostgreSQL's over the same seconds. wrk runs
    on the same two cores (a few % of one). Skipped, with the reason, when wrk is absent."""
    import shutil

    wrk = shutil.which("wrk")
    if wrk is None:
        return {"skipped": "wrk is not installed (apt-get install -y wrk)"}
    script = VAR / "wrk_review.lua"
    script.write_text(
        WRK_SCRIPT
        % {
            "paths": ", ".join(f'"/reviews/{page}/"' for page in load.pages),
            "cookies": ", ".join(f'"{b.cookie_header()}"' for b in load.browsers),
        }
    )
    levels: dict[str, Any] = {}
    for connections in WRK_CONNECTIONS:
        cpu_before = server_cpu_s(load.server_pid)
        load_before = [round(x, 2) for x in os.getloadavg()]
        done = subprocess.run(
            [
                wrk,
                "-t",
                "2",
                "-c",
                str(connections),
                "-d",
                f"{WRK_S}s",
                "--timeout",
                f"{TIMEOUT_S:.0f}s",
                "-s",
                str(script),
                f"http://{HOST}:{port}",
            ],
            capture_output=True,
            text=True,
            timeout=WRK_S + 30,
            check=False,
        )
        used = {k: v - cpu_before.get(k, 0.0) for k, v in server_cpu_s(load.server_pid).items()}
        line = next((x for x in done.stdout.splitlines() if x.startswith("WRK-RESULT ")), None)
        if line is None:
            levels[str(connections)] = {"error": (done.stderr or done.stdout)[-300:]}
            continue
        n, duration_us, connect, read, write, status, timeout, p50, p95, p99 = map(
            int, line.split()[1:]
        )
        levels[str(connections)] = {
            "connections": connections,
            "requests": n,
            "rps": round(n / (duration_us / 1e6), 1),
            "p50_ms": round(p50 / 1000, 1),
            "p95_ms": round(p95 / 1000, 1),
            "p99_ms": round(p99 / 1000, 1),
            "errors": connect + read + write + status + timeout,
            "non_2xx": status,
            "cpu_ms_per_request": {k: round(v / max(n, 1) * 1000, 1) for k, v in used.items()},
            "load_average_before": load_before,
        }
    return {"tool": "wrk", "seconds": WRK_S, "threads": 2, "levels": levels}


def load_run(*, database_url: str, deadline: float, backlog: int) -> dict[str, Any]:
    """Prepare the database, start gunicorn, log in, run the levels and the ramp, stop."""
    from bench.common import child_run, static_collect

    env = bench_env(DATABASE_URL=database_url)
    allowed = min(240.0, deadline - time.monotonic() - 60)
    prepared = child_run("load_setup", str(backlog), timeout_s=allowed, env=env)
    if "error" in prepared:
        return {"error": prepared["error"]}
    failed = static_collect(env)
    if failed:
        return {"error": failed}
    targets = json.loads((VAR / "targets.json").read_text())
    stale_server_stop()
    port = free_port()
    server = None
    try:
        server = server_start(port, env)
        started = time.perf_counter()
        people = targets["people"]
        with ThreadPoolExecutor(WORKERS) as pool:  # PBKDF2 takes ~0.7 s of CPU per login
            browsers = list(
                pool.map(
                    lambda pair: login(
                        port, pair[1], targets["password"], source=f"127.0.1.{pair[0] + 1}"
                    ),
                    enumerate(people),
                )
            )
        login_s = time.perf_counter() - started
        load = Load(port, browsers, targets, server_pid=server.pid)
        load.level(10, 3.0)  # warm-up: each worker compiles templates, opens its connection
        levels = {}
        for users in LEVELS:
            if time.monotonic() + LEVEL_S + 15 > deadline:
                break
            levels[users] = load.level(users, LEVEL_S)
        flood: dict[str, Any] = {}
        if 10 in levels and time.monotonic() + 2 * FLOOD_S + 20 < deadline:
            flood = login_flood(load, port)
        review_page: dict[str, Any] = {"skipped": "the 12-minute budget ran out"}
        if time.monotonic() + len(WRK_CONNECTIONS) * (WRK_S + 5) + 40 < deadline:
            review_page = wrk_review_page(load, port)
        ramp = []
        saturated = any(s["p95_ms"] > SATURATION_P95_MS for s in levels.values())
        for users in () if saturated else RAMP:
            if time.monotonic() + RAMP_S + 15 > deadline:
                break
            stats = load.level(users, RAMP_S)
            ramp.append(stats)
            if stats["p95_ms"] > SATURATION_P95_MS:
                break
        return {
            "setup": prepared,
            "client": "bench/load.py: threaded http.client, one thread per virtual user",
            "think_time_s": list(THINK_S),
            "level_s": LEVEL_S,
            "ramp_level_s": RAMP_S,
            "mix": "review page, htmx partial, Finance queue, approve: 1/4 each",
            "workers": WORKERS,
            "port": port,
            "logins": len(browsers),
            "login_s": round(login_s, 1),
            "levels": levels,
            "login_flood": flood,
            "review_page_wrk": review_page,
            "ramp": ramp,
            "saturation": saturation([*levels.values(), *ramp]),
            "backlog_left": len(load.backlog),
            "backlog_exhausted": load.backlog_exhausted,
        }
    finally:
        server_stop(server)
