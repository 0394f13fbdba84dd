"""What the review page shows, built once from the stored report: the verdict in one sentence,
findings grouped by check, the quoted vehicles drawn, the sizing numbers and the charts.

Pure functions of `ReviewReport` (plus the stored quote lines for their errors), so the page, its
htmx partial, the PDF and the tests all read the same words and numbers. A DGX B300 quoted for a
100-user assistant becomes "Look again before anyone signs: needed a school bus, bought a cement
truck", with utilization 12 % in the sizing. The drawings are in `page_drawings`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from apps import words
from apps.quotes.corrections import line_role
from apps.quotes.models import LineRoleChoice

# The pictures live next door; the page and the PDF read them through this module.
from apps.reports.drawings import (  # noqa: F401
    COOLING_LABELS,
    Chart,
    Gauges,
    VehicleCard,
    charts,
    gauges,
    nvlink_domain_svg,
    recommendation_drawing,
    recommendation_drawing_label,
    vehicle_cards,
)
from apps.review.engine.schemas import (
    SEVERITY_ORDER,
    Facility,
    Finding,
    QuotedSystem,
    ReviewReport,
    Workload,
)
from apps.words import number_format, vehicle_name

# The labels are the engine's enums in words, from apps.words: every face reads the same ones.
CHECKS = words.CHECKS
SEVERITY_LABELS = words.SEVERITY_LABELS
VERDICT_LABELS = words.VERDICT_LABELS
MATCH_LABELS = words.MATCH_LABELS
NEEDS_CONFIRMATION = frozenset({"fuzzy", "ambiguous"})
# What a customer reads about where the quote is: Finance's workflow stays internal.
CUSTOMER_STATUS = {
    "clear": "Reviewed",
    "approved": "Reviewed",
    "pending": "In review",
    "changes_requested": "In review",
    "rejected": "In review",
}
#: The CSS class a customer's page carries: what the customer is told, never the internal
#: status ("state-rejected" in the HTML would say what the words do not).
CUSTOMER_STATE = {"Reviewed": "reviewed", "In review": "in-review"}


def _lowercase_start(text: str) -> str:
    """ "The fine-tune…" -> "the fine-tune…", "A house…" -> "a house…", but "DGX B300…" and
    "I" stay as written."""
    word = text.split(" ", 1)[0]
    plain = word[1:].islower() if len(word) > 1 else word not in {"", "I"}
    if word and word[0].isupper() and plain:
        return text[0].lower() + text[1:]
    return text


def verdict_sentence(report: ReviewReport) -> str:
    """The whole review in one sentence, in the field guide's voice.

    fail: "Back corner of the lot: needed a cement truck, bought a muscle car."; warn: "Look
    again before anyone signs: needed a school bus, bought a cement truck."; pass: "A right
    fit: 1 × semi carries this load in this room."
    """
    critical = [f for f in report.findings if f.severity == "critical"]
    warnings = [f for f in report.findings if f.severity == "warning"]
    if critical:
        more = f" (and {len(critical) - 1} more critical)" if len(critical) > 1 else ""
        title = _lowercase_start(critical[0].title.rstrip("."))
        return f"Back corner of the lot: {title}{more}."
    if warnings:
        more = f" (and {len(warnings) - 1} more warnings)" if len(warnings) > 1 else ""
        title = _lowercase_start(warnings[0].title.rstrip("."))
        return f"Look again before anyone signs: {title}{more}."
    fleet = fleet_words(report.systems)
    verb = "carry" if " and " in fleet else "carries"
    return f"A right fit: {fleet or 'the quote'} {verb} this load in this room."


def option_note(report: ReviewReport) -> str:
    """ "Option A of 2 offered" when the quote offers alternatives and the review (and its total)
    covers one of them; "" otherwise. Every face prints it beside the total, so nobody reads
    Option A's total as the whole proposal's."""
    for finding in report.findings:
        options, reviewed = finding.metrics.get("options"), finding.metrics.get("reviewed")
        if finding.check == "quote_lines" and isinstance(options, list) and reviewed:
            return f"{reviewed} of {len(options)} offered"
    return ""


def fleet_words(systems: list[QuotedSystem]) -> str:
    """The quoted vehicles counted once each, in the quote's order: 4 GB10 boxes from ASUS and
    2 each from MSI and Dell are "8 × compact car", not "4 × compact car, 2 × compact car, 2 ×
    compact car"; a mixed quote is "2 × semi and 1 × work van"."""
    counts: dict[str, int] = {}
    for system in systems:
        vehicle = system.vehicle or vehicle_name(system.form_factor)
        counts[vehicle] = counts.get(vehicle, 0) + system.quantity
    named = [f"{n} × {vehicle}" for vehicle, n in counts.items()]
    return ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else "".join(named)


