"""A workbook with two sheets that both look like quotes: the upload page asks which, listing
each (name, rows, header, first lines), and the answer goes through the same intake from the
stored original — the file is not asked for again, and nothing but the original is stored
until the person answers."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.quotes.models import Quote, QuoteStatus
from apps.review.models import Review
from apps.web.forms.quotes import original_token
from tests.fixtures.sheets import two_quote_sheets_xlsx
from tests.web.test_upload_views import saved_form

pytestmark = pytest.mark.django_db
URL = "/quotes/upload/"


def book() -> SimpleUploadedFile:
    return SimpleUploadedFile("options.xlsx", two_quote_sheets_xlsx())


def _asked(client: Client, demo) -> tuple[str, str]:
    response = client.post(URL, {**saved_form(demo), "file": book()}, headers={"HX-Request": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    token = re.search(r'name="original" value="([^"]+)"', html)
    assert token is not None
    return html, token.group(1)


def test_two_quote_sheets_are_asked_about(clients, demo, catalog_db) -> None:
    html, _token = _asked(clients["account_team"], demo)
    assert "Which sheet holds the quote?" in html
    assert "Two sheets of options.xlsx both look like quotes." in html
    for name in ("Option A", "Option B"):
        assert f'type="radio" name="sheet" value="{name}"' in html
    assert "Cover" not in html.split('id="sheet-choice"')[1].split("</fieldset>")[0]
    assert "2 rows under the header" in html and "1 row under the header" in html
    assert "Header: Part Number | Description | Qty | Unit Price | Extended Price" in html
    assert "First lines: NVIDIA DGX B200 8x B200 1440GB; 3-year support" in html
    assert (Quote.objects.count(), Review.objects.count()) == (0, 0)


def test_the_answer_is_reviewed_from_the_stored_original(clients, demo, catalog_db) -> None:
    client = clients["account_team"]
    _html, token = _asked(client, demo)
    response = client.post(URL, {**saved_form(demo), "original": token, "sheet": "Option B"})
    review = Review.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/reviews/{review.uuid}/"
    quote = review.quote
    assert (quote.display_name, quote.status) == ("options.xlsx", QuoteStatus.PARSED)
    assert quote.reading["sheet"] == "Option B"
    assert "read sheet 'Option B', as chosen" in quote.reading["warnings"]
    # Option B: 2 × Supermicro SYS-521GE-TNRT at $66,000 = $132,000
    assert [(s["sku"], s["quantity"]) for s in review.report["systems"]] == [
        ("supermicro-sys-521ge-tnrt", 2)
    ]
    assert review.report["quote"]["total"] == "132000.00"


def test_someone_elses_or_a_forged_reference_is_refused(clients, demo, catalog_db) -> None:
    client = clients["account_team"]
    _html, token = _asked(client, demo)
    admin = User.objects.get(username="admin")
    for original in (
        token[:-2] + "xx",
        original_token(sha256="0" * 64, filename="x.xlsx", user_id=admin.pk),
    ):
        response = client.post(URL, {**saved_form(demo), "original": original, "sheet": "Option A"})
        assert response.status_code == 400
        assert "That upload is no longer here: choose the file again." in response.content.decode()
    assert Review.objects.count() == 0


def test_without_a_file_or_a_reference_the_file_is_required(clients, demo, catalog_db) -> None:
    response = clients["account_team"].post(URL, saved_form(demo))
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
