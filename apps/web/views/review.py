"""The review page: the verdict, both blood-pressure checks, the findings, the vehicles drawn,
and a workload/facility form that re-runs the checks in place through htmx.

Authorisation comes first in every view (scoped queryset, then role), and only then the choice
between the whole page and the `results` partial: a partial request never skips a check.
"""

from __future__ import annotations

import copy
import functools
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from apps.catalog.models import Part
from apps.catalog.services import catalog_snapshot
from apps.quotes.models import QuoteLineCorrection
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.selectors import corrections_standing
from apps.reports import page
from apps.review import services
from apps.review.basis import Change
from apps.review.decisions import ReasonRequired
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.finance_rule import Spend
from apps.review.models import Review, ReviewStatus
from apps.review.publishing import PUBLISHERS, publish_refusal, review_for_viewer, reviews_for
from apps.review.report_changes import review_diff
from apps.review.services import ReviewChanged, review_rerun, review_revise
from apps.review.workflow import actions_for
from apps.sites.access import ANY_ROLE, INTERNAL_ROLES, require_roles, role_of
from apps.sites.http import HtmxHttpRequest
from apps.sites.models import Role
from apps.web.forms.quotes import LineCorrectionForm, QuoteFileForm
from apps.web.forms.review import FacilityForm, WorkloadForm
from apps.web.fragments import (
    findings_group_key,
    lines_fragment_key,
    report_fragment_key,
    vehicles_key,
)
from apps.web.kept_reports import stored_report, stored_report_data, with_report_text
from apps.web.page_cache import page_cached, page_keep
from apps.web.rendering import render_freed
from apps.web.views.finance import DECIDERS
from apps.words.money import locale_name

EDITORS = (Role.ACCOUNT_TEAM, Role.ADMIN)


class StoredLine(NamedTuple):
    """A stored quote line as the lines table reads it (page.line_rows)."""

    pk: int
    errors: list[str]
    part_id: int | None


logger = logging.getLogger("rightsize.review")


#: What the review page never reads of a review: the published copy (a customer's page reads
#: it through review_as_published) and the decision basis (17 kB of JSON on a 100-line quote).
_PAGE_DEFERRED = ("basis", "published_report", "published_workload", "published_facility")


def review_page_queryset(user: Any) -> QuerySet[Review]:
    """The reviews this person may open, with what the review page reads and nothing else:
    quote, file and organisation joined, whether a revision replaced it (`has_newer`, so the
    page looks the revision up only when there is one), the JSON it never shows left out."""
    revised = Review.objects.filter(quote__previous_id=OuterRef("quote_id"))
    queryset = reviews_for(
        Review.objects.select_related("quote__source_file", "organisation"), user
    ).annotate(has_newer=Exists(revised))
    if role_of(user) == Role.CUSTOMER:
        return queryset.defer("basis")
    return queryset.defer(*_PAGE_DEFERRED)


def review_preview_queryset(user: Any) -> QuerySet[Review]:
    """The reviews this person may preview, with what the results region reads: the quote
    and organisation joined (not the file, the previous version or the author the whole
    page's header names), `has_newer` (review_page_queryset), the stored report as text
    (apps.web.kept_reports: validated once per text) and none of the JSON it never shows."""
    revised = Review.objects.filter(quote__previous_id=OuterRef("quote_id"))
    queryset = reviews_for(Review.objects.select_related("quote", "organisation"), user)
    return with_report_text(queryset.annotate(has_newer=Exists(revised)).defer(*_PAGE_DEFERRED))


def reviews_visible(user: Any) -> QuerySet[Review]:
    """Reviews this person may open (a customer: only published ones), with what the page
    reads joined in."""
    return reviews_for(
        Review.objects.select_related(
            "quote__source_file", "quote__previous", "organisation", "created_by"
        ),
        user,
    )


