"""energy: the heat Facilities must remove and the running bill Finance will pay.

Heat in kW and BTU/h at maximum draw (1 kW = 3,412.14 BTU/h: a DGX B200's 14.3 kW is 48,794
BTU/h); a year of power at typical draw, round the clock, with the building's overhead:
typical kW × 8,760 h × PUE, in money (× the room's price per kWh) and CO2 (× the grid's
intensity). Defaults when the room gives none: $0.0895/kWh (EIA 2023, Virginia commercial, a
state proxy), 0.3674 kg CO2/kWh (EIA 2023, US grid), PUE 1.54 (Uptime 2025) in a data center
and 1.0 at a desk. Always info: it informs, it does not fail a quote.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.review.engine.checks._common import finding_make, num, usd
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Facility, Finding
from apps.review.engine.sizing.facility import (
    DEFAULT_KG_CO2_PER_KWH,
    DEFAULT_PUE,
    DEFAULT_USD_PER_KWH,
    HOURS_PER_YEAR,
    btu_per_hr,
    energy_per_year,
)
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "energy"


@dataclass(frozen=True, slots=True)
class Tariff:
    """Price, grid carbon and overhead of one building, each saying whether it was given."""

    usd_per_kwh: float
    kg_co2_per_kwh: float
    pue: float
    assumed: tuple[str, ...]


def tariff_of(facility: Facility) -> Tariff:
    office = facility.site == "office"
    assumed = []
    price = facility.electricity_usd_per_kwh
    if price is None:
        price = DEFAULT_USD_PER_KWH
        assumed.append(f"${DEFAULT_USD_PER_KWH}/kWh (EIA 2023, Virginia commercial)")
    carbon = facility.grid_kg_co2_per_kwh
    if carbon is None:
        carbon = DEFAULT_KG_CO2_PER_KWH
        assumed.append(f"{DEFAULT_KG_CO2_PER_KWH} kg CO2/kWh (EIA 2023, US grid)")
    pue = facility.pue
    if pue is None:
        pue = 1.0 if office else DEFAULT_PUE
        if not office:
            assumed.append(f"PUE {DEFAULT_PUE} (Uptime Institute 2025 average, unverified)")
    return Tariff(price, carbon, pue, tuple(assumed))


def typical_kw_of(vehicle: Vehicle) -> float | None:
    """Per system: the typical draw the catalog keeps for Finance, else the maximum."""
    return vehicle.system.power_typical_kw or vehicle.system.power_kw


def fleet_kw(vehicles: tuple[Vehicle, ...]) -> tuple[float, float]:
    """(maximum kW, typical kW) of every system on the quote."""
    peak = sum((v.system.power_kw or 0.0) * v.quantity for v in vehicles)
    typical = sum((typical_kw_of(v) or 0.0) * v.quantity for v in vehicles)
    return peak, typical


def check(ctx: ReviewContext) -> list[Finding]:
    peak, typical = fleet_kw(ctx.vehicles)
    if not peak:
        return []
    tariff = tariff_of(ctx.facility)
    kwh, cost, tonnes = energy_per_year(
        typical_kw=typical,
        pue=tariff.pue,
        usd_per_kwh=tariff.usd_per_kwh,
        kg_co2_per_kwh=tariff.kg_co2_per_kwh,
    )
    # rounded once, so the finding, its formula and the Finance gauge (which reads the
    # metric) print the same tonnes: 198.2549 t is 198.25 t everywhere, not 198.3 here and
    # 198.2 there
    tonnes = round(tonnes, 2)
    assumed = f" Assumed: {'; '.join(tariff.assumed)}." if tariff.assumed else ""
    return [
        finding_make(
            CHECK,
            "info",
            f"{num(peak)} kW of heat ({num(btu_per_hr(peak))} BTU/h); about {usd(cost)} and "
            f"{num(tonnes)} t CO2 a year",
            f"At maximum the quote gives off {num(peak)} kW, {num(btu_per_hr(peak))} BTU/h for "
            f"the mechanical engineer. Running round the clock at its typical {num(typical)} kW "
            f"with the building's overhead (PUE {tariff.pue:g}) it uses {num(kwh)} kWh a year: "
            f"about {usd(cost)} at ${tariff.usd_per_kwh:g}/kWh and {num(tonnes)} tonnes of CO2 "
            f"at {tariff.kg_co2_per_kwh:g} kg/kWh.{assumed}",
            metrics={
                "heat_kw": round(peak, 2),
                "heat_btu_per_hr": round(btu_per_hr(peak)),
                "typical_kw": round(typical, 2),
                "pue": tariff.pue,
                "energy_kwh_per_year": round(kwh),
                "energy_usd_per_year": round(cost),
                "usd_per_kwh": tariff.usd_per_kwh,
                "co2_tonnes_per_year": round(tonnes, 2),
                "kg_co2_per_kwh": tariff.kg_co2_per_kwh,
            },
            formula=(
                f"{num(peak)} kW × 3,412.14 = {num(btu_per_hr(peak))} BTU/h; {num(typical)} kW × "
                f"{num(HOURS_PER_YEAR)} h × {tariff.pue:g} = {num(kwh)} kWh; × "
                f"${tariff.usd_per_kwh:g} = {usd(cost)}; × {tariff.kg_co2_per_kwh:g} kg = "
                f"{num(tonnes)} t CO2"
            ),
        )
    ]
