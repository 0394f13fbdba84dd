"""RELIABILITY 26: an orphaned blob (file written, row never committed) is swept away."""

import os
import time

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_sweep_removes_old_orphans_and_keeps_young_ones(capsys):
    old = default_storage.save("uploads/" + "a" * 64, ContentFile(b"orphan"))
    young = default_storage.save("uploads/" + "b" * 64, ContentFile(b"still committing"))
    two_days_ago = time.time() - 48 * 3600
    os.utime(default_storage.path(old), (two_days_ago, two_days_ago))

    call_command("sweep_orphans")

    assert not default_storage.exists(old)
    assert default_storage.exists(young)
    assert "removed 1 orphaned upload" in capsys.readouterr().out
    default_storage.delete(young)
