"""`pip install .` works: build the wheel, install it into a fresh venv, migrate a scratch
SQLite database, start gunicorn from the installed package (not the checkout) and fetch the
login page.

    python scripts/package_check.py                # a fully fresh venv, dependencies from the index
    python scripts/package_check.py --reuse-deps   # the wheel alone; dependencies from this venv

Exit 0 and "login page served by <path>" on success; any failure exits non-zero and says where.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def run(*cmd: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], check=True, text=True, **kwargs)


def wheel_build(out: Path) -> Path:
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, PROJECT)
    (wheel,) = out.glob("rightsize-*.whl")
    return wheel


def venv_with(wheel: Path, root: Path, *, reuse_deps: bool) -> Path:
    venv = root / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    if reuse_deps:
        run(python, "-m", "pip", "install", "-q", "--no-deps", wheel)
        # the shared venv's packages after the fresh venv's own (plain path: its .pth files,
        # such as an editable checkout, are not run)
        purelib = run(
            python,
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            capture_output=True,
        ).stdout.strip()
        Path(purelib, "zz_shared_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    else:
        run(python, "-m", "pip", "install", "-q", wheel)
    return python


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def login_page_served(python: Path, root: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "DJANGO_SETTINGS_MODULE"}}
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{root / 'db.sqlite3'}",
        "RIGHTSIZE_VAR_DIR": str(root / "var"),
    }
    where = run(
        python,
        "-c",
        "import apps, config; print(apps.__file__)",
        cwd=root,
        env=env,
        capture_output=True,
    ).stdout.strip()
    if str(PROJECT) in where:
        raise SystemExit(f"the checkout was imported, not the wheel: {where}")
    run(python, "-m", "django", "migrate", "-v0", cwd=root, env=env)
    port = free_port()
    server = subprocess.Popen(
        [str(python), "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=5) as r:
                    body = r.read().decode()
                    if r.status != 200 or 'name="password"' not in body:
                        raise SystemExit(f"login page answered {r.status} without its form")
                    return where
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(
                        "gunicorn did not serve /login/: "
                        + (server.stderr.read() if server.poll() is not None else "timeout")
                    ) from None
                time.sleep(0.3)
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse-deps", action="store_true")
    parser.add_argument("--wheel", type=Path, help="a wheel already built (else built here)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rightsize-package-") as tmp:
        root = Path(tmp)
        wheel = args.wheel.resolve() if args.wheel else wheel_build(root / "dist")
        python = venv_with(wheel, root, reuse_deps=args.reuse_deps)
        print(f"login page served by {login_page_served(python, root)}")


if __name__ == "__main__":
    main()
