"""What-if on the review page: the preview re-runs the checks and stores nothing."""

import re

from apps.catalog.services import catalog_snapshot
from apps.review.models import AuditEvent, ReviewStatus
from tests.web.test_review_views import HX, engine, people, rerun_data, review, url  # noqa: F401


def test_preview_moves_the_numbers_and_saves_nothing(clients, review, engine):  # noqa: F811
    response = clients["account_team"].post(
        url(review, "preview/"), rerun_data(review, **{"w-concurrent_users": 200}), headers=HX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="results"')
    assert 'id="preview-note"' in body and "Preview, not saved" in body
    # Utilization 100 ÷ 1,666 = 6.0 % saved, 200 ÷ 1,666 = 12.0 % previewed.
    assert re.search(r'sizing-utilization_pct">.*?"value">12</span>.*?was 6<', body, re.S)
    # the page keeps posting the saved version, so Save still detects a stale page
    assert f'name="version" value="{review.version}"' in body
    review.refresh_from_db()
    assert review.version == 1 and review.workload["concurrent_users"] == 100
    assert not AuditEvent.objects.exists()


def test_preview_keeps_a_finance_decision(clients, review, engine):  # noqa: F811
    review.status = ReviewStatus.APPROVED
    review.save(update_fields=["status"])
    response = clients["account_team"].post(
        url(review, "preview/"), rerun_data(review, **{"w-concurrent_users": 900}), headers=HX
    )
    assert response.status_code == 200
    assert "Finance's decision stands until then" in response.content.decode()
    review.refresh_from_db()
    assert review.status == ReviewStatus.APPROVED and review.version == 1


def test_invalid_preview_returns_the_form_with_errors(clients, review, engine):  # noqa: F811
    response = clients["account_team"].post(
        url(review, "preview/"), rerun_data(review, **{"w-concurrent_users": 0}), headers=HX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#edit-form"
    assert 'id="edit-form"' in body and "errorlist" in body


def test_customers_and_finance_cannot_preview(clients, review, engine):  # noqa: F811
    for who in ("customer", "finance"):
        assert clients[who].post(url(review, "preview/"), rerun_data(review)).status_code == 403


def test_preview_stays_within_its_query_budget(
    clients,
    review,  # noqa: F811
    engine,  # noqa: F811
    django_assert_max_num_queries,
):
    """The session, the user, the membership; the review with its quote, organisation and
    whether a revision replaced it (one query, its stored report read as text); the quote's
    file (this quote was stored without its reading, so it is read again); the intake's key
    (the vendor's mappings and remembered corrections, the quote's corrections); the stored
    lines; the catalog parts (a line needs confirming). No query for the newer version, the
    history or the stored report's JSON."""
    catalog_snapshot()  # a warm worker holds the catalog
    data = rerun_data(review, **{"w-concurrent_users": 150})
    with django_assert_max_num_queries(10):
        response = clients["account_team"].post(url(review, "preview/"), data, headers=HX)
    assert response.status_code == 200 and 'id="preview-note"' in response.content.decode()
