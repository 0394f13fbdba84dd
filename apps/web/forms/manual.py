"""The grid of lines typed or pasted by hand (apps.quotes.parsing.manual reads it)."""

from __future__ import annotations

from typing import Any

from django import forms

from apps.quotes.parsing.manual import GridRow
from apps.sites.models import Organisation

GRID_MIN_ROWS = 8


class GridRowForm(forms.Form):
    """One line: as a vendor writes it, cells as text (the reader parses the numbers)."""

    part_number = forms.CharField(label="Part number", required=False, max_length=200)
    description = forms.CharField(label="Description", required=False, max_length=2000)
    quantity = forms.CharField(label="Qty", required=False, max_length=40)
    unit_price = forms.CharField(label="Unit price", required=False, max_length=60)
    extended_price = forms.CharField(label="Extended price", required=False, max_length=60)
    parent = forms.CharField(
        label="Sub-line of row",
        required=False,
        max_length=6,
        help_text="The grid row this line belongs to (a configured server's GPU board).",
    )

    def row(self) -> GridRow:
        data = self.cleaned_data if self.is_bound and hasattr(self, "cleaned_data") else {}
        return GridRow(**{name: str(data.get(name) or "") for name in self.fields})


GridFormSet = forms.formset_factory(GridRowForm, extra=0, max_num=2000, absolute_max=2000)


def grid_formset(*, data: Any = None, rows: list[GridRow] | None = None) -> forms.BaseFormSet:
    """The grid bound to a POST, or filled with rows (pasted ones), with blank rows to type in."""
    if data is not None:
        return GridFormSet(data, prefix="row")
    initial = [row.__dict__ for row in rows or []]
    initial += [{}] * max(2, GRID_MIN_ROWS - len(initial))
    return GridFormSet(initial=initial, prefix="row")


def grid_rows(formset: forms.BaseFormSet) -> list[GridRow]:
    return [form.row() for form in formset.forms]


class CustomerForm(forms.Form):
    organisation = forms.ModelChoiceField(
        queryset=Organisation.objects.filter(is_internal=False),
        label="Customer",
        empty_label="Choose the customer…",
    )


class PasteForm(forms.Form):
    pasted = forms.CharField(
        label="Paste a table",
        required=False,
        max_length=2_000_000,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Copied from a spreadsheet, an email or a PDF viewer: tab-separated, or "
        "columns of two or more spaces. A header row is used when there is one.",
    )
