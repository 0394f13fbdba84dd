"""Telling people: Finance when a review needs it, the account team when Finance decides or
asks for changes. One `Notification` per person (the in-app inbox) and the same words by email
through Django's email framework (console in development, SMTP in production).

The inbox rows are written with the caller's work; the emails are one background task
(`notification_email_task`, run by `db_worker`), enqueued once that work has committed: a
rolled-back decision mails nothing, the request never waits for the mail server, and a mail
server that is down loses an email (logged by the task), never a decision.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
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
    mailed = [note.pk for note in notes if note.user.email]
    if mailed:
        transaction.on_commit(partial(notification_email_enqueue, notification_ids=mailed))
    return notes


def notification_email_enqueue(*, notification_ids: list[int]) -> None:
    """One task for the whole batch (one decision, or one review that needs Finance)."""
    from apps.review.tasks import notification_email_task

    notification_email_task.enqueue(notification_ids)


def notification_email_send(*, notification_ids: list[int]) -> int:
    """The task's body: email each notification to its person, in order. A failure is logged
    and the rest are still sent; returns how many were sent."""
    sent = 0
    notes = Notification.objects.filter(pk__in=notification_ids).select_related("user")
    for note in sorted(notes, key=lambda n: notification_ids.index(n.pk)):
        if not note.user.email:
            continue
        try:
            send_mail(note.subject, note.body, settings.DEFAULT_FROM_EMAIL, [note.user.email])
        except OSError:
            logger.exception("notification email to %s failed", note.user.email)
        else:
            sent += 1
    return sent


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
