"""Render a report in a child process with a wall-clock and a memory limit.

WeasyPrint lays out every line of a quote; a 50,000-line quote (or a layout bug) could take
minutes and gigabytes. The worker must survive it and go on to the next report, so the render
runs in `python -m apps.reports.sandbox`: the HTML goes in on stdin, the PDF comes out on stdout,
the child's address space is capped with RLIMIT_AS (1 GiB by default) and the parent kills it
after the timeout (60 s by default). Either limit ends as `ReportTooLarge("report too large")`.

The child imports only `apps.reports.pdf` and `apps.reports.fetcher` (no Django, no database).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_BYTES = 1024 * 1024 * 1024
EXIT_TOO_LARGE = 3
EXIT_FAILED = 4
PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent


class ReportRenderError(RuntimeError):
    """The render failed; the message is safe to show on the progress page."""


class ReportTooLarge(ReportRenderError):
    def __init__(self, detail: str = "") -> None:
        self.detail = detail
        super().__init__("report too large")


def pdf_render_sandboxed(
    html: str,
    *,
    static_root: Path | str,
    logo_root: Path | str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_bytes: int = DEFAULT_MEMORY_BYTES,
) -> bytes:
    """The PDF for `html`, rendered in a limited child process; raises on any failure."""
    payload = json.dumps(
        {
            "html": html,
            "static_root": str(static_root),
            "logo_root": str(logo_root) if logo_root else None,
            "memory_bytes": memory_bytes,
        }
    ).encode()
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO")}
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    try:
        child = subprocess.run(
            [sys.executable, "-m", "apps.reports.sandbox"],
            input=payload,
            capture_output=True,
            timeout=timeout_s,
            cwd=PROJECT_ROOT,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:  # subprocess.run has killed the child
        raise ReportTooLarge(f"render took longer than {timeout_s:g} s") from exc
    if child.returncode == 0 and child.stdout.startswith(b"%PDF"):
        return child.stdout
    detail = child.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
    if child.returncode in (EXIT_TOO_LARGE, -signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT):
        raise ReportTooLarge(detail[0] or f"render used more than {memory_bytes} bytes")
    raise ReportRenderError(f"render failed: {detail[0][:300] or child.returncode}")


def _child_main() -> int:
    import resource

    from apps.reports.pdf import pdf_from_html  # the fixed cost, before the limit

    request = json.loads(sys.stdin.buffer.read())
    limit = int(request["memory_bytes"])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        pdf = pdf_from_html(
            request["html"], static_root=request["static_root"], logo_root=request.get("logo_root")
        )
    except MemoryError:
        print("report too large: out of memory", file=sys.stderr)
        return EXIT_TOO_LARGE
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    sys.stdout.buffer.write(pdf)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child_main())