@dataclass(frozen=True)
class Metric:
    label: str
    value: str
    unit: str


def metric(key: str, value: Any) -> Metric:
    """ "rack_power_kw": 57.2 -> Metric("Rack power", "57.2", "kW"); "gpus_needed": 16 ->
    Metric("GPUs needed", "16", ""): the label, value and unit the PDF and the CLI print too."""
    label, unit = words.metric_label(key)
    # a figure not given ("ttft_target_ms": None) is a dash, not "— ms"
    return Metric(label, words.metric_value(value), unit if value is not None else "")


@dataclass(frozen=True)
class FindingView:
    finding: Finding
    severity_label: str

    @functools.cached_property
    def metrics(self) -> list[Metric]:
        """Worded when first shown: a check whose findings the page already holds rendered
        (apps.web.fragments) never words them."""
        return [metric(k, v) for k, v in self.finding.metrics.items()]

    @property
    def has_workings(self) -> bool:
        f = self.finding
        return bool(f.formula or f.lever or f.sources or f.unverified)


@dataclass(frozen=True)
class FindingGroup:
    check: str
    label: str
    question: str
    worst: str
    worst_label: str
    findings: list[FindingView]


def finding_fabric(finding: Finding) -> str:
    """The fabric a finding's GPUs ride on, as its `fabric` metric says ("Infinity Fabric" for
    8 × MI300X); "NVLink" when it says none."""
    return str(finding.metrics.get("fabric") or "NVLink")


def review_fabric(report: ReviewReport) -> str:
    """The fabric of the review's biggest domain (its `nvlink_domain` finding's)."""
    domain = next((f for f in report.findings if f.check == "nvlink_domain"), None)
    return finding_fabric(domain) if domain is not None else "NVLink"


def findings_grouped(report: ReviewReport) -> list[FindingGroup]:
    """One group per check in reading order, worst first; unknown checks (added later) last."""
    by_check: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_check.setdefault(finding.check, []).append(finding)
    order = list(CHECKS) + sorted(c for c in by_check if c not in CHECKS)
    groups = []
    for check in order:
        if check not in by_check:
            continue
        findings = sorted(by_check[check], key=lambda f: -SEVERITY_ORDER.index(f.severity))
        label = words.check_label(check, finding_fabric(findings[0]))
        question = CHECKS.get(check, ("", ""))[1]
        views = [FindingView(f, SEVERITY_LABELS[f.severity]) for f in findings]
        worst = findings[0].severity
        groups.append(FindingGroup(check, label, question, worst, SEVERITY_LABELS[worst], views))
    return groups


COUNT_WORDS = {
    "critical": ("critical", "critical"),
    "warning": ("warning", "warnings"),
    "info": ("note", "notes"),
    "ok": ("check passed", "checks passed"),
}


@dataclass(frozen=True)
class ChangeView:
    """One check that moved between two reports, with the check's name for the reader."""

    check: str
    label: str
    title: str
    before: str | None
    after: str | None
    change: str


