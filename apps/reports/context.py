"""The PDF report's context: one typed object built from the same `ReviewReport` as the page.

Everything the template prints is decided here (labels, order, number formats, which figures are
unverified), so the tests assert on this object and the template only lays it out. The verdict
sentence, check names, sizing rows and charts come from `apps.reports.page`: the customer's PDF
says exactly what the account team's page says.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from typing import Annotated, Any, Literal

from django.utils.safestring import SafeString
from pydantic import BaseModel, ConfigDict, PlainValidator

from apps import words
from apps.catalog.snapshot import CatalogSnapshot
from apps.reports import page
from apps.reports.appendix import lines_columns
from apps.reports.charts.gauge import gauge_svg
from apps.reports.charts.vehicles import vehicle_svg
from apps.reports.citations import Citation, CitationBook
from apps.review.engine.schemas import SEVERITY_ORDER, Finding, ReviewReport
from apps.words import LEVEL_LABELS, number_format


def _built_svg(value: Any) -> SafeString:
    """Only markup our chart functions built (a SafeString) may pass as an SVG field."""
    if not isinstance(value, SafeString):
        raise ValueError("an SVG field takes markup built by apps.reports.charts only")
    return value


Svg = Annotated[str, PlainValidator(_built_svg)]
PageSize = Literal["A4", "Letter"]

# The words are apps.words': the PDF, the page and the CLI print the same labels and numbers.
KIND_LABELS = words.KIND_LABELS
COOLING_LABELS = {key: words.cooling_label(key) for key in ("air", "air_rdhx", "liquid")}
SITE_LABELS = words.SITE_LABELS
UNITS = words.UNITS
WORDS = words.CAPITALS
money_format = words.money_format
metric_label = words.metric_label
metric_value = words.metric_value
VERIFIED_SUFFIX = re.compile(r"\s*\((un)?verified\)\s*$", re.IGNORECASE)


class Row(BaseModel):
    """One labelled figure: "Memory of the biggest single job | 512 | GB"."""

    model_config = ConfigDict(frozen=True)

    label: str
    value: str
    unit: str = ""


class SourceRow(BaseModel):
    """One catalog figure behind a finding: `text` as the engine wrote it, `label` as printed
    (without a trailing "(verified)"/"(unverified)": the report marks unverified ones itself)."""

    model_config = ConfigDict(frozen=True)

    text: str
    unverified: bool
    checks: list[str] = []
    #: For the customer: "NVIDIA DGX B200, weight 313.9 lb", the documents it rests on (numbers
    #: in the report's Sources) and the figure's own note ("Rightsize estimate by form factor").
    figure_label: str = ""
    citations: list[int] = []
    note: str = ""

    @property
    def label(self) -> str:
        return VERIFIED_SUFFIX.sub("", self.text)


class FindingRow(BaseModel):
    check: str
    check_label: str
    #: "Rack power: 1 per rack", or the check's name alone when the title only repeats it
    heading: str = ""
    severity: str
    severity_label: str
    title: str
    detail: str
    metrics: list[Row]
    formula: str
    lever: str
    sources: list[SourceRow]


class PressureRow(BaseModel):
    who: str
    level: str
    level_label: str
    reasons: list[str]
    gauge: Svg


class VehicleRow(BaseModel):
    sku: str
    name: str
    quantity: int
    vehicle: str
    gpu: str
    gpus_per_system: int
    nvlink_domain_gpus: int
    domain_sentence: str
    power_kw: str
    #: "240 W each, 960 W for 4" and "3,000 lb each": the page's words for power and weight
    power_text: str = ""
    weight_text: str = ""
    cooling: str
    cpu_arch: str
    #: The drawing without its label, and the label ("4 × semi") printed beneath it as text.
    drawing: Svg
    drawing_label: str
    domains: Svg


class ChartRow(BaseModel):
    key: str
    svg: Svg
    caption: str
    #: Printed above and below the drawing, which leaves them out (apps.reports.drawings.charts)
    title: str = ""
    summary: str = ""


class RecommendationRow(BaseModel):
    name: str
    sku: str
    quantity: int
    vehicle: str
    gpu: str
    nvlink_domain_gpus: int
    nvlink_domain_memory_gb: str
    power_kw: str
    power_text: str = ""
    estimated_cost: str
    why: str
    is_quoted: bool
    drawing: Svg | None
    drawing_label: str = ""


class LineRow(BaseModel):
    line: int
    part_number: str
    description: str
    quantity: str
    unit_price: str
    extended_price: str
    match_label: str


class InputPair(BaseModel):
    """One line of the side-by-side "load | building" table; either side may have run out."""

    load: Row | None
    building: Row | None


class ReportContext(BaseModel):
    """What the PDF prints, top to bottom: a one-page summary (verdict, gauges, vehicles, the
    right fit, the money), then findings, sizing, the load and the building, and sources."""

    title: str
    organisation: str
    reseller_name: str = ""
    reseller_logo: str = ""  # an `asset:logos/<file>` URL, served by the locked fetcher
    vendor: str
    quote_number: str
    quote_date: str
    generated_on: dt.date
    page_size: PageSize
    total: str
    #: "Option A of 2 offered" beside the total when the quote offers alternatives
    option_note: str = ""
    verdict: str
    verdict_label: str
    verdict_sentence: str
    workload: list[Row]
    facility: list[Row]
    inputs: list[InputPair]
    vehicles: list[VehicleRow]
    pressures: list[PressureRow]
    findings: list[FindingRow]
    sizing: list[Row]
    charts: list[ChartRow]
    recommendation: RecommendationRow | None
    lines: list[LineRow]
    sources: list[SourceRow]
    citations: list[Citation] = []
    unverified_count: int
    catalog_version: str
    #: "Catalog revision 7" on the PDF: the catalog's revision number, and nothing when the
    #: version is not one (a date or "db" is an internal key, never printed for a customer).
    catalog_revision: str = ""

    @property
    def lines_text(self) -> str:
        """The quote lines in preformatted columns: the PDF's appendix (apps/reports/appendix)."""
        return lines_columns(self.lines)


