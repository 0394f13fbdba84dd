"""The PDF report's three URLs: a page that shows its progress, the "make it" POST, the download.

Every view authorises first — role, then the review through `reviews_for`, so another
organisation's review (or one not published to this customer) answers 404 — and only then
picks the whole page or the `progress` partial. A customer reads the published version.
"""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST

from apps.reports.context import PageSize as PageSizeName
from apps.reports.models import PageSize, ReportFile, ReportStatus
from apps.reports.services import report_file_current, report_jobs_reap, report_request
from apps.review.models import Review
from apps.review.publishing import review_for_viewer, reviews_for
from apps.sites.access import require_roles
from apps.sites.http import HtmxHttpRequest
from apps.sites.models import Role

# Who may read a review's PDF: the internal roles, and the customer of that review's organisation
# (scope_for_user narrows a customer to their own organisation).
REPORT_READERS = (Role.ACCOUNT_TEAM, Role.FINANCE, Role.ADMIN, Role.CUSTOMER)
POLL_SECONDS = 1


def _review_or_404(request: HtmxHttpRequest, review_uuid: UUID) -> Review:
    """The review as this person may read it: a customer gets the published version (its
    figures and its PDF), 404 before it is published."""
    reviews = reviews_for(Review.objects.select_related("organisation"), request.user)
    return review_for_viewer(get_object_or_404(reviews, uuid=review_uuid), request.user)


def _progress_context(review: Review, report_file: ReportFile | None) -> dict[str, Any]:
    return {
        "review": review,
        "report_file": report_file,
        "page_sizes": PageSize.choices,
        "poll_seconds": POLL_SECONDS,
    }


def _progress_response(
    request: HtmxHttpRequest, review: Review, report_file: ReportFile | None
) -> HttpResponse:
    context = _progress_context(review, report_file)
    template = "reports/status.html#progress" if request.htmx else "reports/status.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    response["Cache-Control"] = "no-store"
    return response


@require_roles(*REPORT_READERS)
@require_GET
def report_status(request: HtmxHttpRequest, review_uuid: UUID) -> HttpResponse:
    """The PDF's state for the review's current version; htmx polls it until DONE or FAILED."""
    review = _review_or_404(request, review_uuid)
    report_jobs_reap()  # a job whose worker died shows FAILED with "Try again", not a spinner
    return _progress_response(request, review, report_file_current(review=review))


@require_roles(*REPORT_READERS)
@require_POST
def report_request_view(request: HtmxHttpRequest, review_uuid: UUID) -> HttpResponse:
    """Queue the PDF (A4 or Letter) and answer with the progress partial that polls."""
    review = _review_or_404(request, review_uuid)
    page_size = request.POST.get("page_size", PageSize.A4)
    if page_size not in PageSize.values:
        return HttpResponse("Unknown page size.", status=400, content_type="text/plain")
    report_file = report_request(
        review=review, user=request.user, page_size=cast(PageSizeName, page_size)
    )
    if not request.htmx:
        return redirect("reports:status", review_uuid=review.uuid)
    return _progress_response(request, review, report_file)


@require_roles(*REPORT_READERS)
@require_GET
def report_download(request: HtmxHttpRequest, review_uuid: UUID) -> FileResponse:
    """The finished PDF as an attachment; 404 until it is DONE for the current version."""
    review = _review_or_404(request, review_uuid)
    report_file = report_file_current(review=review)
    if report_file is None or report_file.status != ReportStatus.DONE:
        raise Http404("The PDF of this review is not ready.")
    try:
        handle = default_storage.open(report_file.storage_name, "rb")
    except FileNotFoundError as exc:
        raise Http404("The PDF of this review is not ready.") from exc
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=report_file.download_name,
        content_type="application/pdf",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