def changes(diff: list[Any]) -> list[ChangeView]:
    """review_diff's changes in reading order, each named ("Memory fit: …")."""
    order = list(CHECKS)
    ranked = sorted(diff, key=lambda c: order.index(c.check) if c.check in order else len(order))
    return [
        ChangeView(
            c.check,
            words.check_label(c.check),
            c.title,
            c.before,
            c.after,
            c.change,
        )
        for c in ranked
    ]


def severity_counts(report: ReviewReport) -> list[tuple[str, int, str]]:
    """[("critical", 1, "critical"), ("ok", 5, "checks passed")], worst first, zeros left out."""
    counts = dict.fromkeys(reversed(SEVERITY_ORDER), 0)
    for finding in report.findings:
        counts[finding.severity] += 1
    return [(severity, n, COUNT_WORDS[severity][n != 1]) for severity, n in counts.items() if n]


# --- sizing and charts ---------------------------------------------------------------------------

SIZING_ROWS = words.SIZING_ROWS


def no_rack_text(report: ReviewReport) -> str | None:
    """ "none: no rack here can take one NVIDIA DGX B200" when a system exceeds every rack."""
    names = report.sizing.no_rack_fits
    if not names:
        return None
    return f"none: no rack here can take one {' or one '.join(names)}"


def _split_applies(report: ReviewReport, key: str) -> bool:
    """The liquid/air split only says something when some heat goes to a liquid loop."""
    return key not in {"liquid_kw", "air_kw"} or bool(report.sizing.liquid_kw)


@dataclass(frozen=True)
class SizingRow:
    key: str
    label: str
    value: str
    unit: str
    was: str | None = None  # the value before an edit, when it moved


def sizing_rows(report: ReviewReport, *, before: ReviewReport | None = None) -> list[SizingRow]:
    """The sizing numbers that apply (null ones are left out, as the contract says).

    After an edit, a number that moved keeps its old value beside it: 100 users asked of a
    quote that serves 40, raised to 200, shows "users served 40" unchanged and "utilization
    was 250 %".
    """
    rows = []
    fabric = review_fabric(report)
    for key, label_for_nvlink, unit in SIZING_ROWS:
        label = words.fabric_words(label_for_nvlink, fabric)
        value = getattr(report.sizing, key)
        if key == "racks_needed" and value is None and (none := no_rack_text(report)):
            rows.append(SizingRow(key, label, none, ""))
            continue
        if value is None or not _split_applies(report, key):
            continue
        shown = number_format(float(value))
        was = None
        if before is not None:
            old = getattr(before.sizing, key)
            old_shown = "—" if old is None else number_format(float(old))
            was = old_shown if old_shown != shown else None
        rows.append(SizingRow(key, label, shown, words.unit_for(float(value), unit), was))
    return rows


@dataclass
class LineRow:
    """A quote line as the page shows it: the report's view plus the stored row's errors, its
    role as read (or corrected) and how deep it nests under its parent line."""

    line: Any
    errors: list[str] = field(default_factory=list)
    quote_line_id: int | None = None
    part_id: int | None = None
    needs_confirmation: bool = False
    match_label: str = ""
    role: str = "unknown"
    role_label: str = ""
    depth: int = 0
    standing: Any = None  # the line's correction in force (QuoteLineCorrection), if any
    form: Any = None  # the inline correction form, for those who may correct


#: "high confidence": how sure the reading is, in words.
CONFIDENCE_LABELS = {
    "high": "high confidence",
    "medium": "medium confidence",
    "low": "low confidence",
}


def _nested_order(lines: list[Any]) -> list[tuple[Any, int]]:
    """Lines grouped under their parent, in quote order: (line, depth). A parent that is not
    on the quote (or a loop) leaves the line at the top."""
    numbers = {line.line for line in lines}
    children: dict[int, list[Any]] = {}
    top = []
    for line in lines:
        if line.parent is not None and line.parent in numbers and line.parent != line.line:
            children.setdefault(line.parent, []).append(line)
        else:
            top.append(line)
    out: list[tuple[Any, int]] = []
    seen: set[int] = set()

    def walk(line: Any, depth: int) -> None:
        if line.line in seen:
            return
        seen.add(line.line)
        out.append((line, depth))
        for child in children.get(line.line, []):
            walk(child, depth + 1)

    for line in top:
        walk(line, 0)
    out.extend((line, 0) for line in lines if line.line not in seen)  # a loop of parents
    return out


