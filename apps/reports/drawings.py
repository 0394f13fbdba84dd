"""The review page's pictures: the quoted vehicles with their NVLink domains drawn, the
blood-pressure gauges, demand against capacity and the rack against the room.

Pure functions of the report, shared by the page and the PDF. Two Supermicro PCIe servers with
four L40S each draw as two work vans with four loose GPU squares apiece; a DGX B200 as a semi
with one box around eight.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from apps.reports.charts.buy_rent import buy_rent_svg
from apps.reports.charts.demand import demand_capacity_svg, demand_ratio
from apps.reports.charts.gauge import gauge_svg
from apps.reports.charts.racks import (
    RACK_POWER_TITLE,
    RACK_ROW_TITLE,
    rack_power_svg,
    rack_row_svg,
    rack_row_words,
)
from apps.reports.charts.vehicles import vehicle_svg
from apps.review.engine.schemas import QuotedSystem, ReviewReport
from apps.words import (
    COOLING_WORDS,
    CPU_LABELS,
    fabric_name,
    number_format,
    power_format,
    vehicle_name,
)

COOLING_LABELS = COOLING_WORDS


# --- vehicles ------------------------------------------------------------------------------------

GPU_SIZE, GPU_GAP, GPUS_PER_ROW = 12, 4, 18


@functools.lru_cache(maxsize=512, typed=True)  # two counts in, the same drawing out
def nvlink_domain_svg(gpus: int, domain: int) -> SafeString:
    """The engines inside one vehicle, boxed by NVLink domain.

    An 8-GPU HGX draws one box around eight squares; two PCIe servers with four L40S each draw
    four loose squares per server, each GPU its own island passing notes over PCIe.
    """
    gpus, domain = max(gpus, 0), max(domain, 1)
    columns = min(max(gpus, 1), GPUS_PER_ROW)
    rows = max(1, -(-gpus // GPUS_PER_ROW))
    width = 8 + columns * (GPU_SIZE + GPU_GAP) + 4
    height = 8 + rows * (GPU_SIZE + GPU_GAP) + 4
    parts = []
    if domain > 1:
        for start in range(0, gpus, domain):
            cells = range(start, min(start + domain, gpus))
            xs = [_cell(i)[0] for i in cells]
            ys = [_cell(i)[1] for i in cells]
            parts.append(
                f'<rect class="domain" x="{min(xs) - 3}" y="{min(ys) - 3}" '
                f'width="{max(xs) - min(xs) + GPU_SIZE + 6}" '
                f'height="{max(ys) - min(ys) + GPU_SIZE + 6}" rx="4" fill="#e3f0fa" '
                f'stroke="#0f5e9c" stroke-width="1.5"/>'
            )
    for i in range(gpus):
        x, y = _cell(i)
        parts.append(
            f'<rect class="gpu" x="{x}" y="{y}" width="{GPU_SIZE}" height="{GPU_SIZE}" rx="2" '
            f'fill="#4a7fa7" stroke="#1f2933" stroke-width="0.8"/>'
        )
    if domain > 1:
        title = f"{gpus} GPUs in NVLink domains of {domain}"
    else:
        title = f"{gpus} GPUs, each on its own (PCIe only)"
    return mark_safe(  # every value interpolated is an int we computed
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-domain" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>{"".join(parts)}</svg>'
    )


def _cell(index: int) -> tuple[int, int]:
    row, column = divmod(index, GPUS_PER_ROW)
    return 6 + column * (GPU_SIZE + GPU_GAP), 6 + row * (GPU_SIZE + GPU_GAP)


@dataclass(frozen=True)
class VehicleCard:
    system: QuotedSystem
    vehicle: str
    #: "2 × work van": what the drawing's label says (the PDF prints it as text beneath)
    drawing_label: str
    drawing: str
    domains: SafeString
    domain_sentence: str
    #: "NVLink domain", "Infinity Fabric domain" (8 × MI300X): the fact's label on the page
    domain_label: str
    power_kw_total: float | None
    power_text: str
    cooling_label: str
    cpu_label: str
    #: "3,000 lb each", "313.9 lb each, 1,255.6 lb for 4"; "" when the catalog has no weight
    weight_text: str = ""


def _power(kw: float) -> str:
    """Desk machines in watts (a DGX Spark draws 240 W), servers and racks in kW."""
    return power_format(kw)


def vehicle_cards(systems: list[QuotedSystem]) -> list[VehicleCard]:
    cards = []
    for system in systems:
        vehicle = system.vehicle or vehicle_name(system.form_factor)
        domain = system.nvlink_domain_gpus or 1
        fabric = fabric_name(system.gpu_interconnect)
        if system.gpus_per_system == 0:
            sentence = "No GPUs: a chassis waiting for engines."
        elif system.gpus_per_system == 1 and system.quantity > 1:
            # two cabled Sparks, ten laptops: each its own host, never one NVLink domain
            sentence = (
                f"One GPU in each of {system.quantity}: {system.quantity} separate hosts, "
                "no NVLink between them."
            )
        elif system.gpus_per_system == 1:
            sentence = "One GPU: the whole job rides on one engine."
        elif domain <= 1:
            sentence = (
                f"{system.gpus_per_system} GPUs that pass notes over PCIe: "
                "no NVLink domain bigger than one GPU."
            )
        elif domain >= system.gpus_per_system:
            sentence = f"All {system.gpus_per_system} GPUs in one {fabric} domain."
        else:
            sentence = (
                f"{system.gpus_per_system} GPUs in {fabric} domains of {domain}, "
                "joined to each other over PCIe."
            )
        total = system.power_kw * system.quantity if system.power_kw is not None else None
        power = "not known"
        if system.power_kw is not None:
            power = f"{_power(system.power_kw)} each"
            if system.quantity > 1 and total is not None:
                power += f", {_power(total)} for {system.quantity}"
        label = f"{system.quantity} × {vehicle}"
        weight = ""
        if system.weight_lb:
            weight = f"{number_format(system.weight_lb)} lb each"
            if system.quantity > 1:
                weight += f", {number_format(system.weight_lb * system.quantity)} lb for "
                weight += f"{system.quantity}"
        cards.append(
            VehicleCard(
                system=system,
                vehicle=vehicle,
                drawing_label=label,
                drawing=vehicle_svg(system.form_factor, label=label),
                domains=nvlink_domain_svg(system.gpus_per_system, domain),
                domain_sentence=sentence,
                domain_label=f"{fabric} domain",
                power_kw_total=total,
                power_text=power,
                cooling_label=COOLING_LABELS.get(system.cooling, system.cooling).capitalize(),
                cpu_label=CPU_LABELS.get(system.cpu_arch, system.cpu_arch),
                weight_text=weight,
            )
        )
    return cards


FORM_FACTOR_OF_VEHICLE = {
    "moped": "phone",
    "motorcycle": "laptop",
    "compact car": "desktop",
    "sedan": "workstation",
    "station wagon": "workstation",
    "work van": "pcie_server",
    "semi": "nvl8_server",
    "freight train": "rack_nvl72",
}


def recommendation_drawing_label(report: ReviewReport) -> str:
    """ "1 × work van": what the right fit's drawing is labelled ("" without a right fit)."""
    rec = report.recommendation
    return "" if rec is None else f"{rec.quantity} × {rec.vehicle or rec.name}"


