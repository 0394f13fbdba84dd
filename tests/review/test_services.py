"""Review services: status after create / re-run / revision, and the findings diff.

from types import SimpleNamespace
The engine is replaced by a canned report here (its own tests live with it); what is tested is
what happens to Finance's decision when the report changes.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from apps.review import services
from apps.review.decisions import ReasonRequired
from apps.review.engine.schemas import Facility, Finding, ReviewReport, Workload
from apps.review.models import AuditEvent, ReviewStatus
from apps.review.report_changes import (
    FindingChange,
    finding_signature,
    review_diff,
    status_for_new_report,
)
from apps.review.services import ReviewChanged, review_create, review_rerun, review_revise
from tests.review.factories import (
    MEMORY_OK,
    RACK_POWER_CRITICAL,
    quote_make,
    report_make,
    review_make,
)

S = ReviewStatus
RACK_POWER_OK = Finding(check="rack_power", severity="ok", title="Fits", detail="14.3 of 20 kW")
RACK_POWER_WARNING = Finding(check="rack_power", severity="warning", title="Tight", detail="90%")
MEMORY_WARNING = Finding(check="memory", severity="warning", title="Tight", detail="95% full")
FLOOR_INFO = Finding(check="floor", severity="info", title="Unknown", detail="no rating given")

# Passes, Finance only raised, USD 5,000 under Acme's USD 100,000 line: nothing for Finance.
PASSING = report_make(
    [MEMORY_OK, RACK_POWER_OK], total="5000.00", finance="raised", facilities="calm"
)
FAILING = report_make()  # memory ok, rack power critical


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def engine(monkeypatch):
    """The engine seam (review_report) returns whatever report the test puts in `engine.report`."""

    class Canned:
        report: ReviewReport = FAILING
        calls: list[tuple[Workload, Facility]] = []

        def __call__(self, *, intake, workload, facility, catalog):
            self.calls.append((workload, facility))
            return self.report

    canned = Canned()
    monkeypatch.setattr(services, "review_report", canned)
    return canned


@pytest.mark.parametrize(
    ("report", "status"), [(PASSING, S.CLEAR), (FAILING, S.PENDING)], ids=["pass", "fail"]
)
def test_review_create_sends_flagged_quotes_to_finance(demo, people, engine, report, status):
    engine.report = report
    quote = quote_make(organisation=demo["acme"], user=people["account"])
    review = review_create(
        quote=quote,
        workload=Workload(kind="inference"),
        facility=Facility(),
        created_by=people["account"],
    )
    assert (review.status, review.version, review.verdict) == (status, 1, report.verdict)
    assert review.organisation == demo["acme"]
    assert review.finance_level == report.blood_pressure.finance.level
    assert review.facilities_level == report.blood_pressure.facilities.level
    assert review.total_usd == report.quote.total  # USD: no conversion
    assert ReviewReport.model_validate(review.report) == report


def test_a_euro_quote_keeps_its_currency_and_is_converted_at_the_stored_rate(demo, people, engine):
    engine.report = FAILING.model_copy(
        update={"quote": FAILING.quote.model_copy(update={"currency": "EUR"})}
    )
    quote = quote_make(organisation=demo["acme"], user=people["account"])
    review = review_create(
        quote=quote, workload=Workload(kind="hpc"), facility=Facility(), created_by=people["admin"]
    )
    assert (review.currency, str(review.total)) == ("EUR", "515000.00")
    # The seeded rate, EUR 1.1617 USD (rates of 2026-11-28): 515,000 × 1.1617 = 598,275.50.
    assert (str(review.rate), str(review.rates_of)) == ("1.16170000", "2026-11-28")
    assert str(review.total_usd) == "598275.50"
    assert str(review.converted_total) == "598275.50"


def test_a_quote_in_a_currency_with_no_rate_is_flagged_never_read_as_dollars(demo, people, engine):
    engine.report = PASSING.model_copy(
        update={"quote": PASSING.quote.model_copy(update={"currency": "CHF"})}
    )
    quote = quote_make(organisation=demo["acme"], user=people["account"])
    review = review_create(
        quote=quote, workload=Workload(kind="hpc"), facility=Facility(), created_by=people["admin"]
    )
    assert review.total_usd is None and review.converted_total is None
    assert review.status == S.PENDING  # a passing report, but the spend cannot be judged
    assert review.finance_reasons == [
        "No exchange rate from CHF to USD: CHF 5,000.00 cannot be judged against "
        "Acme Research's USD 100,000 line."
    ]


def test_signature_is_the_set_of_check_and_severity():
    assert finding_signature(FAILING) == {("memory", "ok"), ("rack_power", "critical")}


@pytest.mark.parametrize(
    ("status", "new", "expected"),
    [
        (S.APPROVED, FAILING, S.APPROVED),  # same findings: approval stands
        (S.REJECTED, FAILING, S.REJECTED),  # ... and so does a rejection
        (S.APPROVED, report_make([MEMORY_OK, RACK_POWER_WARNING]), S.PENDING),  # changed, flagged
        (S.APPROVED, PASSING, S.CLEAR),  # changed and passes: no approval needed
        (S.REJECTED, report_make([MEMORY_WARNING, RACK_POWER_CRITICAL]), S.PENDING),
    ],
)
def test_status_for_new_report(status, new, expected):
    assert status_for_new_report(status=status, old=FAILING, new=new) == expected


def test_a_save_that_moves_nothing_keeps_the_approval_and_is_audited(demo, people, engine):
    review = review_make(organisation=demo["acme"], user=people["account"], status=S.APPROVED)
    same = Workload.model_validate(review.workload)
    room = Facility.model_validate(review.facility)
    rerun = review_rerun(review=review, workload=same, facility=room, user=people["account"])
    assert (rerun.status, rerun.version) == (S.APPROVED, 2)
    event = AuditEvent.objects.get(review=review)
    assert (event.action, event.from_status, event.to_status) == ("save", S.APPROVED, S.APPROVED)
    assert event.reason == "Saved: nothing moved."
    assert event.changes == []


def test_rerun_that_changes_a_severity_sends_an_approval_back_to_finance(demo, people, engine):
    review = review_make(organisation=demo["acme"], user=people["account"], status=S.APPROVED)
    engine.report = report_make([MEMORY_WARNING, RACK_POWER_CRITICAL])
    rerun = review_rerun(
        review=review,
        workload=Workload.model_validate(review.workload),
        facility=Facility.model_validate(review.facility),
        user=people["account"],
    )
    assert (rerun.status, rerun.version) == (S.PENDING, 2)
    event = AuditEvent.objects.get(review=review)
    assert (event.action, event.from_status, event.to_status) == ("save", S.APPROVED, S.PENDING)
    assert event.changes == [
        {"what": "findings", "before": "memory: ok", "after": "memory: warning"}
    ]
    assert event.reason == (
        "Saved: findings: memory: ok → memory: warning. Back to waiting for finance."
    )


def test_rerun_on_a_stale_review_raises_and_changes_nothing(demo, people, engine):
    review = review_make(organisation=demo["acme"], user=people["account"])
    stale = type(review).objects.get(pk=review.pk)
    review_rerun(
        review=review, workload=Workload(kind="rag"), facility=Facility(), user=people["account"]
    )
    with pytest.raises(ReviewChanged):
        review_rerun(
            review=stale, workload=Workload(kind="hpc"), facility=Facility(), user=people["account"]
        )
    review.refresh_from_db()
    assert (review.version, review.workload["kind"]) == (2, "rag")


@pytest.fixture
def uploads(monkeypatch, demo, people):
    """quote_read/quote_record stand-ins: a new quote version chained to the previous one."""

    def quote_read(*, data, filename, organisation, uploaded_by, previous=None, **_):
        return SimpleNamespace(
            data=data,
            filename=filename,
            organisation=organisation,
            uploaded_by=uploaded_by,
            previous=previous,
            intake=None,
        )

    def quote_record(*, read):
        version = read.previous.version + 1 if read.previous else 1
        return quote_make(
            organisation=read.organisation,
            user=read.uploaded_by,
            content=read.data,
            display_name=read.filename,
            previous=read.previous,
            version=version,
        )

    monkeypatch.setattr(services, "quote_read", quote_read)
    monkeypatch.setattr(services, "quote_record", quote_record)
    return quote_record


def test_revision_with_same_findings_money_and_systems_carries_the_approval(
    demo, people, engine, uploads
):
    review = review_make(organisation=demo["acme"], user=people["account"], status=S.APPROVED)
    revised = review_revise(
        review=review, data=b"sku,qty\nDGXB200,1\n", filename="v2.csv", user=people["account"]
    )
    assert revised.pk != review.pk
    assert (revised.quote.version, revised.quote.previous) == (2, review.quote)
    assert (revised.status, revised.version) == (S.APPROVED, 1)
    assert revised.workload == review.workload and revised.facility == review.facility
    event = AuditEvent.objects.get(review=revised)
    assert (event.action, event.to_status, event.version) == ("carry_over", S.APPROVED, 2)
    assert event.reason == (
        "Decision (approved) carried over from quote v1: findings, money and systems "
        "unchanged (nothing moved)."
    )
    review.refresh_from_db()
    assert review.status == S.APPROVED  # the old review is history, untouched


def test_revision_with_changed_findings_needs_reapproval(demo, people, engine, uploads):
    review = review_make(organisation=demo["acme"], user=people["account"], status=S.APPROVED)
    engine.report = report_make([MEMORY_OK, RACK_POWER_WARNING])
    revised = review_revise(
        review=review, data=b"sku,qty\nDGXB200,4\n", filename="v2.csv", user=people["account"]
    )
    assert revised.status == S.PENDING
    event = AuditEvent.objects.get(review=revised)
    assert (event.action, event.from_status, event.to_status) == ("revise", S.APPROVED, S.PENDING)
    assert event.changes == [
        {"what": "findings", "before": "rack_power: critical", "after": "rack_power: warning"}
    ]


def test_revision_after_changes_requested_needs_the_comment(demo, people, engine, uploads):
    review = review_make(
        organisation=demo["acme"], user=people["account"], status=S.CHANGES_REQUESTED
    )
    with pytest.raises(ReasonRequired):
        review_revise(
            review=review, data=b"sku,qty\nDGXB200,2\n", filename="v2.csv", user=people["account"]
        )
    revised = review_revise(
        review=review,
        data=b"sku,qty\nDGXB200,2\n",
        filename="v2.csv",
        user=people["account"],
        comment="Vendor fixed the rack power",
    )
    assert revised.status == S.PENDING  # same findings, but Finance asked: back to Finance
    event = AuditEvent.objects.get(review=revised)
    assert event.reason.endswith("Comment: Vendor fixed the rack power")


def test_review_diff_names_each_changed_check():
    old = report_make([MEMORY_OK, RACK_POWER_CRITICAL, FLOOR_INFO])
    new = report_make([MEMORY_WARNING, RACK_POWER_OK])
    assert review_diff(old, new) == [
        FindingChange(check="floor", title="Unknown", before="info", after=None, change="removed"),
        FindingChange(check="memory", title="Tight", before="ok", after="warning", change="worse"),
        FindingChange(
            check="rack_power", title="Fits", before="critical", after="ok", change="better"
        ),
    ]
    assert review_diff(new, old)[0].change == "added"
    assert review_diff(old, old) == []