def line_rows(report: ReviewReport, stored: dict[int, Any]) -> list[LineRow]:
    """Join the report's lines with the stored QuoteLine rows (keyed by line number), each
    sub-line right after the line it nests under."""
    rows = []
    for line, depth in _nested_order(list(report.quote.lines)):
        row = stored.get(line.line)
        role = line_role(line)
        rows.append(
            LineRow(
                line=line,
                errors=list(row.errors) if row is not None else [],
                quote_line_id=row.pk if row is not None else None,
                part_id=row.part_id if row is not None else None,
                needs_confirmation=line.match in NEEDS_CONFIRMATION and row is not None,
                match_label=MATCH_LABELS.get(line.match, line.match),
                role=role,
                role_label=LineRoleChoice(role).label,
                depth=depth,
            )
        )
    return rows


KIND_WORDS = words.KIND_WORDS


def load_sentence(workload: Workload | None) -> str:
    """ "inference, Qwen3-32B at FP8, 100 users at 15 tokens/s, 8,192-token context" """
    if workload is None:
        return ""
    parts = [KIND_WORDS.get(workload.kind, str(workload.kind))]
    if workload.model is not None:
        name = workload.model if isinstance(workload.model, str) else workload.model.name
        parts.append(f"{name} at {workload.precision.upper()}")
    if workload.kind.is_inference and workload.model is not None:
        users = workload.concurrent_users
        parts.append(
            f"{users:,} user{'s' if users != 1 else ''} at "
            f"{number_format(workload.tokens_per_sec_per_user)} tokens/s"
        )
        parts.append(f"{workload.context_tokens:,}-token context")
    if workload.memory_gb:
        parts.append(f"a {number_format(workload.memory_gb)} GB job")
    if workload.fp64_tflops:
        parts.append(f"{number_format(workload.fp64_tflops)} TFLOPS of FP64")
    return ", ".join(parts)


def room_sentence(facility: Facility | None) -> str:
    """ "15 kW per rack, 4 racks, air cooling, floor rated 250 lb/sq ft" """
    if facility is None:
        return ""
    if facility.site == "office":
        if facility.circuit_volts and facility.circuit_amps:
            volts, amps = (
                number_format(facility.circuit_volts),
                number_format(facility.circuit_amps),
            )
            return f"an office, on a {volts} V / {amps} A circuit"
        return "an office"
    parts = []
    if facility.rack_power_kw:
        parts.append(f"{number_format(facility.rack_power_kw)} kW per rack")
    if facility.racks_available is not None:
        n = facility.racks_available
        parts.append(f"{n} rack{'s' if n != 1 else ''}")
    parts.append(f"{COOLING_LABELS.get(facility.cooling, facility.cooling)} cooling")
    if facility.floor_load_lb_per_sqft:
        parts.append(f"floor rated {number_format(facility.floor_load_lb_per_sqft)} lb/sq ft")
    return ", ".join(parts)


#: What a stored review can throw while it is read back and drawn: a report stored before a
#: bound existed (1e308 GB), a figure too large to format. Shown as a panel, never a 500.
RENDER_ERRORS: tuple[type[Exception], ...] = (ValueError, ArithmeticError, TypeError, KeyError)


def render_problem(error: Exception) -> str:
    """One line saying why a stored review cannot be shown or printed, naming the field:
    "workload.memory_gb: must be within 0.1 – 1,000,000 GB (got 1e+308)"."""
    from pydantic import ValidationError

    if isinstance(error, ValidationError):
        problem = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "report"
        return f"{where}: {problem['msg']}"
    return f"{type(error).__name__}: {str(error)[:200]}"
