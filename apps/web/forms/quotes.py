"""The upload forms: a vendor quote file, and for a first upload the customer it is for.

Size and emptiness are checked here, before anything is stored; whether the bytes really are a
spreadsheet is the parser's call (an HTML page renamed quote.xlsx is its error, not ours).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from apps.sites.models import Organisation


class QuoteFileForm(forms.Form):
    """One vendor quote: CSV or XLSX (a PDF quote is read too, more slowly)."""

    file = forms.FileField(
        label="Vendor quote",
        help_text="CSV or TSV, Excel (.xlsx, .xls, .xlsb), LibreOffice (.ods) or PDF, as the "
        "vendor sent it. The original is kept unchanged.",
        widget=forms.ClearableFileInput(
            attrs={"accept": ".csv,.tsv,.txt,.xlsx,.xls,.xlsb,.ods,.pdf"}
        ),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        limit = settings.QUOTE_MAX_UPLOAD_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                f"{upload.name} is {filesizeformat(upload.size)}; "
                f"the limit is {filesizeformat(limit)}."
            )
        return upload


DELIMITER_CHOICES = [
    ("", "Detect from the file"),
    (",", "Comma ( , )"),
    (";", "Semicolon ( ; )"),
    ("\t", "Tab"),
    ("|", "Pipe ( | )"),
]


class QuoteUploadForm(QuoteFileForm):
    """A first upload: the file and the customer organisation whose quote it is, and for a CSV
    whose delimiter the reader found ambiguous, the delimiter the person chose."""

    delimiter = forms.ChoiceField(
        choices=DELIMITER_CHOICES,
        required=False,
        label="CSV delimiter",
        help_text="Only for a CSV we could not split on our own: say what separates the columns.",
    )

    organisation = forms.ModelChoiceField(
        queryset=Organisation.objects.filter(is_internal=False),
        label="Customer",
        empty_label="Choose the customer…",
    )
