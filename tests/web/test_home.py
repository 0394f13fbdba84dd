"""The home dashboard per role and the list of reviews, scoped by organisation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from apps.review.models import ReviewStatus
from tests.reports.page_reports import RACK_OK, school_bus_report
from tests.review.factories import review_published_as_is
from tests.web.test_review_views import review_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviews(demo):
    account = User.objects.get(username="account")
    made = {
        "acme_warn": review_for(demo["acme"], account),
        "acme_pass": review_for(
            demo["acme"], account, school_bus_report(findings=[RACK_OK]), ReviewStatus.CLEAR
        ),
        "globex_warn": review_for(demo["globex"], account),
    }
    # Published as they are, so each customer's list has something to show.
    return {name: review_published_as_is(review) for name, review in made.items()}


def test_anonymous_home_goes_to_login(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == "/login/"


def test_account_team_home_has_the_upload_button_and_recent_reviews(clients, reviews):
    body = clients["account_team"].get("/").content.decode()
    assert 'href="/quotes/upload/"' in body and "Review a quote" in body
    for review in reviews.values():
        assert f'href="/reviews/{review.uuid}/"' in body
    # 2 flagged reviews wait for Finance (acme_warn and globex_warn); the passing one is clear.
    assert '<span class="n">2</span> waiting for Finance' in body
    assert "USD 600,000.00" in body and "Globex Analytics" in body
    assert body.count('data-vehicle="') == 7  # the lot, moped to freight train


def test_finance_home_counts_the_queue(clients, reviews):
    body = clients["finance"].get("/").content.decode()
    assert '<span class="n">2</span> with warnings, waiting' in body
    assert '<span class="n">0</span> failing, waiting' in body
    assert 'href="/reviews/queue/"' in body and "Open the queue (2 waiting)" in body


def test_customer_home_lists_only_their_organisations_reviews(clients, reviews):
    body = clients["customer"].get("/").content.decode()
    assert "Acme Research: your quote reviews" in body
    assert f"/reviews/{reviews['acme_warn'].uuid}/" in body
    assert f"/reviews/{reviews['acme_pass'].uuid}/" in body
    assert f"/reviews/{reviews['globex_warn'].uuid}/" not in body
    assert "Waiting for Finance" not in body and "In review" in body and "Reviewed" in body
    assert 'href="/quotes/upload/"' not in body
    assert f'href="/reports/{reviews["acme_warn"].uuid}/"' in body  # the PDF report's page


def test_home_makes_a_bounded_number_of_queries(clients, reviews, django_assert_max_num_queries):
    for who in ("account_team", "finance", "customer"):
        clients[who].get("/")
        # session, user, membership, counts, recent reviews (quote + organisation joined);
        # the session row is written at most once a minute, not on this request
        with django_assert_max_num_queries(5):
            assert clients[who].get("/").status_code == 200


def test_review_list_is_scoped_and_filters_by_verdict(clients, reviews):
    body = clients["other_customer"].get("/reviews/").content.decode()
    assert f"/reviews/{reviews['globex_warn'].uuid}/" in body
    assert f"/reviews/{reviews['acme_warn'].uuid}/" not in body
    body = clients["account_team"].get("/reviews/", {"verdict": "pass"}).content.decode()
    assert f"/reviews/{reviews['acme_pass'].uuid}/" in body
    assert f"/reviews/{reviews['acme_warn'].uuid}/" not in body


def test_review_list_makes_a_bounded_number_of_queries(
    clients, demo, django_assert_max_num_queries
):
    account = User.objects.get(username="account")
    for _ in range(12):
        review_for(demo["acme"], account)
    clients["customer"].get("/reviews/")
    # session, user, membership, count, one page of 12 (the session is not written)
    with django_assert_max_num_queries(5):
        assert clients["customer"].get("/reviews/").status_code == 200


def test_review_list_needs_login(client):
    assert client.get("/reviews/").status_code == 302
