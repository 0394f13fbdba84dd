"""Correct how a quote line was read, from the review page, and the vendor's remembered
corrections.

"Line 12 is a service", "line 1 carries 4 × RTX PRO 6000 Max-Q per system": the account team
posts a line's correction (a real form; htmx swaps the results in place), the review re-runs
(a new version) and the numbers move; Undo takes the newest correction off again. As on the
rest of the review page, authorisation comes first (role, then the scoped review, then the
line of that review's quote) and only then the choice of partial.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from apps.catalog.services import catalog_snapshot
from apps.quotes.corrections import CorrectionError
from apps.quotes.models import QuoteLine, VendorLineCorrection
from apps.quotes.selectors import vendor_names
from apps.quotes.services import NothingToUndo, vendor_correction_remove
from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review
from apps.review.services import (
    ReviewChanged,
    review_line_correct,
    review_line_correction_undo,
)
from apps.sites.access import require_roles
from apps.sites.http import HtmxHttpRequest
from apps.web.forms.quotes import LineCorrectionForm
from apps.web.views.review import (
    EDITORS,
    _newer_review,
    review_context,
    review_url,
    reviews_visible,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CONFLICT = "Quote changed: someone else updated this review first. Reload to see it."


def _user(request: HtmxHttpRequest) -> User:
    """The signed-in person (require_roles let only them through)."""
    return cast("User", request.user)


def _conflict(message: str = CONFLICT) -> HttpResponse:
    return HttpResponse(message, status=409, content_type="text/plain; charset=utf-8")


def _line_of(request: HtmxHttpRequest, uuid: str, line: int) -> tuple[Review, QuoteLine]:
    review = get_object_or_404(reviews_visible(request.user), uuid=uuid)
    return review, get_object_or_404(QuoteLine, quote_id=review.quote_id, line=line)


def _stale(request: HtmxHttpRequest, review: Review) -> HttpResponse | None:
    if _newer_review(review) is not None:
        return _conflict("Quote changed: the vendor's revision replaced this version.")
    if str(review.version) != request.POST.get("version", str(review.version)):
        return _conflict()
    return None


def _results(request: HtmxHttpRequest, review: Review, old: ReviewReport) -> HttpResponse:
    if not request.htmx:
        return redirect(f"{review_url(review)}#quote-lines")
    context = review_context(request, review, before=old)
    return render(request, "review/detail.html#results", context)


def _form_again(request: HtmxHttpRequest, review: Review, form: LineCorrectionForm) -> HttpResponse:
    """The line's form with its errors: htmx swaps only that form, without JS the page."""
    context = review_context(request, review, correction_form=form)
    if not request.htmx:
        return render(request, "review/detail.html", context, status=400)
    row = next(r for r in context["lines"] if r.line.line == form.line)
    response = render(request, "review/detail.html#line-correction", {**context, "row": row})
    return reswap(retarget(response, f"#correct-{form.line}"), "outerHTML")


@require_POST
@require_roles(*EDITORS)
def review_line_correct_view(request: HtmxHttpRequest, uuid: str, line: int) -> HttpResponse:
    """Correct one line's role, system, GPU model or GPUs per system, then re-run the review."""
    review, quote_line = _line_of(request, uuid, line)
    form = LineCorrectionForm(request.POST, line=line, catalog=catalog_snapshot())
    if not form.is_valid():
        return _form_again(request, review, form)
    if (stale := _stale(request, review)) is not None:
        return stale
    old = ReviewReport.model_validate(review.report)
    try:
        review = review_line_correct(
            review=review,
            quote_line=quote_line,
            correction=form.correction,
            remember=form.cleaned_data["remember"],
            user=_user(request),
        )
    except CorrectionError as error:
        words = str(error)
        form.add_error(None, f"{words[:1].upper()}{words[1:]}.")
        return _form_again(request, review, form)
    except ReviewChanged:
        return _conflict()
    return _results(request, review, old)


@require_POST
@require_roles(*EDITORS)
def review_line_undo_view(request: HtmxHttpRequest, uuid: str, line: int) -> HttpResponse:
    """Undo the line's newest correction, then re-run the review: the numbers go back."""
    review, quote_line = _line_of(request, uuid, line)
    if (stale := _stale(request, review)) is not None:
        return stale
    old = ReviewReport.model_validate(review.report)
    try:
        review = review_line_correction_undo(
            review=review, quote_line=quote_line, user=_user(request)
        )
    except NothingToUndo:
        return _conflict(f"Line {line} has no correction to undo: reload the review.")
    except ReviewChanged:
        return _conflict()
    return _results(request, review, old)


@require_GET
@require_roles(*EDITORS)
def vendor_corrections_view(request: HtmxHttpRequest) -> HttpResponse:
    """Every correction remembered for a vendor, and the ones removed (who, when)."""
    rows = VendorLineCorrection.objects.select_related("created_by", "removed_by")
    remembered = list(rows.filter(removed_at__isnull=True).order_by("vendor", "text"))
    removed = list(rows.filter(removed_at__isnull=False).order_by("-removed_at")[:50])
    names = vendor_names([c.vendor for c in (*remembered, *removed)])
    for correction in (*remembered, *removed):
        correction.vendor_name = names[correction.vendor]  # type: ignore[attr-defined]
    context = {"remembered": remembered, "removed": removed}
    return render(request, "quotes/vendor_corrections.html", context)


@require_POST
@require_roles(*EDITORS)
def vendor_correction_remove_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Forget one remembered correction: the vendor's next quotes read that line as read."""
    remembered = get_object_or_404(VendorLineCorrection, pk=pk, removed_at__isnull=True)
    vendor_correction_remove(vendor_correction=remembered, user=_user(request))
    if request.htmx:
        return HttpResponse("")  # the row is swapped out
    return redirect(reverse("quotes:vendor_corrections"))
