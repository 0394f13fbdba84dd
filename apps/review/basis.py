"""What a Finance decision is bound to, and what moved since.

A decision is about a particular quote in a particular room for a particular load: the line set
with quantities and prices, the total and its currency, the load, the room, the catalog
revision the checks read, and the findings and systems that came out. `basis_of` freezes that
as plain JSON on the review; `basis_changes` says what moved between two of them, old → new
("line 1 quantity: 1 → 2", "total: USD 600,000.00 → USD 1,200,000.00"). A save that moves
anything other than a line's wording sends the review back to Finance.

Pure: a report and a catalog revision in, JSON out.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from apps.review.engine.schemas import ReviewReport

#: Moves that change no money, no system and no finding: a vendor fixing a line's wording.
WORDING = (" description", " part number")

LINE_FIELDS = (
    ("part_number", "part number"),
    ("description", "description"),
    ("quantity", "quantity"),
    ("unit_price", "unit price"),
    ("extended_price", "extended price"),
)


class Change(BaseModel):
    """One thing that moved: `what` in words, before and after as shown."""

    what: str
    before: str
    after: str

    def __str__(self) -> str:
        return f"{self.what}: {self.before} → {self.after}"

    @property
    def wording_only(self) -> bool:
        return self.what.startswith("line ") and self.what.endswith(WORDING)


def _text(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value) or "—"
    return str(value)


def _flat(values: dict[str, Any] | None) -> dict[str, str]:
    """A workload or facility as field → text; nested values (a model shape) by dotted name."""
    flat: dict[str, str] = {}
    for key, value in (values or {}).items():
        if isinstance(value, dict):
            for inner, text in _flat(value).items():
                flat[f"{key}.{inner}"] = text
        else:
            flat[key] = _text(value)
    return flat


def basis_of(
    report: ReviewReport,
    *,
    workload: dict[str, Any] | None = None,
    facility: dict[str, Any] | None = None,
    catalog_revision: str,
) -> dict[str, Any]:
    """The decision's basis as JSON (stored on the review at every save). The load and room
    are the review's inputs as saved (the report's own copy when not given)."""
    quote = report.quote
    if workload is None and report.workload is not None:
        workload = report.workload.model_dump(mode="json")
    if facility is None and report.facility is not None:
        facility = report.facility.model_dump(mode="json")
    return {
        "lines": {
            str(line.line): {field: _text(getattr(line, field)) for field, _ in LINE_FIELDS}
            for line in quote.lines
        },
        "total": _text(quote.total),
        "currency": quote.currency or "",
        "load": _flat(workload),
        "room": _flat(facility),
        "catalog_revision": catalog_revision,
        "findings": sorted({f"{f.check}: {f.severity}" for f in report.findings}),
        "systems": sorted(f"{s.quantity} × {s.name}" for s in report.systems),
    }


def _line_changes(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    labels = dict(LINE_FIELDS)
    for number in sorted(set(old) | set(new), key=lambda n: int(n) if n.isdigit() else 0):
        before, after = old.get(number), new.get(number)
        if before is None or after is None:
            shown = (after or before or {}).get("part_number", "")
            changes.append(
                Change(
                    what=f"line {number}",
                    before="—" if before is None else f"{shown} × {before['quantity']}",
                    after="—" if after is None else f"{shown} × {after['quantity']}",
                )
            )
            continue
        for field, label in labels.items():
            if before.get(field) != after.get(field):
                changes.append(
                    Change(
                        what=f"line {number} {label}",
                        before=before.get(field, "—"),
                        after=after.get(field, "—"),
                    )
                )
    return changes


def _field_changes(prefix: str, old: dict[str, str], new: dict[str, str]) -> list[Change]:
    return [
        Change(what=f"{prefix} {key}", before=old.get(key, "—"), after=new.get(key, "—"))
        for key in sorted(set(old) | set(new))
        if old.get(key, "—") != new.get(key, "—")
    ]


def _set_change(what: str, old: list[str], new: list[str]) -> list[Change]:
    if sorted(old) == sorted(new):
        return []
    gone = [v for v in old if v not in new]
    came = [v for v in new if v not in old]
    return [Change(what=what, before="; ".join(gone) or "—", after="; ".join(came) or "—")]


def basis_changes(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """What moved from `old` to `new`, in reading order: lines, money, load, room, catalog,
    systems, findings. An empty old basis (a review from before bases) moves nothing."""
    if not old:
        return []
    changes = _line_changes(old.get("lines", {}), new.get("lines", {}))
    old_money = f"{old.get('currency', '')} {old.get('total', '—')}".strip()
    new_money = f"{new.get('currency', '')} {new.get('total', '—')}".strip()
    if old.get("currency") != new.get("currency"):
        changes.append(Change(what="currency", before=old_money, after=new_money))
    elif old.get("total") != new.get("total"):
        changes.append(Change(what="total", before=old_money, after=new_money))
    changes += _field_changes("load", old.get("load", {}), new.get("load", {}))
    changes += _field_changes("room", old.get("room", {}), new.get("room", {}))
    if old.get("catalog_revision") != new.get("catalog_revision"):
        changes.append(
            Change(
                what="catalog revision",
                before=_text(old.get("catalog_revision")),
                after=_text(new.get("catalog_revision")),
            )
        )
    changes += _set_change("systems", old.get("systems", []), new.get("systems", []))
    changes += _set_change("findings", old.get("findings", []), new.get("findings", []))
    return changes


def decision_stands(changes: list[Change]) -> bool:
    """True when nothing moved but a line's wording: findings, money, systems, load, room and
    catalog all as decided, so the decision may carry over (and the audit trail says so)."""
    return all(change.wording_only for change in changes)
