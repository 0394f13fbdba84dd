"""The Finance queue's rows kept once drawn (apps.web.fragments.queue_row_key): each response
carries its own CSRF token in every row, and a decision, a changed total or another role's
decisions give the row afresh."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from apps.review.models import Review
from apps.sites.models import Membership, Role
from tests.review.factories import review_make

pytestmark = pytest.mark.django_db

QUEUE = "/reviews/queue/"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
OWN = re.compile(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": |nonce=)"[^"]+"')


@pytest.fixture
def flagged(demo) -> list[Review]:
    account = User.objects.get(username="account")
    return [review_make(organisation=demo["acme"], user=account) for _ in range(3)]


def _row(body: str, review: Review) -> str:
    return body.split(f'id="row-{review.uuid}"', 1)[1].split("</tr>", 1)[0]


def test_every_row_carries_this_response_token(clients, flagged):
    first = clients["finance"].get(QUEUE).content.decode()
    second = clients["finance"].get(QUEUE).content.decode()
    assert OWN.sub("", first) == OWN.sub("", second)
    assert "<rightsize-" not in second
    tokens = set(TOKEN.findall(second))  # one token per response, in every row and the header
    assert len(tokens) == 1 and tokens.isdisjoint(TOKEN.findall(first))
    for review in flagged:
        assert TOKEN.search(_row(second, review)).group(1) in tokens


def test_another_reviewer_posts_with_the_token_of_their_own_queue(clients, demo, flagged):
    clients["finance"].get(QUEUE)
    other = User.objects.create_user("finance2", "finance2@example.com", "x" * 20)
    organisation = User.objects.get(username="finance").membership.organisation
    Membership.objects.create(user=other, organisation=organisation, role=Role.FINANCE)
    client = Client(enforce_csrf_checks=True)
    client.force_login(other)
    body = client.get(QUEUE).content.decode()
    review = flagged[0]
    token = TOKEN.search(_row(body, review)).group(1)
    data = {"version": review.version, "reason": "Budgeted", "csrfmiddlewaretoken": token}
    assert client.post(f"/reviews/{review.uuid}/approve/", data).status_code == 302


def test_a_decision_or_a_new_total_gives_the_row_afresh(clients, flagged):
    before = clients["finance"].get(QUEUE, {"status": "all"}).content.decode()
    decided, moved = flagged[0], flagged[1]
    assert 'class="decision-buttons"' in _row(before, decided)
    data = {"version": decided.version, "reason": "Later"}
    response = clients["finance"].post(f"/reviews/{decided.uuid}/reject/", data)
    assert response.status_code == 302
    Review.objects.filter(pk=moved.pk).update(total="123456.78")
    after = clients["finance"].get(QUEUE, {"status": "all"}).content.decode()
    assert "Rejected" in _row(after, decided) and "Rejected" not in _row(before, decided)
    assert "123,456.78" in _row(after, moved) and "123,456.78" not in _row(before, moved)