def money_line(review: Review) -> str:
    """The review's total in its own currency and, when converted, at which rate:
    "EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28"."""
    locale = locale_name(get_language())
    if review.total is None:
        return ""
    spend = Spend(
        total=review.total,
        currency=review.currency or review.organisation.currency,
        org_currency=review.converted_currency or review.organisation.currency,
        threshold=review.organisation.finance_threshold,
        converted=review.converted_total,
        rate=review.rate,
        rates_of=review.rates_of,
    )
    return spend.shown(locale)


def _set_aside(review: Review, history: Callable[[], list[dict[str, Any]]]) -> str:
    """The decision the newest save set aside, while the review waits for a new one:
    "Approved by finance on 2026-12-01: Budgeted for Q1" ("" when none)."""
    if review.status != ReviewStatus.PENDING:
        return ""
    asides = [h["event"].previous_decision for h in history() if h["event"].previous_decision]
    return asides[-1] if asides else ""


def _history(review: Review) -> list[dict[str, Any]]:
    """The decision history panel: every audit event, what moved and the decision it set
    aside (internal roles only)."""
    return [
        {"event": e, "changes": [Change.model_validate(c) for c in e.changes]}
        for e in review.events.select_related("actor").order_by("created_at", "id")
    ]


def _previous_review(review: Review) -> Review | None:
    """The review of the quote this one revises (the vendor's version before), if any."""
    if review.quote.previous_id is None:
        return None
    return (
        Review.objects.filter(quote_id=review.quote.previous_id)
        .select_related("quote")
        .order_by("-created_at")
        .first()
    )


def _newer_review(review: Review) -> Review | None:
    """The review of the vendor's next version of this quote: decisions happen there. No
    query when the review was read with `has_newer` (review_page_queryset) and has none; else
    only what the page says of it (its link and its quote's version)."""
    if getattr(review, "has_newer", True) is False:
        return None
    return (
        Review.objects.filter(quote__previous_id=review.quote_id)
        .select_related("quote")
        .only("uuid", "quote__version")
        .order_by("-created_at")
        .first()
    )


def _once[T](build: Callable[..., T], *args: Any) -> Callable[[], T]:
    """`build(*args)` when the template first reads it, then the same value: the template
    calls a callable it finds in the context ({{ gauges.finance }} then {{ gauges.facilities }}
    build the gauges once)."""
    return functools.cache(functools.partial(build, *args))


def _groups_keyed(report: ReviewReport) -> list[tuple[page.FindingGroup, str]]:
    """Each check's findings beside the key its kept piece is stored under."""
    return [(g, findings_group_key(g)) for g in page.findings_grouped(report)]


