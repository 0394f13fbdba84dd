"""The compare page: competing quotes for one workload, side by side, each with both
blood-pressure gauges, ranked fit first, money second, the building third (apps/review/compare.py).

Two ways in:
- GET `?review=<uuid>&review=<uuid>…`: reviews already on file, for the same workload;
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
from apps.review.engine.compare import ComparedQuote, CompareError, Comparison, quotes_compare
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, Finding, ReviewReport, Workload
from apps.review.pipeline import review_of_upload
from apps.sites.access import require_roles
from apps.sites.http import HtmxHttpRequest
from apps.sites.models import Role
from apps.web.forms.review import load_and_room_forms
from apps.web.views.review import reviews_visible

COMPARERS = (Role.ACCOUNT_TEAM, Role.FINANCE, Role.ADMIN)
MAX_REVIEWS = 10
PICKER_ROWS = 50


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class QuoteFilesField(forms.FileField):
    """Several files in one input (Django's documented pattern); each cleaned as a FileField."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".csv,.xlsx,.pdf"}))
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class CompareUploadForm(forms.Form):
    files = QuoteFilesField(  # type: ignore[assignment]
        label="Competing quotes",
        help_text="Two to five files (CSV, XLSX or PDF) for the same load and the same room.",
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


def _columns(
    comparison: Comparison, reports: list[ReviewReport], urls: list[str | None]
) -> list[Column]:
    return [
        Column(
            index=i,
            line=line,
            report=report,
            gauges=page.gauges(report),
            problems=[f for f in report.findings if f.severity in {"warning", "critical"}][:4],
            is_best=i == comparison.best,
            url=url,
        )
        for i, (line, report, url) in enumerate(zip(comparison.quotes, reports, urls, strict=True))
    ]


def _forms(data: Any = None, files: Any = None) -> dict[str, Any]:
    return {"upload_form": CompareUploadForm(data, files), **load_and_room_forms(data=data)}


def _picker(request: HtmxHttpRequest, **extra: Any) -> dict[str, Any]:
    recent = reviews_visible(request.user).order_by("-created_at")[:PICKER_ROWS]
    return {"recent": recent, "problems": [], "comparison": None, **_forms(), **extra}


@require_http_methods(["GET", "POST"])
@require_roles(*COMPARERS)
def compare_view(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the picker, or the comparison of `?review=` reviews; POST: compare uploads."""
    if request.method == "POST":
        return _compare_uploads(request)
    picked = request.GET.getlist("review")
    if not picked:
        return render(request, "review/compare.html", _picker(request))
    return _compare_reviews(request, picked)


def _compare_reviews(request: HtmxHttpRequest, picked: list[str]) -> HttpResponse:
    try:
        uuids = list(dict.fromkeys(uuid_lib.UUID(value) for value in picked))
    except ValueError:
        raise Http404("No such review") from None
    if len(uuids) > MAX_REVIEWS:
        return _refused(request, f"Compare at most {MAX_REVIEWS} reviews at a time.")
    found = {r.uuid: r for r in reviews_visible(request.user).filter(uuid__in=uuids)}
    if len(found) != len(uuids):
        raise Http404("No such review")
    reviews = [found[u] for u in uuids]
    reports = [ReviewReport.model_validate(r.report) for r in reviews]
    labels = [r.quote.display_name for r in reviews]
    try:
        comparison = quotes_compare(reviewed=list(zip(labels, reports, strict=True)))
    except CompareError as error:
        return _refused(request, f"These reviews cannot be compared: {error}.")
    urls: list[str | None] = [reverse("review:detail", args=[r.uuid]) for r in reviews]
    return render(request, "review/compare.html", _result(request, comparison, reports, urls))


def _refused(request: HtmxHttpRequest, message: str) -> HttpResponse:
    return render(request, "review/compare.html", _picker(request, refused=message), status=400)


def _result(
    request: HtmxHttpRequest,
    comparison: Comparison,
    reports: list[ReviewReport],
    urls: list[str | None],
) -> dict[str, Any]:
    first = reports[0]
    columns = _columns(comparison, reports, urls)
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
    comparison = quotes_compare(reviewed=list(zip(labels, reports, strict=True)))
    context = _result(request, comparison, reports, [None] * len(reports))
    return render(request, "review/compare.html", context)
