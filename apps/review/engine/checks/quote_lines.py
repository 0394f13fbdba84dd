"""quote_lines: does the quote add up, do we know every line, and is there a vehicle with
engines on it at all?

Line-level problems (unmatched part numbers, quantity × unit ≠ extended, GPUs without a chassis)
come from quote intake; this check words each as a finding and adds what only the whole quote
shows: no GPU system, or chassis with no engines in them. It is the one place either is said.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, usd
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding

CHECK = "quote_lines"


def check(ctx: ReviewContext) -> list[Finding]:
    findings = [Finding(check=CHECK, **p.model_dump()) for p in ctx.line_problems]
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
    elif ctx.total_gpus == 0 and (unknown := _unknown_accelerators(ctx)):
        findings.append(
            finding_make(
                CHECK,
                "critical",
                "No engine the review can size",
                f"The quote's accelerators are ones the catalog does not know ({unknown}), so "
                "no GPU on it is counted: the chassis may well be full, but nothing here can be "
                "sized against the load.",
                metrics=metrics,
                lever="Quote a GPU the catalog carries, or size these accelerators by hand "
                "from their vendor's figures.",
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
    if not any(f.severity in ("warning", "critical") for f in findings):
        findings.insert(0, _all_clear(ctx, metrics))
    return findings


def _unknown_accelerators(ctx: ReviewContext) -> str:
    """ "Intel Gaudi 3 on line 2": the accelerators the reader could not size,
    from its line problems; "" when there are none."""
    named = [
        f"{p.metrics['accelerator']} on line {p.metrics.get('line')}"
        for p in ctx.line_problems
        if p.metrics.get("accelerator")
    ]
    return "; ".join(dict.fromkeys(named))


def _all_clear(ctx: ReviewContext, metrics: dict[str, int]) -> Finding:
    """ "Every line is known and adds up: 3 lines totalling $515,000 matched the catalog:
    1 × NVIDIA DGX B200"."""
    lines = len(ctx.quote.lines)
    compute = sum(1 for line in ctx.quote.lines if line.kind not in ("other", "unknown"))
    other = sum(1 for line in ctx.quote.lines if line.kind == "other")
    total = f" totalling {usd(ctx.quote.total)}" if ctx.quote.total is not None else ""
    line_text = f"{lines} line{'s' if lines != 1 else ''}" if lines else "The quote"
    vehicles = "; ".join(v.label for v in ctx.vehicles)
    return finding_make(
        CHECK,
        "ok",
        "Every line is known and adds up",
        f"{line_text}{total}: {compute} matched to the catalog, {other} non-compute. "
        f"On the lot: {vehicles}.",
        metrics={**metrics, "compute_lines": compute, "other_lines": other},
    )
