"""The stored reports a preview compares with: read as text, validated once per text, and a
changed report is a new one by itself."""

from __future__ import annotations

import json

import pytest

from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review
from apps.web.kept_reports import (
    StoredReports,
    stored_report,
    stored_report_data,
    with_report_text,
)
from tests.web.test_review_views import (  # noqa: F401
    HX,
    engine,
    people,
    rerun_data,
    review,
    url,
)

pytestmark = pytest.mark.django_db


def test_the_text_read_is_the_stored_report(review):  # noqa: F811
    read = with_report_text(Review.objects.all()).get(pk=review.pk)
    assert stored_report_data(read) == review.report
    assert stored_report(read) == ReviewReport.model_validate(review.report)


def test_the_same_text_is_validated_once_and_another_text_afresh(review):  # noqa: F811
    kept = StoredReports()
    text = json.dumps(review.report)
    first = kept.report(text)
    assert kept.report(text) is first
    changed = {**review.report, "verdict": "fail"}
    other = kept.report(json.dumps(changed))
    assert other is not first and other.verdict == "fail" and first.verdict != "fail"


def test_the_oldest_report_goes_first_when_full(review):  # noqa: F811
    kept = StoredReports()
    kept.SIZE = 1
    one, two = json.dumps(review.report), json.dumps({**review.report, "verdict": "fail"})
    first = kept.report(one)
    kept.report(two)
    assert kept.report(one) is not first  # pushed out, validated again


def test_a_preview_after_a_save_compares_with_the_saved_report(clients, review, engine):  # noqa: F811
    def preview(users: int) -> str:
        data = rerun_data(review, **{"w-concurrent_users": users})
        response = clients["account_team"].post(url(review, "preview/"), data, headers=HX)
        assert response.status_code == 200
        return response.content.decode()

    assert "was 6<" in preview(200)  # 100 users saved: 6 % utilization
    saved = rerun_data(review, **{"w-concurrent_users": 200})
    assert clients["account_team"].post(url(review, "rerun/"), saved, headers=HX).status_code == 200
    review.refresh_from_db()
    assert "was 12<" in preview(400)  # the "was" is the new saved report's
