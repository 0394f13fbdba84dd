"""Run a hostile-input reader in a child process with hard limits.

A PDF can be built to make a parser loop forever (a circular ``/Prev`` chain), recurse without
end (a form XObject that draws itself) or inflate a 200 KB stream to gigabytes (a Flate bomb).
None of that may touch the web process, and neither may a 5 KB XLSX with one cell at
``XFD1048576`` (python-calamine would allocate ~550 GB and abort the process), so PDF and
spreadsheet reading happens in a fresh interpreter
(``python -I``: no environment variables, no user site, no current directory on the path)
that first lowers its own limits — 512 MiB of address space, 30 s of CPU, no files written —
and the parent kills it after 30 s of wall time. The child gets the bytes on stdin and answers
JSON on stdout; it never sees the database settings or secrets (empty environment).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MEMORY_LIMIT_BYTES = 512 * 1024 * 1024
CPU_LIMIT_SECONDS = 30
WALL_LIMIT_SECONDS = 30.0


class SandboxLimitError(Exception):
    """The child was killed or gave up: out of time, out of memory, or crashed."""


@dataclass(frozen=True)
class SandboxLimits:
    memory_bytes: int = MEMORY_LIMIT_BYTES
    cpu_seconds: int = CPU_LIMIT_SECONDS
    wall_seconds: float = WALL_LIMIT_SECONDS


def sandbox_run(
    script: Path,
    data: bytes,
    *,
    limits: SandboxLimits | None = None,
    args: tuple[str, ...] = (),
) -> bytes:
    """Run ``script`` in a limited child with ``data`` on stdin; return its stdout.

    The script receives the limits as argv (memory bytes, CPU seconds) and must apply them
    with ``resource.setrlimit`` before touching the input; ``args`` follow them. Raises
    ``SandboxLimitError`` on a timeout, a signal or a non-zero exit."""
    limits = limits or SandboxLimits()
    command = [
        sys.executable,
        "-I",
        str(script),
        str(limits.memory_bytes),
        str(limits.cpu_seconds),
        *args,
    ]
    try:
        finished = subprocess.run(
            command,
            input=data,
            capture_output=True,
            timeout=limits.wall_seconds,
            env={"LC_ALL": "C.UTF-8"},
            cwd="/",
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SandboxLimitError(
            f"took longer than {limits.wall_seconds:g} s and was stopped"
        ) from None
    if finished.returncode < 0:
        raise SandboxLimitError(
            f"was stopped by signal {-finished.returncode} (time or memory limit)"
        )
    if finished.returncode != 0:
        tail = finished.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        if "MemoryError" in tail[0]:
            raise SandboxLimitError(f"ran out of memory (limit {limits.memory_bytes // 2**20} MiB)")
        raise SandboxLimitError(f"failed ({tail[0][:200] or f'exit {finished.returncode}'})")
    return finished.stdout
