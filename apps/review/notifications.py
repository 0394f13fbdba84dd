"""Telling people: Finance when a review needs it, the account team when Finance decides or
asks for changes. One `Notification` per person (the in-app inbox) and the same words by email
through Django's email framework (console in development, SMTP in production).

Sent after the decision has committed: a mail server that is down loses an email (logged),
never a decision.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.urls import reverse

from apps.review.models import Notification, Review
from apps.sites.models import Role

if TYPE_CHECKING:
    from collections.abc import Iterable

logger = logging.getLogger("rightsize.notifications")


def _people(role: Role) -> list[User]:
    return list(User.objects.filter(is_active=True, membership__role=role).order_by("username"))


def _send(
    *, people: Iterable[User], review: Review | None, kind: str, subject: str, body: str
) -> list[Notification]:
    notes = []
    for person in dict.fromkeys(people):  # one message each, in order
        notes.append(
            Notification.objects.create(
                user=person, review=review, kind=kind, subject=subject, body=body
            )
        )
        if not person.email:
            continue
        try:
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [person.email])
        except OSError:
            logger.exception("notification email to %s failed", person.email)
    return notes


def _review_link(review: Review) -> str:
    """The review's address: absolute when settings.SITE_URL names the site."""
    return f"{settings.SITE_URL}{reverse('review:detail', args=[review.uuid])}"


def _title(review: Review) -> str:
    return f"{review.quote} for {review.organisation}"


def notify_finance(review: Review) -> list[Notification]:
    """A review needs Finance: every Finance reviewer is told why (the rule's reasons)."""
    reasons = " ".join(review.finance_reasons) or "It needs a Finance decision."
    body = f"{_title(review)} is waiting for Finance. {reasons}\n\nOpen it: {_review_link(review)}"
    return _send(
        people=_people(Role.FINANCE),
        review=review,
        kind="needs_finance",
        subject=f"Waiting for Finance: {review.quote}",
        body=body,
    )


def notify_account_team(
    *, review: Review, decision: str, reason: str, actor: User
) -> list[Notification]:
    """Finance decided (or asked for changes): the person who made the review and the
    account team are told the decision and its comment."""
    body = (
        f"{actor} ({decision.lower()}) {_title(review)}: {reason}\n\n"
        f"Open it: {_review_link(review)}"
    )
    people = [*_people(Role.ACCOUNT_TEAM)]
    creator = review.created_by
    if creator.is_active and getattr(getattr(creator, "membership", None), "role", "") in {
        Role.ACCOUNT_TEAM,
        Role.ADMIN,
    }:
        people.insert(0, creator)
    return _send(
        people=people,
        review=review,
        kind="decided",
        subject=f"{decision}: {review.quote}",
        body=body,
    )
