"""`make run`'s demo reviews: the field guide's wrong purchases plus a right fit, reviewed by the
real parser and engine, created once."""

from __future__ import annotations

import pytest

from apps.review.engine.schemas import ReviewReport
from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.web.demo import DEMO_QUOTES, demo_reviews_seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(demo, catalog_db):
    return demo_reviews_seed()


def _review(filename: str) -> Review:
    return Review.objects.select_related("quote").get(quote__display_name=filename)


def test_demo_reviews_are_created_once(seeded):
    # six quotes, and the cement truck's revision makes a seventh review
    assert seeded == len(DEMO_QUOTES) + 1 == 7
    assert demo_reviews_seed() == 0
    assert Review.objects.count() == 7


def test_the_back_corner_of_the_lot_fails_or_warns(seeded):
    vans = ReviewReport.model_validate(_review("supermicro-sm-88310.csv").report)
    assert vans.verdict == "fail" and vans.worst("nvlink_domain") == "critical"
    muscle = ReviewReport.model_validate(_review("fabrikam-fh-3302.csv").report)
    assert muscle.worst("fp64") == "critical"
    train = ReviewReport.model_validate(_review("tailspin-ts-0042.csv").report)
    assert train.worst("cooling") == "critical"  # liquid-only rack in an air-cooled hall
    truck = ReviewReport.model_validate(_review("contoso-cc-24117.csv").report)
    assert truck.worst("utilization") in {"warning", "critical"}
    spark = ReviewReport.model_validate(_review("litware-ld-7781.csv").report)
    assert spark.worst("throughput") == "critical"
    assert _review("dell-dl-3000123456.csv").verdict == "pass"  # the right fit


def test_finance_decided_two_and_the_revision_passes(seeded):
    truck = _review("contoso-cc-24117.csv")
    assert truck.status == ReviewStatus.CHANGES_REQUESTED
    revised = _review("contoso-cc-24117-rev2.csv")
    assert revised.quote.previous_id == truck.quote_id and revised.quote.version == 2
    assert revised.verdict == "pass" and revised.status == ReviewStatus.CLEAR
    assert _review("fabrikam-fh-3302.csv").status == ReviewStatus.REJECTED
    assert AuditEvent.objects.filter(actor__username="finance").count() == 2


def test_the_customers_see_their_own_demo_reviews(seeded, clients):
    acme = clients["customer"].get("/reviews/").content.decode()
    globex = clients["other_customer"].get("/reviews/").content.decode()
    assert "Contoso Compute" in acme and "Tailspin Systems" not in acme
    assert "Tailspin Systems" in globex and "Contoso Compute" not in globex
