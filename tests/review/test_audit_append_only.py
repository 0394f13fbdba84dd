"""RELIABILITY 25: audit events cannot be edited or deleted, one by one or in bulk."""

import pytest
from django.contrib.auth.models import User

from apps.review.models import AuditEvent
from apps.review.workflow import review_decide
from tests.review.factories import review_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(demo):
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    review_decide(
        review_id=review.pk,
        expected_version=review.version,
        action="approve",
        reason="fits the room",
        actor=User.objects.get(username="finance"),
    )
    return AuditEvent.objects.get(review=review)


def test_single_event_cannot_be_changed_or_deleted(event):
    event.reason = "rewritten history"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    assert AuditEvent.objects.get(pk=event.pk).reason == "fits the room"


def test_bulk_update_and_delete_are_refused(event):
    with pytest.raises(PermissionError):
        AuditEvent.objects.filter(pk=event.pk).update(reason="rewritten")
    with pytest.raises(PermissionError):
        AuditEvent.objects.all().delete()
    assert AuditEvent.objects.count() == 1
