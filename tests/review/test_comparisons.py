"""How a review is named, when two reviews share a load, and who finds a saved comparison."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from apps.review.comparisons import (
    comparison_name_default,
    comparison_save,
    comparisons_visible,
    load_key,
    review_title,
)
from tests.review.factories import WORKLOAD, quote_make, review_make

pytestmark = pytest.mark.django_db


def test_a_review_is_named_without_its_file(demo) -> None:
    user = User.objects.get(username="account")
    bare = quote_make(organisation=demo["acme"], user=user, vendor="", quote_number="")
    review = review_make(organisation=demo["acme"], user=user, quote=bare)
    day = review.created_at.date().isoformat()
    assert review_title(review) == f"Acme Research · Unknown vendor no quote number · {day}"
    dated = quote_make(
        organisation=demo["acme"], user=user, quote_number="Q-9", quote_date="2026-11-03"
    )
    review = review_make(organisation=demo["acme"], user=user, quote=dated)
    assert review_title(review) == "Acme Research · Northwind Q-9 · 2026-11-03"


def test_the_same_load_under_another_name_is_the_same_load() -> None:
    plain = WORKLOAD.model_dump(mode="json")
    renamed = {**plain, "name": "Helpdesk bot"}
    more = {**plain, "concurrent_users": plain["concurrent_users"] + 1}
    assert load_key(plain) == load_key(renamed)
    assert load_key(plain) != load_key(more)
    assert len(load_key(plain)) == 12


def test_saved_comparisons_are_for_internal_roles_only(demo) -> None:
    account = User.objects.get(username="account")
    reviews = [review_make(organisation=demo["acme"], user=account) for _ in range(2)]
    name = comparison_name_default(reviews)
    assert name == "Internal assistant: 2 quotes for Acme Research"
    saved = comparison_save(name=name, reviews=reviews, user=account)
    assert list(comparisons_visible(account)) == [saved]
    assert list(comparisons_visible(User.objects.get(username="finance"))) == [saved]
    # a customer of the very organisation whose reviews these are still finds none
    assert list(comparisons_visible(User.objects.get(username="customer"))) == []
    assert list(comparisons_visible(User.objects.create(username="nobody"))) == []
