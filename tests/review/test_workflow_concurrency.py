"""Two Finance reviewers decide the same flagged quote at the same moment (RELIABILITY 24).

Real threads and real transactions (`transaction=True`): each thread has its own database
connection. Run on SQLite and on PostgreSQL (`make test` runs both).
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection

from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.review.workflow import ReviewChanged, review_decide
from tests.review.factories import review_make

ROUNDS = 5


def _decide_at_once(review_id: int, deciders: list[tuple[str, User]]) -> dict[str, object]:
    """Start every decider behind one barrier; return {action: Review or the exception}."""
    barrier = threading.Barrier(len(deciders))
    outcomes: dict[str, object] = {}

    def decide(action: str, actor: User) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[action] = review_decide(
                review_id=review_id,
                expected_version=1,
                action=action,
                reason=f"{action} from a thread",
                actor=actor,
            )
        except Exception as exc:  # collected and asserted on below, never tolerated
            outcomes[action] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=decide, args=pair) for pair in deciders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_approve_and_reject_at_once_exactly_one_wins(demo, round_):
    users = {u.username: u for u in User.objects.all()}
    review = review_make(organisation=demo["acme"], user=users["account"])

    outcomes = _decide_at_once(
        review.pk, [("approve", users["finance"]), ("reject", users["admin"])]
    )

    winners = {a: r for a, r in outcomes.items() if isinstance(r, Review)}
    losers = {a: r for a, r in outcomes.items() if not isinstance(r, Review)}
    assert len(winners) == 1, outcomes
    assert len(losers) == 1 and isinstance(next(iter(losers.values())), ReviewChanged), outcomes
    (action,) = winners
    review.refresh_from_db()
    expected = ReviewStatus.APPROVED if action == "approve" else ReviewStatus.REJECTED
    assert (review.status, review.version) == (expected, 2)  # version 1 + exactly one decision
    events = list(AuditEvent.objects.filter(review=review))
    assert len(events) == 1
    assert events[0].action == action and events[0].to_status == expected


@pytest.mark.django_db(transaction=True)
def test_four_deciders_one_audit_row(demo):
    users = {u.username: u for u in User.objects.all()}
    review = review_make(organisation=demo["acme"], user=users["account"])
    deciders = [
        ("approve", users["finance"]),
        ("reject", users["admin"]),
        ("request_changes", users["finance"]),
    ]
    outcomes = _decide_at_once(review.pk, deciders)
    assert sum(isinstance(r, Review) for r in outcomes.values()) == 1, outcomes
    assert sum(isinstance(r, ReviewChanged) for r in outcomes.values()) == 2, outcomes
    review.refresh_from_db()
    assert review.version == 2
    assert AuditEvent.objects.filter(review=review).count() == 1
