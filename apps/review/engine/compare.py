"""Competing quotes for one workload, side by side: fit first, money second, then the building.

The field guide's case is the reason for the order. A stack of PCIe vans with the same GPU count
as a DGX B200, $383,000 cheaper, for one 512 GB fine-tune that needs one coupled NVLink domain:
the vans fail, so they lose whatever they cost. "Finance was happy because nothing was wasted on
paper. Everything was wasted in practice."

1. Fit: the verdict, pass before warn before fail.
2. Money: the cost per served unit, what the quote costs for the part of the ask it delivers:
   - inference-type loads: USD per served user at the asked speed, served = min(users asked,
     users the quote serves at that speed): 100 users on a $140,000 work van = $1,400 a user;
   - HPC: USD per FP64 TFLOPS, served = min(TFLOPS asked, the quote's FP64);
   - training: USD per GB of one-domain memory, served = min(job GB, the biggest domain's GB):
     $515,000 for a 512 GB job on a 1,440 GB DGX B200 = $1,005.86 per GB; $132,000 of vans whose
     biggest domain is one 48 GB L40S = $2,750 per GB.
   Capacity beyond the ask is not "served": idle GPUs are one of the most expensive ways to
   produce nothing, so an oversized quote does not look cheap per unit.
3. The building: the Facilities blood pressure, calm before crisis (then Finance's).

Pure: reports in, a `Comparison` out. The command line (`compare_quotes`) and the compare page
build the reports; this module only reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel

from apps.review.engine.recommendation import SERVING_KINDS, Basis, served_unit
from apps.review.engine.schemas import (
    LEVEL_ORDER,
    SEVERITY_ORDER,
    Level,
    Money,
    ReviewReport,
    WorkloadKind,
)
from apps.words import number_format

VERDICT_ORDER: tuple[str, ...] = ("pass", "warn", "fail")
VERDICT_WORDS = {"pass": "passes", "warn": "passes with warnings", "fail": "fails"}
CENT = Decimal("0.01")


class CompareError(ValueError):
    """Quotes that cannot be compared: fewer than two, or reviewed for different workloads."""


class ComparedQuote(BaseModel):
    """One quote's line in the comparison (`compare_quotes --format json`)."""

    file: str
    verdict: Literal["pass", "warn", "fail"]
    total: Money | None
    currency: str
    finance_level: Level
    facilities_level: Level
    cost_per_served_unit: Money | None
    unit: str
    served_units: float | None = None
    asked_units: float | None = None
    systems: str = ""  # "1 × NVIDIA DGX B200 (8 × B200)"
    headline: str = ""  # the worst finding's title
    rank: int = 0  # 1 is the best


class Comparison(BaseModel):
    quotes: list[ComparedQuote]
    best: int  # index into `quotes`
    why: str


@dataclass(frozen=True, slots=True)
class Served:
    """What one reviewed quote delivers of the ask, in the unit its money is counted in."""

    basis: Basis
    served: float
    asked: float | None


def served_of(report: ReviewReport) -> Served | None:
    """The served units of a reviewed quote (module doc); None when the load has no measure."""
    workload = report.workload
    sizing = report.sizing
    if workload is None:
        return None
    if workload.fp64_tflops is not None or workload.kind == WorkloadKind.HPC:
        capacity = sizing.fp64_tflops or 0.0
        asked = workload.fp64_tflops
        return Served("fp64", min(asked, capacity) if asked else capacity, asked)
    if workload.kind in SERVING_KINDS and sizing.max_concurrent_users is not None:
        asked_users = float(workload.concurrent_users)
        return Served("users", min(asked_users, float(sizing.max_concurrent_users)), asked_users)
    if sizing.job_memory_gb is not None and sizing.nvlink_domain_memory_gb is not None:
        job = sizing.job_memory_gb
        return Served("memory", min(job, sizing.nvlink_domain_memory_gb), job)
    return None


def cost_per_served_unit(total: Decimal | None, served: Served | None) -> Decimal | None:
    """Total ÷ served units, to the cent: $132,000 ÷ 48 GB = $2,750.00."""
    if total is None or served is None or served.served <= 0:
        return None
    return (total / Decimal(str(served.served))).quantize(CENT)


def systems_words(report: ReviewReport) -> str:
    """ "2 × Supermicro SYS-521GE-TNRT (4 × L40S)" — how a quote is named in `why`."""
    parts = []
    for system in report.systems:
        name = system.name.split(" (")[0].strip() or system.sku
        engines = f" ({system.gpus_per_system} × {system.gpu})" if system.gpu else ""
        parts.append(f"{system.quantity} × {name}{engines}")
    return " + ".join(parts)


