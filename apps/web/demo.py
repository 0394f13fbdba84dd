"""Demo organisations and people for `make run` (passwords in README.md, demo only)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
from apps.sites.models import Membership, Organisation, Role, SavedFacility, SavedWorkload

DEMO_PASSWORD = "rightsize-demo"
DEMO_USERS = [
    # username, role, organisation slug
    ("account", Role.ACCOUNT_TEAM, "reseller"),
    ("finance", Role.FINANCE, "reseller"),
    ("admin", Role.ADMIN, "reseller"),
    ("customer", Role.CUSTOMER, "acme"),
    ("globex", Role.CUSTOMER, "globex"),
]
DEMO_ORGS = [
    ("reseller", "Northwind Systems (reseller)", True),
    ("acme", "Acme Research", False),
    ("globex", "Globex Analytics", False),
]
# The saved loads and rooms each demo customer starts with: the CLI's presets (one source of
# truth), named the way an account team would save them.
DEMO_WORKLOADS = {
    "Internal assistant, 100 users": {
        **WORKLOAD_PRESETS["internal-assistant"],
        "name": "Internal assistant, 100 users",
        "context_tokens": 8192,
    },
    "Full fine-tune, 512 GB": {
        **WORKLOAD_PRESETS["full-fine-tune"],
        "name": "Full fine-tune, 512 GB",
    },
    "CFD solver, 100 TFLOPS FP64": {**WORKLOAD_PRESETS["fp64-cfd"]},
    "Prototype on the desk": {
        **WORKLOAD_PRESETS["developer-prototype"],
        "context_tokens": 8192,
        "concurrent_users": 1,
    },
}
DEMO_FACILITIES = {
    "Server room (15 kW, air)": {**FACILITY_PRESETS["server-room"]},
    "Row 3 (20 kW, RDHX)": {**FACILITY_PRESETS["row-rdhx"], "name": "Row 3"},
    "Legacy room (2 kW)": {**FACILITY_PRESETS["legacy-room"]},
    "AI hall (150 kW, liquid)": {**FACILITY_PRESETS["ai-hall"]},
    "Office desk (15 A)": {**FACILITY_PRESETS["office-15a"]},
}


@transaction.atomic
def demo_seed() -> dict[str, int]:
    """Create the demo organisations, users, workloads and facilities. Idempotent."""
    orgs = {}
    for slug, name, internal in DEMO_ORGS:
        orgs[slug], _ = Organisation.objects.get_or_create(
            slug=slug, defaults={"name": name, "is_internal": internal}
        )
    created = 0
    for username, role, org_slug in DEMO_USERS:
        user, was_created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        if was_created:
            user.set_password(DEMO_PASSWORD)
            user.is_staff = role == Role.ADMIN
            user.is_superuser = role == Role.ADMIN
            user.save()
            created += 1
        Membership.objects.get_or_create(
            user=user, defaults={"organisation": orgs[org_slug], "role": role}
        )
    for org_slug in ("acme", "globex"):
        for name, spec in DEMO_WORKLOADS.items():
            SavedWorkload.objects.get_or_create(
                organisation=orgs[org_slug], name=name, defaults={"spec": spec}
            )
        for name, spec in DEMO_FACILITIES.items():
            SavedFacility.objects.get_or_create(
                organisation=orgs[org_slug], name=name, defaults={"spec": spec}
            )
    return {"users_created": created}


# --- Demo reviews: the field guide's back corner of the lot, plus a right fit -----------------

DEMO_QUOTES_DIR = Path(__file__).resolve().parent.parent.parent / "fixtures" / "demo_quotes"


@dataclass(frozen=True)
class DemoQuote:
    """One reviewed quote for `make run`: a folder of fixtures/demo_quotes/ and who it is for."""

    folder: str
    organisation: str
    filename: str
    decision: tuple[str, str] | None = None  # (action, Finance's comment)
    revision: str | None = None  # a revised quote in the same folder
    revision_comment: str = ""  # what the account team tells Finance with the revision
    publish: bool = False  # publish to the customer (approving first if it needs Finance)


DEMO_QUOTES = [
    DemoQuote(
        "cement-truck-for-a-school-bus",
        "acme",
        "contoso-cc-24117.csv",
        decision=("request_changes", "A DGX B300 for a 100-user assistant: ask for a PCIe server."),
        revision="quote-v2.csv",
        revision_comment="Contoso re-quoted a PCIe server, as Finance asked.",
    ),
    DemoQuote("pcie-vans-for-one-finetune", "acme", "supermicro-sm-88310.csv", publish=True),
    DemoQuote(
        "muscle-car-for-fp64",
        "acme",
        "fabrikam-fh-3302.csv",
        decision=("reject", "B300 has almost no FP64: the CFD team needs H200 or B200."),
    ),
    DemoQuote("work-van-for-rag", "acme", "dell-dl-3000123456.csv", publish=True),
    DemoQuote("train-without-rails", "globex", "tailspin-ts-0042.csv"),
    DemoQuote("spark-for-a-department", "globex", "litware-ld-7781.csv", publish=True),
]


def demo_reviews_seed() -> int:
    """Upload, review (and for two, decide) the demo quotes. Idempotent: a quote already
    uploaded for its organisation under the same file name is left alone. Returns how many
    reviews were created."""
    from apps.quotes.models import Quote
    from apps.review.engine.schemas import Facility, Workload
    from apps.review.services import review_revise, review_upload
    from apps.review.workflow import review_decide

    account = User.objects.get(username="account")
    finance = User.objects.get(username="finance")
    created = 0
    for demo in DEMO_QUOTES:
        organisation = Organisation.objects.get(slug=demo.organisation)
        if Quote.objects.filter(organisation=organisation, display_name=demo.filename).exists():
            continue
        folder = DEMO_QUOTES_DIR / demo.folder
        with transaction.atomic():
            review = review_upload(
                data=(folder / "quote.csv").read_bytes(),
                filename=demo.filename,
                organisation=organisation,
                uploaded_by=account,
                workload=Workload.model_validate_json((folder / "workload.json").read_text()),
                facility=Facility.model_validate_json((folder / "facility.json").read_text()),
            )
            created += 1
            if demo.decision is not None:
                action, reason = demo.decision
                review = review_decide(
                    review_id=review.pk,
                    expected_version=review.version,
                    action=action,
                    reason=reason,
                    actor=finance,
                )
            if demo.revision is not None:
                data = (folder / demo.revision).read_bytes()
                name = demo.filename.replace(".csv", "-rev2.csv")
                review_revise(
                    review=review,
                    data=data,
                    filename=name,
                    user=account,
                    comment=demo.revision_comment,
                )
                created += 1
            if demo.publish:
                _demo_publish(review, account=account, finance=finance)
    return created


#: Finance's comment when the demo approves a review it then publishes.
DEMO_APPROVAL = "Demo: the spend and the room were checked; approved for the customer."


def _demo_publish(review: Any, *, account: User, finance: User) -> None:
    """Publish a demo review to its customer, Finance approving first when it needs Finance
    (the same services the pages use: a flagged review is never published unapproved)."""
    from apps.review.models import ReviewStatus
    from apps.review.publishing import review_publish
    from apps.review.workflow import review_decide

    if review.status == ReviewStatus.PENDING:
        review = review_decide(
            review_id=review.pk,
            expected_version=review.version,
            action="approve",
            reason=DEMO_APPROVAL,
            actor=finance,
        )
    review_publish(review_id=review.pk, expected_version=review.version, user=account)
