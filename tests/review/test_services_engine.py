"""The review services end to end: real upload, real intake, real engine (the field guide's
"four semis in a 2 kW room")."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from apps.quotes.services import quote_upload
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.models import AuditEvent, ReviewStatus
from apps.review.report_changes import review_diff
from apps.review.services import review_create, review_rerun, review_revise
from apps.review.workflow import review_decide
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db

EXAMPLE = EXAMPLES / "four-semis-in-a-2kw-room"
AI_HALL = Facility(name="AI hall", rack_power_kw=150, racks_available=4, cooling="liquid")


@pytest.fixture
def people(demo, catalog_db):
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def four_semis(demo, people):
    quote = quote_upload(
        data=(EXAMPLE / "quote.csv").read_bytes(),
        filename="quote.csv",
        organisation=demo["acme"],
        uploaded_by=people["account"],
    )
    return review_create(
        quote=quote,
        workload=Workload.model_validate(json.loads((EXAMPLE / "workload.json").read_text())),
        facility=Facility.model_validate(json.loads((EXAMPLE / "facility.json").read_text())),
        created_by=people["account"],
    )


def test_four_semis_in_a_2kw_room_go_to_finance(four_semis):
    report = ReviewReport.model_validate(four_semis.report)
    assert (four_semis.verdict, four_semis.status) == ("fail", ReviewStatus.PENDING)
    assert report.worst("rack_power") == "critical"
    assert four_semis.facilities_level == "crisis"
    # 4 × 515,000.00 = 2,060,000.00, over the 1,000,000 line: finance crisis
    assert str(four_semis.total_usd) == "2060000.00"
    assert four_semis.finance_level == "crisis"
    assert 55 <= report.sizing.power_kw <= 60  # 4 × ~14.3 kW
    assert four_semis.organisation.slug == "acme"


def test_moving_to_the_ai_hall_sends_an_approval_back(four_semis, people):
    review_decide(
        review_id=four_semis.pk,
        expected_version=1,
        action="approve",
        reason="Board signed off the room upgrade.",
        actor=people["finance"],
    )
    four_semis.refresh_from_db()
    old = ReviewReport.model_validate(four_semis.report)
    rerun = review_rerun(
        review=four_semis,
        workload=Workload.model_validate(four_semis.workload),
        facility=AI_HALL,
        user=people["account"],
    )
    new = ReviewReport.model_validate(rerun.report)
    assert rerun.version == 3  # 1, approved → 2, re-run → 3
    assert new.worst("rack_power") in {"ok", "info"}  # ~57 kW of 4 × 150 kW racks
    changes = {c.check: c for c in review_diff(old, new)}
    assert changes["rack_power"].change == "better"
    assert rerun.status in {ReviewStatus.PENDING, ReviewStatus.CLEAR}  # not APPROVED any more
    assert AuditEvent.objects.filter(review=four_semis, action="save").count() == 1


def test_a_revision_with_the_same_findings_keeps_the_approval(four_semis, people):
    review_decide(
        review_id=four_semis.pk,
        expected_version=1,
        action="approve",
        reason="ok",
        actor=people["finance"],
    )
    four_semis.refresh_from_db()
    retyped = (EXAMPLE / "quote.csv").read_bytes().replace(b"8x B200 SXM", b"8 x B200 SXM")
    revised = review_revise(
        review=four_semis, data=retyped, filename="v2.csv", user=people["account"]
    )
    assert revised.quote.version == 2 and revised.quote.previous_id == four_semis.quote_id
    assert revised.status == ReviewStatus.APPROVED
    assert (
        review_diff(
            ReviewReport.model_validate(four_semis.report),
            ReviewReport.model_validate(revised.report),
        )
        == []
    )


def test_a_revision_with_fewer_semis_needs_reapproval(four_semis, people):
    review_decide(
        review_id=four_semis.pk,
        expected_version=1,
        action="approve",
        reason="ok",
        actor=people["finance"],
    )
    four_semis.refresh_from_db()
    one_semi = (
        (EXAMPLE / "quote.csv")
        .read_bytes()
        .replace(b",4,515000.00,2060000.00", b",1,515000.00,515000.00")
    )
    revised = review_revise(
        review=four_semis, data=one_semi, filename="v2.csv", user=people["account"]
    )
    # 1 × 515,000 is under the 1,000,000 line: the finance level moves, so do the findings
    assert revised.finance_level == "high"
    assert revised.status in {ReviewStatus.PENDING, ReviewStatus.CLEAR}
