"""A quote's reading in one sentence and how sure it is: "2 × PowerEdge XE9680, each 8 ×
H200 SXM 141 GB (lines 1–11); lines 12–14 services", high confidence when no line was
guessed (``reading_words``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from apps.quotes.bom_rows import Row
from apps.quotes.bom_systems import SystemReading, system_name
from apps.quotes.schemas import LineProblem


def _ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5] → "1–3, 5"."""
    out: list[str] = []
    ordered = sorted(set(numbers))
    start = prev = None
    for n in ordered:
        if start is None:
            start = prev = n
        elif prev is not None and n == prev + 1:
            prev = n
        else:
            out.append(f"{start}–{prev}" if start != prev else f"{start}")
            start = prev = n
    if start is not None:
        out.append(f"{start}–{prev}" if start != prev else f"{start}")
    return ", ".join(out)


_ROLE_WORDS = {
    "service": "services",
    "accessory": "accessories",
    "discount": "discounts",
    "freight": "freight",
}


def reading_words(
    rows: list[Row], readings: list[SystemReading], problems: list[LineProblem]
) -> tuple[str, Literal["high", "medium", "low"]]:
    """ "2 × PowerEdge XE9680, each 8 × H200 SXM 141 GB (lines 1–11); lines 12–14 services"."""
    parts: list[str] = []
    for reading in readings:
        name = system_name(reading.row.text, reading.spec)
        gpu = reading.gpu
        each = (
            f", each {reading.gpus_per_system} × {gpu.model} {gpu.memory_gb:g} GB"
            if gpu is not None and reading.gpus_per_system
            else ", no GPUs"
        )
        if reading.quantity > 1 and reading.child_quantities in ("per_system", "totals"):
            how = "per system" if reading.child_quantities == "per_system" else "order totals"
            each += f", sub-lines read as {how}"
        parts.append(f"{reading.quantity} × {name}{each} (lines {_ranges(reading.lines)})")
    if not readings:
        parts.append("no GPU system")
    for role, word in _ROLE_WORDS.items():
        lines = [r.line for r in rows if r.role == role and r.line is not None]
        if lines:
            parts.append(f"{_lines_text_short(lines)} {word}")
    text = "; ".join(parts)
    guessed = [r for r in rows if r.guessed and r.line is not None]
    unsure = any("cannot be told" in p.title for p in problems)
    if unsure or len(guessed) > 2:
        confidence: Literal["high", "medium", "low"] = "low"
    elif guessed or any(r.spec is None for r in readings):
        confidence = "medium"
    else:
        confidence = "high"
    return text, confidence


def _lines_text_short(lines: Sequence[int]) -> str:
    return ("line " if len(lines) == 1 else "lines ") + _ranges(lines)
