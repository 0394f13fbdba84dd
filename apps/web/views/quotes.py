"""Upload a vendor quote with the customer's workload and facility, and confirm fuzzy matches.

The upload page is one form in three parts (the file and customer, the load, the building).
A file refused on its first bytes comes back at once; any other is read by a background worker
while the page shows its progress, then the browser goes to the review page, or back to the
problems row by row.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.catalog.models import Part
from apps.quotes.models import Quote, QuoteLine, QuoteStatus
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.services import quote_mapping_confirm
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.models import UploadJob
from apps.review.services import ReviewChanged, review_rerun
from apps.review.uploads import upload_job_problem, upload_job_start
from apps.sites.access import require_roles, scope_for_user
from apps.sites.http import HtmxHttpRequest
from apps.web.forms.quotes import QuoteUploadForm
from apps.web.forms.review import load_and_room_forms
from apps.web.views.manual import manual_inputs_keep
from apps.web.views.review import EDITORS, review_context, review_url, reviews_visible

UPLOAD_POLL_SECONDS = 1


def _forms(data: Any = None, files: Any = None) -> dict[str, Any]:
    return {"upload_form": QuoteUploadForm(data, files), **load_and_room_forms(data=data)}


def _saved_belongs(forms: dict[str, Any]) -> bool:
    """A saved workload or facility must be the chosen customer's own."""
    organisation = forms["upload_form"].cleaned_data["organisation"]
    ok = True
    for name in ("workload_form", "facility_form"):
        saved = forms[name].cleaned_data.get("saved")
        if saved is not None and saved.organisation_id != organisation.pk:
            forms[name].add_error("saved", f"{saved.name} belongs to {saved.organisation.name}.")
            ok = False
    return ok


@require_roles(*EDITORS)
def quote_upload_view(request: HtmxHttpRequest) -> HttpResponse:
    """GET the form; POST checks and stores the original and hands the reading to a worker
    (apps.review.uploads), then goes to the job's progress page, or straight to the review
    when the job is already done (the ImmediateBackend in tests)."""
    if request.method != "POST":
        return render(request, "quotes/upload.html", {**_forms(), "problems": [], "kept": None})
    forms = _forms(request.POST, request.FILES)
    problems: list[QuoteParseError] = []
    kept = None
    valid = all(form.is_valid() for form in forms.values()) and _saved_belongs(forms)
    if valid:
        upload = forms["upload_form"].cleaned_data["file"]
        try:
            job = _upload_start(request, forms, upload)
        except QuoteParseError as error:  # refused on its first bytes: nothing stored
            problems = [error]
        else:
            if job.is_pending:
                return _go(request, reverse("quotes:upload_status", args=[job.uuid]))
            done = _job_finished(request, job)
            if done is not None:
                return done
            problem = upload_job_problem(job)
            problems = [problem] if problem else []
            kept = job.quote
    context = {**forms, "problems": problems, "kept": kept}
    if request.htmx:
        return render(request, "quotes/upload.html#upload-form", context)
    return render(request, "quotes/upload.html", context, status=400)


def _go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _job_finished(request: HtmxHttpRequest, job: UploadJob) -> HttpResponse | None:
    """Where a finished job goes: its review, or the hand-entry grid for a scan or a PDF
    without a table (load and room kept); None when its problems are to be shown."""
    if job.review is not None:
        return _go(request, review_url(job.review))
    if job.quote is not None and job.quote.status == QuoteStatus.NEEDS_MANUAL:
        manual_inputs_keep(request, job.quote, fields=job.inputs)
        return _go(request, reverse("quotes:lines_for", args=[job.quote.uuid]))
    return None


def _upload_start(request: HtmxHttpRequest, forms: dict[str, Any], upload: Any) -> UploadJob:
    return upload_job_start(
        data=upload.read(),
        filename=upload.name,
        organisation=forms["upload_form"].cleaned_data["organisation"],
        uploaded_by=request.user,
        workload=forms["workload_form"].workload,
        facility=forms["facility_form"].facility,
        delimiter=forms["upload_form"].cleaned_data.get("delimiter") or None,
        inputs={k: str(v) for k, v in request.POST.items() if k.startswith(("w-", "f-"))},
    )


@require_GET
@require_roles(*EDITORS)
def upload_status_view(request: HtmxHttpRequest, job_uuid: uuid.UUID) -> HttpResponse:
    """The upload's progress while a worker reads it; htmx polls the `progress` partial every
    second and follows the job to its review (or shows its problems) when it is finished."""
    job = get_object_or_404(
        UploadJob.objects.select_related("review", "quote__source_file"),
        uuid=job_uuid,
        uploaded_by=request.user,
    )
    if not job.is_pending:
        done = _job_finished(request, job)
        if done is not None:
            return done
    problem = upload_job_problem(job)
    context = {
        "job": job,
        "problems": [problem] if problem else [],
        "kept": job.quote,
        "poll_seconds": UPLOAD_POLL_SECONDS,
    }
    template = "quotes/upload_status.html#progress" if request.htmx else "quotes/upload_status.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@require_roles(*EDITORS)
def line_confirm(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Yes, this fuzzy line is that catalog part": remember it for the vendor, re-run the review.

    The line is looked up through the quotes this person may see, so another organisation's
    line answers 404 like any other object.
    """
    quotes = scope_for_user(Quote.objects.all(), request.user)
    line = get_object_or_404(QuoteLine.objects.filter(quote__in=quotes), pk=pk)
    try:
        review_uuid = uuid.UUID(request.POST.get("review", ""))
        part_pk = int(request.POST.get("part") or 0)
    except ValueError:
        return HttpResponseBadRequest("Pick a catalog part for this line and try again.")
    review = get_object_or_404(
        reviews_visible(request.user).filter(quote_id=line.quote_id), uuid=review_uuid
    )
    part = get_object_or_404(Part, pk=part_pk)
    old = ReviewReport.model_validate(review.report)
    try:
        with transaction.atomic():
            quote_mapping_confirm(quote_line=line, part=part, user=request.user)
            review = review_rerun(
                review=review,
                workload=Workload.model_validate(review.workload),
                facility=Facility.model_validate(review.facility),
                user=request.user,
            )
    except ReviewChanged:
        return HttpResponse("Quote changed: reload the review.", status=409)
    if not request.htmx:
        return redirect(review_url(review))
    context = review_context(request, review, before=old)
    return render(request, "review/detail.html#results", context)
