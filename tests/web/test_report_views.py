"""Who may make and download a review's PDF, and what the progress partial says."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.reports.models import ReportFile, ReportStatus

pytestmark = pytest.mark.django_db

READERS = ["account_team", "finance", "admin", "customer"]


def urls(review) -> dict[str, str]:
    return {
        "status": reverse("reports:status", args=[review.uuid]),
        "request": reverse("reports:request", args=[review.uuid]),
        "download": reverse("reports:download", args=[review.uuid]),
    }


@pytest.fixture
def done_pdf(review_a, clients, django_capture_on_commit_callbacks):
    """The PDF of review A, made through the view by the account team."""
    with django_capture_on_commit_callbacks(execute=True):
        response = clients["account_team"].post(urls(review_a)["request"], {"page_size": "A4"})
    assert response.status_code == 302
    report_file = ReportFile.objects.get(review=review_a)
    assert report_file.status == ReportStatus.DONE, report_file.error
    return report_file


@pytest.mark.parametrize("name", ["status", "request", "download"])
def test_anonymous_goes_to_login(review_a, clients, name: str) -> None:
    url = urls(review_a)[name]
    response = (
        clients["anonymous"].post(url) if name == "request" else clients["anonymous"].get(url)
    )
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={url}"


@pytest.mark.parametrize("name", ["status", "request", "download"])
def test_other_organisations_customer_gets_404(
    review_a,
    clients,
    done_pdf,
    name: str,
) -> None:
    url = urls(review_a)[name]
    client = clients["other_customer"]
    response = client.post(url) if name == "request" else client.get(url)
    assert response.status_code == 404
    assert ReportFile.objects.count() == 1  # nothing queued for them


@pytest.mark.parametrize("role", READERS)
def test_readers_download_the_pdf(review_a, clients, done_pdf, role: str) -> None:
    response = clients[role].get(urls(review_a)["download"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"
    expected_name = f"rightsize-review-{str(review_a.uuid)[:8]}-v1.pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{expected_name}"'
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_download_before_it_is_made_is_404(review_a, clients) -> None:
    assert clients["customer"].get(urls(review_a)["download"]).status_code == 404


def test_download_of_an_older_version_is_404(review_a, clients, done_pdf) -> None:
    review_a.version = 2
    review_a.save(update_fields=["version"])
    assert clients["account_team"].get(urls(review_a)["download"]).status_code == 404


def test_the_customer_keeps_the_published_versions_pdf(review_a, clients, done_pdf) -> None:
    """Published at v1; a later save (v2) is not the customer's until published again."""
    review_a.version = 2
    review_a.save(update_fields=["version"])
    response = clients["customer"].get(urls(review_a)["download"])
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF")
    response.close()


def test_customer_requests_with_htmx_and_gets_the_progress_partial(
    review_a,
    clients,
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = clients["customer"].post(
            urls(review_a)["request"], {"page_size": "Letter"}, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="report-progress"')
    assert "<html" not in html
    # The partial shows the row as the request left it: queued, and polling the status URL.
    # (The task runs when the transaction commits, after the response is drawn.)
    assert 'hx-get="{}"'.format(urls(review_a)["status"]) in html
    assert 'hx-trigger="every 1s"' in html
    assert "making the Letter PDF" in html
    assert ReportFile.objects.get(review=review_a).status == ReportStatus.DONE
    # The next poll shows the download link and stops polling.
    poll = clients["customer"].get(urls(review_a)["status"], headers={"HX-Request": "true"})
    assert poll.status_code == 200
    polled = poll.content.decode()
    assert 'href="{}"'.format(urls(review_a)["download"]) in polled
    assert "hx-trigger" not in polled
    assert "HX-Request" in poll["Vary"]


def test_status_page_without_htmx_is_a_whole_page(review_a, clients) -> None:
    response = clients["finance"].get(urls(review_a)["status"])
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and 'id="report-progress"' in html
    assert "No PDF has been made for this version yet." in html
    assert "Make the PDF" in html
    assert "INVALID_TEMPLATE_VARIABLE" not in html


def test_failed_render_shows_the_reason_and_offers_a_retry(review_a, clients) -> None:
    ReportFile.objects.create(
        review=review_a,
        review_version=1,
        status=ReportStatus.FAILED,
        error="report too large",
        finished_at=timezone.now(),
    )
    response = clients["customer"].get(urls(review_a)["status"], headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "The PDF could not be made: report too large." in html
    assert "Try again" in html
    assert "hx-trigger" not in html


def test_unknown_page_size_is_400(review_a, clients) -> None:
    response = clients["account_team"].post(urls(review_a)["request"], {"page_size": "A0"})
    assert response.status_code == 400
    assert not ReportFile.objects.exists()


def test_request_without_csrf_token_is_403(review_a, demo) -> None:
    from django.contrib.auth.models import User

    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get(username="customer"))
    response = client.post(urls(review_a)["request"], {"page_size": "A4"})
    assert response.status_code == 403
    assert not ReportFile.objects.exists()


def test_get_on_request_url_is_405(review_a, clients) -> None:
    assert clients["customer"].get(urls(review_a)["request"]).status_code == 405
