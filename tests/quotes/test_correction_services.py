"""Corrections kept: each one an audit record, undo restores the reading before it, a vendor
remembers one only when asked, and a review re-run applies them (the real engine, the Dell
XE9680 configurator quote of the shared examples)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from apps.catalog.models import Part
from apps.quotes.corrections import CorrectionError
from apps.quotes.models import QuoteLineCorrection, VendorLineCorrection
from apps.quotes.schemas import LineCorrection
from apps.quotes.selectors import quote_corrections
from apps.quotes.services import (
    NothingToUndo,
    quote_line_correct,
    quote_line_correction_undo,
    quote_mapping_confirm,
    quote_upload,
    vendor_correction_remove,
)
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.services import (
    review_create,
    review_line_correct,
    review_line_correction_undo,
    review_rerun,
    review_upload,
)
from tests.conftest import EXAMPLES

DELL = EXAMPLES / "dell-xe9680-configurator-per-system"
SERVICE = LineCorrection(role="service")
XE9680 = LineCorrection(role="system", system="dell-xe9680")


@pytest.fixture
def people(demo, catalog_db):
    return {
        "org": demo["acme"],
        "account": User.objects.get(username="account"),
        "admin": User.objects.get(username="admin"),
    }


def _upload(people, path=DELL / "quote.csv"):
    return quote_upload(
        data=path.read_bytes(),
        filename="dell-quote.csv",
        organisation=people["org"],
        uploaded_by=people["account"],
    )


def _review(people, quote):
    return review_create(
        quote=quote,
        workload=Workload.model_validate(json.loads((DELL / "workload.json").read_text())),
        facility=Facility.model_validate(json.loads((DELL / "facility.json").read_text())),
        created_by=people["account"],
    )


def _xe9680s(report_json) -> int:
    report = ReviewReport.model_validate(report_json)
    return sum(s.quantity for s in report.systems if s.sku == "dell-xe9680")


def test_confirming_the_hgx_sub_line_as_the_xe9680_adds_no_server(people):
    """Line 2 ("1.1 NVIDIA HGX H200 … 8 GPUs", Included under line 1's 2 × XE9680) confirmed
    as the XE9680: the re-run review has as many XE9680s as before, not one more."""
    quote = _upload(people)
    review = _review(people, quote)
    before = _xe9680s(review.report)
    line = quote.lines.get(line=2)
    assert line.part_number == "490-BKJR"
    quote_mapping_confirm(
        quote_line=line, part=Part.objects.get(part_number="XE9680"), user=people["account"]
    )
    review = review_rerun(
        review=review,
        workload=Workload.model_validate(review.workload),
        facility=Facility.model_validate(review.facility),
        user=people["account"],
    )
    assert _xe9680s(review.report) == before


def test_a_correction_is_an_audit_record_and_undo_restores_the_one_before(people):
    quote = _upload(people)
    line = quote.lines.get(line=12)
    first = quote_line_correct(
        quote_line=line, correction=SERVICE, user=people["account"], remember=False
    )
    assert (first.action, first.before, first.after) == ("correct", {}, {"role": "service"})
    assert first.created_by == people["account"]
    second = quote_line_correct(
        quote_line=line,
        correction=LineCorrection(role="accessory"),
        user=people["admin"],
        remember=False,
    )
    assert (second.before, second.after) == ({"role": "service"}, {"role": "accessory"})
    assert quote_corrections(quote=quote) == {12: LineCorrection(role="accessory")}

    undo = quote_line_correction_undo(quote_line=line, user=people["account"])
    assert (undo.action, undo.before, undo.after) == (
        "undo",
        {"role": "accessory"},
        {"role": "service"},
    )
    assert quote_corrections(quote=quote) == {12: SERVICE}
    quote_line_correction_undo(quote_line=line, user=people["account"])
    assert quote_corrections(quote=quote) == {}
    with pytest.raises(NothingToUndo, match="line 12 has no correction to undo"):
        quote_line_correction_undo(quote_line=line, user=people["account"])
    # Append-only: 2 corrections + 2 undos, none rewritten.
    assert QuoteLineCorrection.objects.count() == 4
    with pytest.raises(PermissionError):
        first.save()


def test_a_correction_the_catalog_cannot_carry_out_is_refused_and_nothing_is_kept(people):
    line = _upload(people).lines.get(line=1)
    with pytest.raises(CorrectionError, match="no system 'dell-xe9999'"):
        quote_line_correct(
            quote_line=line,
            correction=LineCorrection(system="dell-xe9999"),
            user=people["account"],
            remember=False,
        )
    with pytest.raises(CorrectionError, match="say what the line is"):
        quote_line_correct(
            quote_line=line, correction=LineCorrection(), user=people["account"], remember=False
        )
    assert QuoteLineCorrection.objects.count() == 0


def test_a_vendor_remembers_a_correction_only_when_asked(people):
    first = _upload(people)
    quote_line_correct(
        quote_line=first.lines.get(line=12),
        correction=SERVICE,
        user=people["account"],
        remember=False,
    )
    assert VendorLineCorrection.objects.count() == 0
    assert quote_corrections(quote=_upload(people)) == {}  # the next quote reads as read

    quote_line_correct(
        quote_line=first.lines.get(line=12),
        correction=SERVICE,
        user=people["account"],
        remember=True,
    )
    remembered = VendorLineCorrection.objects.get()
    assert (remembered.vendor, remembered.text, remembered.role) == ("dell", "802 3326", "service")
    later = _upload(people)
    assert quote_corrections(quote=later) == {12: SERVICE}

    vendor_correction_remove(vendor_correction=remembered, user=people["admin"])
    remembered.refresh_from_db()
    assert remembered.removed_by == people["admin"] and remembered.removed_at is not None
    assert quote_corrections(quote=later) == {}
    assert quote_corrections(quote=first) == {12: SERVICE}  # the quote's own correction stands


def test_undoing_a_remembered_correction_forgets_it_for_the_vendor(people):
    quote = _upload(people)
    line = quote.lines.get(line=12)
    quote_line_correct(quote_line=line, correction=SERVICE, user=people["account"], remember=True)
    quote_line_correction_undo(quote_line=line, user=people["account"])
    assert VendorLineCorrection.objects.get().removed_at is not None
    assert quote_corrections(quote=_upload(people)) == {}


def test_the_review_re_run_applies_the_correction_and_undo_restores_the_numbers(people):
    """Line 12 (ProDeploy Plus for PowerEdge XE9680, qty 2) reads as a service: 2 × XE9680,
    2 × 11.0 kW = 22 kW. Corrected (wrongly, but it is the user's word) as 2 more XE9680:
    4 servers, 4 × 11.0 kW = 44 kW; each change is a new version; undo is 22 kW again."""
    quote = _upload(people)
    review = _review(people, quote)
    assert (review.version, _xe9680s(review.report)) == (1, 2)
    assert review.report["sizing"]["power_kw"] == pytest.approx(22.0)  # 2 × 11.0 kW
    line = quote.lines.get(line=12)
    corrected = review_line_correct(
        review=review, quote_line=line, correction=XE9680, remember=False, user=people["account"]
    )
    assert (corrected.version, _xe9680s(corrected.report)) == (2, 4)
    assert corrected.report["sizing"]["power_kw"] == pytest.approx(44.0)  # 4 × 11.0 kW
    read = {ln["line"]: ln for ln in corrected.report["quote"]["lines"]}
    assert (read[12]["role"], read[12]["corrected"]) == ("system", True)

    undone = review_line_correction_undo(review=corrected, quote_line=line, user=people["account"])
    assert (undone.version, _xe9680s(undone.report)) == (3, 2)
    assert undone.report["sizing"]["power_kw"] == pytest.approx(22.0)
    assert undone.report["quote"]["lines"][11]["corrected"] is False


def test_the_first_review_of_an_upload_reads_the_vendor_remembered_corrections(people):
    """The upload page's path (review_upload: read, review, write in one go) applies what the
    vendor remembers: line 12 remembered as an XE9680 makes the next Dell quote 4 servers from
    the start, 4 × 11.0 kW = 44 kW."""
    first = _upload(people)
    quote_line_correct(
        quote_line=first.lines.get(line=12),
        correction=XE9680,
        user=people["account"],
        remember=True,
    )
    review = review_upload(
        data=(DELL / "quote.csv").read_bytes(),
        filename="dell-quote-2.csv",
        organisation=people["org"],
        uploaded_by=people["account"],
        workload=Workload.model_validate(json.loads((DELL / "workload.json").read_text())),
        facility=Facility.model_validate(json.loads((DELL / "facility.json").read_text())),
    )
    assert _xe9680s(review.report) == 4
    assert review.report["sizing"]["power_kw"] == pytest.approx(44.0)
    assert review.report["quote"]["lines"][11]["corrected"] is True
