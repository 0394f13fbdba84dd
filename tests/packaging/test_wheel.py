"""`pip install .` (not editable) ships what the site needs: the wheel carries the templates,
static files and fixtures, and installed into a fresh venv it serves the login page."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent.parent
_spec = importlib.util.spec_from_file_location(
    "package_check", PROJECT / "scripts" / "package_check.py"
)
assert _spec and _spec.loader
package_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(package_check)

pytestmark = pytest.mark.package


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return package_check.wheel_build(tmp_path_factory.mktemp("dist"))


def test_the_wheel_carries_templates_static_files_fixtures_and_migrations(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in (
        "templates/registration/login.html",
        "templates/quotes/upload_status.html",
        "static/css/rightsize.css",
        "static/js/rightsize.js",
        "fixtures/catalog.json",
        "fixtures/calibration.json",
        "apps/catalog/migrations/0001_initial.py",
        "config/settings/production.py",
    ):
        assert shipped in names, shipped
    assert not any(n.startswith("tests/") or n.endswith(".pyc") for n in names)
    on_disk = {p.relative_to(PROJECT).as_posix() for p in (PROJECT / "templates").rglob("*.html")}
    assert on_disk <= names  # every template, not a sample


def test_the_installed_wheel_serves_the_login_page(wheel, tmp_path):
    python = package_check.venv_with(wheel, tmp_path, reuse_deps=True)
    where = package_check.login_page_served(python, tmp_path)
    assert where.startswith(str(tmp_path / "venv"))  # the installed copy, not the checkout
