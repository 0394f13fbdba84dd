"""The review page's query budget, per role, for the whole page and its htmx partial.

What the budget pays for (account team, whole page, 9): the session, the user, the membership
(role), the page key (apps.web.page_cache, one query; a customer's page is not kept and skips
it), the review with its quote, file and organisation (and whether a revision replaced
it, in the same query), the stored lines (one query, never one per line), the events and the
correction history of the Finance trail, the catalog parts only when a line needs confirming.
The newer and the previous version are read only when there is one; the session row is
written at most once a minute, not here. A new query per line or per finding shows up here
before it shows up in `make bench`."""

import re

import pytest

from apps.catalog.services import catalog_snapshot
from tests.review.factories import review_published_as_is
from tests.web.test_review_views import HX, people, review, url  # noqa: F401

BUDGET = {
    ("account_team", "page"): 9,
    ("account_team", "partial"): 7,
    ("finance", "page"): 8,
    ("finance", "partial"): 6,
    ("customer", "page"): 5,
    ("customer", "partial"): 5,
}
#: An internal reader's page seen again, unchanged (apps.web.page_cache): the session, the
#: user, the membership and the page key (the review, its newest event, correction and
#: revision and the catalog revision, in one query).
KEPT = 4


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
    # A warm worker: it holds the catalog (the edit form's model choices read it), compared
    # with the catalog revision at most once a minute in tests. Cold, the first read costs the
    # revision and the catalog (2 queries more), once per process and catalog change.
    catalog_snapshot()
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
    """The second view of the same review is the page kept from the first (apps.web.page_cache):
    the same HTML but for the token, for the key's query alone."""
    first = clients["finance"].get(url(review)).content.decode()
    with django_assert_max_num_queries(KEPT):
        second = clients["finance"].get(url(review)).content.decode()

    def results(html: str) -> str:  # the CSRF token is masked afresh on every response
        region = html.split('id="results"', 1)[1].split('id="trail"', 1)[0]
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", region)

    assert 'id="quote-lines"' in results(second)
    assert results(first) == results(second)


@pytest.mark.parametrize("who", ["account_team", "finance", "admin"])
@pytest.mark.parametrize("part", ["page", "partial"])
def test_a_kept_page_costs_the_key_query_alone(
    clients,
    review,  # noqa: F811
    who,
    part,
    django_assert_max_num_queries,
):
    headers = HX if part == "partial" else {}
    catalog_snapshot()
    first = clients[who].get(url(review), headers=headers).content.decode()
    with django_assert_max_num_queries(KEPT):
        second = clients[who].get(url(review), headers=headers).content.decode()
    # The CSRF token (in the forms and the htmx headers) and the nonce are each response's own.
    own = re.compile(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": |nonce=)"[^"]+"')
    assert own.sub("", first) == own.sub("", second)
