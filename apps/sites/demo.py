"""Demo organisations and people for `make run` (passwords in README.md, demo only)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from .models import Membership, Organisation, Role, SavedFacility, SavedWorkload

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
DEMO_WORKLOADS = {
    "Internal assistant, 100 users": {
        "name": "Internal assistant, 100 users",
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "context_tokens": 8192,
        "concurrent_users": 100,
        "tokens_per_sec_per_user": 15,
    },
    "Full fine-tune, 512 GB": {
        "name": "Full fine-tune, 512 GB",
        "kind": "fine_tuning",
        "memory_gb": 512,
    },
    "CFD solver, 100 TFLOPS FP64": {"name": "CFD solver", "kind": "hpc", "fp64_tflops": 100},
    "Prototype on the desk": {
        "name": "Prototype on the desk",
        "kind": "development",
        "model": "Qwen3-32B",
        "precision": "bf16",
        "context_tokens": 8192,
        "concurrent_users": 1,
        "tokens_per_sec_per_user": 2,
    },
}
DEMO_FACILITIES = {
    "Server room (15 kW, air)": {
        "name": "Server room",
        "site": "datacenter",
        "rack_power_kw": 15,
        "racks_available": 4,
        "cooling": "air",
        "floor_load_lb_per_sqft": 250,
    },
    "Row 3 (20 kW, RDHX)": {
        "name": "Row 3",
        "site": "datacenter",
        "rack_power_kw": 20,
        "racks_available": 4,
        "cooling": "air_rdhx",
        "floor_load_lb_per_sqft": 250,
    },
    "Legacy room (2 kW)": {
        "name": "Legacy room",
        "site": "datacenter",
        "rack_power_kw": 2,
        "racks_available": 1,
        "cooling": "air",
        "floor_load_lb_per_sqft": 150,
    },
    "AI hall (150 kW, liquid)": {
        "name": "AI hall",
        "site": "datacenter",
        "rack_power_kw": 150,
        "racks_available": 4,
        "cooling": "liquid",
        "floor_load_lb_per_sqft": 500,
    },
    "Office desk (15 A)": {
        "name": "Office desk",
        "site": "office",
        "circuit_volts": 120,
        "circuit_amps": 15,
    },
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
