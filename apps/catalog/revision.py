"""The catalog's revision number: bumped on every catalog row saved or deleted, read cheaply.

A web or worker process holds one catalog snapshot (apps.catalog.services); before it hands
the snapshot out it compares the snapshot's revision with this number (one primary-key read,
at most once every ``CATALOG_REVISION_CHECK_SECONDS``), so an admin's edit to a GPU figure
reaches every running process within a second, without a restart and without a reload per
request.
"""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from apps.catalog.models import CatalogRevision

REVISION_PK = 1


def catalog_revision_current() -> int:
    """The revision now in the database (0 before the first catalog change)."""
    number = CatalogRevision.objects.filter(pk=REVISION_PK).values_list("number", flat=True)
    return next(iter(number), 0)


def catalog_revision_bump() -> int:
    """Add one to the revision (in the caller's transaction) and return it."""
    now = timezone.now()
    rows = CatalogRevision.objects.filter(pk=REVISION_PK)
    if not rows.update(number=F("number") + 1, changed_at=now):
        CatalogRevision.objects.get_or_create(
            pk=REVISION_PK, defaults={"number": 1, "changed_at": now}
        )
    return catalog_revision_current()