def _headline(report: ReviewReport) -> str:
    """The title of the worst finding: what a reader should see first."""
    if not report.findings:
        return ""
    worst = max(report.findings, key=lambda f: SEVERITY_ORDER.index(f.severity))
    return worst.title if worst.severity in {"warning", "critical"} else ""


def compared_quote(file: str, report: ReviewReport) -> ComparedQuote:
    served = served_of(report)
    currency = report.quote.currency or "USD"
    unit = ""
    if served is not None:
        speed = report.workload.tokens_per_sec_per_user if report.workload else None
        unit = f"{currency} per {served_unit(served.basis, tokens_per_sec_per_user=speed)}"
        if served.basis == "users":
            unit = unit.replace(" per user", " per served user")
    return ComparedQuote(
        file=file,
        verdict=report.verdict,
        total=report.quote.total,
        currency=currency,
        finance_level=report.blood_pressure.finance.level,
        facilities_level=report.blood_pressure.facilities.level,
        cost_per_served_unit=cost_per_served_unit(report.quote.total, served),
        unit=unit,
        served_units=round(served.served, 2) if served is not None else None,
        asked_units=served.asked if served is not None else None,
        systems=systems_words(report),
        headline=_headline(report),
    )


def _same(values: Sequence[object]) -> bool:
    return all(v == values[0] for v in values[1:])


def _without_name(model: BaseModel | None) -> dict[str, object] | None:
    return model.model_dump(mode="json", exclude={"name"}) if model is not None else None


def _money(amount: Decimal, currency: str) -> str:
    return f"{currency} {amount:,.2f}" if amount < 100 else f"{currency} {amount:,.0f}"


def _per(unit: str) -> str:
    """ "USD per GB of one-domain memory" → "GB of one-domain memory"."""
    return unit.split(" per ", 1)[1] if " per " in unit else unit


def _label(index: int, quote: ComparedQuote) -> str:
    return f"quote {index + 1} ({quote.systems or quote.file})"


def _why(quotes: Sequence[ComparedQuote], order: Sequence[int], money_counts: bool) -> str:
    """The reason the best quote is best, in the order the ranking used."""
    best_i = order[0]
    best = quotes[best_i]
    rest = list(order[1:])
    sentences: list[str] = []
    worse_fit = [
        i
        for i in rest
        if VERDICT_ORDER.index(quotes[i].verdict) > VERDICT_ORDER.index(best.verdict)
    ]
    same_fit = [i for i in rest if i not in worse_fit]
    if worse_fit:
        others = "; ".join(
            f"{_label(i, quotes[i])} {VERDICT_WORDS[quotes[i].verdict]}"
            + (f": {quotes[i].headline}" if quotes[i].headline else "")
            for i in worse_fit
        )
        sentences.append(
            f"{_label(best_i, best)} {VERDICT_WORDS[best.verdict]}; {others}. Fit comes first."
        )
        for i in worse_fit:
            cheaper = quotes[i]
            if not money_counts or cheaper.total is None or best.total is None:
                continue
            if cheaper.total < best.total:
                gap = _money(best.total - cheaper.total, best.currency)
                tail = (
                    "nothing was wasted on paper, everything was wasted in practice."
                    if cheaper.verdict == "fail"
                    else "it carries the load or suits the building less well."
                )
                sentences.append(f"Quote {i + 1} is {gap} cheaper, but {tail}")
    for i in same_fit:
        other = quotes[i]
        a, b = best.cost_per_served_unit, other.cost_per_served_unit
        if money_counts and a is not None and (b is None or a < b):
            pair = f"{_label(best_i, best)} and {_label(i, other)} fit alike"
            cost = f"{_money(a, best.currency)} per {_per(best.unit)}"
            if b is None:
                sentences.append(f"{pair}; the first costs {cost}, the second serves none of it.")
            else:
                sentences.append(
                    f"{pair}; money decides: {cost} against {_money(b, other.currency)}."
                )
        elif best.facilities_level != other.facilities_level:
            sentences.append(
                f"{_label(best_i, best)} and {_label(i, other)} fit alike and cost alike per "
                f"served unit; {_label(best_i, best)} is easier on Facilities "
                f"({best.facilities_level} against {other.facilities_level})."
            )
        else:
            sentences.append(
                f"{_label(best_i, best)} and {_label(i, other)} tie on fit, money and the "
                "building; the one listed first is shown first."
            )
    if not money_counts:
        sentences.append("The quotes are in different currencies, so money was not compared.")
    why = " ".join(sentences)
    return why[:1].upper() + why[1:]


#: A workload field as the reason names it.
WORKLOAD_FIELD_WORDS: dict[str, str] = {
    "kind": "load",
    "model": "model",
    "precision": "precision",
    "context_tokens": "context",
    "concurrent_users": "users",
    "tokens_per_sec_per_user": "speed per user",
    "memory_gb": "job memory",
    "fp64_tflops": "FP64 needed",
}