def catalog_revision(version: str) -> str:
    """ "7" -> "7"; "revision 7" -> "7"; "db", "2026-11-29", "test-catalog" -> "" (not printed)."""
    digits = version.strip().lower().removeprefix("revision").strip()
    return digits if digits.isdigit() else ""


def _key(text: str) -> str:
    """ "dgx-b200.power_max_kw: 14.3 (verified)" -> "dgx-b200.power_max_kw"."""
    return text.split(":", 1)[0].strip().lower()


def finding_sources(finding: Finding) -> list[SourceRow]:
    """The sources behind one finding, each marked unverified when the catalog says so.

    A source is unverified when it says so in its text or when its figure (the part before
    the colon) is listed in `finding.unverified`; unverified figures without a source line of
    their own are listed too, so nothing unverified goes unmarked.
    """
    unverified_keys = {_key(u) for u in finding.unverified}
    rows: list[SourceRow] = []
    for text in finding.sources:
        flagged = "unverified" in text.lower() or _key(text) in unverified_keys
        rows.append(SourceRow(text=text, unverified=flagged, checks=[finding.check]))
    covered = {_key(r.text) for r in rows}
    for text in finding.unverified:
        if _key(text) not in covered:
            rows.append(SourceRow(text=text, unverified=True, checks=[finding.check]))
    return rows


def all_sources(findings: list[FindingRow]) -> list[SourceRow]:
    """Every source once, with the checks it fed; unverified first so a reader sees them."""
    merged: dict[str, SourceRow] = {}
    for finding in findings:
        for source in finding.sources:
            seen = merged.get(source.text)
            if seen is None:
                merged[source.text] = source
            elif finding.check not in seen.checks:
                merged[source.text] = seen.model_copy(
                    update={
                        "unverified": seen.unverified or source.unverified,
                        "checks": [*seen.checks, finding.check],
                    }
                )
    return sorted(merged.values(), key=lambda s: (not s.unverified, s.text))


