"""Request limits (RELIABILITY 29), downloads and media (RELIABILITY 30), and `check --deploy`
with the production settings (RELIABILITY 17)."""

from __future__ import annotations

import os
import secrets
import string
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.quotes.models import Quote
from apps.review.models import AuditEvent, Review, ReviewStatus
from tests.review.factories import review_make, review_published_as_is

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged(demo) -> Review:
    return review_make(organisation=demo["acme"], user=User.objects.get(username="account"))


def _many_fields(n: int) -> dict[str, str]:
    return {f"field{i}": "x" for i in range(n)}


@pytest.mark.parametrize(
    ("role", "url"),
    [
        ("anonymous", "/login/"),
        ("finance", "approve"),
        ("account_team", "/quotes/upload/"),
        ("account_team", "/api/reviews"),
    ],
)
def test_1001_form_fields_is_400_not_500(clients, flagged, role, url):
    if url == "approve":
        url = reverse("review:approve", kwargs={"review_uuid": flagged.uuid})
    data = {
        **_many_fields(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS - 1),
        "version": "1",
        "reason": "x",
    }
    assert len(data) == 1001  # the limit is 1,000
    response = clients[role].post(url, data)
    assert response.status_code == 400
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (ReviewStatus.PENDING, 1)
    assert not AuditEvent.objects.exists()


@pytest.mark.parametrize("url", ["/quotes/upload/", "/api/reviews"])
def test_six_files_is_400_not_500(clients, demo, url):
    quote_count = Quote.objects.count()
    files = {f"file{i}": SimpleUploadedFile(f"q{i}.csv", b"sku,qty\nA,1\n") for i in range(6)}
    assert settings.DATA_UPLOAD_MAX_NUMBER_FILES == 5
    response = clients["account_team"].post(url, files)
    assert response.status_code == 400
    assert Quote.objects.count() == quote_count
    assert os.listdir(settings.FILE_UPLOAD_TEMP_DIR) == []


def test_pdf_download_is_an_attachment_with_nosniff(clients, flagged):
    from apps.reports.models import ReportFile, ReportStatus

    name = default_storage.save(f"reports/{flagged.uuid}-v1.pdf", ContentFile(b"%PDF-1.7\n%%EOF\n"))
    ReportFile.objects.create(
        review=flagged, review_version=flagged.version, status=ReportStatus.DONE, storage_name=name
    )
    review_published_as_is(flagged)  # the customer downloads a published review's PDF
    response = clients["customer"].get(
        reverse("reports:download", kwargs={"review_uuid": flagged.uuid})
    )
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert f'filename="rightsize-review-{str(flagged.uuid)[:8]}-v1.pdf"' in disposition
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert b"".join(response.streaming_content).startswith(b"%PDF")
    other = clients["other_customer"].get(
        reverse("reports:download", kwargs={"review_uuid": flagged.uuid})
    )
    assert other.status_code == 404


def test_media_is_never_served_directly(clients, flagged):
    blob = flagged.quote.source_file.blob  # uploads/<sha256>, really in storage
    assert default_storage.exists(blob)
    for client in (clients["admin"], clients["customer"], clients["anonymous"]):
        for prefix in ("/media/", settings.MEDIA_URL):
            response = client.get(f"{prefix}{blob}")
            assert response.status_code in {302, 404}, (prefix, response.status_code)
            assert flagged.quote.source_file.sha256 not in response.content.decode(errors="replace")


def _production_env() -> dict[str, str]:
    alphabet = string.ascii_letters + string.digits
    # A clean environment: nothing from the test run (DJANGO_ALLOW_ASYNC_UNSAFE, DATABASE_URL)
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="".join(secrets.choice(alphabet) for _ in range(60)),
        ALLOWED_HOSTS="rightsize.example.com",
    )
    return env


def test_check_deploy_is_clean_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_serves_no_media_url():
    """Under production settings no URL pattern maps /media/ (or MEDIA_URL) to a file view."""
    script = (
        "import django; django.setup();"
        "from django.conf import settings; from django.urls import resolve, Resolver404;"
        "paths = ['/media/uploads/x', settings.MEDIA_URL + 'uploads/x'];"
        "print(sum(1 for p in paths if not isinstance(_r(p), Resolver404)))"
    )
    wrapper = (
        "from django.urls import resolve, Resolver404\n"
        "def _r(p):\n"
        "    try:\n        return resolve(p)\n"
        "    except Resolver404 as e:\n        return e\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", wrapper + script],
        cwd=settings.BASE_DIR,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0"


@pytest.mark.parametrize(
    "name",
    [
        "quotes:line_confirm",
        "review:rerun",
        "review:preview",
        "review:revise",
        "reports:request",
        "review:approve",
        "quotes:upload",
        "api:review_create",
    ],
)
def test_malformed_posts_are_answered_never_500(demo, name):
    """Garbage in the form (no fields, or a non-uuid where a uuid goes) is a 4xx or the form
    again, never a traceback."""
    from django.test import Client

    from apps.quotes.models import QuoteLine

    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(username="admin"))
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    line = QuoteLine.objects.create(quote=review.quote, line=1, source_row=2)
    kwargs = {
        "quotes:line_confirm": {"pk": line.pk},
        "review:rerun": {"uuid": review.uuid},
        "review:preview": {"uuid": review.uuid},
        "review:revise": {"uuid": review.uuid},
        "reports:request": {"review_uuid": review.uuid},
        "review:approve": {"review_uuid": review.uuid},
    }.get(name, {})
    for data in ({}, {"review": "not-a-uuid", "part": "x", "version": "x", "page_size": "B9"}):
        response = client.post(reverse(name, kwargs=kwargs), data, headers={"HX-Request": "true"})
        assert response.status_code < 500, (name, data, response.status_code)
