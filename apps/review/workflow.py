"""The Finance workflow: an explicit transition table and one decision service.

Two Finance reviewers looking at the same flagged quote both press a button: the first one
wins, the second sees "quote changed". That is a version column checked twice: under
`select_for_update` (PostgreSQL row lock; on SQLite the IMMEDIATE transaction takes the write
lock) and again in the conditional `UPDATE ... WHERE version = expected_version`, so the rule
holds whichever database runs it. The audit row is written in the same transaction: no
decision without its audit row, no audit row without its decision.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.review.decisions import ReasonRequired
from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.review.notifications import notify_account_team, notify_finance
from apps.review.services import ReviewChanged
from apps.review.webhooks import ReviewEvent, emit_review_event
from apps.sites.access import role_of
from apps.sites.models import Role

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = [
    "ACTION_ROLES",
    "TRANSITIONS",
    "Action",
    "ReasonRequired",
    "ReviewChanged",
    "actions_for",
    "review_decide",
]


class Action(StrEnum):
    APPROVE = "approve"
    REJECT = "reject"
    REQUEST_CHANGES = "request_changes"
    RESUBMIT = "resubmit"

    @property
    def label(self) -> str:
        return ACTION_LABELS[self]


ACTION_LABELS = {
    Action.APPROVE: "Approve",
    Action.REJECT: "Reject",
    Action.REQUEST_CHANGES: "Request changes",
    Action.RESUBMIT: "Resubmit",
}

S = ReviewStatus
TRANSITIONS: dict[tuple[ReviewStatus, Action], ReviewStatus] = {
    (S.PENDING, Action.APPROVE): S.APPROVED,
    (S.PENDING, Action.REJECT): S.REJECTED,
    (S.PENDING, Action.REQUEST_CHANGES): S.CHANGES_REQUESTED,
    (S.CHANGES_REQUESTED, Action.RESUBMIT): S.PENDING,
}
"""Everything not listed is refused: a CLEAR review never needs Finance, a decided one is
final until a saved change moves what it was decided on (see decisions.status_after_save)."""

ACTION_ROLES: dict[Action, frozenset[Role]] = {
    Action.APPROVE: frozenset({Role.FINANCE, Role.ADMIN}),
    Action.REJECT: frozenset({Role.FINANCE, Role.ADMIN}),
    Action.REQUEST_CHANGES: frozenset({Role.FINANCE, Role.ADMIN}),
    Action.RESUBMIT: frozenset({Role.ACCOUNT_TEAM, Role.ADMIN}),
}


def actions_for(*, status: str, role: Role | None) -> list[Action]:
    """The buttons to show: allowed from this status and for this role."""
    return [
        action
        for (from_status, action) in TRANSITIONS
        if from_status == status and role in ACTION_ROLES[action]
    ]


def review_decide(
    *, review_id: int, expected_version: int, action: str, reason: str, actor: User
) -> Review:
    """Apply one Finance (or resubmit) action, or raise.

    Raises PermissionDenied when the actor's role may not take the action, ReasonRequired for
    a blank comment, ReviewChanged when the review moved past `expected_version`, the quote
    was revised, or the action is not allowed from the current status.
    """
    try:
        action = Action(action)
    except ValueError as exc:
        raise ReviewChanged(f"Unknown action {action!r}.") from exc
    role = role_of(actor)
    if role not in ACTION_ROLES[action]:
        raise PermissionDenied(f"{action.label} is not open to your role.")
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired("A comment is required for every decision.")

    with transaction.atomic():
        # With what the audit row, the webhook event and the notifications read (the quote's
        # file, the organisation, whoever made the review and their role), in this one query;
        # only the review's row is locked.
        review = (
            Review.objects.select_for_update(of=("self",))
            .select_related("quote__source_file", "organisation", "created_by__membership")
            .get(pk=review_id)
        )
        if review.version != expected_version:
            raise ReviewChanged("Quote changed: someone else decided first.")
        if _is_superseded(review):
            raise ReviewChanged("Quote changed: a revised quote replaced this one.")
        to_status = TRANSITIONS.get((ReviewStatus(review.status), action))
        if to_status is None:
            raise ReviewChanged(f"Quote changed: it is {review.get_status_display().lower()}.")
        decided_at = timezone.now()
        updated = Review.objects.filter(
            pk=review_id, version=expected_version, status=review.status
        ).update(status=to_status, version=F("version") + 1, updated_at=decided_at)
        if updated != 1:
            raise ReviewChanged("Quote changed: someone else decided first.")
        decision = AuditEvent.objects.create(
            review=review,
            actor=actor,
            role=role.value,
            action=action.value,
            reason=reason,
            from_status=review.status,
            to_status=to_status,
            version=review.quote.version,
            file_sha256=review.quote.source_file.sha256,
        )
        # What the conditional update wrote, and nothing else can have (the row is locked):
        # the values it was given, without reading the row again.
        review.status = to_status.value
        review.version = expected_version + 1
        review.updated_at = decided_at
        # Queued in the same transaction, sent after it commits: a rolled-back decision
        # announces nothing. A resubmission puts the review back in front of Finance.
        if to_status == ReviewStatus.PENDING:
            emit_review_event(review, ReviewEvent.FLAGGED)
        else:
            emit_review_event(review, ReviewEvent.DECIDED, decision=decision)
    _after_decision(review, action=action, reason=reason, actor=actor)
    return review


def _after_decision(review: Review, *, action: Action, reason: str, actor: User) -> None:
    """After a decision has committed: tell the people it concerns (the inbox now, the email
    by a task enqueued on commit; the webhooks were queued with the decision, above)."""
    if action == Action.RESUBMIT:
        notify_finance(review)
    else:
        notify_account_team(
            review=review, decision=ReviewStatus(review.status).label, reason=reason, actor=actor
        )


def _is_superseded(review: Review) -> bool:
    """A revised quote that was reviewed is decided on its new review, not this one.

    A revision the parser rejected has no review and supersedes nothing: Finance still
    decides the last readable version.
    """
    return Review.objects.filter(quote__previous_id=review.quote_id).exists()
