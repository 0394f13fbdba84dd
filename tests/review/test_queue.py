"""The Finance queue page and the decision endpoints."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.review.queue import QueueFilters, queue_reviews, spend_choices
from tests.review.factories import (
    MEMORY_OK,
    RACK_POWER_CRITICAL,
    Finding,
    quote_make,
    report_make,
    review_make,
)

pytestmark = pytest.mark.django_db

S = ReviewStatus
HX = {"HX-Request": "true"}
WARNING = Finding(check="memory", severity="warning", title="Tight", detail="95% full")


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def flagged(demo, people) -> Review:
    return review_make(organisation=demo["acme"], user=people["account"])


def _review(demo, people, *, total: str, findings=None, org="acme", days_old=0, status=None):
    report = report_make(findings or [MEMORY_OK, RACK_POWER_CRITICAL], total=total)
    review = review_make(
        organisation=demo[org], user=people["account"], report=report, status=status
    )
    if days_old:
        Review.objects.filter(pk=review.pk).update(
            created_at=timezone.now() - timedelta(days=days_old)
        )
    return review


def test_queue_lists_a_flagged_review_with_levels_total_and_age(clients, flagged):
    response = clients["finance"].get("/reviews/queue/")
    body = response.content.decode()
    assert response.status_code == 200
    assert f'id="row-{flagged.uuid}"' in body
    assert "Acme Research" in body
    assert '<span class="badge fail">Fail</span>' in body
    assert '<span class="badge high">High</span>' in body  # finance gauge
    assert '<span class="badge crisis">Crisis</span>' in body  # facilities gauge
    assert "USD 515,000.00" in body  # in its own currency, to the cent, thousands grouped
    assert "0\xa0minutes" in body  # created just now
    assert body.count('name="reason"') == 1 and "required" in body


def test_queue_leaves_out_passing_clear_and_superseded_reviews(clients, demo, people, flagged):
    # Passes, calm Finance, USD 5,000 under Acme's USD 100,000 line: no reason for Finance.
    passing = review_make(
        organisation=demo["acme"],
        user=people["account"],
        report=report_make([MEMORY_OK], total="5000.00", finance="calm"),
    )
    old = review_make(organisation=demo["globex"], user=people["account"])
    v2 = quote_make(
        organisation=demo["globex"], user=people["account"], previous=old.quote, version=2
    )
    newest = review_make(organisation=demo["globex"], user=people["account"], quote=v2)
    uuids = {r.uuid for r in queue_reviews(filters=QueueFilters())}
    assert uuids == {flagged.uuid, newest.uuid}
    assert passing.status == S.CLEAR
    body = clients["finance"].get("/reviews/queue/").content.decode()
    assert str(old.uuid) not in body and str(passing.uuid) not in body


def test_spend_bands_follow_the_finance_thresholds(demo, people):
    # thresholds 10,000 / 100,000 / 1,000,000 USD
    small = _review(demo, people, total="9999.99")
    ten_k = _review(demo, people, total="10000.00")
    big = _review(demo, people, total="1000000.00")

    def band(spend: str) -> set:
        return {r.pk for r in queue_reviews(filters=QueueFilters(spend=spend))}

    assert band("calm") == {small.pk}  # 9,999.99 < 10,000
    assert band("raised") == {ten_k.pk}  # 10,000 is the first raised dollar
    assert band("high") == set()
    assert band("crisis") == {big.pk}  # 1,000,000 and over
    assert spend_choices()[1] == ("calm", "Under $10,000")


def test_filters_by_verdict_age_and_status(clients, demo, people):
    fail_new = _review(demo, people, total="50000")
    warn_old = _review(demo, people, total="50000", findings=[WARNING], days_old=3)
    ancient = _review(demo, people, total="50000", days_old=30)
    approved = _review(demo, people, total="50000", status=S.APPROVED)

    def shown(**query: str) -> set:
        return {r.pk for r in queue_reviews(filters=QueueFilters.from_query(query))}

    assert shown() == {fail_new.pk, warn_old.pk, ancient.pk}
    assert shown(verdict="warn") == {warn_old.pk}
    assert shown(age="day") == {fail_new.pk}
    assert shown(age="week") == {warn_old.pk}  # 3 days: between 1 and 7
    assert shown(age="older") == {ancient.pk}
    assert shown(status="approved") == {approved.pk}
    assert shown(status="all") == {fail_new.pk, warn_old.pk, ancient.pk, approved.pk}
    assert shown(status="bogus", verdict="bogus") == shown()  # unknown values mean "any"
    oldest_first = list(queue_reviews(filters=QueueFilters()))
    assert oldest_first[0] == ancient


def test_htmx_filter_returns_only_the_table(clients, demo, people):
    _review(demo, people, total="50000", findings=[WARNING])
    response = clients["finance"].get("/reviews/queue/", {"verdict": "fail"}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and 'id="queue-table"' in body
    assert "Nothing waiting here" in body
    assert "HX-Request" in response["Vary"]


def test_queue_query_budget(clients, demo, people, django_assert_max_num_queries):
    for total in ("5000", "50000", "500000", "5000000"):
        _review(demo, people, total=total)
    # session, user, membership, count, rows (quote and organisation joined): 5 whatever
    # the number of rows (the session row is written at most once a minute, not here)
    with django_assert_max_num_queries(5):
        response = clients["finance"].get("/reviews/queue/")
    assert response.content.decode().count('class="queue-row"') == 4


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("customer", 403), ("other_customer", 403), ("account_team", 403)],
)
def test_queue_is_for_finance_and_admin_only(clients, who, status):
    assert clients[who].get("/reviews/queue/").status_code == status
    assert clients["admin"].get("/reviews/queue/").status_code == 200


def _post(client, review, action="approve", reason="Doors are on order", version=None, **kw):
    path = {"request_changes": "request-changes"}.get(action, action)
    data = {"reason": reason, "version": version or review.version}
    return client.post(f"/reviews/{review.uuid}/{path}/", data, **kw)


def test_htmx_approve_swaps_the_row(clients, flagged, people):
    response = _post(
        clients["finance"], flagged, headers={**HX, "HX-Target": f"row-{flagged.uuid}"}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith(f'<tr id="row-{flagged.uuid}"')
    assert "Approved" in body and "<form" not in body  # decided: no buttons left
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.APPROVED, 2)
    event = AuditEvent.objects.get()
    assert (event.actor, event.reason) == (people["finance"], "Doors are on order")


@pytest.mark.parametrize(
    ("action", "expected"), [("reject", S.REJECTED), ("request_changes", S.CHANGES_REQUESTED)]
)
def test_plain_form_post_redirects_back_to_the_queue(clients, flagged, action, expected):
    response = _post(clients["admin"], flagged, action=action)
    assert response.status_code == 302 and response["Location"] == "/reviews/queue/"
    flagged.refresh_from_db()
    assert flagged.status == expected


def test_stale_version_answers_409_quote_changed(clients, flagged):
    assert _post(clients["finance"], flagged).status_code == 302
    late = _post(clients["admin"], flagged, action="reject", version=1, headers=HX)
    assert late.status_code == 409
    assert "Quote changed" in late.content.decode()
    plain = _post(clients["admin"], flagged, action="reject", version=1)
    assert plain.status_code == 409 and "Quote changed" in plain.content.decode()
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.APPROVED, 2)
    assert AuditEvent.objects.count() == 1


def test_blank_comment_is_refused_and_changes_nothing(clients, flagged):
    response = _post(
        clients["finance"], flagged, reason="  ", headers={**HX, "HX-Target": f"row-{flagged.uuid}"}
    )
    assert response.status_code == 200
    assert "A comment is required" in response.content.decode()
    assert _post(clients["finance"], flagged, reason="").status_code == 400
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.PENDING, 1)
    assert not AuditEvent.objects.exists()


def test_missing_version_is_400(clients, flagged):
    response = clients["finance"].post(f"/reviews/{flagged.uuid}/approve/", {"reason": "ok"})
    assert response.status_code == 400


@pytest.mark.parametrize("who", ["customer", "other_customer", "account_team"])
def test_others_may_not_decide(clients, flagged, who):
    assert _post(clients[who], flagged).status_code == 403
    flagged.refresh_from_db()
    assert flagged.status == S.PENDING


def test_resubmit_by_the_account_team(clients, flagged):
    _post(clients["finance"], flagged, action="request_changes")
    response = _post(clients["account_team"], flagged, action="resubmit", version=2)
    assert response.status_code == 302 and response["Location"] == "/"
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.PENDING, 3)
    htmx_elsewhere = _post(clients["finance"], flagged, version=3, headers=HX)
    assert htmx_elsewhere.status_code == 200 and htmx_elsewhere["HX-Refresh"] == "true"


def test_a_total_in_a_currency_without_a_rate_shows_as_such(clients, demo, people):
    review = _review(demo, people, total="50000")
    Review.objects.filter(pk=review.pk).update(total_usd=None, currency="CHF")
    body = clients["finance"].get("/reviews/queue/").content.decode()
    assert "CHF 50,000.00" in body and "no exchange rate" in body
    Review.objects.filter(pk=review.pk).update(total=None)
    assert "no total" in clients["finance"].get("/reviews/queue/").content.decode()
