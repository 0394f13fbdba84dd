"""What the reading warns about lines that sit in no system: GPU cards or boards with no
chassis to put them in (spares for installed servers are information, not a warning), and
accelerators the catalog has no spec for, which are read as parts and not counted.

Pure: no ORM, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import accelerator_named
from apps.quotes.bom_rows import Row
from apps.quotes.bom_words import SPARE_RE
from apps.quotes.schemas import LineProblem


def loose_gpu_problems(rows: list[Row], catalog: CatalogSnapshot) -> list[LineProblem]:
    """GPU cards or boards that sit in no system: engines without a vehicle. A warning, not
    critical: a cards-only quote is often an upgrade for servers already in the rack."""
    loose = [
        r
        for r in rows
        if r.role in ("gpu_card", "gpu_board") and r.parent is None and r.line is not None
    ]
    pools: dict[str, list[Row]] = {}
    for r in loose:
        pools.setdefault(r.gpu.key if r.gpu else "", []).append(r)
    problems = []
    for key, pool in pools.items():
        gpu = catalog.gpu_by_key.get(key)
        count = sum((r.quantity or 0) * (r.gpu.count if r.gpu and r.gpu.count else 1) for r in pool)
        lines = [r.line for r in pool if r.line is not None]
        model = gpu.model if gpu else "GPU"
        name = gpu.name if gpu else "GPU"
        if all(SPARE_RE.search(r.text) for r in pool):
            problems.append(_spare_problem(count, model, name, lines))
            continue
        problems.append(
            LineProblem(
                severity="warning",
                title=f"{count} × {model} with no chassis",
                detail=f"{_lines_text(lines).capitalize()}: {count} × {name} cards and no "
                "server to put them in. Engines without a vehicle are left out of the review; "
                "ask which servers they go into.",
                metrics={"lines": lines, "gpus": count},
                lever="Ask which servers the cards go into, or add the chassis to the quote.",
            )
        )
    return problems


def _spare_problem(count: int, model: str, name: str, lines: list[int]) -> LineProblem:
    """Cards the quote calls spares or RMA replacements ("H200 NVL ... - spare for RMA
    4471902"): they go into servers already installed, which the quote names, so there is
    nothing to ask and nothing new to size: information, not a warning."""
    return LineProblem(
        severity="info",
        title=f"{count} × {model} as spares, no chassis",
        detail=f"{_lines_text(lines).capitalize()}: {count} × {name} quoted as spare or "
        "replacement cards for servers already installed. No new vehicle: nothing on this "
        "quote to size against the load.",
        metrics={"lines": lines, "gpus": count, "spare": True},
        lever="Check the spares match the GPUs of the installed servers.",
    )


#: Roles of lines that only mention an accelerator: "ProSupport for Gaudi 3 systems".
_MENTION_ROLES = ("service", "discount", "freight", "subtotal", "tax", "total", "note")


def unknown_accelerator_problems(rows: list[Row]) -> list[LineProblem]:
    """Lines that name an accelerator the catalog has no spec for ("Intel Gaudi 3 HL-325L
    OAM"): read as parts, they are not counted, and the review says so rather than calling the
    chassis empty (the `quote_lines` check reads `metrics["accelerator"]`)."""
    problems = []
    for row in rows:
        if row.line is None or row.gpu is not None or row.role in _MENTION_ROLES:
            continue
        name = accelerator_named(row.text)
        if name is None:
            continue
        problems.append(
            LineProblem(
                severity="warning",
                title=f"Line {row.line}: an accelerator the catalog does not know",
                detail=f"Line {row.line} names an accelerator the catalog does not know "
                f"({name}): not counted; the review cannot size it.",
                metrics={"line": row.line, "accelerator": name},
                lever="Ask for a quote with a GPU the catalog carries, or size this "
                "accelerator by hand from its vendor's figures.",
            )
        )
    return problems


def _lines_text(lines: Sequence[int]) -> str:
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))
