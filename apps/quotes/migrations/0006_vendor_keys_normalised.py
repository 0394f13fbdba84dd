"""Re-key what is remembered per vendor under the normalised seller (``vendor_key``).

Before, a vendor's memory was keyed by its spelling with only the case folded, so "Exxact
Corporation", "EXXACT CORP." and "Exxact" kept three memories and a mapping confirmed on one
was not found on the next. Now the key is the seller normalised: legal form dropped, case
folded ("exxact"). This migration moves the rows saved before it:

- ``VendorPartMapping`` (one row per vendor and text): rows whose keys now agree are merged.
  The most recent confirmation wins (the latest of ``confirmed_at`` and the row's last
  history entry, since a re-confirmation used to update the row without moving
  ``confirmed_at``; ties go to the newer row). The winner keeps its id and is re-keyed; the
  others are deleted, each with a "-" history entry saying which mapping it was merged into
  (its part, who confirmed it and when are all in that entry: nothing is lost silently).
- ``VendorLineCorrection`` (any number of removed rows, one standing row per vendor and
  text): every row is re-keyed, none is deleted (quote-line corrections point at them). When
  several standing rows now share a key, the most recently created stands (ties: newer row)
  and the others are marked removed now, by no one (``removed_by`` empty), with a "~" history
  entry saying it was superseded by the one that stands, which is what a newer remembered
  correction does to an older one.
- Every re-keyed row gets a "~" history entry with the reason.

Reversing is a no-op, on purpose: the keys stay normalised. The spellings that were merged
are not kept per row (two spellings became one row), so they cannot be split again; the
merged-away rows stay readable in the history tables. Code from before this migration then
finds the memory of a seller whose spelling, case folded, is the normalised key ("Exxact"),
not of "Exxact Corporation" until this migration runs again (running it twice changes
nothing). The no-op keeps the schema migrations before it reversible.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import migrations
from django.utils import timezone

from apps.quotes.parsing.seller import vendor_key

REASON = "vendor key normalised (quotes 0006)"


def _history(model, row, *, when, kind: str, reason: str) -> None:
    """A history entry for ``row`` as it is now (simple_history's own signals do not run
    in a migration)."""
    fields = {
        f.attname: getattr(row, f.attname)
        for f in row._meta.concrete_fields
    }
    model.objects.create(
        **fields,
        history_date=when,
        history_type=kind,
        history_change_reason=reason[:100],
        history_user_id=None,
    )


def _last_confirmed(mapping, history) -> datetime:
    """When this mapping was last confirmed: its ``confirmed_at`` or, later, its last update."""
    latest = (
        history.objects.filter(id=mapping.pk).order_by("-history_date").first()
        if history is not None
        else None
    )
    if latest is not None and latest.history_date > mapping.confirmed_at:
        return latest.history_date
    return mapping.confirmed_at


def mappings_rekeyed(apps, now) -> None:
    Mapping = apps.get_model("quotes", "VendorPartMapping")
    History = apps.get_model("quotes", "HistoricalVendorPartMapping")
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for row in Mapping.objects.order_by("pk"):
        groups[(vendor_key(row.vendor), row.text)].append(row)
    for (key, _text), rows in groups.items():
        rows.sort(key=lambda row: (_last_confirmed(row, History), row.pk), reverse=True)
        winner, losers = rows[0], rows[1:]
        for loser in losers:
            reason = f"merged into mapping {winner.pk}: {REASON}"
            _history(History, loser, when=now, kind="-", reason=reason)
            loser.delete()
        if winner.vendor != key:
            winner.vendor = key
            winner.save(update_fields=["vendor"])
            _history(History, winner, when=now, kind="~", reason=REASON)


def corrections_rekeyed(apps, now) -> None:
    Correction = apps.get_model("quotes", "VendorLineCorrection")
    History = apps.get_model("quotes", "HistoricalVendorLineCorrection")
    standing: dict[tuple[str, str], list] = defaultdict(list)
    rows = list(Correction.objects.order_by("pk"))
    for row in rows:
        if row.removed_at is None:
            standing[(vendor_key(row.vendor), row.text)].append(row)
    for group in standing.values():
        group.sort(key=lambda row: (row.created_at, row.pk), reverse=True)
        for older in group[1:]:
            older.removed_at, older.removed_by_id = now, None
            older.save(update_fields=["removed_at", "removed_by"])
            reason = f"superseded by correction {group[0].pk}: {REASON}"
            _history(History, older, when=now, kind="~", reason=reason)
    for row in rows:
        key = vendor_key(row.vendor)
        if row.vendor != key:
            row.vendor = key
            row.save(update_fields=["vendor"])
            _history(History, row, when=now, kind="~", reason=REASON)


def vendor_keys_normalised(apps, schema_editor) -> None:
    now = timezone.now()
    mappings_rekeyed(apps, now)
    corrections_rekeyed(apps, now)


class Migration(migrations.Migration):
    dependencies = [
        ("quotes", "0005_ops_history"),
    ]

    operations = [
        migrations.RunPython(vendor_keys_normalised, reverse_code=migrations.RunPython.noop),
    ]