def recommendation_drawing(report: ReviewReport, *, labelled: bool = True) -> str | None:
    """The right-fit vehicle drawn like the quoted ones, so the two can be compared at a glance."""
    rec = report.recommendation
    if rec is None:
        return None
    form_factor = FORM_FACTOR_OF_VEHICLE.get(rec.vehicle, "")
    label = recommendation_drawing_label(report)
    return vehicle_svg(form_factor, label=label, labelled=labelled)


# --- charts and gauges ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    key: str
    svg: str
    caption: str
    #: With `text_outside`: the bold line above the drawing and the line of figures under it,
    #: which the drawing then leaves out ("" where it has none).
    title: str = ""
    summary: str = ""


def charts(report: ReviewReport, *, text_outside: bool = False) -> list[Chart]:
    """Demand against capacity where both are known, and the rack against the room.

    `text_outside=True` (the PDF): each chart's title and summary line as `Chart.title` and
    `Chart.summary` instead of SVG text, which WeasyPrint lays out letter by letter."""
    out = text_outside
    sizing, workload, facility = report.sizing, report.workload, report.facility
    drawn: list[Chart] = []
    domain_job = (
        sizing.domain_job_memory_gb
        if sizing.domain_job_memory_gb is not None
        else sizing.job_memory_gb
    )
    if domain_job is not None and sizing.nvlink_domain_memory_gb is not None:
        serving = workload is not None and workload.kind.is_inference
        label = (
            "One model copy against one NVLink domain"
            if serving
            else "Biggest job against one NVLink domain"
        )
        capacity = sizing.nvlink_domain_memory_gb
        drawn.append(
            Chart(
                "memory",
                demand_capacity_svg(domain_job, capacity, unit="GB", label=label, text_outside=out),
                (
                    "A copy of the model and one conversation must ride in one coupled vehicle; "
                    "more users ride in more copies. Past the dashed line a copy is split."
                    if serving
                    else "The job must ride in one coupled vehicle: past the dashed line it "
                    "is split."
                ),
                *_outside(out, label, demand_ratio(domain_job, capacity)),
            )
        )
    if workload is not None and sizing.max_concurrent_users is not None:
        speed = number_format(workload.tokens_per_sec_per_user)
        label = f"Users at {speed} tokens/s each"
        asked, served = workload.concurrent_users, sizing.max_concurrent_users
        drawn.append(
            Chart(
                "users",
                demand_capacity_svg(asked, served, unit="users", label=label, text_outside=out),
                "Seats on the bus: users asked for against users the quote serves at that speed.",
                *_outside(out, label, demand_ratio(asked, served)),
            )
        )
    if workload is not None and workload.fp64_tflops and sizing.fp64_tflops is not None:
        drawn.append(
            Chart(
                "fp64",
                demand_capacity_svg(
                    workload.fp64_tflops,
                    sizing.fp64_tflops,
                    unit="TFLOPS",
                    label="FP64",
                    text_outside=out,
                ),
                "Sustained 64-bit rate the science needs against what the engines give.",
                *_outside(out, "FP64", demand_ratio(workload.fp64_tflops, sizing.fp64_tflops)),
            )
        )
    qualified = (facility.rack_power_kw if facility is not None else None) or sizing.usable_rack_kw
    if (
        facility is not None
        and facility.site == "datacenter"
        and qualified
        and sizing.rack_power_kw is not None
    ):
        drawn.append(
            Chart(
                "rack",
                rack_power_svg(
                    sizing.rack_power_kw,
                    sizing.usable_rack_kw or qualified,
                    racks_needed=sizing.racks_needed,
                    racks_available=facility.racks_available,
                    text_outside=out,
                ),
                "One rack's draw against the kW the room is qualified for.",
                *_outside(out, RACK_POWER_TITLE, ""),
            )
        )
    if facility is not None and facility.site == "office":
        drawn += _circuit_chart(report, text_outside=out)
    if sizing.racks:
        drawn.append(
            Chart(
                "rack-row",
                rack_row_svg(sizing.racks, text_outside=out),
                "Each rack as the quote fills it, against its limit (dashed); blue is heat into "
                "the liquid loop, amber into the room's air; a crossed-out rack cannot take even "
                "one of its systems.",
                *_outside(out, RACK_ROW_TITLE, rack_row_words(sizing.racks)),
            )
        )
    if sizing.buy_or_rent is not None:
        drawn.append(
            Chart(
                "buy-rent",
                buy_rent_svg(sizing.buy_or_rent),
                "Cumulative cost, buying (the purchase, then power) against renting the same GPUs "
                "for the busy hours; the dashed line is the project's end, the dot the "
                "break-even. No resale value and no staff cost on either side.",
            )
        )
    return drawn


