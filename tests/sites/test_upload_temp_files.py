"""No temp file outlives an upload (RELIABILITY 2 and 26): not after a
refusal, not after an exception, not after the worker is killed in the middle of the upload.

Before: Django's handler spools big uploads to a named file; a SIGKILLed worker left it in
FILE_UPLOAD_TEMP_DIR for good (the second test shows the default handler doing exactly that)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.quotes.models import Quote

PROJECT = Path(__file__).resolve().parents[2]
CHILD = textwrap.dedent(
    """
    import sys, time
    from importlib import import_module
    from django.conf import settings
    settings.configure(FILE_UPLOAD_TEMP_DIR=sys.argv[1])
    module, name = sys.argv[2].rsplit(".", 1)
    handler = getattr(import_module(module), name)(None)
    handler.new_file("file", "quote.csv", "text/csv", 3_000_000, None)
    handler.receive_data_chunk(b"x" * 3_000_000, 0)
    print("spooling", flush=True)
    time.sleep(60)
    """
)


def killed_mid_upload(temp_dir: Path, handler: str) -> list[str]:
    """Spool 3 MB through ``handler`` in a child, SIGKILL it mid-upload: what is left."""
    with subprocess.Popen(
        [sys.executable, "-c", CHILD, str(temp_dir), handler],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "spooling"
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
    return sorted(os.listdir(temp_dir))


def test_a_worker_killed_mid_upload_leaves_no_temp_file(tmp_path: Path) -> None:
    assert (
        killed_mid_upload(tmp_path, "apps.sites.uploads.AnonymousTemporaryFileUploadHandler") == []
    )


def test_django_default_handler_would_have_left_one(tmp_path: Path) -> None:
    # The failure this fixes, kept as a test so the check above is known to detect it.
    left = killed_mid_upload(tmp_path, "django.core.files.uploadhandler.TemporaryFileUploadHandler")
    assert len(left) == 1 and ".upload" in left[0]


BIG = b"Part Number,Description,Qty,Unit Price\n" + b"A-1,Widget,1,10\n" * 200_000  # 3.2 MB


@pytest.mark.django_db
def test_a_refused_big_upload_leaves_no_temp_file(clients, demo, catalog_db, settings) -> None:
    from tests.web.test_upload_views import saved_form

    assert len(BIG) > settings.FILE_UPLOAD_MAX_MEMORY_SIZE  # spooled to disk, not memory
    form = {**saved_form(demo), "file": SimpleUploadedFile("big.csv", BIG, "text/csv")}
    response = clients["account_team"].post("/quotes/upload/", form)
    assert response.status_code == 400  # over 20,000 rows: refused, kept as REJECTED
    assert "row limit is 20,000" in response.content.decode()
    assert os.listdir(settings.FILE_UPLOAD_TEMP_DIR) == []


@pytest.mark.django_db
def test_an_exception_mid_upload_leaves_no_temp_file(demo, catalog_db, settings, monkeypatch):
    from django.contrib.auth.models import User

    from tests.web.test_upload_views import saved_form

    def boom(**kwargs):
        raise RuntimeError("the server fell over mid-upload")

    monkeypatch.setattr("apps.web.views.quotes.upload_job_start", boom)
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(username="account"))
    form = {**saved_form(demo), "file": SimpleUploadedFile("big.csv", BIG, "text/csv")}
    assert client.post("/quotes/upload/", form).status_code == 500
    assert os.listdir(settings.FILE_UPLOAD_TEMP_DIR) == []
    assert not Quote.objects.exists()
