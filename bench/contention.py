"""1,000 approve/reject pairs on PostgreSQL: two Finance people press a button at once.

For each of 1,000 flagged reviews, one thread approves (Finance) and one rejects (admin), both
released by the same barrier, through `review_decide` with the version they both saw (1).
PAIRS_AT_ONCE pairs run side by side, so 2 × PAIRS_AT_ONCE transactions are open together
(each thread has its own connection). Afterwards, per review:
- a lost update: both deciders succeeded, or the version is not 1 + 1 = 2;
- an audit row per decision: audit rows ÷ successful decisions, which must be exactly 1.0.

    DATABASE_URL=postgres://.../bench_contention python -m bench.contention 1000
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from typing import Any

from bench.common import django_setup, result_emit

PAIRS_AT_ONCE = 8


def reviews_make(count: int) -> list[int]:
    """`count` flagged reviews of one small quote, PENDING at version 1."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from apps.quotes.services import quote_upload
    from apps.review.engine.schemas import Facility, Workload
    from apps.review.models import Review, ReviewStatus
    from apps.review.services import review_run, review_store
    from apps.sites.models import Organisation
    from apps.web.demo import demo_seed

    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_catalog", verbosity=0)
    demo_seed()
    account = User.objects.get(username="account")
    acme = Organisation.objects.get(slug="acme")
    quote = quote_upload(
        data=b"Part Number,Description,Qty,Unit Price\nDGXB300-G2304,DGX B300,1,600000.00\n",
        filename="contention.csv",
        organisation=acme,
        uploaded_by=account,
    )
    workload = Workload(name="Assistant", kind="inference", model="Qwen3-32B")
    facility = Facility(name="Legacy room", rack_power_kw=2, racks_available=1)
    report = review_run(quote=quote, workload=workload, facility=facility)
    first = review_store(
        quote=quote, workload=workload, facility=facility, report=report, created_by=account
    )
    if first.status != ReviewStatus.PENDING:
        raise RuntimeError(f"the contention review is {first.status}, not pending")
    copied = ("workload", "facility", "report", "verdict", "finance_level", "facilities_level")
    rows = Review.objects.bulk_create(
        [
            Review(
                quote=quote,
                organisation=acme,
                status=ReviewStatus.PENDING,
                created_by=account,
                total_usd=first.total_usd,
                **{name: getattr(first, name) for name in copied},
            )
            for _ in range(count - 1)
        ],
        batch_size=500,
    )
    return [first.pk, *(row.pk for row in rows)]


def pairs_run(review_ids: list[int]) -> dict[str, Any]:
    from django.contrib.auth.models import User
    from django.db import connection

    from apps.review.models import AuditEvent, Review
    from apps.review.workflow import ReviewChanged, review_decide

    deciders = {
        "approve": User.objects.get(username="finance"),
        "reject": User.objects.get(username="admin"),
    }
    wins: Counter[int] = Counter()
    other_errors: list[str] = []
    lock = threading.Lock()
    slots = [review_ids[i::PAIRS_AT_ONCE] for i in range(PAIRS_AT_ONCE)]

    def decider(action: str, mine: list[int], barrier: threading.Barrier) -> None:
        try:
            for review_id in mine:
                barrier.wait(timeout=30)
                try:
                    review_decide(
                        review_id=review_id,
                        expected_version=1,
                        action=action,
                        reason=f"{action}: bench contention",
                        actor=deciders[action],
                    )
                except ReviewChanged:
                    continue
                except Exception as exc:  # counted and reported: the figure must show it
                    with lock:
                        other_errors.append(f"{type(exc).__name__}: {exc}"[:200])
                    continue
                with lock:
                    wins[review_id] += 1
        finally:
            connection.close()

    threads = []
    for mine in slots:
        barrier = threading.Barrier(2)
        for action in ("approve", "reject"):
            threads.append(threading.Thread(target=decider, args=(action, mine, barrier)))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    elapsed = time.perf_counter() - started

    versions = dict(Review.objects.filter(pk__in=review_ids).values_list("pk", "version"))
    audits = Counter(
        AuditEvent.objects.filter(review_id__in=review_ids).values_list("review_id", flat=True)
    )
    decisions = sum(wins.values())
    lost = sum(1 for rid in review_ids if wins[rid] > 1 or versions[rid] != 2)
    return {
        "pairs": len(review_ids),
        "pairs_at_once": PAIRS_AT_ONCE,
        "decisions": decisions,
        "lost_updates": lost,
        "no_winner": sum(1 for rid in review_ids if wins[rid] == 0),
        "audit_rows": sum(audits.values()),
        "audit_rows_per_decision": round(sum(audits.values()) / decisions, 4)
        if decisions
        else None,
        "reviews_without_one_audit_row": sum(1 for rid in review_ids if audits[rid] != 1),
        "other_errors": len(other_errors),
        "first_error": other_errors[0] if other_errors else "",
        "seconds": round(elapsed, 2),
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed else None,
        "database": connection.vendor,
    }


if __name__ == "__main__":
    django_setup()
    ids = reviews_make(int(sys.argv[1]))
    result_emit(pairs_run(ids))
