"""The compare page: competing quotes for one workload, side by side, each with both
blood-pressure gauges, ranked fit first, money second, the building third (apps/review/compare.py).

Two ways in:
- GET `?review=<uuid>&review=<uuid>…`: reviews already on file, for the same workload, picked
  from a list filtered by organisation, load and date (htmx swaps the list as a filter changes),
  each named by customer, vendor and quote number, and date; a comparison of reviews on file can
  be saved and sent as a PDF (apps/web/views/comparisons.py);
- POST: two to five quote files with one workload and one facility, reviewed in memory and
  compared, nothing stored (a comparison is a question, not a record).
Internal roles only (account team, Finance, admin): a customer gets 403. Reviews the user may not
see answer 404, as everywhere else.
"""

from __future__ import annotations

import uuid as uuid_lib
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from apps.catalog.services import catalog_snapshot
from apps.quotes.parsing import QuoteParseError
from apps.quotes.selectors import vendor_mappings
from apps.reports import page
from apps.review.comparisons import (
    LoadChoice,
    comparison_name_default,
    load_key,
    organisations_with_reviews,
    review_load,
    review_title,
    reviews_for_picking,
)
from apps.review.engine.compare import ComparedQuote, CompareError, Comparison, quotes_compare
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, Finding, ReviewReport, Workload
from apps.review.models import Review
from apps.review.pipeline import review_of_upload
from apps.sites.access import require_roles
from apps.sites.http import HtmxHttpRequest
from apps.sites.models import Role
from apps.web.forms.review import load_and_room_forms
from apps.web.views.review import reviews_visible

