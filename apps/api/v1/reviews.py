"""/api/v1/reviews: post a quote, list and read reviews, ask for and fetch the PDF."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, cast

from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.db.models import QuerySet
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import File, Form, Router, UploadedFile

from apps.api.auth import POSTER_REFUSAL, POSTERS, token_or_session
from apps.api.errors import ApiProblem, ErrorOut
from apps.api.intake import review_posted
from apps.api.v1.paging import DEFAULT_PAGE_SIZE, page_body, page_of
from apps.api.v1.schemas import PdfStatusOut, ReviewOut, ReviewPage
from apps.reports.models import ReportStatus
from apps.reports.services import report_file_current, report_jobs_reap, report_request
from apps.review.models import Review, ReviewStatus, Verdict
from apps.review.publishing import review_for_viewer
from apps.review.publishing import reviews_for as published_reviews_for

router = Router(tags=["reviews"], auth=token_or_session())


def reviews_for(request: HttpRequest) -> QuerySet[Review]:
    """Scoped to the caller; a customer's only the published ones (apps.review.publishing)."""
    return published_reviews_for(
        Review.objects.select_related("organisation", "quote"), request.user
    )


def review_as_seen(request: HttpRequest, review_uuid: str) -> Review:
    """The review as the caller may read it: a customer gets the published copy."""
    review = get_object_or_404(reviews_for(request), uuid=review_uuid)
    return review_for_viewer(review, request.user)


def review_meta(review: Review) -> dict[str, Any]:
    return {
        "uuid": str(review.uuid),
        "organisation": review.organisation.slug,
        "status": review.status,
        "verdict": review.verdict,
        "version": review.version,
        "file": review.quote.display_name,
        "total_usd": None if review.total_usd is None else f"{review.total_usd:.2f}",
        "created_at": review.created_at.isoformat(),
        "updated_at": review.updated_at.isoformat(),
        "url": reverse("api:v1_review_get", kwargs={"review_uuid": review.uuid}),
        "pdf_url": reverse("api:v1_review_pdf", kwargs={"review_uuid": review.uuid}),
        "decisions_url": reverse("api:v1_decision_list") + f"?review={review.uuid}",
    }


def review_body(review: Review, status: int) -> HttpResponse:
    """The stored contract report (money as strings) plus `review`: nothing renamed."""
    body = dict(review.report) | {"review": review_meta(review)}
    response = HttpResponse(json.dumps(body), status=status, content_type="application/json")
    response["Location"] = reverse("api:v1_review_get", kwargs={"review_uuid": review.uuid})
    return response


@router.post(
    "/reviews",
    response={201: ReviewOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 413: ErrorOut},
    url_name="v1_review_create",
    summary="Review a quote",
    auth=token_or_session(POSTERS, POSTER_REFUSAL),
)
def review_create(
    request: HttpRequest,
    workload: Form[str],
    facility: Form[str],
    file: File[UploadedFile | None] = None,
    lines: Form[str | None] = None,
    organisation: Form[str | None] = None,
    sheet: Form[str | None] = None,
) -> HttpResponse:
    """Multipart form: the quote as `file` (CSV, TSV, XLSX or PDF) or its table pasted as
    `lines` (tab- or comma-separated, header row first); `workload` and `facility` as
    CONTRACT.md JSON or a preset or saved name; `organisation` the customer's slug (see
    `GET /api/v1/organisations`). A quote that cannot be read answers 400 with its file, row
    and column in `error.problems`; a workbook with two sheets that both look like quotes
    answers 400 with `error.sheets` (name, rows, header, first lines): post again with `sheet`."""
    review = review_posted(
        user=cast(User, request.user),
        workload=workload,
        facility=facility,
        file=file,
        lines=lines,
        organisation=organisation,
        sheet=sheet,
    )
    return review_body(review, 201)