def _finding_rows(report: ReviewReport) -> list[FindingRow]:
    check_order = list(page.CHECKS)
    ordered = sorted(
        report.findings,
        key=lambda f: (
            -SEVERITY_ORDER.index(f.severity),
            check_order.index(f.check) if f.check in check_order else len(check_order),
        ),
    )
    rows = []
    for finding in ordered:
        label = words.check_label(finding.check, page.finding_fabric(finding))
        metrics = []
        for key, value in finding.metrics.items():
            shown = page.metric(key, value)
            metrics.append(Row(label=shown.label, value=shown.value, unit=shown.unit))
        rows.append(
            FindingRow(
                check=finding.check,
                check_label=label,
                heading=words.finding_heading(label, finding.title),
                severity=finding.severity,
                severity_label=page.SEVERITY_LABELS.get(finding.severity, finding.severity),
                title=finding.title,
                detail=finding.detail,
                metrics=metrics,
                formula=finding.formula,
                lever=finding.lever,
                sources=finding_sources(finding),
            )
        )
    return rows


def _cited(row: FindingRow, book: CitationBook) -> FindingRow:
    """The finding's sources with their figure in words and the documents behind it."""
    sources = []
    for source in row.sources:
        figure = book.figure(source.text, unverified=source.unverified, check=row.check_label)
        sources.append(
            source.model_copy(
                update={
                    "figure_label": figure.label,
                    "citations": figure.citations,
                    "note": figure.note,
                }
            )
        )
    metrics = [m.model_copy(update={"value": book.name_of(m.value)}) for m in row.metrics]
    return row.model_copy(update={"sources": sources, "metrics": metrics})


def _workload_rows(report: ReviewReport) -> list[Row]:
    w = report.workload
    if w is None:
        return []
    model = w.model if isinstance(w.model, str) or w.model is None else w.model.name
    rows = [
        Row(label="Workload", value=w.name),
        Row(label="Load", value=KIND_LABELS.get(w.kind, str(w.kind))),
        Row(label="Model", value=model or "—"),
        Row(label="Precision", value=str(w.precision).upper()),
        Row(label="Context", value=number_format(w.context_tokens), unit="tokens"),
        Row(label="Concurrent users", value=number_format(w.concurrent_users)),
        Row(
            label="Speed per user", value=number_format(w.tokens_per_sec_per_user), unit="tokens/s"
        ),
    ]
    if w.memory_gb is not None:
        rows.append(Row(label="Biggest job (given)", value=number_format(w.memory_gb), unit="GB"))
    if w.fp64_tflops is not None:
        rows.append(Row(label="FP64 needed", value=number_format(w.fp64_tflops), unit="TFLOPS"))
    return rows


def _facility_rows(report: ReviewReport) -> list[Row]:
    f = report.facility
    if f is None:
        return []
    rows = [
        Row(label="Facility", value=f.name),
        Row(label="Site", value=SITE_LABELS.get(f.site, f.site)),
        Row(label="Cooling", value=COOLING_LABELS.get(f.cooling, f.cooling)),
    ]
    optional: list[tuple[str, float | int | None, str]] = [
        ("Power qualified per rack", f.rack_power_kw, "kW"),
        ("Racks available", f.racks_available, ""),
        ("Floor rating", f.floor_load_lb_per_sqft, "lb/sq ft"),
        ("Circuit", f.circuit_volts, "V"),
        ("Circuit breaker", f.circuit_amps, "A"),
    ]
    rows += [Row(label=k, value=number_format(v), unit=u) for k, v, u in optional if v is not None]
    return rows


def _vehicle_rows(report: ReviewReport) -> list[VehicleRow]:
    rows = []
    for card in page.vehicle_cards(report.systems):
        s = card.system
        rows.append(
            VehicleRow(
                sku=s.sku,
                name=s.name,
                quantity=s.quantity,
                vehicle=card.vehicle,
                gpu=s.gpu or "—",
                gpus_per_system=s.gpus_per_system,
                nvlink_domain_gpus=s.nvlink_domain_gpus,
                domain_sentence=card.domain_sentence,
                power_kw="—" if s.power_kw is None else number_format(s.power_kw),
                power_text=card.power_text,
                weight_text=card.weight_text,
                cooling=s.cooling.replace("_", " "),
                cpu_arch="Arm" if s.cpu_arch == "arm" else s.cpu_arch,
                drawing=vehicle_svg(s.form_factor, label=card.drawing_label, labelled=False),
                drawing_label=card.drawing_label,
                domains=card.domains,
            )
        )
    return rows


