"""Every saved or deleted catalog row moves the catalog revision on (apps.catalog.revision)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db.models.signals import post_delete, post_save

from apps.catalog.models import Gpu, ModelPreset, Part, PartAlias, RentalRate, System, Vendor
from apps.catalog.revision import catalog_revision_bump

CATALOG_MODELS = (Vendor, Gpu, System, Part, PartAlias, ModelPreset, RentalRate)

#: inside `revision_batch()`: how many rows changed; the revision moves once, at the end
_batch: ContextVar[list[int] | None] = ContextVar("catalog_revision_batch", default=None)


@contextmanager
def revision_batch() -> Iterator[None]:
    """Many rows, one revision: `load_catalog` writes hundreds of rows in one transaction."""
    changed = [0]
    token = _batch.set(changed)
    try:
        yield
    finally:
        _batch.reset(token)
    if changed[0]:
        _revision_moved()


def _revision_moved() -> None:
    from apps.catalog.services import catalog_snapshot_stale

    catalog_revision_bump()
    catalog_snapshot_stale()


def _catalog_changed(sender: type, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # loaddata writes rows as they are; the revision comes with the fixture
        return
    batch = _batch.get()
    if batch is not None:
        batch[0] += 1
        return
    _revision_moved()


def connect() -> None:
    for model in CATALOG_MODELS:
        post_save.connect(_catalog_changed, sender=model, dispatch_uid=f"revision-{model}")
        post_delete.connect(_catalog_changed, sender=model, dispatch_uid=f"revision-d-{model}")
