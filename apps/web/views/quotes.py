"""Upload a vendor quote with the customer's workload and facility, and confirm fuzzy matches.

The upload page is one form in three parts (the file and customer, the load, the building).
A file refused on its first bytes comes back at once; any other is read by a background worker
while the page shows its progress, then the browser goes to the review page, back to the
problems row by row, or to the question which sheet holds the quote.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
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
from apps.quotes.parsing.errors import QuoteParseError, SheetCandidate
from apps.quotes.services import quote_mapping_confirm
from apps.quotes.storage import blob_name, blob_read
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.finance_rule import finance_preview
from apps.review.models import UploadJob, UploadStatus
from apps.review.services import (
    ReviewChanged,
    finance_preview_upload,
    review_rerun,
)
from apps.review.uploads import upload_job_problem, upload_job_start
from apps.sites.access import require_roles, scope_for_user
from apps.sites.http import HtmxHttpRequest
from apps.web.forms.quotes import QuoteUploadForm, original_from_token, original_token
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


@dataclass(frozen=True)
class SheetChoice:
    """The question the page asks when two sheets both look like quotes."""

    file_name: str
    candidates: list[SheetCandidate]
    original: str  # the signed reference the answer posts back instead of the file


def _upload_bytes(request: HtmxHttpRequest, forms: dict[str, Any]) -> tuple[bytes, str] | None:
    """The uploaded file, or the stored original the sheet question named; None (with the
    form's error) when that reference is not this user's or has expired."""
    cleaned = forms["upload_form"].cleaned_data
    if cleaned.get("file"):
        return cleaned["file"].read(), cleaned["file"].name
    found = original_from_token(cleaned["original"], user_id=request.user.pk)
    if found is not None:
        try:
            return blob_read(blob_name(found[0])), found[1]
        except (ValueError, OSError):
            pass
    forms["upload_form"].add_error("file", "That upload is no longer here: choose the file again.")
    return None


@require_roles(*EDITORS)
def quote_upload_view(request: HtmxHttpRequest) -> HttpResponse:
    """GET the form; POST checks and stores the original and hands the reading to a worker
    (apps.review.uploads), then goes to the job's progress page, or straight to the review when
    the job is already done (the ImmediateBackend in tests).

    A workbook with two sheets that both look like quotes comes back with the question (which
    sheet, each listed with its rows, header and first lines); the answer goes through the same
    intake, reading the stored original rather than asking for the file again."""
    if request.method != "POST":
        return render(request, "quotes/upload.html", {**_forms(), "problems": [], "kept": None})
    forms = _forms(request.POST, request.FILES)
    problems: list[QuoteParseError] = []
    kept = None
    choice: SheetChoice | None = None
    valid = all(form.is_valid() for form in forms.values()) and _saved_belongs(forms)
    upload = _upload_bytes(request, forms) if valid else None
    if upload is not None:
        try:
            job = _upload_start(request, forms, *upload)
        except QuoteParseError as error:  # refused on its first bytes: nothing stored
            problems = [error]
        else:
            if job.is_pending:
                return _go(request, reverse("quotes:upload_status", args=[job.uuid]))
            done = _job_finished(request, job)
            if done is not None:
                return done
            choice = _sheet_choice(request, job)
            problem = None if choice else upload_job_problem(job)
            problems = [problem] if problem else []
            kept = job.quote
    context = {**forms, "problems": problems, "kept": kept, "sheet_choice": choice}
    if request.htmx:
        return render(request, "quotes/upload.html#upload-form", context)
    return render(request, "quotes/upload.html", context, status=200 if choice else 400)


@require_POST
@require_roles(*EDITORS)
def finance_preview_view(request: HtmxHttpRequest) -> HttpResponse:
    """Before submit: "This will go to Finance because …" for the file, customer, load and
    room on the upload form (htmx swaps the sentence in). Nothing is stored."""
    forms = _forms(request.POST, request.FILES)
    sentence, problem = "", ""
    if all(form.is_valid() for form in forms.values()) and _saved_belongs(forms):
        upload = forms["upload_form"].cleaned_data["file"]
        try:
            reasons = finance_preview_upload(
                data=upload.read(),
                filename=upload.name,
                organisation=forms["upload_form"].cleaned_data["organisation"],
                workload=forms["workload_form"].workload,
                facility=forms["facility_form"].facility,
            )
        except (QuoteParseError, ReviewInputError) as error:
            problem = f"Cannot tell yet: {error}"
        else:
            sentence = finance_preview(reasons)
    else:
        problem = "Choose the file, the customer, the load and the room: then this says "
        problem += "whether it goes to Finance."
    context = {"finance_sentence": sentence, "finance_problem": problem}
    return render(request, "quotes/upload.html#finance-preview", context)


def _go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _job_finished(request: HtmxHttpRequest, job: UploadJob) -> HttpResponse | None:
    """Where a finished job goes: its review, or the hand-entry grid for a scan or a PDF
    without a table (load and room kept); None when its problems (or the sheet question) are
    to be shown."""
    if job.review is not None:
        return _go(request, review_url(job.review))
    if job.quote is not None and job.quote.status == QuoteStatus.NEEDS_MANUAL:
        manual_inputs_keep(request, job.quote, fields=job.inputs)
        return _go(request, reverse("quotes:lines_for", args=[job.quote.uuid]))
    return None


def _sheet_choice(request: HtmxHttpRequest, job: UploadJob) -> SheetChoice | None:
    """The sheet question of a job whose workbook has two quote-like sheets."""
    if job.status != UploadStatus.NEEDS_SHEET:
        return None
    token = original_token(
        sha256=job.blob.rsplit("/", 1)[-1], filename=job.filename, user_id=request.user.pk
    )
    candidates = [
        SheetCandidate(
            name=c["name"],
            rows=c["rows"],
            header=tuple(c["header"]),
            first_lines=tuple(c["first_lines"]),
        )
        for c in job.sheet_candidates
    ]
    return SheetChoice(file_name=job.error_file, candidates=candidates, original=token)


def _upload_start(
    request: HtmxHttpRequest, forms: dict[str, Any], data: bytes, filename: str
) -> UploadJob:
    return upload_job_start(
        data=data,
        filename=filename,
        organisation=forms["upload_form"].cleaned_data["organisation"],
        uploaded_by=request.user,
        workload=forms["workload_form"].workload,
        facility=forms["facility_form"].facility,
        delimiter=forms["upload_form"].cleaned_data.get("delimiter") or None,
        sheet=forms["upload_form"].cleaned_data.get("sheet") or None,
        inputs={k: str(v) for k, v in request.POST.items() if k.startswith(("w-", "f-"))},
    )


@require_GET
@require_roles(*EDITORS)
def upload_status_view(request: HtmxHttpRequest, job_uuid: uuid.UUID) -> HttpResponse:
    """The upload's progress while a worker reads it; htmx polls the `progress` partial every
    second and follows the job to its review (or shows its problems, or asks which sheet) when
    it is finished."""
    job = get_object_or_404(
        UploadJob.objects.select_related("review", "quote__source_file", "organisation"),
        uuid=job_uuid,
        uploaded_by=request.user,
    )
    if not job.is_pending:
        done = _job_finished(request, job)
        if done is not None:
            return done
    choice = _sheet_choice(request, job)
    if choice is not None:
        # The question on the upload page, the load and room as they were sent.
        data = {**job.inputs, "organisation": str(job.organisation_id), "original": choice.original}
        forms = _forms(data)
        for form in forms.values():
            form.is_valid()
        context = {**forms, "problems": [], "kept": None, "sheet_choice": choice}
        if request.htmx:
            return HttpResponseClientRedirect(request.path)  # the whole page, not the fragment
        return render(request, "quotes/upload.html", context)
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
                action="confirm",
                resubmits=False,  # confirming a reading is not the resubmission Finance asked for
            )
    except ReviewChanged:
        return HttpResponse("Quote changed: reload the review.", status=409)
    if not request.htmx:
        return redirect(review_url(review))
    context = review_context(request, review, before=old)
    return render(request, "review/detail.html#results", context)
