"""Re-approval: a decision is bound to the lines, quantities and prices, total and currency, load,
room and catalog revision. Each row below moves one of them on an approved review and saves:
the review goes back to Finance with an audit event naming what moved (old → new) and the
approval it set aside. A save that moves nothing keeps the approval, and says so.
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from apps.quotes.schemas import QuotedSystem, QuoteLineOut
from apps.review import services
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.models import AuditEvent, ReviewStatus
from apps.review.services import review_rerun, review_revise
from apps.review.workflow import review_decide
from tests.review.factories import quote_make, report_make

S = ReviewStatus


def _b300_report(*, quantity: int = 1, unit: str = "600000.00", currency: str = "USD"):
    """1 × DGX B300 at $600,000 (the issue's quote): total = quantity × unit."""
    total = Decimal(unit) * quantity
    report = report_make(total=str(total))
    quote = report.quote.model_copy(
        update={
            "currency": currency,
            "lines": [
                QuoteLineOut(
                    line=1,
                    part_number="DGXB300",
                    description="NVIDIA DGX B300",
                    quantity=quantity,
                    unit_price=Decimal(unit),
                    extended_price=total,
                )
            ],
        }
    )
    system = QuotedSystem(
        sku="DGXB300", name="DGX B300", form_factor="nvl8_server", quantity=quantity
    )
    return report.model_copy(update={"quote": quote, "systems": [system]})


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def engine(monkeypatch):
    """The engine seam returns `engine.report`; the catalog revision is `engine.catalog`."""
    canned = SimpleNamespace(report=_b300_report(), catalog="7")
    monkeypatch.setattr(services, "review_report", lambda **_: canned.report)
    monkeypatch.setattr(services, "catalog_revision", lambda catalog=None: canned.catalog)
    return canned


@pytest.fixture
def approved(demo, people, engine):
    """The B300 review, stored through the service, then approved by Finance."""
    review = services.review_create(
        quote=quote_make(organisation=demo["acme"], user=people["account"]),
        workload=Workload(name="Assistant", kind="inference", model="Qwen3-32B"),
        facility=Facility(name="Server room", rack_power_kw=15, racks_available=4),
        created_by=people["account"],
    )
    assert review.status == S.PENDING  # $600,000 is over Acme's $100,000 line
    return review_decide(
        review_id=review.pk,
        expected_version=1,
        action="approve",
        reason="Budgeted for Q1",
        actor=people["finance"],
    )


def _save(review, people, *, workload=None, facility=None):
    return review_rerun(
        review=review,
        workload=workload or Workload.model_validate(review.workload),
        facility=facility or Facility.model_validate(review.facility),
        user=people["account"],
    )


ROWS = {
    # quantity 1 → 2 doubles the line and the total: 2 × 600,000 = 1,200,000.
    "quantity": (
        lambda e: setattr(e, "report", _b300_report(quantity=2)),
        {"what": "line 1 quantity", "before": "1", "after": "2"},
    ),
    # the unit price 600,000 → 650,000 moves the line's price and the total.
    "price": (
        lambda e: setattr(e, "report", _b300_report(unit="650000.00")),
        {"what": "line 1 unit price", "before": "600000.00", "after": "650000.00"},
    ),
    "currency": (
        lambda e: setattr(e, "report", _b300_report(currency="EUR")),
        {"what": "currency", "before": "USD 600000.00", "after": "EUR 600000.00"},
    ),
    "catalog revision": (
        lambda e: setattr(e, "catalog", "8"),
        {"what": "catalog revision", "before": "7", "after": "8"},
    ),
}


@pytest.mark.parametrize("row", sorted(ROWS))
def test_each_moved_basis_sends_the_approval_back(row, approved, people, engine):
    move, expected = ROWS[row]
    move(engine)
    saved = _save(approved, people)
    assert (saved.status, saved.version) == (S.PENDING, 3)  # 1, approved → 2, saved → 3
    event = AuditEvent.objects.filter(review=approved, action="save").get()
    assert (event.from_status, event.to_status) == (S.APPROVED, S.PENDING)
    assert expected in event.changes
    assert event.previous_decision.startswith("Approved by finance on ")
    assert event.previous_decision.endswith(": Budgeted for Q1")


def test_the_total_alone_moving_sends_it_back(approved, people, engine):
    """A total that changes with the lines as they were (a discount line the reader dropped)."""
    report = _b300_report()
    engine.report = report.model_copy(
        update={"quote": report.quote.model_copy(update={"total": Decimal("540000.00")})}
    )
    saved = _save(approved, people)
    assert saved.status == S.PENDING
    event = AuditEvent.objects.get(review=approved, action="save")
    assert event.changes == [{"what": "total", "before": "USD 600000.00", "after": "USD 540000.00"}]


def test_a_load_field_moving_sends_it_back(approved, people, engine):
    """The issue's case: context 8k → 128k tokens on an approved review."""
    workload = Workload.model_validate(approved.workload)
    longer = workload.model_copy(update={"context_tokens": 131_072})
    saved = _save(approved, people, workload=longer)
    assert saved.status == S.PENDING
    event = AuditEvent.objects.get(review=approved, action="save")
    assert {
        "what": "load context_tokens",
        "before": str(workload.context_tokens),
        "after": "131072",
    } in event.changes
    assert "load context_tokens: " in event.reason and "→ 131072" in event.reason


def test_a_room_field_moving_sends_it_back(approved, people, engine):
    room = Facility.model_validate(approved.facility).model_copy(update={"rack_power_kw": 20})
    saved = _save(approved, people, facility=room)
    assert saved.status == S.PENDING
    event = AuditEvent.objects.get(review=approved, action="save")
    assert {"what": "room rack_power_kw", "before": "15.0", "after": "20.0"} in event.changes


def test_an_unchanged_save_carries_the_approval_over_and_says_so(approved, people, engine):
    saved = _save(approved, people)
    assert (saved.status, saved.version) == (S.APPROVED, 3)
    event = AuditEvent.objects.get(review=approved, action="save")
    assert (event.from_status, event.to_status, event.changes) == (S.APPROVED, S.APPROVED, [])
    assert event.reason == "Saved: nothing moved."


def test_a_doubled_spend_in_a_revision_goes_back_to_finance(approved, people, engine, monkeypatch):
    """The issue's first bug: 1 × DGX B300 at $600,000 → 2 at $1,200,000 stayed approved."""

    def quote_read(*, data, filename, organisation, uploaded_by, previous=None, **_):
        return SimpleNamespace(
            organisation=organisation, uploaded_by=uploaded_by, previous=previous, intake=None
        )

    def quote_record(*, read):
        return quote_make(
            organisation=read.organisation, user=read.uploaded_by, previous=read.previous, version=2
        )

    monkeypatch.setattr(services, "quote_read", quote_read)
    monkeypatch.setattr(services, "quote_record", quote_record)
    engine.report = _b300_report(quantity=2)
    revised = review_revise(review=approved, data=b"x", filename="v2.csv", user=people["account"])
    assert revised.status == S.PENDING
    event = AuditEvent.objects.get(review=revised)
    assert event.action == "revise"
    assert {"what": "line 1 quantity", "before": "1", "after": "2"} in event.changes
    assert {
        "what": "line 1 extended price",
        "before": "600000.00",
        "after": "1200000.00",
    } in event.changes
    assert {"what": "total", "before": "USD 600000.00", "after": "USD 1200000.00"} in event.changes
    assert {"what": "systems", "before": "1 × DGX B300", "after": "2 × DGX B300"} in event.changes
    assert event.previous_decision.endswith(": Budgeted for Q1")


def test_a_wording_only_revision_carries_the_approval_over(approved, people, engine, monkeypatch):
    monkeypatch.setattr(
        services,
        "quote_read",
        lambda *, organisation, uploaded_by, previous=None, **_: SimpleNamespace(
            organisation=organisation, uploaded_by=uploaded_by, previous=previous, intake=None
        ),
    )
    monkeypatch.setattr(
        services,
        "quote_record",
        lambda *, read: quote_make(
            organisation=read.organisation, user=read.uploaded_by, previous=read.previous, version=2
        ),
    )
    report = _b300_report()
    line = report.quote.lines[0].model_copy(update={"description": "NVIDIA DGX B300 (typo fixed)"})
    engine.report = report.model_copy(
        update={"quote": report.quote.model_copy(update={"lines": [line]})}
    )
    revised = review_revise(review=approved, data=b"x", filename="v2.csv", user=people["account"])
    assert revised.status == S.APPROVED
    event = AuditEvent.objects.get(review=revised)
    assert event.action == "carry_over"
    assert event.reason.startswith(
        "Decision (approved) carried over from quote v1: findings, money and systems unchanged"
    )
    assert "line 1 description: NVIDIA DGX B300 → NVIDIA DGX B300 (typo fixed)" in event.reason


def test_saving_a_changes_requested_review_needs_the_comment(demo, people, engine, approved):
    pending = _save(approved, people, facility=Facility(name="Hall", rack_power_kw=40))
    asked = review_decide(
        review_id=pending.pk,
        expected_version=pending.version,
        action="request_changes",
        reason="Which room?",
        actor=people["finance"],
    )
    with pytest.raises(services.ReasonRequired):
        _save(asked, people)
    asked.refresh_from_db()
    assert asked.status == S.CHANGES_REQUESTED  # nothing written
    resubmitted = review_rerun(
        review=asked,
        workload=Workload.model_validate(asked.workload),
        facility=Facility.model_validate(asked.facility),
        user=people["account"],
        comment="The hall, 40 kW racks",
    )
    assert resubmitted.status == S.PENDING
    event = AuditEvent.objects.filter(review=asked).order_by("-id").first()
    assert (event.action, event.from_status, event.to_status) == (
        "resubmit",
        S.CHANGES_REQUESTED,
        S.PENDING,
    )
    assert event.reason.endswith("Comment: The hall, 40 kW racks")


def test_the_report_is_what_the_basis_was_built_from(approved):
    """The stored basis reads the stored report (one line, one system, USD)."""
    report = ReviewReport.model_validate(approved.report)
    assert approved.basis["lines"]["1"]["quantity"] == str(report.quote.lines[0].quantity)
    assert approved.basis["systems"] == ["1 × DGX B300"]
    assert approved.basis["catalog_revision"] == "7"