def review_context(
    request: HtmxHttpRequest,
    review: Review,
    *,
    before: ReviewReport | None = None,
    workload_form: WorkloadForm | None = None,
    facility_form: FacilityForm | None = None,
    revise_problems: list[QuoteParseError] | None = None,
    correction_form: LineCorrectionForm | None = None,
    correct_line: int | None = None,
    report: ReviewReport | None = None,
) -> dict[str, Any]:
    """Everything detail.html and its partials read, in a bounded number of queries.
    `report`: the review's report already validated (a preview's, fresh from the engine)."""
    report = report or ReviewReport.model_validate(review.report)
    role = role_of(request.user)
    internal = role in INTERNAL_ROLES
    newer = _newer_review(review)
    can_edit = role in EDITORS and newer is None
    # What the lines table reads of each stored line (not 100 model instances with their
    # parsed cells): its id, errors and catalog part, by line number (so in no order: the
    # quote lines' default order joins the quote for its date).
    stored_lines = review.quote.lines.order_by().values_list("line", "pk", "errors", "part_id")
    stored = {line: StoredLine(pk, errors, part) for line, pk, errors, part in stored_lines}
    lines = page.line_rows(report, stored)
    previous = _previous_review(review)
    context: dict[str, Any] = {
        "review": review,
        "report": report,
        "role": role,
        "internal": internal,
        "can_edit": can_edit,
        "sentence": page.verdict_sentence(report),
        "verdict_label": page.VERDICT_LABELS[report.verdict],
        "counts": page.severity_counts(report),
        # The report sections' view of the report, built only when the section is drawn: a
        # page whose sections come from the fragment cache never builds them. Each check's
        # findings and the vehicles are pieces a what-if mostly leaves alone, kept under a
        # digest of what they are drawn from (apps.web.fragments); the cards are drawn only
        # when their piece is not kept (the template calls `vehicles`).
        "gauges": _once(page.gauges, report),
        "groups": _once(_groups_keyed, report),
        "vehicles": _once(page.vehicle_cards, report.systems),
        "vehicles_piece": vehicles_key(report.systems),
        "recommendation_drawing": _once(page.recommendation_drawing, report),
        "sizing": _once(functools.partial(page.sizing_rows, before=before), report),
        "charts": _once(page.charts, report),
        "lines": lines,
        "reading": report.quote.reading,
        "reading_confidence": report.quote.reading_confidence,
        "confidence_label": page.CONFIDENCE_LABELS.get(report.quote.reading_confidence or "", ""),
        "previous": previous,
        "newer": newer,
        "revision_changes": (
            page.changes(review_diff(ReviewReport.model_validate(previous.report), report))
            if previous
            else None
        ),
        "moved": page.changes(review_diff(before, report)) if before is not None else None,
        "levels_before": before.blood_pressure if before is not None else None,
        "load": page.load_sentence(report.workload),
        "room": page.room_sentence(report.facility),
        "customer_status": page.CUSTOMER_STATUS.get(review.status, "In review"),
        "customer_state": page.CUSTOMER_STATE[page.CUSTOMER_STATUS.get(review.status, "In review")],
        "pdf_url": reverse("reports:status", args=[review.uuid]),
        "decisions": [
            {"action": a, "url": reverse(f"review:{a.value}", args=[review.uuid])}
            for a in actions_for(status=review.status, role=role)
            if newer is None
        ],
        "detail_url": review_url(review),
        "queue_url": reverse("review:queue") if role in DECIDERS else None,
        "money_line": money_line(review),
        "option_note": page.option_note(report),
    }
    if internal:
        context["finance_reasons"] = review.finance_reasons
        context["needs_comment"] = review.status == ReviewStatus.CHANGES_REQUESTED
        context["publish"] = {
            "can": role in PUBLISHERS and newer is None,
            "refusal": publish_refusal(review, revised=newer is not None),
            "current": review.published_version == review.version,
            "url": reverse("review:publish", args=[review.uuid]),
        }
    if can_edit:
        context["workload_form"] = workload_form or WorkloadForm(
            prefix="w", current=Workload.model_validate(review.workload)
        )
        context["facility_form"] = facility_form or FacilityForm(
            prefix="f", current=Facility.model_validate(review.facility)
        )
        context["revise_problems"] = revise_problems or []
        if any(row.needs_confirmation for row in lines):
            context["parts"] = Part.objects.select_related("vendor", "system", "gpu").order_by(
                "kind", "vendor__name", "part_number"
            )
    if internal:
        # Lazy (the template calls it): read only where the full page shows the history.
        history = functools.cache(functools.partial(_history, review))  # one query, read twice
        context["history"] = history
        context["set_aside"] = functools.partial(_set_aside, review, history)
        # Lazy: read only where the full page shows the trail, never for the results partial.
        context["line_history"] = QuoteLineCorrection.objects.filter(
            quote_line__quote_id=review.quote_id
        ).select_related("quote_line", "created_by")
        _corrections_on(
            lines, review, can_edit=can_edit, bound=correction_form, open_line=correct_line
        )
    context["report_fragment"] = report_fragment_key(report, can_edit=can_edit, before=before)
    context["lines_fragment"] = lines_fragment_key(
        report, lines, review_uuid=str(review.uuid), can_edit=can_edit, internal=internal
    )
    return context