@router.get(
    "/reviews",
    response={200: ReviewPage, 400: ErrorOut, 401: ErrorOut},
    url_name="v1_review_list",
    summary="List reviews",
)
def review_list(
    request: HttpRequest,
    status: ReviewStatus | None = None,
    verdict: Verdict | None = None,
    created_from: dt.date | None = None,
    created_to: dt.date | None = None,
    organisation: str | None = None,
    page: int = 1,
    page_size: int = DEFAULT_PAGE_SIZE,
) -> HttpResponse:
    """Newest first. `status=pending` is the Finance queue; `created_from`/`created_to` are
    dates (both ends included); `organisation` (a slug) narrows an internal user's list."""
    rows = (
        reviews_for(request).defer("report", "workload", "facility").order_by("-created_at", "-id")
    )
    if status is not None:
        rows = rows.filter(status=status)
    if verdict is not None:
        rows = rows.filter(verdict=verdict)
    if created_from is not None:
        rows = rows.filter(created_at__date__gte=created_from)
    if created_to is not None:
        rows = rows.filter(created_at__date__lte=created_to)
    if organisation:
        rows = rows.filter(organisation__slug=organisation.strip()[:100])
    found = page_of(request, rows, page=page, page_size=page_size)
    return JsonResponse(page_body(found, [review_meta(r) for r in found.rows]))


@router.get(
    "/reviews/{uuid:review_uuid}",
    response={200: ReviewOut, 401: ErrorOut, 404: ErrorOut},
    url_name="v1_review_get",
    summary="Read a review",
)
def review_get(request: HttpRequest, review_uuid: str) -> HttpResponse:
    """The contract report with `review` (status, version); another organisation's is 404."""
    return review_body(review_as_seen(request, review_uuid), 200)


def _pdf_status(review: Review) -> dict[str, Any]:
    report_file = report_file_current(review=review)
    url = reverse("api:v1_review_pdf", kwargs={"review_uuid": review.uuid})
    if report_file is None:
        return {"status": "none", "review_version": review.version, "url": url}
    return {
        "status": report_file.status,
        "review_version": review.version,
        "error": report_file.error,
        "url": url,
    }


@router.get(
    "/reviews/{uuid:review_uuid}/pdf",
    response={200: None, 202: PdfStatusOut, 401: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    url_name="v1_review_pdf",
    summary="Download the PDF",
)
def review_pdf(request: HttpRequest, review_uuid: str) -> HttpResponseBase:
    """The PDF of the review's current version (application/pdf) once it is made; while it
    is being made, 202 with its status; never asked for: 404 (POST to the same URL asks)."""
    review = review_as_seen(request, review_uuid)
    report_jobs_reap()
    report_file = report_file_current(review=review)
    if report_file is None:
        raise ApiProblem(404, "pdf_not_requested", "No PDF yet: POST to this URL to make one.")
    if report_file.status == ReportStatus.FAILED:
        raise ApiProblem(409, "pdf_failed", f"The PDF could not be made: {report_file.error}")
    if report_file.status != ReportStatus.DONE:
        response = JsonResponse(_pdf_status(review), status=202)
        response["Retry-After"] = "2"
        return response
    try:
        handle = default_storage.open(report_file.storage_name, "rb")
    except FileNotFoundError:
        raise ApiProblem(
            404, "pdf_missing", "The PDF file is gone: POST to make it again."
        ) from None
    download = FileResponse(
        handle,
        as_attachment=True,
        filename=report_file.download_name,
        content_type="application/pdf",
    )
    download["Cache-Control"] = "private, no-store"
    return download


@router.post(
    "/reviews/{uuid:review_uuid}/pdf",
    response={202: PdfStatusOut, 401: ErrorOut, 404: ErrorOut},
    url_name="v1_review_pdf_request",
    summary="Make the PDF",
)
def review_pdf_request(request: HttpRequest, review_uuid: str) -> HttpResponse:
    """Queue the PDF (A4) of the current version; poll `GET …/pdf` until it is 200."""
    review = review_as_seen(request, review_uuid)
    user = request.user if request.user.is_authenticated else None
    report_request(review=review, user=cast(User | None, user))
    response = JsonResponse(_pdf_status(review), status=202)
    response["Location"] = reverse("api:v1_review_pdf", kwargs={"review_uuid": review.uuid})
    return response
