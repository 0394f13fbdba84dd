"""The review page's query budget, per role, for the whole page and its htmx partial.

What the budget pays for (account team, whole page, 13): the session and the user, the
membership (role), the review with its quote, file, organisation and author, the newer and
the previous version of the quote, the stored lines (one query, never one per line), the
vendor's remembered corrections, the events and the correction history of the Finance trail,
the catalog parts only when a line needs confirming. A new query per line or per finding
shows up here before it shows up in `make bench`."""

import re

import pytest

from tests.review.factories import review_published_as_is
from tests.web.test_review_views import HX, people, review, url  # noqa: F401

BUDGET = {
    ("account_team", "page"): 13,
    ("account_team", "partial"): 10,
    ("finance", "page"): 11,
    ("finance", "partial"): 9,
    ("customer", "page"): 9,
    ("customer", "partial"): 9,
}


@pytest.mark.parametrize("who", ["account_team", "finance", "customer"])
@pytest.mark.parametrize("part", ["page", "partial"])
def test_review_page_stays_within_its_query_budget(
    clients,
    review,  # noqa: F811
    who,
    part,
    django_assert_max_num_queries,
):
    headers = HX if part == "partial" else {}
    if who == "customer":  # a customer sees a review once it is published to them
        review_published_as_is(review)
    with django_assert_max_num_queries(BUDGET[(who, part)]):
        response = clients[who].get(url(review), headers=headers)
    assert response.status_code == 200
    # The partial is the results region alone; the page is the whole document.
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="results"') == (part == "partial")


def test_a_cached_page_costs_no_more_queries_than_the_first(
    clients,
    review,  # noqa: F811
    django_assert_max_num_queries,
):
    """The second view of the same review reads its report sections and lines table from the
    fragment cache: the same HTML, never more queries."""
    first = clients["finance"].get(url(review)).content.decode()
    with django_assert_max_num_queries(BUDGET[("finance", "page")]):
        second = clients["finance"].get(url(review)).content.decode()

    def results(html: str) -> str:  # the CSRF token is masked afresh on every response
        region = html.split('id="results"', 1)[1].split('id="trail"', 1)[0]
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", region)

    assert 'id="quote-lines"' in results(second)
    assert results(first) == results(second)
