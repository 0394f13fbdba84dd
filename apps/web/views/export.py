"""Download a review's quote lines and findings as XLSX or CSV (internal roles only)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from apps.reports.export import export_csv, export_xlsx
from apps.review.engine.schemas import ReviewReport
from apps.sites.access import INTERNAL_ROLES, require_roles
from apps.sites.http import HtmxHttpRequest
from apps.web.views.review import reviews_visible

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@require_GET
@require_roles(*INTERNAL_ROLES)
def review_export(request: HtmxHttpRequest, uuid: str, fmt: str) -> HttpResponse:
    review = get_object_or_404(reviews_visible(request.user), uuid=uuid)
    report = ReviewReport.model_validate(review.report)
    if fmt == "xlsx":
        response = HttpResponse(export_xlsx(report), content_type=XLSX)
    elif fmt == "csv":
        response = HttpResponse(export_csv(report), content_type="text/csv; charset=utf-8")
    else:
        raise Http404("Unknown export format")
    name = f"rightsize-review-{review.uuid}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
