"""What every check shares: number formatting (from `apps.words`, the one voice of every face)
and the Finding builder that carries the catalog figures behind a verdict (and says so when one
is unverified)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import metric_label, number_format, number_precise, pct, plural, usd

__all__ = ["num", "pct", "plural", "usd"]


def num(value: float, digits: int | None = None) -> str:
    """A figure in a finding, as the sizing table writes it (`apps.words.number_format`):
    14.3 · 1,440 · 5.25 · 0.58. `digits` for a working figure inside a formula that needs
    them (KV per sequence 0.125 GB)."""
    return number_format(value) if digits is None else number_precise(value, digits)


@dataclass(frozen=True, slots=True)
class FigureRef:
    """One catalog figure behind a finding: "dgx-b300.power_max_kw: ~14 (unverified)"."""

    text: str
    verified: bool
    #: The figure in words for a sentence: "NVIDIA DGX B300 maximum power ~14 kW".
    words: str = ""


def _figure(key: str, owner: Any, field: str) -> FigureRef | None:
    if owner is None:
        return None
    name = getattr(owner, "name", "") or key
    label, unit = FIGURE_WORDS.get(field) or _in_a_sentence(*metric_label(field))
    fig = owner.figures.get(field)  # not .figure(): that copies to fill in the row's sources
    if fig is not None:
        status = "verified" if fig.verified else "unverified"
        words = f"{name} {label} {fig.raw} {unit}".strip()
        return FigureRef(f"{key}.{field}: {fig.raw} ({status})", fig.verified, words)
    value = getattr(owner, field, None)
    if value is None:
        return None
    words = f"{name} {label} {value:g} {unit}".strip()
    return FigureRef(f"{key}.{field}: {value:g} (catalog)", True, words)


def _in_a_sentence(label: str, unit: str) -> tuple[str, str]:
    """ "Rack units" -> "rack units"; "FP64 tensor" stays "FP64 tensor"."""
    first = label.split(" ", 1)[0]
    return (label if first.isupper() else label[:1].lower() + label[1:]), unit


#: Catalog fields in a sentence, where the key's own words read badly.
FIGURE_WORDS: dict[str, tuple[str, str]] = {
    "power_max_kw": ("maximum power", "kW"),
    "base_power_kw": ("chassis power", "kW"),
    "tdp_w_max": ("maximum board power", "W"),
    "weight_lb": ("weight", "lb"),
    "memory_gb": ("memory", "GB"),
    "bandwidth_tbs": ("memory bandwidth", "TB/s"),
}


def system_figure(vehicle: Vehicle, field: str) -> FigureRef | None:
    return _figure(vehicle.system.sku, vehicle.spec, field)


def gpu_figure(vehicle: Vehicle, field: str) -> FigureRef | None:
    gpu = vehicle.gpu
    return _figure(gpu.key, gpu, field) if gpu is not None else None


def power_figures(vehicle: Vehicle) -> list[FigureRef | None]:
    """The figures behind a system's kW: its own, or chassis base + cards for an assembled van."""
    spec = vehicle.spec
    if spec is not None and spec.power_max_kw is not None:
        return [system_figure(vehicle, "power_max_kw")]
    return [system_figure(vehicle, "base_power_kw"), gpu_figure(vehicle, "tdp_w_max")]


def finding_make(
    check: str,
    severity: Severity,
    title: str,
    detail: str,
    *,
    metrics: dict[str, Any] | None = None,
    formula: str = "",
    lever: str = "",
    figures: Iterable[FigureRef | None] = (),
) -> Finding:
    """A Finding whose sources list the catalog figures; an unverified one that drives a warning
    or a critical is named in the detail, so nobody acts on it without knowing."""
    refs = list(dict.fromkeys(f for f in figures if f is not None))
    unverified = [f.text for f in refs if not f.verified]
    if unverified and severity in {"warning", "critical"}:
        said = "; ".join(f.words or f.text for f in refs if not f.verified)
        detail = f"{detail} This rests on an unverified figure: {said}."
    return Finding(
        check=check,
        severity=severity,
        title=title,
        detail=detail,
        metrics=metrics or {},
        formula=formula,
        lever=lever,
        sources=[f.text for f in refs],
        unverified=unverified,
    )


def problems_or_one_ok[Item](
    items: Sequence[Item],
    severity_of: Callable[[Item], Severity],
    build: Callable[[Item, Severity], Finding],
    *,
    heaviest: Callable[[Item], float],
) -> list[Finding]:
    """A finding for every vehicle line that is not ok; when all are ok, one `ok` finding for the
    heaviest line (the densest rack, the hungriest machine). A 40-kind quote gets its problems,
    not 40 copies of "fine"."""
    severities = [severity_of(item) for item in items]
    problems = [build(i, s) for i, s in zip(items, severities, strict=True) if s != "ok"]
    if problems or not items:
        return problems
    finding = build(max(items, key=heaviest), "ok")
    if len(items) > 1:
        others = len(items) - 1
        more = (
            " The other kind of system on the quote passes too."
            if others == 1
            else f" The other {others} kinds of system on the quote pass too."
        )
        finding = finding.model_copy(update={"detail": finding.detail + more})
    return [finding]


def fold_repeats(findings: Sequence[Finding]) -> list[Finding]:
    """Findings that say the same thing (same check, severity, title, detail, formula and
    lever) said once: a sentence that does not name its system reads as a stutter when a
    multi-vehicle quote repeats it per line. The first stays in place; its sources gain the
    others', and its metrics gain `systems`, every system the sentence stood for."""
    kept: dict[tuple[str, ...], int] = {}
    out: list[Finding] = []
    for finding in findings:
        key = (
            finding.check,
            finding.severity,
            finding.title,
            finding.detail,
            finding.formula,
            finding.lever,
        )
        if key not in kept:
            kept[key] = len(out)
            out.append(finding)
            continue
        first = out[kept[key]]
        systems = list(first.metrics.get("systems") or [first.metrics.get("system")])
        systems += finding.metrics.get("systems") or [finding.metrics.get("system")]
        metrics = dict(first.metrics)
        named = [s for s in dict.fromkeys(systems) if s is not None]
        if named:
            metrics["systems"] = named
        out[kept[key]] = first.model_copy(
            update={
                "metrics": metrics,
                "sources": list(dict.fromkeys([*first.sources, *finding.sources])),
                "unverified": list(dict.fromkeys([*first.unverified, *finding.unverified])),
            }
        )
    return out
