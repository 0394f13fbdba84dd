"""The upload forms: a vendor quote file, and for a first upload the customer it is for.

Size and emptiness are checked here, before anything is stored; whether the bytes really are a
spreadsheet is the parser's call (an HTML page renamed quote.xlsx is its error, not ours).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.core import signing
from django.template.defaultfilters import filesizeformat

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.models import LineRoleChoice
from apps.quotes.schemas import LineCorrection
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


#: A workbook whose sheets were ambiguous is answered without sending it again: the page
#: carries a signed reference to the stored original (its hash and name, for this user, for an
#: hour; the orphan sweep keeps an unclaimed original for 24).
ORIGINAL_SALT = "rightsize.quotes.upload-original"
ORIGINAL_MAX_AGE_S = 3600


def original_token(*, sha256: str, filename: str, user_id: int) -> str:
    return signing.dumps({"sha256": sha256, "name": filename, "user": user_id}, salt=ORIGINAL_SALT)


def original_from_token(token: str, *, user_id: int) -> tuple[str, str] | None:
    """(sha256, file name) of the stored original the token names, if it is this user's and
    not expired; else None."""
    try:
        value = signing.loads(token, salt=ORIGINAL_SALT, max_age=ORIGINAL_MAX_AGE_S)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("user") != user_id:
        return None
    return str(value.get("sha256", "")), str(value.get("name", "quote"))


class QuoteUploadForm(QuoteFileForm):
    """A first upload: the file and the customer organisation whose quote it is, for a CSV
    whose delimiter the reader found ambiguous the delimiter the person chose, and for a
    workbook with two sheets that both look like quotes the sheet the person chose (the file
    itself then comes back as `original`, a signed reference to the stored upload)."""

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
    sheet = forms.CharField(required=False, max_length=200, label="The sheet with the quote")
    original = forms.CharField(required=False, max_length=1000, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].required = False  # when `original` names the stored upload

    def clean_file(self) -> Any:
        return super().clean_file() if self.cleaned_data.get("file") else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("file") and not cleaned.get("original") and "file" not in self.errors:
            self.add_error("file", "This field is required.")
        return cleaned


class LineCorrectionForm(forms.Form):
    """What one quote line is, as the account team says: its role, the system it is, the GPU
    it carries and how many per system. Fields left empty keep the reading. Prefixed by the
    line number ("c12-role"), so every line of the page has its own form."""

    role = forms.ChoiceField(label="Role", required=False)
    system = forms.ChoiceField(label="System", required=False)
    gpu = forms.ChoiceField(label="GPU model", required=False)
    gpus_per_system = forms.IntegerField(
        label="GPUs per system", required=False, min_value=0, max_value=1024
    )
    remember = forms.BooleanField(
        label="Remember for this vendor",
        required=False,
        help_text="Later quotes from this vendor read a line with this part number the same way.",
    )

    def __init__(self, data: Any = None, *, line: int, catalog: CatalogSnapshot) -> None:
        super().__init__(data, prefix=f"c{line}")
        self.line = line
        keep = [("", "As read")]
        systems = sorted(catalog.systems, key=lambda s: s.name)
        gpus = sorted(catalog.gpus, key=lambda g: g.name)
        choices = {
            "role": keep + list(LineRoleChoice.choices),
            "system": keep + [(s.key, s.name) for s in systems],
            "gpu": keep + [(g.key, g.name) for g in gpus],
        }
        for name, options in choices.items():
            cast("forms.ChoiceField", self.fields[name]).choices = options

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and not any(
            data.get(name) not in (None, "")
            for name in ("role", "system", "gpu", "gpus_per_system")
        ):
            raise forms.ValidationError(f"Say what line {self.line} is: pick at least one field.")
        return data

    @property
    def correction(self) -> LineCorrection:
        data = self.cleaned_data
        return LineCorrection(
            role=data.get("role") or None,
            system=data.get("system") or None,
            gpu=data.get("gpu") or None,
            gpus_per_system=data.get("gpus_per_system"),
        )
