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


def test_finance_decided_and_the_revision_went_back_to_finance(seeded):
    truck = _review("contoso-cc-24117.csv")
    assert truck.status == ReviewStatus.CHANGES_REQUESTED
    revised = _review("contoso-cc-24117-rev2.csv")
    assert revised.quote.previous_id == truck.quote_id and revised.quote.version == 2
    # The revision passes, but $140,000 is over Acme's $100,000 line: Finance decides again,
    # told what the account team changed.
    assert revised.verdict == "pass" and revised.status == ReviewStatus.PENDING
    event = AuditEvent.objects.get(review=revised)
    assert event.reason.endswith("Comment: Contoso re-quoted a PCIe server, as Finance asked.")
    assert _review("fabrikam-fh-3302.csv").status == ReviewStatus.REJECTED
    # 2 decisions from the field guide, and 3 approvals of the reviews published to customers.
    assert AuditEvent.objects.filter(actor__username="finance").count() == 2 + 3


def test_some_demo_reviews_are_published_approved_first(seeded):
    published = Review.objects.filter(published_version__isnull=False)
    assert sorted(r.quote.display_name for r in published) == [
        "dell-dl-3000123456.csv",
        "litware-ld-7781.csv",
        "supermicro-sm-88310.csv",
    ]
    assert {r.status for r in published} == {ReviewStatus.APPROVED}  # all needed Finance


def test_the_customers_see_their_own_published_demo_reviews(seeded, clients):
    acme = clients["customer"].get("/reviews/").content.decode()
    globex = clients["other_customer"].get("/reviews/").content.decode()
    assert "Supermicro" in acme and "Dell" in acme
    assert "Contoso Compute" not in acme  # not published: Finance asked for changes
    assert "Tailspin Systems" not in acme
    assert "Litware Direct" in globex and "Tailspin Systems" not in globex
