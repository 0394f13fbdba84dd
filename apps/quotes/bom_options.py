"""Quotes that offer alternatives side by side: "Option A: 4 x XE9680 with HGX H200" with its
lines and "Option A Total", then "Option B: 2 x XE9680 with HGX B200" with its own. The buyer
orders one, so the options are not summed: the first option is read as the quote (its lines,
its total), every later option's banner, lines and total are notes (offered beside the quote,
as an "Alternative:" line is), and the reading says which option it reviewed.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.quotes.bom_rows import Row
from apps.quotes.schemas import LineProblem

#: The banner of one option: "Option A: ...", "Option 2 - ...", "Alternative B:", "Variante 1:",
#: "Scenario 2 –". The label ("Option A") names it in its total row ("Option A Total").
OPTION_BANNER_RE = re.compile(
    r"^\s*((?:option|alternative|alternate|variant|variante|scenario|choice)\s+"
    r"(?:[a-h]|\d{1,2}))\s*(?:[:\-–.)]|$)",
    re.IGNORECASE,
)


SUMS = ("subtotal", "total")


@dataclass(frozen=True, slots=True)
class OptionBlock:
    """One option: its label and the rows from its banner to its total (or the next banner)."""

    label: str
    start: int  # index of the banner row
    end: int  # index one past its last row


def option_blocks(rows: list[Row]) -> list[OptionBlock]:
    """The quote's options, when it offers at least two (one "Option A" alone is a title);
    alternatives unless a total below them adds them up (``_summed``)."""
    banners = [
        (row.index, found.group(1))
        for row in rows
        if not row.part_number
        and not row.priced
        and (found := OPTION_BANNER_RE.match(row.text)) is not None
    ]
    labels = {label.casefold() for _i, label in banners}
    if len(labels) < 2:
        return []
    blocks: list[OptionBlock] = []
    for n, (start, label) in enumerate(banners):
        stop = banners[n + 1][0] if n + 1 < len(banners) else len(rows)
        end = stop
        for row in rows[start + 1 : stop]:
            if row.role in ("subtotal", "total") and label.casefold() in row.text.casefold():
                end = row.index + 1  # "Option B Total" closes option B; what follows is shared
                break
        blocks.append(OptionBlock(label=label, start=start, end=end))
    return blocks


def _summed(rows: list[Row], blocks: list[OptionBlock]) -> bool:
    """A total below the options that adds their totals up ("Grand Total (Option 1 + Option
    2)"): both are ordered, the options are sections, not alternatives."""
    ends = [rows[b.end - 1] for b in blocks]  # each option's own total, when it has one
    amounts = [r.extended_price for r in ends]
    if any(a is None for a in amounts) or any(r.role not in SUMS for r in ends):
        return False
    both = sum(a for a in amounts if a is not None)
    return any(r.role in SUMS and r.extended_price == both for r in rows[blocks[-1].end :])


def options_read(rows: list[Row]) -> list[LineProblem]:
    """Read the first option as the quote and the others as offered beside it (module doc);
    the note that says so. Call after each row's own role is read, before nesting."""
    blocks = option_blocks(rows)
    for block in blocks:
        rows[block.start].role = "note"  # "Option 2: Training expansion" titles its lines
    if not blocks or _summed(rows, blocks):
        return []
    first, others = blocks[0], blocks[1:]
    for row in rows[first.start + 1 : first.end]:
        if row.role == "subtotal" and first.label.casefold() in row.text.casefold():
            row.role = "total"  # "Option A Total": the total of the quote as read
    for block in others:
        for row in rows[block.start : block.end]:
            row.role, row.gpu, row.guessed = "note", None, False
    names = ", ".join(b.label for b in others)
    return [
        LineProblem(
            severity="info",
            title=f"{len(blocks)} alternative configurations: {first.label} reviewed",
            detail=f"The quote offers {len(blocks)} alternatives ({first.label}, {names}); the "
            f"buyer orders one, so they are not added up. The review covers {first.label}, the "
            f"first offered; {names} {'is' if len(others) == 1 else 'are'} left out.",
            metrics={"options": [b.label for b in blocks], "reviewed": first.label},
            lever=f"To review {names}, upload a quote with that option alone.",
        )
    ]
