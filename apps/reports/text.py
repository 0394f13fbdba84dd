"""The review as plain text, in the field guide's voice: `review_quote --format text`.

Same report as the JSON, read aloud: the verdict, the vehicles on the quote, what the load and
the building are, every finding with its numbers, both blood pressures and the right fit. The
labels, the verdict sentence and the sizing rows are the page's and the PDF's (`apps.reports.page`,
`apps.words`), so all three faces print the same figures.
"""

from __future__ import annotations

import textwrap

from apps.reports import page
from apps.review.engine.schemas import SEVERITY_ORDER, Finding, QuotedSystem, ReviewReport
from apps.words import (
    LEVEL_LABELS,
    SEVERITY_LABELS,
    check_label,
    domain_words,
    fabric_name,
    finding_heading,
    money_format,
    number_format,
)

VERDICT_LINES = {
    "pass": "PASS - drive it off the lot: the vehicle fits the load and the building.",
    "warn": "WARN - look again before anyone signs: it runs, with the caveats below.",
    "fail": "FAIL - this one belongs in the back corner of the lot: it does not fit the "
    "load or the building as quoted.",
}
# The crisis gauge says it in the field guide's words; every other level is its label.
LEVEL_ASIDES = {"crisis": " (out in the parking lot having a moment)"}
WIDTH = 96


def _wrap(text: str, indent: str) -> list[str]:
    """Wrap to the page; a bullet ("  - ") hangs, its continuation lines are indented."""
    rest = " " * len(indent)
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=rest) or [indent]


def system_line(system: QuotedSystem) -> str:
    """ "1 × NVIDIA DGX B200, a semi: 8 × B200 in one 8-GPU NVLink domain, 14.3 kW, 313.9 lb";
    AMD's GPUs in "one Infinity Fabric domain of 8 GPUs"."""
    parts = []
    if system.gpus_per_system:
        engine = f"{system.gpus_per_system} × {system.gpu or 'GPU'}"
        domain = system.nvlink_domain_gpus
        fabric = fabric_name(system.gpu_interconnect)
        if system.gpus_per_system == 1:
            parts.append(f"one {system.gpu or 'GPU'}")
        elif domain <= 1:
            parts.append(f"{engine}, each on its own (PCIe, {fabric} domain 1)")
        elif fabric != "NVLink" and domain >= system.gpus_per_system:
            parts.append(f"{engine} in {domain_words(domain, system.gpu_interconnect)}")
        elif domain >= system.gpus_per_system:
            parts.append(f"{engine} in one {domain}-GPU NVLink domain")
        else:
            parts.append(f"{engine} in {domain}-GPU {fabric} domains")
    else:
        parts.append("no GPUs")
    if system.power_kw is not None:
        parts.append(f"{number_format(system.power_kw)} kW")
    if system.weight_lb is not None:
        parts.append(f"{number_format(system.weight_lb)} lb")
    parts.append(f"{system.cooling.replace('_', ' ')} cooled, {system.cpu_arch}")
    vehicle = f", a {system.vehicle}" if system.vehicle else ""
    return f"{system.quantity} × {system.name}{vehicle}: {'; '.join(parts)}"


def _finding_lines(finding: Finding) -> list[str]:
    severity = SEVERITY_LABELS[finding.severity].upper()
    label = check_label(finding.check, page.finding_fabric(finding))
    head = f"  [{severity:8}] {finding_heading(label, finding.title)}"
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
    total = money_format(quote.total, quote.currency) if quote.total is not None else "no total"
    if note := page.option_note(report):
        total += f", {note}"
    out.append(f"Rightsize review: {title or 'quote'} ({total})")
    out.append("")
    out += _wrap(f"Verdict: {VERDICT_LINES.get(report.verdict, report.verdict)}", "")
    out += _wrap(page.verdict_sentence(report), "")
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
    numbers = [
        f"  {row.label}: {row.value}{' ' + row.unit if row.unit else ''}"
        for row in page.sizing_rows(report)
    ]
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
        aside = LEVEL_ASIDES.get(pressure.level, "")
        out.append(f"  {who}: {LEVEL_LABELS[pressure.level]}{aside}")
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