def _recommendation_row(report: ReviewReport) -> RecommendationRow | None:
    rec = report.recommendation
    if rec is None:
        return None
    return RecommendationRow(
        name=rec.name,
        sku=rec.sku,
        quantity=rec.quantity,
        vehicle=rec.vehicle,
        gpu=rec.gpu or "—",
        nvlink_domain_gpus=rec.nvlink_domain_gpus,
        nvlink_domain_memory_gb=number_format(rec.nvlink_domain_memory_gb),
        power_kw="—" if rec.power_kw is None else number_format(rec.power_kw),
        power_text="not known" if rec.power_kw is None else words.power_format(rec.power_kw),
        estimated_cost=money_format(rec.estimated_cost_usd, "USD"),
        why=rec.why,
        is_quoted=rec.is_quoted,
        drawing=page.recommendation_drawing(report, labelled=False),
        drawing_label=page.recommendation_drawing_label(report),
    )


def _line_rows(report: ReviewReport) -> list[LineRow]:
    currency = report.quote.currency
    return [
        LineRow(
            line=line.line,
            part_number=line.part_number,
            description=line.description,
            quantity="—" if line.quantity is None else f"{line.quantity:,}",
            unit_price=money_format(line.unit_price, currency),
            extended_price=money_format(line.extended_price, currency),
            match_label=page.MATCH_LABELS.get(line.match, line.match),
        )
        for line in report.quote.lines
    ]


def report_context_build(
    *,
    report: ReviewReport,
    generated_on: dt.date,
    page_size: PageSize = "A4",
    organisation: str = "",
    quote_date: str = "",
    catalog: CatalogSnapshot | None = None,
    reseller_name: str = "",
    reseller_logo: str = "",
) -> ReportContext:
    """The PDF's content for one review; pure, so the same report always prints the same.

    With the catalog, every figure behind a finding is cited by the documents its catalog row
    names (title, publisher, URL); without it the figure is still named in words."""
    bp = report.blood_pressure
    book = CitationBook(catalog)
    findings = [_cited(row, book) for row in _finding_rows(report)]
    workload, facility = _workload_rows(report), _facility_rows(report)
    sources = all_sources(findings)
    quote = report.quote
    return ReportContext(
        title=" ".join(x for x in ("Quote review:", quote.vendor, quote.quote_number) if x),
        organisation=organisation,
        reseller_name=reseller_name,
        reseller_logo=reseller_logo,
        vendor=quote.vendor,
        quote_number=quote.quote_number,
        quote_date=quote_date,
        generated_on=generated_on,
        page_size=page_size,
        total=money_format(quote.total, quote.currency),
        option_note=page.option_note(report),
        verdict=report.verdict,
        verdict_label=page.VERDICT_LABELS[report.verdict],
        verdict_sentence=page.verdict_sentence(report),
        workload=workload,
        facility=facility,
        inputs=[
            InputPair(load=load, building=building)
            for load, building in itertools.zip_longest(workload, facility)
        ],
        vehicles=_vehicle_rows(report),
        pressures=[
            PressureRow(
                who=who,
                level=pressure.level,
                level_label=LEVEL_LABELS[pressure.level],
                reasons=pressure.reasons,
                gauge=gauge_svg(pressure.level, label=who, text_outside=True),
            )
            for who, pressure in (("Finance", bp.finance), ("Facilities", bp.facilities))
        ],
        findings=findings,
        sizing=[Row(label=r.label, value=r.value, unit=r.unit) for r in page.sizing_rows(report)],
        charts=[
            ChartRow(key=c.key, svg=c.svg, caption=c.caption, title=c.title, summary=c.summary)
            for c in page.charts(report, text_outside=True)
        ],
        recommendation=_recommendation_row(report),
        lines=_line_rows(report),
        sources=sources,
        citations=book.citations,
        unverified_count=sum(1 for s in sources if s.unverified),
        catalog_version=report.catalog_version,
        catalog_revision=(
            str(report.catalog_revision)
            if report.catalog_revision is not None
            else catalog_revision(report.catalog_version)
        ),
    )
