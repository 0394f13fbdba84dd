"""quote_lines: is there a vehicle with engines on this quote at all?

Line-level problems (unmatched part numbers, quantity × unit ≠ extended, GPUs without a chassis)
come from quote intake as findings; this check passes them on and adds what only the whole quote
shows: no GPU system, or chassis with no engines in them.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, usd
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding

CHECK = "quote_lines"


def check(ctx: ReviewContext) -> list[Finding]:
    findings = list(ctx.line_findings)
    lines = len(ctx.quote.lines)
    metrics = {
        "lines": lines,
        "systems": sum(v.quantity for v in ctx.vehicles),
        "gpus": ctx.total_gpus,
    }
    if not ctx.vehicles:
        findings.append(
            finding_make(
                CHECK,
                "critical",
                "No GPU system on the quote",
                "Nothing on this quote is a vehicle that carries engines, so there is nothing to "
                "review against the load.",
                metrics=metrics,
                lever="Quote a system (or a chassis with its GPU cards) from the catalog.",
            )
        )
    elif ctx.total_gpus == 0:
        findings.append(
            finding_make(
                CHECK,
                "critical",
                "Vehicles with no engines",
                "The quote has chassis but no GPUs in them: an engine-less van hauls nothing.",
                metrics=metrics,
                lever="Add the GPU cards the chassis should carry, or quote a complete system.",
            )
        )
    if not any(f.check == CHECK for f in findings):
        total = f" totalling {usd(ctx.quote.total)}" if ctx.quote.total is not None else ""
        line_text = f"{lines} line{'s' if lines != 1 else ''}" if lines else "The quote"
        vehicles = "; ".join(v.label for v in ctx.vehicles)
        findings.append(
            finding_make(
                CHECK,
                "ok",
                "The quote reads cleanly",
                f"{line_text}{total} matched the catalog: {vehicles}.",
                metrics=metrics,
            )
        )
    return findings
