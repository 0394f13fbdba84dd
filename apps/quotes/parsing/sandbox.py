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

``sandbox_run_warm`` is the same child started one request early: after each run a
spare child is started with the same command, environment and limits, imports its reader and
waits on stdin, so the next request does not wait ~0.3 s for an interpreter and pydantic
(bench/README.md, parsing). Each child still reads exactly one file and exits; the wall limit
counts from the request; a spare whose parent dies reads end-of-file and exits.
``sandbox_lines_warm`` is the same run with the answer handed over line by line as the child
writes it, so the parent can work on the first lines while the child reads the rest.
"""

from __future__ import annotations

import atexit
import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
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


def _command(script: Path, limits: SandboxLimits, args: tuple[str, ...]) -> list[str]:
    return [
        sys.executable,
        "-I",
        str(script),
        str(limits.memory_bytes),
        str(limits.cpu_seconds),
        *args,
    ]


def _finished(returncode: int, stdout: bytes, stderr: bytes, limits: SandboxLimits) -> bytes:
    """The child's answer, or ``SandboxLimitError`` for a signal or a non-zero exit."""
    if returncode < 0:
        raise SandboxLimitError(f"was stopped by signal {-returncode} (time or memory limit)")
    if returncode != 0:
        tail = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        if "MemoryError" in tail[0]:
            raise SandboxLimitError(f"ran out of memory (limit {limits.memory_bytes // 2**20} MiB)")
        raise SandboxLimitError(f"failed ({tail[0][:200] or f'exit {returncode}'})")
    return stdout


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
    try:
        finished = subprocess.run(
            _command(script, limits, args),
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
    return _finished(finished.returncode, finished.stdout, finished.stderr, limits)


#: The limits spare children start with: every upload's (other limits run cold).
WARM_LIMITS = SandboxLimits()
#: The waiting child of each (script, limits), with the process that started it (a process
#: forked from that one, a gunicorn worker from its master, starts its own).
_SPARES: dict[tuple[str, SandboxLimits], tuple[int, subprocess.Popen[bytes]]] = {}
_SPARES_LOCK = threading.Lock()


def _spare_start(script: Path, limits: SandboxLimits) -> subprocess.Popen[bytes]:
    """A child with no arguments: it reads them from the first line of stdin (a JSON
    list), after its reader is imported."""
    return subprocess.Popen(
        _command(script, limits, ()),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"LC_ALL": "C.UTF-8"},
        cwd="/",
    )


def _spare_take(script: Path, limits: SandboxLimits) -> subprocess.Popen[bytes] | None:
    with _SPARES_LOCK:
        spare = _SPARES.pop((str(script), limits), None)
    if spare is None or spare[0] != os.getpid():
        return None
    if spare[1].poll() is not None:  # killed while it waited: never handed a file
        _spare_end(spare[1])
        return None
    return spare[1]


def _spare_end(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is None:
        child.kill()
    child.wait()
    for stream in (child.stdin, child.stdout, child.stderr):
        if stream is not None:
            stream.close()


def _spare_leave(script: Path, limits: SandboxLimits) -> None:
    child = _spare_start(script, limits)
    with _SPARES_LOCK:
        old = _SPARES.pop((str(script), limits), None)
        _SPARES[(str(script), limits)] = (os.getpid(), child)
    if old is not None and old[0] == os.getpid():
        _spare_end(old[1])  # two threads left one each: the older one goes


def spares_stop() -> None:
    """End this process's waiting children (tests; a process that parses no more)."""
    with _SPARES_LOCK:
        mine = [child for owner, child in _SPARES.values() if owner == os.getpid()]
        _SPARES.clear()
    for child in mine:
        _spare_end(child)


atexit.register(spares_stop)


def sandbox_run_warm(
    script: Path,
    data: bytes,
    *,
    limits: SandboxLimits | None = None,
    args: tuple[str, ...] = (),
) -> bytes:
    """``sandbox_run`` for a script that takes its arguments from stdin's first line when it
    gets none on its command line (``sheet_worker.py``): the child was started ahead of time
    (module doc). Other limits than the default run as ``sandbox_run`` does."""
    return b"".join(sandbox_lines_warm(script, data, limits=limits, args=args))


def sandbox_lines_warm(
    script: Path,
    data: bytes,
    *,
    limits: SandboxLimits | None = None,
    args: tuple[str, ...] = (),
    meanwhile: Callable[[], None] | None = None,
) -> Iterator[bytes]:
    """``sandbox_run_warm``'s answer, one line at a time (with its newline) as soon as the
    child writes it. The same child, limits and errors: ``SandboxLimitError`` (a timeout, a
    signal, a non-zero exit) is raised once every line is handed over, so a caller keeps
    nothing of what came before it. The wall limit counts from this call. ``meanwhile`` runs
    in this process once the child has the file, before its first line is handed over; what
    it raises stops the child and reaches the caller."""
    limits = limits or WARM_LIMITS
    if limits != WARM_LIMITS:
        if meanwhile is not None:
            meanwhile()
        yield from io.BytesIO(sandbox_run(script, data, limits=limits, args=args))
        return
    child = _spare_take(script, limits) or _spare_start(script, limits)
    late = threading.Event()

    def stop() -> None:
        late.set()
        child.kill()

    timer = threading.Timer(limits.wall_seconds, stop)
    timer.daemon = True
    timer.start()
    errors: list[bytes] = []
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    stderr = child.stderr
    drain = threading.Thread(target=lambda: errors.append(stderr.read()), daemon=True)
    drain.start()
    try:
        try:
            child.stdin.write(json.dumps(list(args)).encode() + b"\n" + data)
            child.stdin.close()
        except (BrokenPipeError, OSError):
            pass  # it died (or was stopped) before reading it all: its exit says why
        if meanwhile is not None:
            meanwhile()
        yield from child.stdout
        child.wait()
        drain.join()
        if late.is_set():
            raise SandboxLimitError(f"took longer than {limits.wall_seconds:g} s and was stopped")
        _finished(child.returncode, b"", b"".join(errors), limits)
    finally:
        timer.cancel()
        _spare_end(child)
        _spare_leave(script, limits)
