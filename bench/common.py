"""What every benchmark piece shares: paths, percentiles, child processes, the machine.

Every heavy piece runs in its own child process (`python -m bench.<piece>`), so its peak
resident memory is its own (a 10,000-line XLSX parse is not charged for the PDF fonts loaded
before it) and a piece that hangs is killed at its deadline instead of eating the 10 minutes.
A child prints one line `BENCH-RESULT {json}` on stdout; the parent reads nothing else.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import secrets
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var" / "bench"
DATA = VAR / "data"
RESULT_PREFIX = "BENCH-RESULT "
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def percentile(values: Sequence[float], share: float) -> float:
    """Linear interpolation between closest ranks: p50 of [1, 2, 3, 4] is 2.5.

    The position is (n - 1) × share: p95 of 21 values is at (21 - 1) × 0.95 = 19, the 20th
    smallest value."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def peak_rss_mib() -> float:
    """This process's peak resident set so far (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def result_emit(result: dict[str, Any]) -> None:
    """A child's answer to the parent: one prefixed JSON line on stdout."""
    sys.stdout.write(RESULT_PREFIX + json.dumps(result, default=str) + "\n")
    sys.stdout.flush()


def bench_env(**extra: str) -> dict[str, str]:
    """The environment every child and the gunicorn server run with: production settings
    (bench.settings), a throw-away secret, plain HTTP on 127.0.0.1, media under var/bench."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": f"sqlite:///{VAR / 'pieces.sqlite3'}",
            "MEDIA_ROOT": str(VAR / "media"),
            "PYTHONPATH": str(ROOT),
            "PYTHONHASHSEED": "0",
        }
    )
    env.update(extra)
    return env


def child_run(
    piece: str, *args: str, timeout_s: float, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run `python -m bench.<piece> args…`; its result dict, or {"error": why}."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", f"bench.{piece}", *args],
            cwd=ROOT,
            env=env or bench_env(),
            capture_output=True,
            timeout=max(timeout_s, 1.0),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"{piece} {' '.join(args)}: still running after {timeout_s:.0f} s"}
    for line in done.stdout.decode(errors="replace").splitlines():
        if line.startswith(RESULT_PREFIX):
            result = json.loads(line[len(RESULT_PREFIX) :])
            result.setdefault("wall_s", round(time.perf_counter() - started, 2))
            return result
    tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
    return {"error": f"{piece} {' '.join(args)} exited {done.returncode}: {' | '.join(tail)}"}


def static_collect(env: dict[str, str]) -> str | None:
    """`collectstatic` under bench.settings (var/bench/static): every piece that renders a page
    with `{% static %}` needs the manifest. None when it worked, else the error's tail."""
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    if collected.returncode != 0:
        return "collectstatic failed: " + collected.stderr.decode(errors="replace")[-300:]
    return None


def django_setup() -> None:
    """For a child: Django with the environment `bench_env` gave it."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    django.setup()


def machine_info() -> dict[str, Any]:
    """Cores, memory, CPU model and how busy the machine was when the run started."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gib = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_gib = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "memory_gib": memory_gib,
        "cpu_model": model,
        "platform": platform.platform(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {"python": platform.python_version()}
    for label, dist in (
        ("django", "Django"),
        ("weasyprint", "weasyprint"),
        ("calamine", "python-calamine"),
        ("openpyxl", "openpyxl"),
        ("rapidfuzz", "RapidFuzz"),
        ("pydantic", "pydantic"),
        ("gunicorn", "gunicorn"),
        ("psycopg", "psycopg"),
    ):
        try:
            found[label] = version(dist)
        except PackageNotFoundError:
            found[label] = "not installed"
    return found


def pg_database(name: str, *, create: bool) -> str | None:
    """Create (or drop) a scratch PostgreSQL database; its URL, or None when PostgreSQL
    does not answer on 127.0.0.1. The names are the benchmark's own (bench_http,
    bench_contention): nothing else is ever dropped."""
    if not name.startswith("bench_"):
        raise ValueError(f"refusing to touch database {name!r}: not a bench_ database")
    try:
        import psycopg

        admin = PG_ADMIN_URL.replace("postgres://", "postgresql://", 1)
        with psycopg.connect(admin, connect_timeout=3, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            if create:
                conn.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        print(f"PostgreSQL not reachable at {PG_ADMIN_URL}: {exc}", file=sys.stderr)
        return None
    return PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
