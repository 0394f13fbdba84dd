"""RELIABILITY 14: exported text that a spreadsheet would evaluate is written as text."""

import csv
import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from openpyxl import load_workbook

from apps.reports.export import cell_safe, export_csv, export_xlsx
from apps.review.engine.schemas import QuoteLineOut, ReviewReport
from tests.review.factories import review_make

HOSTILE = ['=HYPERLINK("http://x")', "@SUM(1)", "+1", "\t=1", "-2+3"]


@pytest.mark.parametrize("text", HOSTILE)
def test_formula_like_text_gets_an_apostrophe(text):
    assert cell_safe(text) == "'" + text


def test_numbers_and_plain_text_pass_unchanged():
    assert cell_safe(-5) == -5
    assert cell_safe(Decimal("515000.00")) == Decimal("515000.00")
    assert cell_safe("NVIDIA DGX B200") == "NVIDIA DGX B200"


def _report_with_hostile_lines(base: ReviewReport) -> ReviewReport:
    lines = [
        QuoteLineOut(line=i + 1, part_number=f"P{i}", description=text, quantity=1,
                     unit_price=Decimal("-5"), extended_price=Decimal("-5"))
        for i, text in enumerate(HOSTILE)
    ]  # fmt: skip
    return base.model_copy(update={"quote": base.quote.model_copy(update={"lines": lines})})


@pytest.fixture
def report(demo):
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    return _report_with_hostile_lines(ReviewReport.model_validate(review.report))


@pytest.mark.django_db
def test_xlsx_writes_hostile_descriptions_as_text_and_money_as_numbers(report):
    sheet = load_workbook(io.BytesIO(export_xlsx(report)))["Quote lines"]
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert [r[2] for r in rows] == ["'" + t for t in HOSTILE]
    assert all(r[4] == -5 and isinstance(r[4], (int, float)) for r in rows)
    assert all(sheet.cell(row=i, column=3).data_type == "s" for i in range(2, 7))


@pytest.mark.django_db
def test_csv_writes_hostile_descriptions_as_text(report):
    text = export_csv(report)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert [r[2] for r in rows[1:]] == ["'" + t for t in HOSTILE]
    assert [r[4] for r in rows[1:]] == ["-5"] * 5  # a real negative number stays a number


@pytest.mark.django_db
def test_export_view_is_an_attachment_for_internal_roles_only(demo, clients):
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    response = clients["finance"].get(f"/reviews/{review.uuid}/export.xlsx")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["X-Content-Type-Options"] == "nosniff"
    load_workbook(io.BytesIO(response.content))  # a real workbook
    assert clients["customer"].get(f"/reviews/{review.uuid}/export.xlsx").status_code == 403
    assert clients["finance"].get(f"/reviews/{review.uuid}/export.pdfx").status_code == 404