def _corrections_on(
    lines: list[page.LineRow],
    review: Review,
    *,
    can_edit: bool,
    bound: LineCorrectionForm | None,
    open_line: int | None,
) -> None:
    """Each line's correction in force (internal roles see who corrected it) and, for those
    who may correct, the form of the one line being corrected (the posted one again when it
    had errors); the other lines show a "Correct line N" link, so a 10,000-line quote does
    not render 10,000 forms."""
    corrected = any(row.line.corrected for row in lines)
    standing = corrections_standing(quote=review.quote) if corrected else {}
    for row in lines:
        stack = standing.get(row.line.line)
        row.standing = stack[-1] if stack else None
        if not can_edit or row.quote_line_id is None:
            continue
        if bound is not None and bound.line == row.line.line:
            row.form = bound
        elif open_line == row.line.line:
            row.form = LineCorrectionForm(line=row.line.line, catalog=catalog_snapshot())


@require_GET
@require_roles(*ANY_ROLE)
def review_detail(request: HtmxHttpRequest, uuid: str) -> HttpResponse:
    """The review page; with HX-Request only the `results` region (numbers, charts, findings).
    An internal reader's page comes from apps.web.page_cache when nothing it shows moved."""
    key, kept = page_cached(request, uuid)
    if kept is not None:
        patch_vary_headers(kept, ["HX-Request"])
        return kept
    review = review_for_viewer(
        get_object_or_404(review_page_queryset(request.user), uuid=uuid), request.user
    )
    correct = request.GET.get("correct", "")
    correct_line = int(correct) if correct.isdigit() else None
    try:
        context = review_context(request, review, correct_line=correct_line)
        if request.htmx and correct_line is not None:
            # "Correct line N" opened in place: that line's form, for those who may correct.
            row = next((r for r in context["lines"] if r.line.line == correct_line), None)
            if not context["can_edit"] or row is None or row.form is None:
                return HttpResponse("Not a line you can correct.", status=403)
            response = render(
                request, "review/detail.html#line-correction", {**context, "row": row}
            )
        else:
            template = "review/detail.html#results" if request.htmx else "review/detail.html"
            response = render(request, template, context)
            if key:
                page_keep(key, response)
    except page.RENDER_ERRORS as error:
        response = review_unrenderable(request, review, error)
    patch_vary_headers(response, ["HX-Request"])
    return response


def review_unrenderable(request: HtmxHttpRequest, review: Review, error: Exception) -> HttpResponse:
    """A stored review that cannot be drawn (figures from before the bounds): a panel that says
    why, never a 500. Logged with its traceback, so a bug still shows up."""
    logger.error("review %s cannot be rendered", review.uuid, exc_info=error)
    template = "review/unrenderable.html#panel" if request.htmx else "review/unrenderable.html"
    return render(request, template, {"review": review, "problem": page.render_problem(error)})


def _edit_forms(request: HtmxHttpRequest, review: Review) -> tuple[WorkloadForm, FacilityForm]:
    """The page's load and room form as posted, over the review's saved load and room."""
    workload = Workload.model_validate(review.workload)
    facility = Facility.model_validate(review.facility)
    return (
        WorkloadForm(request.POST, prefix="w", current=workload),
        FacilityForm(request.POST, prefix="f", current=facility),
    )


def _edit_form_again(
    request: HtmxHttpRequest,
    review: Review,
    workload_form: WorkloadForm,
    facility_form: FacilityForm,
) -> HttpResponse:
    """Invalid input: the form again with its errors (htmx swaps only the form)."""
    context = review_context(
        request, review, workload_form=workload_form, facility_form=facility_form
    )
    if not request.htmx:
        return render(request, "review/detail.html", context, status=400)
    response = render(request, "review/detail.html#edit-form", context)
    return reswap(retarget(response, "#edit-form"), "outerHTML")


