"""No dead ends at intake: type or paste the quote's lines when the file cannot be read.

A scanned PDF lands here from the upload page, with the load and room the user already gave; a
table copied from an email can start here from scratch. The grid goes through the same reader
as a file (apps.quotes.parsing.manual), shows each row's problems inline, and submits to the
same review as an upload.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.quotes.models import Quote, QuoteStatus
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.manual import GridRow, manual_quote, pasted_rows
from apps.review.engine.errors import ReviewInputError
from apps.review.services import review_manual
from apps.sites.access import require_roles, scope_for_user
from apps.sites.http import HtmxHttpRequest
from apps.web.forms.manual import CustomerForm, PasteForm, grid_formset, grid_rows
from apps.web.forms.review import load_and_room_forms
from apps.web.views.review import EDITORS, review_url

#: Session key prefix for the load and room given on the upload page, kept for the grid.
INPUTS_KEY = "manual-inputs:"
UNREADABLE = (QuoteStatus.NEEDS_MANUAL, QuoteStatus.REJECTED)


def manual_inputs_keep(
    request: HtmxHttpRequest, quote: Quote, *, fields: dict[str, str] | None = None
) -> None:
    """The upload's load and room fields, so the grid does not ask for them twice."""
    if fields is None:
        fields = {k: str(v) for k, v in request.POST.items() if k.startswith(("w-", "f-"))}
    request.session[f"{INPUTS_KEY}{quote.uuid}"] = fields


def _unreadable_quote(request: HtmxHttpRequest, quote_uuid: Any) -> Quote:
    quotes = scope_for_user(Quote.objects.filter(status__in=UNREADABLE), request.user)
    return get_object_or_404(quotes.select_related("organisation", "source_file"), uuid=quote_uuid)


def _problems_by_row(rows: list[GridRow]) -> tuple[dict[int, list[str]], list[QuoteParseError]]:
    """Read the grid as the review will; {grid row: problems}, and a problem that stops it."""
    if not any(not row.is_blank for row in rows):
        return {}, []
    try:
        parsed = manual_quote(rows)
    except QuoteParseError as error:
        return ({error.row: [error.message]} if error.row else {}), [error]
    return {line.source_row: list(line.errors) for line in parsed.lines if line.errors}, []


def _context(
    request: HtmxHttpRequest,
    *,
    quote: Quote | None,
    formset: Any,
    data: Any = None,
    problems: list[QuoteParseError] | None = None,
    checked: bool = False,
) -> dict[str, Any]:
    rows = grid_rows(formset) if formset.is_bound and formset.is_valid() else []
    by_row, stopping = _problems_by_row(rows) if checked else ({}, [])
    forms = load_and_room_forms(data=data)
    return {
        "quote": quote,
        "customer_form": CustomerForm(data) if quote is None else None,
        "paste_form": PasteForm(),
        "formset": formset,
        "row_problems": by_row,
        "problems": [*(problems or []), *stopping],
        "checked": checked,
        **forms,
    }


@require_roles(*EDITORS)
def manual_lines_new(request: HtmxHttpRequest) -> HttpResponse:
    """An empty grid for a quote sent as a table in an email, or read off paper."""
    context = _context(request, quote=None, formset=grid_formset())
    return render(request, "quotes/lines.html", context)


@require_roles(*EDITORS)
def manual_lines_for(request: HtmxHttpRequest, quote_uuid: str) -> HttpResponse:
    """The grid for an upload we could not read (a scanned PDF): its original stays attached."""
    quote = _unreadable_quote(request, quote_uuid)
    kept = request.session.get(f"{INPUTS_KEY}{quote.uuid}") or None
    context = _context(request, quote=quote, formset=grid_formset(), data=kept)
    return render(request, "quotes/lines.html", context)


@require_POST
@require_roles(*EDITORS)
def manual_lines_check(request: HtmxHttpRequest) -> HttpResponse:
    """htmx: paste a block into the grid and/or check every row as the file reader would."""
    formset = grid_formset(data=request.POST)
    rows = grid_rows(formset) if formset.is_valid() else []
    paste = PasteForm(request.POST)
    pasted = pasted_rows(paste.cleaned_data["pasted"]) if paste.is_valid() else []
    if pasted:
        kept = [row for row in rows if not row.is_blank]
        formset = grid_formset(rows=[*kept, *pasted])
        # Re-bind the filled grid so its rows are checked like typed ones.
        formset = grid_formset(data=_formset_data(formset))
    quote_uuid = request.POST.get("quote") or None
    quote = _unreadable_quote(request, quote_uuid) if quote_uuid else None
    context = _context(request, quote=quote, formset=formset, data=request.POST, checked=True)
    return render(request, "quotes/lines.html#grid", context)


def _formset_data(formset: Any) -> dict[str, str]:
    """An unbound, filled formset as POST data (to check pasted rows like typed ones)."""
    data = {
        f"{formset.prefix}-TOTAL_FORMS": str(len(formset.forms)),
        f"{formset.prefix}-INITIAL_FORMS": "0",
    }
    for form in formset.forms:
        for name in form.fields:
            data[form.add_prefix(name)] = str(form.initial.get(name, ""))
    return data


@require_POST
@require_roles(*EDITORS)
def manual_lines_submit(request: HtmxHttpRequest) -> HttpResponse:
    """Review the lines: the same intake, matching, assembly and checks as a file."""
    quote_uuid = request.POST.get("quote") or None
    quote = _unreadable_quote(request, quote_uuid) if quote_uuid else None
    formset = grid_formset(data=request.POST)
    forms = load_and_room_forms(data=request.POST)
    customer = CustomerForm(request.POST) if quote is None else None
    valid = formset.is_valid() and all(f.is_valid() for f in forms.values())
    valid = valid and (customer is None or customer.is_valid())
    problems: list[QuoteParseError] = []
    if valid:
        rows = grid_rows(formset)
        organisation = quote.organisation if quote else customer.cleaned_data["organisation"]  # type: ignore[union-attr]
        if not any(not row.is_blank for row in rows):
            problems = [QuoteParseError("type or paste at least one line", file="the grid")]
        else:
            try:
                review = review_manual(
                    rows=rows,
                    organisation=organisation,
                    entered_by=request.user,
                    workload=forms["workload_form"].workload,  # type: ignore[attr-defined]
                    facility=forms["facility_form"].facility,  # type: ignore[attr-defined]
                    quote=quote,
                )
            except QuoteParseError as error:
                problems = [error]
            except ReviewInputError as error:
                problems = [QuoteParseError(str(error), file="the load")]
            else:
                if quote is not None:
                    request.session.pop(f"{INPUTS_KEY}{quote.uuid}", None)
                if request.htmx:
                    return HttpResponseClientRedirect(review_url(review))
                return redirect(review_url(review))
    context = _context(
        request, quote=quote, formset=formset, data=request.POST, problems=problems, checked=True
    )
    return render(request, "quotes/lines.html", context, status=400)
