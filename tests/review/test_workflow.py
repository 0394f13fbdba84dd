"""The Finance workflow: the transition table, each transition, audit rows, stale versions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError

from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.review.workflow import (
    TRANSITIONS,
    Action,
    ReasonRequired,
    ReviewChanged,
    actions_for,
    review_decide,
)
from apps.sites.models import Role
from tests.review.factories import quote_make, review_make

pytestmark = pytest.mark.django_db

S = ReviewStatus


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def flagged(demo, people) -> Review:
    return review_make(organisation=demo["acme"], user=people["account"])


def decide(
    review: Review, actor: User, action: str, *, reason: str = "ok", version: int = 1
) -> Review:
    """One move on `review` by `actor`, expecting `version`: decide(flagged, finance, "approve")
    is Finance approving the review it saw at version 1."""
    return review_decide(
        review_id=review.pk,
        expected_version=version,
        action=action,
        reason=reason,
        actor=actor,
    )


def test_transition_table_is_exactly_the_four_documented_moves():
    assert TRANSITIONS == {
        (S.PENDING, Action.APPROVE): S.APPROVED,
        (S.PENDING, Action.REJECT): S.REJECTED,
        (S.PENDING, Action.REQUEST_CHANGES): S.CHANGES_REQUESTED,
        (S.CHANGES_REQUESTED, Action.RESUBMIT): S.PENDING,
    }


def test_actions_for_role_and_status():
    finance_actions = [Action.APPROVE, Action.REJECT, Action.REQUEST_CHANGES]
    assert actions_for(status=S.PENDING, role=Role.FINANCE) == finance_actions
    assert actions_for(status=S.PENDING, role=Role.ACCOUNT_TEAM) == []
    assert actions_for(status=S.CHANGES_REQUESTED, role=Role.ACCOUNT_TEAM) == [Action.RESUBMIT]
    assert actions_for(status=S.APPROVED, role=Role.ADMIN) == []
    assert actions_for(status=S.PENDING, role=None) == []


@pytest.mark.parametrize(
    ("action", "to_status"),
    [
        ("approve", S.APPROVED),
        ("reject", S.REJECTED),
        ("request_changes", S.CHANGES_REQUESTED),
    ],
)
def test_each_finance_decision_moves_status_bumps_version_and_writes_one_audit_row(
    flagged, people, action, to_status
):
    decided = decide(
        flagged, people["finance"], action, reason="  Power fits after the RDHX upgrade.  "
    )
    assert decided.status == to_status
    assert decided.version == 2  # 1 + one decision
    event = AuditEvent.objects.get(review=flagged)
    assert (event.actor, event.role, event.action) == (people["finance"], "finance", action)
    assert event.reason == "Power fits after the RDHX upgrade."
    assert (event.from_status, event.to_status) == (S.PENDING, to_status)
    assert event.version == flagged.quote.version == 1
    assert event.file_sha256 == flagged.quote.source_file.sha256
    assert len(event.file_sha256) == 64


def test_resubmit_after_changes_requested_returns_to_finance(flagged, people):
    decide(flagged, people["finance"], "request_changes", reason="Quote the RDHX doors too.")
    resubmitted = decide(
        flagged, people["account"], "resubmit", reason="Doors added by the vendor.", version=2
    )
    assert (resubmitted.status, resubmitted.version) == (S.PENDING, 3)
    events = list(AuditEvent.objects.filter(review=flagged).values_list("action", "role"))
    assert events == [("request_changes", "finance"), ("resubmit", "account_team")]


def test_admin_may_decide(flagged, people):
    decided = decide(flagged, people["admin"], "approve", reason="Signed off")
    assert decided.status == S.APPROVED
    assert AuditEvent.objects.get(review=flagged).role == "admin"


@pytest.mark.parametrize("username", ["account", "customer", "globex"])
def test_other_roles_may_not_decide(flagged, people, username):
    with pytest.raises(PermissionDenied):
        decide(flagged, people[username], "approve")
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.PENDING, 1)
    assert not AuditEvent.objects.exists()


def test_finance_may_not_resubmit(flagged, people):
    with pytest.raises(PermissionDenied):
        decide(flagged, people["finance"], "resubmit", reason="x")


@pytest.mark.parametrize("reason", ["", "   \n\t"])
def test_reason_is_required(flagged, people, reason):
    with pytest.raises(ReasonRequired):
        decide(flagged, people["finance"], "reject", reason=reason)
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.PENDING, 1)
    assert not AuditEvent.objects.exists()


def test_stale_version_raises_review_changed_and_changes_nothing(flagged, people):
    decide(flagged, people["finance"], "approve", reason="fine")
    with pytest.raises(ReviewChanged, match="Quote changed"):
        decide(flagged, people["admin"], "reject", reason="too late", version=1)  # now 2
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.APPROVED, 2)
    assert AuditEvent.objects.filter(review=flagged).count() == 1


@pytest.mark.parametrize("status", [S.CLEAR, S.APPROVED, S.REJECTED, S.CHANGES_REQUESTED])
def test_transition_not_in_the_table_is_refused_as_changed(demo, people, status):
    review = review_make(organisation=demo["acme"], user=people["account"], status=status)
    with pytest.raises(ReviewChanged):
        decide(review, people["finance"], "approve")
    review.refresh_from_db()
    assert (review.status, review.version) == (status, 1)
    assert not AuditEvent.objects.exists()


def test_unknown_action_is_refused(flagged, people):
    with pytest.raises(ReviewChanged):
        decide(flagged, people["finance"], "delete", reason="x")


def test_a_revision_without_review_supersedes_nothing(flagged, people, demo):
    # the parser rejected the revised file: no review, Finance still decides version 1
    quote_make(
        organisation=demo["acme"],
        user=people["account"],
        previous=flagged.quote,
        version=2,
        status="rejected",
    )
    decided = decide(flagged, people["finance"], "approve")
    assert decided.status == S.APPROVED


def test_review_of_a_superseded_quote_cannot_be_decided(flagged, people, demo):
    revised = quote_make(
        organisation=demo["acme"], user=people["account"], previous=flagged.quote, version=2
    )
    review_make(organisation=demo["acme"], user=people["account"], quote=revised)
    with pytest.raises(ReviewChanged, match="revised"):
        decide(flagged, people["finance"], "approve")


def test_failed_audit_insert_rolls_back_the_status_change(flagged, people, monkeypatch):
    def broken_create(**kwargs: object) -> None:
        raise IntegrityError("audit table unavailable")

    monkeypatch.setattr(AuditEvent.objects, "create", broken_create)
    with pytest.raises(IntegrityError):
        decide(flagged, people["finance"], "approve")
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (S.PENDING, 1)


def test_audit_events_cannot_be_edited_or_deleted(flagged, people):
    decide(flagged, people["finance"], "approve")
    event = AuditEvent.objects.get()
    event.reason = "rewritten history"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    assert AuditEvent.objects.get().reason == "ok"


def test_audit_admin_is_read_only(clients, flagged, people):
    decide(flagged, people["finance"], "approve")
    event = AuditEvent.objects.get()
    admin = clients["admin"]
    assert admin.get("/admin/review/auditevent/").status_code == 200
    assert admin.get(f"/admin/review/auditevent/{event.pk}/change/").status_code == 200
    assert admin.get("/admin/review/auditevent/add/").status_code == 403
    assert admin.get(f"/admin/review/auditevent/{event.pk}/delete/").status_code == 403
    response = admin.post(
        f"/admin/review/auditevent/{event.pk}/change/", {"reason": "rewritten history"}
    )
    assert response.status_code == 403
    assert AuditEvent.objects.get().reason == "ok"