@require_POST
@require_roles(*EDITORS)
def review_rerun_view(request: HtmxHttpRequest, uuid: str) -> HttpResponse:
    """Edit the workload or facility: re-run the checks and swap the results in place.

    The form posts the version the page was showing; if Finance decided (or another tab
    re-ran) since, the answer is 409 "quote changed" rather than a silent overwrite.
    """
    review = get_object_or_404(reviews_visible(request.user), uuid=uuid)
    workload_form, facility_form = _edit_forms(request, review)
    if not (workload_form.is_valid() and facility_form.is_valid()):
        return _edit_form_again(request, review, workload_form, facility_form)
    if _newer_review(review) is not None:
        return _conflict("Quote changed: the vendor's revision replaced this version.")
    if str(review.version) != request.POST.get("version", str(review.version)):
        return _conflict()
    old = ReviewReport.model_validate(review.report)
    try:
        review = review_rerun(
            review=review,
            workload=workload_form.workload,
            facility=facility_form.facility,
            user=request.user,
            comment=request.POST.get("comment", ""),
        )
    except ReviewChanged:
        return _conflict()
    except ReasonRequired as missing:
        workload_form.add_error(None, str(missing))
        return _edit_form_again(request, review, workload_form, facility_form)
    if not request.htmx:
        return redirect(review_url(review))
    context = review_context(request, review, before=old)
    return render(request, "review/detail.html#results", context)


@require_POST
@require_roles(*EDITORS)
def review_preview_view(request: HtmxHttpRequest, uuid: str) -> HttpResponse:
    """What-if: re-run the checks with the edited load or room and show the result, unsaved.

    Exploring "what if 2,000 users?" must not touch the review Finance decided on: the
    preview stores nothing and keeps the version; "Save" (review_rerun_view) makes it real.
    """
    review = get_object_or_404(review_preview_queryset(request.user), uuid=uuid)
    workload_form, facility_form = _edit_forms(request, review)
    if not (workload_form.is_valid() and facility_form.is_valid()):
        review.report = stored_report_data(review)  # what the form's page reads
        return _edit_form_again(request, review, workload_form, facility_form)
    old = stored_report(review)
    report = services.review_run(
        quote=review.quote, workload=workload_form.workload, facility=facility_form.facility
    )
    # An unsaved stand-in: the page reads its inputs here and the fresh report from `report`
    # (never validated again from its JSON); the stored report is not loaded, so it is None.
    preview = copy.copy(review)
    preview.report = None
    preview.workload = workload_form.workload.model_dump(mode="json")
    preview.facility = facility_form.facility.model_dump(mode="json")
    # The results partial shows no form: the posted ones stand in for the fresh ones the
    # whole page would build (each a deep copy of ~25 fields) and are never rendered.
    context = review_context(
        request,
        preview,
        before=old,
        workload_form=workload_form,
        facility_form=facility_form,
        report=report,
    )
    context["preview"] = True
    return render_freed(request, "review/detail.html#results", context)


def _conflict(
    message: str = "Quote changed: someone else updated this review first. Reload to see it.",
) -> HttpResponse:
    return HttpResponse(message, status=409, content_type="text/plain; charset=utf-8")


@require_POST
@require_roles(*EDITORS)
def review_revise_view(request: HtmxHttpRequest, uuid: str) -> HttpResponse:
    """Upload the vendor's revised quote: a new quote version and a new review, then show it
    (its page lists which findings changed against this one)."""
    review = get_object_or_404(reviews_visible(request.user), uuid=uuid)
    form = QuoteFileForm(request.POST, request.FILES)
    problems: list[QuoteParseError] = []
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            revised = review_revise(
                review=review,
                data=upload.read(),
                filename=upload.name,
                user=request.user,
                comment=request.POST.get("comment", ""),
            )
        except QuoteParseError as error:
            problems = [error]
        except ReasonRequired as missing:
            problems = [QuoteParseError(str(missing), file=upload.name)]
        else:
            if request.htmx:
                return HttpResponseClientRedirect(review_url(revised))
            return redirect(review_url(revised))
    else:
        problems = [
            QuoteParseError(str(message), file=getattr(request.FILES.get("file"), "name", "quote"))
            for message in form.errors.get("file", [])
        ]
    context = review_context(request, review, revise_problems=problems)
    if request.htmx:
        response = render(request, "review/detail.html#revise", context)
        return reswap(retarget(response, "#revise"), "outerHTML")
    return render(request, "review/detail.html", context, status=400)


def review_url(review: Review) -> str:
    return reverse("review:detail", args=[review.uuid])
