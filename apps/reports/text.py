"""The review as plain text, in the field guide's voice: `review_quote --format text`.

Same report as the JSON, read aloud: the verdict, the vehicles on the quote, what the load and
the building are, every finding with its numbers, both blood pressures and the right fit.
"""

from __future__ import annotations

import textwrap

from apps.review.engine.schemas import SEVERITY_ORDER, Finding, QuotedSystem, ReviewReport

VERDICT_LINES = {
    "pass": "PASS - drive it off the lot: the vehicle fits the load and the building.",
    "warn": "WARN - look again before anyone signs: it runs, with the caveats below.",
    "fail": "FAIL - this one belongs in the back corner of the lot: it does not fit the "
    "load or the building as quoted.",
}
LEVEL_WORDS = {
    "calm": "calm",
    "raised": "raised",
    "high": "high",
    "crisis": "crisis (out in the parking lot having a moment)",
}
SIZING_LABELS = (
    ("job_memory_gb", "Largest single job", "GB"),
    ("nvlink_domain_memory_gb", "Memory in one NVLink domain", "GB"),
    ("decode_tokens_per_sec_bound", "One conversation, bandwidth bound", "tokens/s"),
    ("tokens_per_sec_per_user", "Per user at the asked load", "tokens/s"),
    ("max_concurrent_users", "Users served at the asked speed", ""),
    ("fp64_tflops", "FP64 on the quote", "TFLOPS"),
    ("utilization_pct", "Utilization", "%"),
    ("power_kw", "Power, all systems at maximum", "kW"),
    ("rack_power_kw", "Power per rack", "kW"),
    ("usable_rack_kw", "Usable power per rack", "kW"),
    ("racks_needed", "Racks needed", ""),
    ("weight_lb", "Weight", "lb"),
    ("heat_btu_per_hr", "Heat at maximum", "BTU/h"),
    ("liquid_kw", "Heat into the liquid loop", "kW"),
    ("air_kw", "Heat into the room's air", "kW"),
    ("energy_kwh_per_year", "Energy a year (typical × 8,760 h × PUE)", "kWh"),
    ("energy_cost_per_year", "Energy bill a year", "USD"),
    ("co2_tonnes_per_year", "CO2 a year", "t"),
)
WIDTH = 96


def _number(value: float | int) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.1f}" if abs(value) >= 10 else f"{value:,.2f}"


def _wrap(text: str, indent: str) -> list[str]:
    """Wrap to the page; a bullet ("  - ") hangs, its continuation lines are indented."""
    rest = " " * len(indent)
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=rest) or [indent]


def system_line(system: QuotedSystem) -> str:
    """ "1 × NVIDIA DGX B200, a semi: 8 × B200 in one 8-GPU NVLink domain, 14.3 kW, 313.9 lb"."""
    parts = []
    if system.gpus_per_system:
        engine = f"{system.gpus_per_system} × {system.gpu or 'GPU'}"
        domain = system.nvlink_domain_gpus
        if system.gpus_per_system == 1:
            parts.append(f"one {system.gpu or 'GPU'}")
        elif domain <= 1:
            parts.append(f"{engine}, each on its own (PCIe, NVLink domain 1)")
        elif domain >= system.gpus_per_system:
            parts.append(f"{engine} in one {domain}-GPU NVLink domain")
        else:
            parts.append(f"{engine} in {domain}-GPU NVLink domains")
    else:
        parts.append("no GPUs")
    if system.power_kw is not None:
        parts.append(f"{_number(system.power_kw)} kW")
    if system.weight_lb is not None:
        parts.append(f"{_number(system.weight_lb)} lb")
    parts.append(f"{system.cooling.replace('_', ' ')} cooled, {system.cpu_arch}")
    vehicle = f", a {system.vehicle}" if system.vehicle else ""
    return f"{system.quantity} × {system.name}{vehicle}: {'; '.join(parts)}"


def _finding_lines(finding: Finding) -> list[str]:
    head = f"  [{finding.severity.upper():8}] {finding.check}: {finding.title}"
    lines = _wrap(head, "")
    lines[1:] = [f"             {line}" for line in lines[1:]]
    lines += _wrap(finding.detail, "             ")
    if finding.formula:
        lines += _wrap(f"Formula: {finding.formula}", "             ")
    if finding.lever:
        lines += _wrap(f"Lever: {finding.lever}", "             ")
    return lines


def report_text(report: ReviewReport) -> str:
    quote = report.quote
    out: list[str] = []
    title = " · ".join(x for x in (quote.file, quote.vendor, quote.quote_number) if x)
    total = f"{quote.currency} {quote.total:,.2f}" if quote.total is not None else "no total"
    out.append(f"Rightsize review: {title or 'quote'} ({total})")
    out.append("")
    out += _wrap(f"Verdict: {VERDICT_LINES.get(report.verdict, report.verdict)}", "")
    out.append("")
    out.append("On the lot (what the quote buys):")
    if report.systems:
        for system in report.systems:
            out += _wrap(system_line(system), "  - ")
    else:
        out.append("  - no vehicle we recognise")
    if report.workload is not None:
        w = report.workload
        model = w.model if isinstance(w.model, str) else (w.model.name if w.model else "no model")
        out.append(f"The load: {w.name} ({w.kind.value.replace('_', ' ')}, {model})")
    if report.facility is not None:
        f = report.facility
        out.append(f"The building: {f.name} ({f.site}, {f.cooling.replace('_', ' ')} cooling)")
    out.append("")
    sizing = report.sizing.model_dump()
    if not sizing.get("liquid_kw"):
        sizing["liquid_kw"] = sizing["air_kw"] = None  # no loop: the split says nothing
    numbers = [
        f"  {label}: {_number(float(sizing[key]))}{' ' + unit if unit else ''}"
        for key, label, unit in SIZING_LABELS
        if sizing.get(key) is not None
    ]
    if sizing.get("racks_needed") is None and sizing.get("no_rack_fits"):
        names = " or one ".join(sizing["no_rack_fits"])
        numbers.append(f"  Racks needed: none: no rack here can take one {names}")
    if numbers:
        out.append("The numbers:")
        out += numbers
        out.append("")
    out.append("Findings, worst first:")
    findings = sorted(report.findings, key=lambda f: -SEVERITY_ORDER.index(f.severity))
    for finding in findings:
        out += _finding_lines(finding)
    out.append("")
    out.append("Blood pressure check:")
    for who, pressure in (
        ("Finance", report.blood_pressure.finance),
        ("Facilities", report.blood_pressure.facilities),
    ):
        out.append(f"  {who}: {LEVEL_WORDS.get(pressure.level, pressure.level)}")
        for reason in pressure.reasons:
            out += _wrap(reason, "    - ")
    out.append("")
    rec = report.recommendation
    if rec is None:
        out.append("Right fit: nothing in the catalog fits this load in this building.")
    else:
        quoted = " (the quoted one)" if rec.is_quoted else ""
        vehicle = f", a {rec.vehicle}" if rec.vehicle else ""
        out += _wrap(f"Right fit: {rec.quantity} × {rec.name}{vehicle}{quoted}. {rec.why}", "")
    return "\n".join(out) + "\n"
