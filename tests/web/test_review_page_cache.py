"""The review page kept once rendered (apps.web.page_cache): never another role's or another
person's page or token, and a fresh page after anything it shows moved (a decision, a
publication, a correction, a revision)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from apps.quotes.services import quote_upload
from apps.review.engine.schemas import Facility, Workload
from apps.review.models import Review
from apps.review.services import review_create
from apps.sites.models import Membership, Role
from tests.conftest import EXAMPLES
from tests.web.test_correction_views import correct_url, service
from tests.web.test_review_views import HX, people, review, review_for, url  # noqa: F401

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
NONCE = re.compile(r'nonce="([^"]+)"')
OWN = re.compile(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": |nonce=)"[^"]+"')


def _same(one: str, other: str) -> bool:
    """The same page but for what is each response's own (token, nonce)."""
    return OWN.sub("", one) == OWN.sub("", other)


def _second_finance(people) -> Client:  # noqa: F811
    """Another Finance reviewer, in the same organisation as the demo's, logged in with CSRF
    checks on (as a browser is)."""
    other = User.objects.create_user("finance2", "finance2@example.com", "x" * 20)
    Membership.objects.create(
        user=other, organisation=people["finance"].membership.organisation, role=Role.FINANCE
    )
    client = Client(enforce_csrf_checks=True)
    client.force_login(other)
    return client


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "partial"])
def test_every_response_carries_its_own_token_and_it_is_accepted(
    clients,
    people,  # noqa: F811
    review,  # noqa: F811
    headers,
):
    """Served twice (the second from the cache), each page has a token masked afresh and a
    nonce of its own; another Finance reviewer's page carries their token, which their POST
    passes the CSRF check with (a token kept from the first reader's page would fail it)."""
    first = clients["finance"].get(url(review), headers=headers).content.decode()
    second = clients["finance"].get(url(review), headers=headers).content.decode()
    assert TOKEN.search(first) and TOKEN.search(second)
    assert TOKEN.search(first).group(1) != TOKEN.search(second).group(1)
    assert "<rightsize-" not in second
    if not headers:
        assert NONCE.search(first).group(1) != NONCE.search(second).group(1)
        assert set(HEADER_TOKEN.findall(second)) == set(TOKEN.findall(second))
    assert _same(first, second)
    other = _second_finance(people)
    theirs = other.get(url(review), headers=headers).content.decode()
    if not headers:
        assert '<span class="who">finance2</span>' in theirs
        assert '<span class="who">finance</span>' not in theirs
    token = TOKEN.search(theirs).group(1)
    data = {"version": review.version, "reason": "Budgeted", "next": url(review)}
    response = other.post(url(review, "approve/"), data, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 302


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "partial"])
def test_each_role_sees_its_own_buttons_whoever_looked_first(
    clients,
    review,  # noqa: F811
    headers,
):
    account = clients["account_team"].get(url(review), headers=headers).content.decode()
    finance = clients["finance"].get(url(review), headers=headers).content.decode()
    account_again = clients["account_team"].get(url(review), headers=headers).content.decode()
    assert 'class="decide-approve"' in finance and 'class="decide-approve"' not in account
    assert "Send it back to Finance" not in finance
    assert 'class="correct-open small"' in account and 'class="correct-open small"' not in finance
    assert _same(account, account_again)
    if not headers:
        assert 'id="edit-form"' in account and 'id="edit-form"' not in finance
        assert 'id="edit-form"' in account_again


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "partial"])
def test_a_decision_and_a_publication_give_a_fresh_page(
    clients,
    review,  # noqa: F811
    headers,
):
    before = clients["finance"].get(url(review), headers=headers).content.decode()
    assert 'id="decision"' in before
    data = {"version": review.version, "reason": "Budgeted for Q1", "next": url(review)}
    assert clients["finance"].post(url(review, "approve/"), data).status_code == 302
    after = clients["finance"].get(url(review), headers=headers).content.decode()
    assert 'class="decide-approve"' not in after
    page = clients["account_team"].get(url(review)).content.decode()
    assert 'id="publish-button"' in page
    review.refresh_from_db()
    published = clients["account_team"].post(url(review, "publish/"), {"version": review.version})
    assert published.status_code == 302
    again = clients["account_team"].get(url(review), headers=headers).content.decode()
    assert 'id="publish-button"' not in again
    assert f"Published version {review.version} on" in again
    if not headers:
        assert "Budgeted for Q1" in clients["finance"].get(url(review)).content.decode()


