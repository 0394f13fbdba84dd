"""What a save does to Finance's decision: the status it leads to (``status_after_save``: an
approved DGX B200 quote whose findings, money and systems did not move stays approved; one
whose rack power went from ok to critical goes back to Finance), the reason the audit trail
gives (``save_reason``), the decision it quotes (``previous_decision``) and the audit row every
save writes (``audit_record``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone

from apps.review.basis import Change, decision_stands
from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.sites.access import role_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class ReasonRequired(ValueError):
    """Every decision carries a comment: the audit log says why, not only who."""


DECISIONS = ("approve", "reject", "request_changes", "carry_over")
DECIDED = (ReviewStatus.APPROVED, ReviewStatus.REJECTED, ReviewStatus.CHANGES_REQUESTED)


def previous_decision(review: Review) -> str:
    """The newest decision on this review, in words: "Approved by finance on 2026-12-01:
    fits the budget"; "" when Finance never decided."""
    event = (
        AuditEvent.objects.filter(review=review, action__in=DECISIONS)
        .select_related("actor")
        .order_by("-created_at", "-id")
        .first()
    )
    if event is None:
        return ""
    label = ReviewStatus(event.to_status).label if event.to_status in ReviewStatus else ""
    when = timezone.localdate(event.created_at).isoformat()
    return f"{label} by {event.actor} on {when}: {event.reason}"


def status_after_save(
    *, status: str, needs_finance: bool, changes: list[Change], comment: str, resubmits: bool
) -> ReviewStatus:
    """The status once a save moved `changes`.

    - Changes requested: a save with a comment is the resubmission (back to Finance, or CLEAR
      if nothing needs Finance any more); without one, a button that resubmits raises
      ReasonRequired, and a line correction keeps it with the account team.
    - Decided (approved, rejected) and nothing but wording moved: the decision stands.
    - Anything else that moved, or a review not yet decided: the rule decides, PENDING or CLEAR.
    """
    if status == ReviewStatus.CHANGES_REQUESTED:
        if comment.strip():
            return ReviewStatus.PENDING if needs_finance else ReviewStatus.CLEAR
        if resubmits:
            raise ReasonRequired(
                "Finance asked for changes: say what you changed (the comment goes to Finance)."
            )
        return ReviewStatus.CHANGES_REQUESTED
    if status in DECIDED and decision_stands(changes):
        return ReviewStatus(status)
    return ReviewStatus.PENDING if needs_finance else ReviewStatus.CLEAR


def save_reason(*, changes: list[Change], from_status: str, to_status: str, comment: str) -> str:
    moved = "; ".join(str(c) for c in changes) if changes else "nothing moved"
    if from_status == to_status and from_status in DECIDED and changes:
        stands = f" The decision ({ReviewStatus(from_status).label.lower()}) carries over: "
        text = f"Saved: {moved}.{stands}findings, money and systems unchanged."
    elif from_status in DECIDED and to_status != from_status:
        text = f"Saved: {moved}. Back to {ReviewStatus(to_status).label.lower()}."
    else:
        text = f"Saved: {moved}."
    return f"{text} Comment: {comment.strip()}" if comment.strip() else text


def audit_record(
    *,
    review: Review,
    user: User,
    action: str,
    reason: str,
    from_status: str,
    to_status: str,
    changes: list[Change] | None = None,
    previous_decision: str = "",
) -> None:
    """Every save and every system status change is audited, with what moved."""
    role = role_of(user)
    AuditEvent.objects.create(
        review=review,
        actor=user,
        role=role.value if role else "",
        action=action,
        reason=reason,
        from_status=from_status,
        to_status=to_status,
        version=review.quote.version,
        file_sha256=review.quote.source_file.sha256,
        changes=[c.model_dump() for c in changes or []],
        previous_decision=previous_decision,
    )