COMPARERS = (Role.ACCOUNT_TEAM, Role.FINANCE, Role.ADMIN)
MAX_REVIEWS = 10


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class QuoteFilesField(forms.FileField):
    """Several files in one input (Django's documented pattern); each cleaned as a FileField."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget",
            MultipleFileInput(attrs={"accept": ".csv,.tsv,.txt,.xlsx,.xls,.xlsb,.ods,.pdf"}),
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class CompareUploadForm(forms.Form):
    files = QuoteFilesField(  # type: ignore[assignment]
        label="Competing quotes",
        help_text=(
            "Two to five files (CSV, XLSX, XLS, XLSB, ODS or PDF) for the same load and the same "
            "room."
        ),
    )

    def clean_files(self) -> list[Any]:
        files = self.cleaned_data["files"]
        if len(files) < 2:
            raise forms.ValidationError("Pick two quotes or more to compare.")
        limit = settings.QUOTE_MAX_UPLOAD_BYTES
        for upload in files:
            if upload.size > limit:
                raise forms.ValidationError(
                    f"{upload.name} is {filesizeformat(upload.size)}; "
                    f"the limit is {filesizeformat(limit)}."
                )
        return files


class PickerFilterForm(forms.Form):
    """The picker's filters: whose reviews, which load, reviewed between which days."""

    organisation = forms.TypedChoiceField(
        label="Customer", required=False, coerce=int, empty_value=None
    )
    load = forms.ChoiceField(label="Load", required=False)
    since = forms.DateField(
        label="Reviewed from", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label="Reviewed until", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(
        self,
        data: Any,
        *,
        organisations: list[tuple[int, str]],
        loads: list[tuple[str, str]] | None = None,
    ) -> None:
        super().__init__(data)
        self.fields["organisation"].choices = [("", "Every customer"), *organisations]  # type: ignore[attr-defined]
        self.fields["load"].choices = [("", "Every load"), *(loads or [])]  # type: ignore[attr-defined]


def load_label(choice: LoadChoice) -> str:
    """ "Internal assistant: Qwen3-32B for 100 users at 20 tokens/s each (3 reviews)"."""
    workload = Workload.model_validate(choice.workload) if choice.workload else None
    name = (workload.name if workload else "") or "A load"
    sentence = page.load_sentence(workload)
    count = f"{choice.count} review{'s' if choice.count != 1 else ''}"
    return f"{name}: {sentence} ({count})" if sentence else f"{name} ({count})"


@dataclass
class PickerRow:
    review: Review
    title: str
    load: str


@dataclass
class Column:
    """One quote on the page: its comparison line, its report and where its review lives."""

    index: int
    line: ComparedQuote
    report: ReviewReport
    gauges: page.Gauges
    problems: list[Finding]
    is_best: bool
    url: str | None = None
    title: str = ""


def _columns(
    comparison: Comparison,
    reports: list[ReviewReport],
    urls: list[str | None],
    titles: list[str],
) -> list[Column]:
    return [
        Column(
            title=title,
            index=i,
            line=line,
            report=report,
            gauges=page.gauges(report),
            problems=[f for f in report.findings if f.severity in {"warning", "critical"}][:4],
            is_best=i == comparison.best,
            url=url,
        )
        for i, (line, report, url, title) in enumerate(
            zip(comparison.quotes, reports, urls, titles, strict=True)
        )
    ]


def _forms(data: Any = None, files: Any = None) -> dict[str, Any]:
    return {"upload_form": CompareUploadForm(data, files), **load_and_room_forms(data=data)}


def _picker(request: HtmxHttpRequest, *, load: str = "", **extra: Any) -> dict[str, Any]:
    """The filter form and the reviews it lets through (`load` preselects a load)."""
    visible = reviews_visible(request.user)
    data = request.GET.copy() if request.method == "GET" else {}
    if load:
        data = {"load": load}
    organisations = organisations_with_reviews(visible)
    first = PickerFilterForm(data, organisations=organisations)
    first.is_valid()
    kept = {k: v for k, v in first.cleaned_data.items() if k != "load"}
    loads_seen = reviews_for_picking(visible, **_picking_args(kept)).loads
    loads = [(c.key, load_label(c)) for c in loads_seen]
    filters = PickerFilterForm(data, organisations=organisations, loads=loads)
    args = _picking_args(filters.cleaned_data if filters.is_valid() else kept)
    picking = reviews_for_picking(visible, **args)
    rows = [
        PickerRow(review=r, title=review_title(r), load=review_load(r).get("name") or "—")
        for r in picking.reviews
    ]
    return {
        "filters": filters,
        "rows": rows,
        "more": picking.more,
        "problems": [],
        "comparison": None,
        **_forms(),
        **extra,
    }


def _picking_args(cleaned: dict[str, Any]) -> dict[str, Any]:
    return {
        "organisation_id": cleaned.get("organisation"),
        "load": cleaned.get("load") or "",
        "since": cleaned.get("since"),
        "until": cleaned.get("until"),
    }


@require_http_methods(["GET", "POST"])
@require_roles(*COMPARERS)
def compare_view(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the picker, or the comparison of `?review=` reviews; POST: compare uploads."""
    if request.method == "POST":
        return _compare_uploads(request)
    picked = request.GET.getlist("review")
    if not picked:
        template = "review/compare.html#picker" if request.htmx else "review/compare.html"
        return render(request, template, _picker(request))
    return _compare_reviews(request, picked)


def reviews_picked(request: HtmxHttpRequest, picked: list[str]) -> list[Review]:
    """The picked reviews in the order given; 404 for any the user may not see (or malformed)."""
    try:
        uuids = list(dict.fromkeys(uuid_lib.UUID(value) for value in picked))
    except ValueError:
        raise Http404("No such review") from None
    found = {r.uuid: r for r in reviews_visible(request.user).filter(uuid__in=uuids)}
    if len(found) != len(uuids):
        raise Http404("No such review")
    return [found[u] for u in uuids]


def reviews_compare(reviews: list[Review]) -> tuple[Comparison, list[ReviewReport], list[str]]:
    """Rank reviews on file; raises CompareError with the reason and what to change."""
    reports = [ReviewReport.model_validate(r.report) for r in reviews]
    titles = [review_title(r) for r in reviews]
    comparison = quotes_compare(reviewed=list(zip(titles, reports, strict=True)))
    return comparison, reports, titles


def _compare_reviews(request: HtmxHttpRequest, picked: list[str]) -> HttpResponse:
    if len(set(picked)) > MAX_REVIEWS:
        return _refused(request, f"Compare at most {MAX_REVIEWS} reviews at a time.")
    reviews = reviews_picked(request, picked)
    try:
        comparison, reports, titles = reviews_compare(reviews)
    except CompareError as error:
        # The list below shows the first review's load only: the ones it can be compared with.
        load = load_key(review_load(reviews[0])) if reviews else ""
        return _refused(request, f"These reviews cannot be compared: {error}.", load=load)
    urls: list[str | None] = [reverse("review:detail", args=[r.uuid]) for r in reviews]
    context = result_context(comparison, reports, urls, titles)
    context["save_name"] = comparison_name_default(reviews)
    context["picked"] = [str(r.uuid) for r in reviews]
    return render(request, "review/compare.html", context)


def _refused(request: HtmxHttpRequest, message: str, *, load: str = "") -> HttpResponse:
    context = _picker(request, load=load, refused=message)
    return render(request, "review/compare.html", context, status=400)


def result_context(
    comparison: Comparison,
    reports: list[ReviewReport],
    urls: list[str | None],
    titles: list[str],
) -> dict[str, Any]:
    first = reports[0]
    columns = _columns(comparison, reports, urls, titles)
    return {
        "comparison": comparison,
        "columns": columns,
        "best_column": columns[comparison.best],
        "load": page.load_sentence(first.workload),
        "room": page.room_sentence(first.facility),
        "workload": first.workload,
        "facility": first.facility,
    }


def _compare_uploads(request: HtmxHttpRequest) -> HttpResponse:
    built = _forms(request.POST, request.FILES)
    if not all(form.is_valid() for form in built.values()):
        return render(request, "review/compare.html", _picker(request, **built), status=400)
    workload: Workload = built["workload_form"].workload
    facility: Facility = built["facility_form"].facility
    catalog = catalog_snapshot()
    reports: list[ReviewReport] = []
    problems: list[QuoteParseError] = []
    for upload in built["upload_form"].cleaned_data["files"]:
        try:
            reports.append(
                review_of_upload(
                    data=upload.read(),
                    filename=upload.name,
                    workload=workload,
                    facility=facility,
                    catalog=catalog,
                    mappings_for=lambda vendor: vendor_mappings(vendor=vendor),
                )
            )
        except QuoteParseError as error:
            problems.append(error)
        except ReviewInputError as error:
            problems.append(QuoteParseError(str(error), file=upload.name))
    if problems:
        context = _picker(request, **built, problems=problems)
        return render(request, "review/compare.html", context, status=400)
    labels = [r.quote.file or f"quote {i + 1}" for i, r in enumerate(reports)]
    try:
        comparison = quotes_compare(reviewed=list(zip(labels, reports, strict=True)))
    except CompareError as error:  # one load for all uploads: only a missing load gets here
        return _refused(request, f"These quotes cannot be compared: {error}.")
    context = result_context(comparison, reports, [None] * len(reports), labels)
    return render(request, "review/compare.html", context)