def _circuit_chart(report: ReviewReport, *, text_outside: bool) -> list[Chart]:
    """Desk machines against one wall circuit, from the circuit findings: the biggest machine
    when it alone is over the circuit, else every machine together. 8 GB10 boxes at 240 W are
    1,920 W against the 1,440 W a 120 V / 15 A circuit carries continuously (80 %): past the
    dashed line, so they need a second circuit."""
    circuit = [f.metrics for f in report.findings if f.check == "circuit" and f.metrics]
    if not circuit:
        return []
    limit = float(circuit[0].get("continuous_limit_w") or 0)
    amps, volts = circuit[0].get("circuit_amps"), circuit[0].get("circuit_volts")
    biggest = max((float(m["watts"]) for m in circuit if m.get("watts")), default=0.0)
    together = max((float(m["total_w"]) for m in circuit if m.get("total_w")), default=0.0)
    if not limit or not (biggest or together) or amps is None or volts is None:
        return []
    circuit_words = f"one {number_format(float(volts))} V / {number_format(float(amps))} A circuit"
    if together and biggest <= limit:
        label, demand = "Every machine against one circuit", together
        caption = (
            f"Every machine on the quote at its maximum against what {circuit_words} carries "
            "continuously (80 % of the breaker): past the dashed line they need more than one."
        )
    else:
        label, demand = "The biggest machine against one circuit", biggest
        caption = (
            f"The biggest machine at its maximum against what {circuit_words} carries "
            "continuously (80 % of the breaker): past the dashed line it needs a bigger one."
        )
    svg = demand_capacity_svg(demand, limit, unit="W", label=label, text_outside=text_outside)
    return [
        Chart("circuit", svg, caption, *_outside(text_outside, label, demand_ratio(demand, limit)))
    ]


def _outside(text_outside: bool, title: str, summary: str) -> tuple[str, str]:
    """A chart's (title, summary) when the page prints them, ("", "") when its SVG does."""
    return (title, summary) if text_outside else ("", "")


@dataclass(frozen=True)
class Gauges:
    finance: str
    facilities: str


def gauges(report: ReviewReport) -> Gauges:
    bp = report.blood_pressure
    return Gauges(
        finance=gauge_svg(bp.finance.level, label="Finance"),
        facilities=gauge_svg(bp.facilities.level, label="Facilities"),
    )