def _value_words(field: str, value: object) -> str:
    """One side of a difference: "32 users", "model Qwen3-32B", "an inference load"."""
    if isinstance(value, dict):
        value = value.get("name", "custom")
    if value is None:
        return f"no {WORKLOAD_FIELD_WORDS.get(field, field.replace('_', ' '))}"
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = number_format(value)
    if field == "concurrent_users":
        return f"{value} users"
    if field == "kind":
        return f"{str(value).replace('_', '-')} load"
    if field == "memory_gb":
        return f"{value} GB job memory"
    if field == "context_tokens":
        return f"{value}-token context"
    if field == "tokens_per_sec_per_user":
        return f"{value} tokens/s per user"
    if field == "fp64_tflops":
        return f"{value} FP64 TFLOPS"
    return f"{WORKLOAD_FIELD_WORDS.get(field, field.replace('_', ' '))} {value}"


def workload_differences(reports: Sequence[ReviewReport]) -> str:
    """What differs between the reviews' loads, side against side:
    "32 users vs 128 users; model Qwen3-32B vs Llama 3"."""
    dumps = [_without_name(r.workload) for r in reports]
    if any(d is None for d in dumps):
        missing = [str(i + 1) for i, d in enumerate(dumps) if d is None]
        return f"review {', '.join(missing)} has no load"
    present = [d for d in dumps if d is not None]
    parts = []
    for field in dict.fromkeys(k for d in present for k in d):
        values = [d.get(field) for d in present]
        if _same(values):
            continue
        parts.append(" vs ".join(_value_words(field, v) for v in values))
    return "; ".join(parts) or "a load is missing"


def incomparable_reason(reports: Sequence[ReviewReport]) -> str | None:
    """Why these reviews cannot be compared and what to change, or None when they can:
    "different loads: 32 users vs 128 users — re-run one with the other's load"."""
    if len(reports) < 2:
        return "compare needs two quotes or more: pick another review of the same load"
    if _same([_without_name(r.workload) for r in reports]):
        return None
    return (
        f"different loads: {workload_differences(reports)} — re-run one with the other's load "
        "(edit the load on its review page and save), then compare again"
    )


def quotes_compare(*, reviewed: Sequence[tuple[str, ReviewReport]]) -> Comparison:
    """Rank reviewed quotes for one workload (module doc). `reviewed` is (file, report) pairs in
    the order the user gave them; `best` indexes that order.

    Raises CompareError for fewer than two quotes or reports of different workloads.
    """
    reports = [report for _, report in reviewed]
    reason = incomparable_reason(reports)
    if reason is not None:
        raise CompareError(reason)
    quotes = [compared_quote(file, report) for file, report in reviewed]
    money_counts = _same([q.currency for q in quotes])

    def key(i: int) -> tuple[int, bool, Decimal, int, int, int]:
        quote = quotes[i]
        cost = quote.cost_per_served_unit if money_counts else Decimal(0)
        return (
            VERDICT_ORDER.index(quote.verdict),
            cost is None,
            cost or Decimal(0),
            LEVEL_ORDER.index(quote.facilities_level),
            LEVEL_ORDER.index(quote.finance_level),
            i,
        )

    order = sorted(range(len(quotes)), key=key)
    for rank, i in enumerate(order, 1):
        quotes[i].rank = rank
    why = _why(quotes, order, money_counts)
    if not _same([_without_name(r.facility) for r in reports]):
        why += " Careful: the quotes were reviewed against different facilities."
    return Comparison(quotes=quotes, best=order[0], why=why)


def comparison_text(comparison: Comparison) -> str:
    """The `--format text` table: one line per quote, best first, then why."""
    lines = []
    ranked = sorted(enumerate(comparison.quotes), key=lambda pair: pair[1].rank)
    for i, quote in ranked:
        mark = "best" if i == comparison.best else f"#{quote.rank}"
        total = f"{quote.currency} {quote.total:,.2f}" if quote.total is not None else "no total"
        cost = (
            f"{quote.currency} {quote.cost_per_served_unit:,.2f} per {_per(quote.unit)}"
            if quote.cost_per_served_unit is not None
            else "serves none of it"
        )
        lines.append(
            f"{mark:>4}  quote {i + 1}: {quote.file}\n"
            f"      {quote.systems or 'no system matched'}\n"
            f"      {quote.verdict.upper()} · {total} · {cost} · "
            f"Finance {quote.finance_level} · Facilities {quote.facilities_level}"
            + (f"\n      {quote.headline}" if quote.headline else "")
        )
    return "\n".join([*lines, "", comparison.why]) + "\n"
