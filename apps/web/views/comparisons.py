"""Saved comparisons: keep a comparison of reviews on file, list the kept ones, open one again
(ranked afresh from its reviews' stored reports) and send it as a one-page PDF.

Internal roles only, like the compare page; a comparison is found only when the user may see
every review in it (apps.review.comparisons.comparisons_visible), else 404.
"""

from __future__ import annotations

from typing import cast
from uuid import UUID

from django import forms
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from apps.reports.comparison import comparison_page_build, comparison_pdf_bytes
from apps.reports.context import PageSize
from apps.reports.sandbox import ReportRenderError
from apps.reports.services import report_branding
from apps.review.comparisons import (
    NAME_MAX,
    comparison_reviews,
    comparison_save,
    comparisons_visible,
)
from apps.review.engine.compare import CompareError, Comparison
from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review, SavedComparison
from apps.sites.access import require_roles
from apps.sites.http import HtmxHttpRequest
from apps.web.views.compare import (
    COMPARERS,
    MAX_REVIEWS,
    result_context,
    reviews_compare,
    reviews_picked,
)
from apps.web.views.review import reviews_visible

PAGE_SIZES = ("A4", "Letter")


class SaveComparisonForm(forms.Form):
    name = forms.CharField(label="Name this comparison", max_length=NAME_MAX)


def _saved_or_404(request: HtmxHttpRequest, uuid: UUID) -> SavedComparison:
    return get_object_or_404(comparisons_visible(request.user), uuid=uuid)


@require_POST
@require_roles(*COMPARERS)
def comparison_save_view(request: HtmxHttpRequest) -> HttpResponse:
    """Keep the posted reviews (in their order) under a name; then open the saved comparison."""
    picked = request.POST.getlist("review")
    if len(set(picked)) > MAX_REVIEWS:
        return _plain(f"Save at most {MAX_REVIEWS} reviews in one comparison.", 400)
    reviews = reviews_picked(request, picked)
    form = SaveComparisonForm(request.POST)
    if not form.is_valid():
        return _plain("Give the comparison a name (at most 200 characters).", 400)
    try:
        reviews_compare(reviews)
    except CompareError as error:
        return _plain(f"These reviews cannot be compared: {error}.", 400)
    saved = comparison_save(name=form.cleaned_data["name"], reviews=reviews, user=request.user)
    return redirect("review:comparison", uuid=saved.uuid)


def _plain(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


@require_GET
@require_roles(*COMPARERS)
def comparison_list_view(request: HtmxHttpRequest) -> HttpResponse:
    saved = comparisons_visible(request.user)[:100]
    return render(request, "review/comparisons.html", {"saved": saved})


def _ranked(
    request: HtmxHttpRequest, saved: SavedComparison
) -> tuple[list[Review], Comparison, list[ReviewReport], list[str]]:
    reviews = comparison_reviews(saved, reviews_visible(request.user))
    if len(reviews) < 2:
        raise Http404("No such comparison")
    comparison, reports, titles = reviews_compare(reviews)
    return reviews, comparison, reports, titles


@require_GET
@require_roles(*COMPARERS)
def comparison_detail_view(request: HtmxHttpRequest, uuid: UUID) -> HttpResponse:
    saved = _saved_or_404(request, uuid)
    try:
        reviews, comparison, reports, titles = _ranked(request, saved)
    except CompareError as error:  # a review's load was edited after the comparison was saved
        refused = f"This comparison no longer holds: {error}."
        context = {"saved_comparison": saved, "refused": refused}
        return render(request, "review/compare.html", context, status=409)
    urls: list[str | None] = [reverse("review:detail", args=[r.uuid]) for r in reviews]
    context = result_context(comparison, reports, urls, titles)
    context.update(saved_comparison=saved, page_sizes=PAGE_SIZES)
    return render(request, "review/compare.html", context)


@require_GET
@require_roles(*COMPARERS)
def comparison_pdf_view(request: HtmxHttpRequest, uuid: UUID) -> HttpResponse:
    """The comparison as one PDF page, A4 or Letter (`?page_size=Letter`)."""
    saved = _saved_or_404(request, uuid)
    page_size = request.GET.get("page_size", "A4")
    if page_size not in PAGE_SIZES:
        return _plain("Unknown page size: A4 or Letter.", 400)
    try:
        reviews, comparison, reports, titles = _ranked(request, saved)
    except CompareError as error:
        return _plain(f"This comparison no longer holds: {error}.", 409)
    first = reviews[0]
    reseller_name, _logo = report_branding(organisation=first.organisation)
    made_by = saved.created_by.get_full_name() or saved.created_by.get_username()
    built = comparison_page_build(
        comparison=comparison,
        reports=reports,
        titles=titles,
        name=saved.name,
        made_by=made_by,
        made_on=timezone.localdate(saved.created_at),
        page_size=cast(PageSize, page_size),
        reseller_name=reseller_name,
    )
    try:
        pdf = comparison_pdf_bytes(built)
    except ReportRenderError as error:
        return _plain(f"The PDF could not be made: {error}. Try again.", 503)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="comparison-{saved.uuid}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
