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


def test_sweep_keeps_the_original_of_an_upload_still_waiting_for_a_worker(capsys, demo):
    from django.contrib.auth.models import User

    from apps.review.models import UploadJob, UploadStatus

    waiting = default_storage.save("uploads/" + "c" * 64, ContentFile(b"queued for two days"))
    two_days_ago = time.time() - 48 * 3600
    os.utime(default_storage.path(waiting), (two_days_ago, two_days_ago))
    UploadJob.objects.create(
        organisation=demo["acme"],
        uploaded_by=User.objects.get(username="account"),
        filename="quote.pdf",
        blob=waiting,
        workload={},
        facility={},
        status=UploadStatus.QUEUED,
    )

    call_command("sweep_orphans")

    assert default_storage.exists(waiting)
    assert "removed 0 orphaned upload" in capsys.readouterr().out
    default_storage.delete(waiting)
