"""The spreadsheet child started one request early (``sandbox_run_warm``): the same answer
as a child started for the file, a fresh child for every file, the same limits, and no
child left behind by a parent that is gone (RELIABILITY.md 5, 7, 13)."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from apps.quotes.parsing import sandbox
from apps.quotes.parsing.sandbox import (
    SandboxLimitError,
    SandboxLimits,
    sandbox_run,
    sandbox_run_warm,
    spares_stop,
)
from apps.quotes.parsing.sheet_reader import WORKER

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture(autouse=True)
def _no_spares_left():
    spares_stop()
    yield
    spares_stop()


def _spare_pid(script: Path = WORKER) -> int:
    owner, child = sandbox._SPARES[(str(script), sandbox.WARM_LIMITS)]
    assert owner == os.getpid()
    return child.pid


def warm_script(tmp_path: Path, body: str) -> Path:
    """A child that applies its limits, then reads its arguments line as the worker does."""
    path = tmp_path / "child.py"
    path.write_text(
        "import resource, sys\n"
        "memory, cpu = int(sys.argv[1]), int(sys.argv[2])\n"
        "resource.setrlimit(resource.RLIMIT_AS, (memory, memory))\n"
        "resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))\n"
        "if not sys.stdin.buffer.readline():\n"
        "    sys.exit(0)\n" + body
    )
    return path


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("dell_xe9680.csv", "csv"),
        ("bechtle_de_cp1252.csv", "csv"),
        ("dell_text_amounts.xlsx", "xlsx"),
    ],
)
def test_a_warm_child_answers_as_a_child_started_for_the_file(name, kind):
    data = (SAMPLES / name).read_bytes()
    args = (kind, name, "", "")
    cold = sandbox_run(WORKER, data, args=args)
    assert sandbox_run_warm(WORKER, data, args=args) == cold  # started on the spot
    assert sandbox_run_warm(WORKER, data, args=args) == cold  # the spare


def test_every_file_gets_a_child_of_its_own():
    data = (SAMPLES / "dell_xe9680.csv").read_bytes()
    args = ("csv", "q.csv", "", "")
    sandbox_run_warm(WORKER, data, args=args)
    first = _spare_pid()
    sandbox_run_warm(WORKER, data, args=args)
    second = _spare_pid()
    assert second != first
    # the first one read its file and is gone (reaped: no such process)
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)


def test_a_spare_that_died_or_is_another_process_is_not_used():
    data = (SAMPLES / "dell_xe9680.csv").read_bytes()
    args = ("csv", "q.csv", "", "")
    cold = sandbox_run(WORKER, data, args=args)
    sandbox_run_warm(WORKER, data, args=args)
    _owner, spare = sandbox._SPARES[(str(WORKER), sandbox.WARM_LIMITS)]
    spare.kill()
    spare.wait()
    assert sandbox_run_warm(WORKER, data, args=args) == cold
    # a spare inherited from the process this one was forked from stays that process's
    key = (str(WORKER), sandbox.WARM_LIMITS)
    owner, inherited = sandbox._SPARES.pop(key)
    sandbox._SPARES[key] = (owner + 1, inherited)
    assert sandbox_run_warm(WORKER, data, args=args) == cold
    assert inherited.poll() is None  # not handed our file
    sandbox._spare_end(inherited)


def test_a_warm_child_is_stopped_at_the_wall_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "WARM_LIMITS", SandboxLimits(wall_seconds=1))
    child = warm_script(tmp_path, "import time\ntime.sleep(60)\n")
    with pytest.raises(SandboxLimitError, match="longer than 1 s"):
        sandbox_run_warm(child, b"")
    with pytest.raises(SandboxLimitError, match="longer than 1 s"):
        sandbox_run_warm(child, b"")  # the spare, waiting before the clock started


def test_a_warm_child_keeps_its_memory_and_cpu_limits(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "WARM_LIMITS", SandboxLimits(memory_bytes=256 * 2**20))
    greedy = warm_script(tmp_path, "x = bytearray(1024 ** 3)\n")
    for _ in range(2):
        with pytest.raises(SandboxLimitError, match="ran out of memory"):
            sandbox_run_warm(greedy, b"")
    monkeypatch.setattr(sandbox, "WARM_LIMITS", SandboxLimits(cpu_seconds=1, wall_seconds=20))
    busy = warm_script(tmp_path, "while True:\n    pass\n")
    for _ in range(2):
        with pytest.raises(SandboxLimitError, match="stopped by signal"):
            sandbox_run_warm(busy, b"")


def test_a_warm_child_gets_no_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://secret@db/prod")
    body = (
        "import json, os\nprint(json.dumps({'env': dict(os.environ), 'got': sys.stdin.read()}))\n"
    )
    child = warm_script(tmp_path, body)
    sandbox_run_warm(child, b"")
    out = json.loads(sandbox_run_warm(child, b"hello", args=("a",)))
    assert out["got"] == "hello"
    assert "DATABASE_URL" not in out["env"]


def test_a_spare_ends_with_the_process_that_started_it():
    program = (
        "import sys; sys.path.insert(0, '.')\n"
        "from pathlib import Path\n"
        "from apps.quotes.parsing import sandbox\n"
        "from apps.quotes.parsing.sheet_reader import WORKER\n"
        f"sandbox.sandbox_run_warm(WORKER, Path({str(SAMPLES / 'dell_xe9680.csv')!r}).read_bytes(),"
        " args=('csv', 'q.csv', '', ''))\n"
        "print(sandbox._SPARES[(str(WORKER), sandbox.WARM_LIMITS)][1].pid)\n"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=root, capture_output=True, check=True, timeout=60
    )
    spare = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if not _running(spare):
            return
        time.sleep(0.1)
    pytest.fail(f"the spare {spare} outlived its parent")


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for an init that does not reap (a container's)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")
