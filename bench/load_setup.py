"""The database the load test runs against: what `make setup` builds, plus Finance's backlog.

Migrate, load the catalog, seed the demo (organisations, people, the field guide's reviewed
quotes), then add what a busy month looks like: a reviewed 100-line quote, twenty Finance
reviewers and a backlog of flagged reviews waiting for approval (each approved once during the
run, so every approve is a real decision, never a "quote changed" 409).

    DATABASE_URL=... python -m bench.load_setup BACKLOG   # writes var/bench/targets.json
"""

from __future__ import annotations

import json
import sys
import time

from bench.common import DATA, VAR, django_setup, result_emit

FINANCE_PEOPLE = 20


def load_setup(backlog: int) -> dict[str, object]:
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from apps.quotes.services import quote_upload
    from apps.review.engine.schemas import Facility, Workload
    from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
    from apps.review.models import Review, ReviewStatus
    from apps.review.services import review_create
    from apps.sites.models import Membership, Organisation, Role
    from apps.web.demo import DEMO_PASSWORD

    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_catalog", verbosity=0)
    call_command("seed_demo", verbosity=0)
    account = User.objects.get(username="account")
    finance = User.objects.get(username="finance")
    reseller = finance.membership.organisation
    acme = Organisation.objects.get(slug="acme")

    big = review_create(
        quote=quote_upload(
            data=(DATA / "quote-100.csv").read_bytes(),
            filename="bench-systems-100-lines.csv",
            organisation=acme,
            uploaded_by=account,
        ),
        workload=Workload.model_validate(WORKLOAD_PRESETS["internal-assistant"]),
        facility=Facility.model_validate(FACILITY_PRESETS["server-room"]),
        created_by=account,
    )
    people = []
    for n in range(1, FINANCE_PEOPLE + 1):
        # Same password as the demo's Finance user: copy its hash rather than spend 0.7 s of
        # PBKDF2 per person; logging in still runs the full hash check.
        user = User.objects.create(
            username=f"bench-finance-{n:02d}", password=finance.password, email=""
        )
        Membership.objects.create(user=user, organisation=reseller, role=Role.FINANCE)
        people.append(user.username)

    revised = Review.objects.filter(quote__previous__isnull=False).values_list(
        "quote__previous_id", flat=True
    )
    template = (
        Review.objects.filter(status=ReviewStatus.PENDING)
        .exclude(quote_id__in=revised)
        .exclude(pk=big.pk)
        .order_by("pk")
        .first()
    ) or big
    clones = [
        Review(
            quote=template.quote,
            organisation=template.organisation,
            workload=template.workload,
            facility=template.facility,
            report=template.report,
            verdict=template.verdict,
            finance_level=template.finance_level,
            facilities_level=template.facilities_level,
            total_usd=template.total_usd,
            # Waiting for Finance as the template is (flagged, with its reasons): the backlog
            # is what the Finance queue lists, 50 rows a page (before, the clones were not
            # flagged and the queue listed the demo's three).
            needs_finance=True,
            finance_reasons=template.finance_reasons,
            currency=template.currency,
            total=template.total,
            converted_total=template.converted_total,
            converted_currency=template.converted_currency,
            rate=template.rate,
            rates_of=template.rates_of,
            basis=template.basis,
            status=ReviewStatus.PENDING,
            created_by=account,
        )
        for _ in range(backlog)
    ]
    Review.objects.bulk_create(clones, batch_size=500)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum does a minute later in production
    backlog_ids = {c.pk for c in clones}
    pages = [str(r.uuid) for r in Review.objects.exclude(pk__in=backlog_ids).order_by("pk")]
    targets = {
        "review_pages": pages,
        "backlog": [str(c.uuid) for c in clones],
        "people": people,
        "password": DEMO_PASSWORD,
    }
    (VAR / "targets.json").write_text(json.dumps(targets))
    return {
        "review_pages": len(pages),
        "backlog": len(clones),
        "backlog_template": template.quote.display_name,
        "people": len(people),
        "setup_s": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    django_setup()
    result_emit(load_setup(int(sys.argv[1])))