def test_a_revision_gives_the_old_page_a_fresh_region(clients, demo, people):  # noqa: F811
    old = review_for(demo["acme"], people["account"])
    for headers in ({}, HX):
        assert (
            'id="superseded"'
            not in clients["finance"].get(url(old), headers=headers).content.decode()
        )
    new = review_for(demo["acme"], people["account"])
    new.quote.previous = old.quote
    new.quote.version = 2
    new.quote.save()
    for headers in ({}, HX):
        body = clients["finance"].get(url(old), headers=headers).content.decode()
        assert 'id="superseded"' in body and 'id="decision"' not in body


@pytest.fixture
def dell(demo, catalog_db) -> Review:
    folder = EXAMPLES / "dell-xe9680-configurator-per-system"
    account = User.objects.get(username="account")
    quote = quote_upload(
        data=(folder / "quote.csv").read_bytes(),
        filename="dell-quote.csv",
        organisation=demo["acme"],
        uploaded_by=account,
    )
    return review_create(
        quote=quote,
        workload=Workload.model_validate(json.loads((folder / "workload.json").read_text())),
        facility=Facility.model_validate(json.loads((folder / "facility.json").read_text())),
        created_by=account,
    )


def test_a_line_correction_gives_a_fresh_page(clients, dell):
    for who in ("account_team", "finance"):
        for headers in ({}, HX):
            body = clients[who].get(url(dell), headers=headers).content.decode()
            assert "Corrected by account" not in body
    assert (
        clients["account_team"].post(correct_url(dell, 12), service(), headers=HX).status_code
        == 200
    )
    for who in ("account_team", "finance"):
        for headers in ({}, HX):
            body = clients[who].get(url(dell), headers=headers).content.decode()
            assert "Corrected by account" in body
            assert re.search(r'<tr class="[^"]*role-system[^"]*corrected[^"]*" id="line-12"', body)


def test_a_flash_message_is_shown_not_cached(clients, review):  # noqa: F811
    """The page after a decision carries its message once; the next view neither shows it
    again nor was kept with it."""
    clients["finance"].get(url(review))
    data = {"version": review.version, "reason": "Budgeted", "next": url(review)}
    clients["finance"].post(url(review, "approve/"), data)
    with_message = clients["finance"].get(url(review)).content.decode()
    without = clients["finance"].get(url(review)).content.decode()
    assert 'class="messages"' in with_message and 'class="messages"' not in without
    assert 'class="messages"' not in clients["finance"].get(url(review)).content.decode()


def test_a_role_changed_since_gives_that_role_page(clients, people, review):  # noqa: F811
    """The same person, moved from the account team to Finance: Finance's page, not the one
    kept for them before."""
    before = clients["account_team"].get(url(review)).content.decode()
    assert 'id="edit-form"' in before and 'class="decide-approve"' not in before
    Membership.objects.filter(user=people["account"]).update(role=Role.FINANCE)
    after = clients["account_team"].get(url(review)).content.decode()
    assert 'id="edit-form"' not in after and 'class="decide-approve"' in after


def test_a_review_nobody_has_is_404_for_an_internal_reader(clients, review):  # noqa: F811
    review_uuid = review.uuid
    review.delete()
    for headers in ({}, HX):
        assert (
            clients["finance"].get(f"/reviews/{review_uuid}/", headers=headers).status_code == 404
        )
