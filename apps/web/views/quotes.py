"""Upload a vendor quote with the customer's workload and facility, and confirm fuzzy matches.

The upload page is one form in three parts (the file and customer, the load, the building).
A file we cannot read comes back with its problems row by row; a readable one is reviewed at
once and the browser goes to the review page.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.catalog.models import Part
from apps.quotes.models import Quote, QuoteLine, QuoteStatus
from apps.quotes.parsing.errors import QuoteParseError, SheetCandidate, SheetChoiceNeeded
from apps.quotes.services import quote_mapping_confirm
from apps.quotes.storage import blob_name, blob_read
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.finance_rule import finance_preview
from apps.review.models import Review
from apps.review.services import (
    ReviewChanged,
    finance_preview_upload,
    review_rerun,
    review_upload,
)
from apps.sites.access import require_roles, scope_for_user
from apps.sites.http import HtmxHttpRequest
from apps.web.forms.quotes import QuoteUploadForm, original_from_token, original_token
from apps.web.forms.review import load_and_room_forms
from apps.web.views.manual import manual_inputs_keep
from apps.web.views.review import EDITORS, review_context, review_url, reviews_visible


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
    """GET the form; POST stores the original, parses, matches, reviews, then goes to the review.

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
            review = _upload_and_review(request, forms, *upload)
        except SheetChoiceNeeded as error:
            token = original_token(sha256=error.sha256, filename=upload[1], user_id=request.user.pk)
            choice = SheetChoice(file_name=error.file, candidates=error.candidates, original=token)
        except QuoteParseError as error:
            problems = [error]
            kept = getattr(error, "quote", None)  # readable file, unreadable quote: kept
            if kept is not None and kept.status == QuoteStatus.NEEDS_MANUAL:
                # A scan or a PDF without a table: straight to the grid, load and room kept.
                manual_inputs_keep(request, kept)
                grid = reverse("quotes:lines_for", args=[kept.uuid])
                return HttpResponseClientRedirect(grid) if request.htmx else redirect(grid)
        else:
            if request.htmx:
                return HttpResponseClientRedirect(review_url(review))
            return redirect(review_url(review))
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


def _upload_and_review(
    request: HtmxHttpRequest, forms: dict[str, Any], data: bytes, filename: str
) -> Review:
    return review_upload(
        data=data,
        filename=filename,
        organisation=forms["upload_form"].cleaned_data["organisation"],
        uploaded_by=request.user,
        workload=forms["workload_form"].workload,
        facility=forms["facility_form"].facility,
        delimiter=forms["upload_form"].cleaned_data.get("delimiter") or None,
        sheet=forms["upload_form"].cleaned_data.get("sheet") or None,
    )


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
