"""The right-fit vehicle: the smallest NVLink domain the biggest job needs, scaled out
to the demand, kept only where the building takes it, cheapest per served unit, then by kW.

Prices are the catalog's (mostly unverified estimates): DGX H100 $300,000, Supermicro
SYS-821GE-TNHR $340,000, DGX B200 $515,000, PCIe 4 × H200 NVL $150,000, RTX PRO Server
$140,000, GB200 NVL72 $3,400,000, GB300 NVL72 $3,900,000, RTX PRO 6000 workstation $14,000.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks.context import context_build
from apps.review.engine.recommendation import (
    building_fit,
    candidates_of,
    demand_of,
    recommend,
    recommend_from_context,
    serves,
)
from apps.review.engine.schemas import Facility, KvPrecision, QuoteSummary, Workload
from tests.conftest import EXAMPLES
from tests.review.engine.engine_kit import quoted_system, run

FP64_ENGINES = {
    "H100 SXM",
    "H100 PCIe",
    "H100 NVL",
    "H200 SXM",
    "H200 NVL",
    "B200",
    "A100 SXM 80GB",
}
MUSCLE_CARS = ("B300", "GB300", "L40S", "RTX")


def example(name: str) -> tuple[Workload, Facility]:
    folder: Path = EXAMPLES / name
    return (
        Workload.model_validate_json((folder / "workload.json").read_text("utf-8")),
        Facility.model_validate_json((folder / "facility.json").read_text("utf-8")),
    )


def candidate(catalog: CatalogSnapshot, sku: str):
    return next(c for c in candidates_of(catalog, [], {}) if c.vehicle.system.sku == sku)


def vans(catalog: CatalogSnapshot):
    """The example quote: 2 × SYS-521GE-TNRT, 4 × L40S each ($28,000 + 4 × $9,500 = $66,000)."""
    return quoted_system(
        catalog,
        "supermicro-sys-521ge-tnrt",
        2,
        gpu_key="l40s",
        gpus=4,
        domain=1,
        unit_price=28_000 + 4 * 9_500,
    )


# --- the fine-tune that was quoted as a fleet of vans ------------------------------------------


def test_pcie_vans_fine_tune_gets_a_semi(catalog: CatalogSnapshot) -> None:
    workload, facility = example("pcie-vans-for-one-finetune")
    rec, finding = recommend(
        workload=workload, facility=facility, catalog=catalog, quoted=[vans(catalog)]
    )
    assert finding is None and rec is not None
    # The cheapest vehicle whose one NVLink domain holds 512 GB at 90 %:
    # DGX H100, 8 × 80 GiB = 8 × 85.9 = 687.2 GB, × 0.9 = 618.5 GB ≥ 512 GB, $300,000 (the
    # cheaper 4 × H200 NVL holds it too but is a bridged work van, not the semi a full
    # fine-tune wants)
    assert (rec.sku, rec.quantity) == ("dgx-h100", 1)
    assert rec.nvlink_domain_gpus >= 8
    assert rec.nvlink_domain_memory_gb == 687.2
    assert rec.power_kw == 10.2
    assert rec.vehicle == "semi"
    assert rec.estimated_cost_usd == Decimal("300000.00")
    assert rec.is_quoted is False
    assert "8 × 80 GiB = 687.2 GB (618.5 GB usable at 90 %)" in rec.why
    # 10.2 kW in a 15 kW rack: ⌊15 ÷ 10.2⌋ = 1 per rack, 1 rack of the 4
    assert "10.2 kW each, 1 per 15 kW rack, 1 rack of 4" in rec.why
    # $300,000 ÷ 512 GB = $585.94 per GB
    assert "$300,000, $586 per GB of one-domain memory" in rec.why
    assert "unverified estimate" in rec.why


def test_the_vans_themselves_do_not_hold_the_job(catalog: CatalogSnapshot) -> None:
    workload, _ = example("pcie-vans-for-one-finetune")
    demand = demand_of(workload, None)
    assert demand is not None and demand.basis == "memory" and demand.amount == 512
    kit = next(c for c in candidates_of(catalog, [vans(catalog)], {}) if c.quoted)
    # One L40S is its own domain: 48 GB × 0.9 = 43.2 GB usable, far from 512 GB.
    held = serves(kit.vehicle, demand)
    assert held.per_system == 0
    assert "43.2 GB usable, less than 512 GB" in held.how
    # Four bridged H200 NVL: 4 × 141 GiB = 4 × 151.4 = 605.6 GB, × 0.9 = 545 GB holds 512 GB,
    # but a full fine-tune wants an NVSwitch semi of 8 GPUs, not a 4-way bridge
    bridged = serves(candidate(catalog, "pcie-4x-h200-nvl").vehicle, demand)
    assert bridged.per_system == 0
    assert "545 GB usable, but the 512 GB fine-tuning job wants an NVSwitch domain" in bridged.how


def test_dgx_b200_fits_one_per_15_kw_rack(catalog: CatalogSnapshot) -> None:
    _, facility = example("pcie-vans-for-one-finetune")
    vehicle = candidate(catalog, "dgx-b200").vehicle
    fit, comfortable = building_fit(vehicle, facility, 1)
    assert fit.fits and comfortable
    assert fit.plan is not None
    # ⌊15 kW ÷ 14.3 kW⌋ = 1 DGX B200 per rack, drawing 14.3 kW; air removes 20 kW a rack
    assert fit.plan.systems_per_rack == 1
    assert fit.plan.rack_kw == pytest.approx(14.3)
    # two of them need two racks (of the 4 the room has)
    two, _ = building_fit(vehicle, facility, 2)
    assert two.fits and two.plan is not None and two.plan.racks_needed == 2


def test_the_quote_price_counts_when_the_quoted_system_is_a_candidate(
    catalog: CatalogSnapshot,
) -> None:
    workload, facility = example("pcie-vans-for-one-finetune")
    quoted = quoted_system(catalog, "dgx-b200", 1, unit_price=280_000)
    rec, _ = recommend(workload=workload, facility=facility, catalog=catalog, quoted=[quoted])
    assert rec is not None
    # $280,000 quoted beats the $300,000 DGX H100 list price: $280,000 ÷ 512 GB = $546.88
    assert (rec.sku, rec.is_quoted) == ("dgx-b200", True)
    assert rec.estimated_cost_usd == Decimal("280000.00")
    assert "$280,000, $547 per GB of one-domain memory, at the quote's own price" in rec.why
    assert "That is what was quoted." in rec.why


def test_equal_cost_goes_to_the_lighter_facilities_burden(catalog: CatalogSnapshot) -> None:
    workload, facility = example("pcie-vans-for-one-finetune")
    # DGX H100 priced like the Supermicro SYS-821GE-TNHR ($340,000 each): 10.2 kW < 10.5 kW
    rec, _ = recommend(
        workload=workload,
        facility=facility,
        catalog=catalog,
        quote_unit_prices={"dgx-h100": Decimal("340000")},
    )
    assert rec is not None and rec.sku == "dgx-h100"
    rec, _ = recommend(
        workload=workload,
        facility=facility,
        catalog=catalog,
        quote_unit_prices={"dgx-h100": Decimal("340001")},
    )
    assert rec is not None and rec.sku == "supermicro-821ge-tnhr"


# --- FP64: a cement truck, never a muscle car --------------------------------------------------


def test_fp64_case_gets_an_fp64_engine(catalog: CatalogSnapshot) -> None:
    workload, facility = example("muscle-car-for-fp64")
    rec, finding = recommend(workload=workload, facility=facility, catalog=catalog)
    assert finding is None and rec is not None
    assert rec.gpu in FP64_ENGINES
    assert not any(word in (rec.gpu or "") for word in MUSCLE_CARS)
    assert catalog.gpu(catalog.system(rec.sku).gpu or "").best_fp64_tflops >= 5
    # 4 × H200 NVL at 60 TFLOPS FP64 (tensor) = 240 ≥ 100; $150,000 ÷ 100 TFLOPS = $1,500
    assert (rec.sku, rec.quantity) == ("pcie-4x-h200-nvl", 1)
    assert "4 × 60 = 240 FP64 TFLOPS per system" in rec.why
    assert "$1,500 per FP64 TFLOPS" in rec.why
    # The unverified figure in words, not as a catalog key (h200-nvl.fp64_tensor_tflops: ~60)
    assert "Resting on unverified figures:" in rec.why
    assert "H200 NVL 141GB (PCIe) FP64 tensor ~60 TFLOPS" in rec.why


def test_the_muscle_car_is_skipped_for_fp64(catalog: CatalogSnapshot) -> None:
    workload, _ = example("muscle-car-for-fp64")
    demand = demand_of(workload, None)
    assert demand is not None and demand.basis == "fp64"
    # DGX B300: 8 × 1.25 = 10 TFLOPS, "not a significant source of FP64"
    held = serves(candidate(catalog, "dgx-b300").vehicle, demand)
    assert held.per_system == 0 and "not a significant source of FP64" in held.how


def test_fp64_scales_out(catalog: CatalogSnapshot) -> None:
    _, facility = example("muscle-car-for-fp64")
    rec, _ = recommend(
        workload=Workload(name="Climate model", kind="hpc", fp64_tflops=1000),
        facility=facility,
        catalog=catalog,
    )
    assert rec is not None
    # DGX H100 brings 8 × 67 = 536 TFLOPS: ⌈1,000 ÷ 536⌉ = 2 systems, 2 × $300,000 = $600,000,
    # $600 per TFLOPS (PCIe 4 × H200 NVL would be ⌈1,000 ÷ 240⌉ = 5 × $150,000 = $750,000)
    assert (rec.sku, rec.quantity) == ("dgx-h100", 2)
    assert rec.estimated_cost_usd == Decimal("600000.00")
    assert "2 × 536 = 1,072 ≥ 1,000 TFLOPS" in rec.why
    # 10.2 kW each: ⌊20 ÷ 10.2⌋ = 1 per rack, 2 racks of the 4
    assert "1 per 20 kW rack, 2 racks of 4" in rec.why


# --- the freight train ------------------------------------------------------------------------


def test_nvl72_in_an_air_room_names_the_rails(catalog: CatalogSnapshot) -> None:
    workload, facility = example("train-without-rails")
    rec, finding = recommend(workload=workload, facility=facility, catalog=catalog)
    assert rec is None and finding is not None
    assert (finding.check, finding.severity) == ("recommendation", "critical")
    # Only the NVL72s hold 10,000 GB in one domain; the cheapest is the GB200 NVL72:
    # 72 × 186 GB = 13,392 GB × 0.9 = 12,053 GB ≥ 10,000 GB, $3,400,000, 132 kW, liquid only.
    assert finding.metrics["unlocks"] == "gb200-nvl72"
    needs = {k: v for k, v in finding.metrics.items() if k.startswith("needs_")}
    # 3,000 lb of rack over 10 sq ft = 300 lb/sq ft, over the hall's 250
    assert needs == {
        "needs_cooling": "liquid",
        "needs_rack_power_kw": 132.0,
        "needs_floor_load_lb_per_sqft": 300,
    }
    assert finding.lever.startswith("Lay rails first: liquid cooling")
    assert "132 kW racks" in finding.lever and "NVIDIA GB200 NVL72" in finding.lever
    # the lever is real: the room it names takes the train
    railed = facility.model_copy(update={k.removeprefix("needs_"): v for k, v in needs.items()})
    after, none = recommend(workload=workload, facility=railed, catalog=catalog)
    assert none is None and after is not None and after.sku == "gb200-nvl72"


def test_train_on_rails_gets_the_smallest_train_that_holds_the_job(
    catalog: CatalogSnapshot,
) -> None:
    workload, facility = example("train-on-rails")
    rec, _ = recommend(workload=workload, facility=facility, catalog=catalog)
    assert rec is not None
    # 72 × 186 GiB = 72 × 199.7 = 14,379.6 GB × 0.9 = 12,941.6 GB ≥ 12,000 GB; $3.4 M < GB300
    # NVL72 $3.9 M
    assert (rec.sku, rec.nvlink_domain_gpus, rec.vehicle) == ("gb200-nvl72", 72, "freight train")
    assert rec.nvlink_domain_memory_gb == 14379.6
    assert "132 kW each, 1 per 150 kW rack, 1 rack of 4, liquid cooling" in rec.why


def test_semis_in_a_2_kw_room_need_rack_power_not_liquid(catalog: CatalogSnapshot) -> None:
    workload, facility = example("four-semis-in-a-2kw-room")
    rec, finding = recommend(workload=workload, facility=facility, catalog=catalog)
    assert rec is None and finding is not None and finding.severity == "critical"
    # 1,000 GB ÷ 0.9 needs a 1,111 GB domain: 8 × 141 = 1,128 GB (H200). The cheapest,
    # Supermicro SYS-821GE-TNHR ($340,000), draws 10.5 kW: the 2 kW racks must become 10.5 kW.
    assert finding.metrics["unlocks"] == "supermicro-821ge-tnhr"
    assert finding.metrics["changes"] == ["10.5 kW racks"]
    assert finding.lever.startswith("Fix the building first: 10.5 kW racks")
    assert "supermicro-821ge-tnhr.power_max_kw: ~10.5 (unverified)" in finding.unverified


# --- the school bus ---------------------------------------------------------------------------


def test_school_bus_gets_a_work_van(catalog: CatalogSnapshot) -> None:
    workload, facility = example("cement-truck-for-a-school-bus")
    workload = workload.model_copy(update={"kv_precision": KvPrecision.BF16})  # 16-bit KV
    rec, _ = recommend(
        workload=workload,
        facility=facility,
        catalog=catalog,
        quoted=[quoted_system(catalog, "dgx-b300", 1)],
    )
    assert rec is not None and not rec.is_quoted
    # One RTX PRO 6000 (96 GB GDDR7, as listed): 96 × 0.9 = 86.4 − 1.0 CUDA context − 1.342
    # activations − 32.8 GB of FP8 weights = 51.26 GB ÷ 2.147 GB per 8k conversation = 23.9
    # → 23 conversations; at 15 tokens/s a step may take 1/15 = 0.0667 s, and 23 of them take
    # (32.02 + 23 × 0.537 GB half-context KV) ÷ (1,792 × 0.8039 = 1,440.6 GB/s) + 1.0 µs +
    # 64 layers × 52.79 µs = 0.0308 + 0.0034 = 0.0342 s: memory, not speed, caps them at 23.
    # 8 GPUs × 23 = 184 users ≥ 100 in one server; $140,000 ÷ 100 users = $1,400 a user.
    assert (rec.sku, rec.quantity, rec.vehicle) == ("rtx-pro-server-8x", 1, "work van")
    assert "8 copies of it, one per GPU, 23 users apiece at 15 tokens/s" in rec.why
    assert "1 × 184 = 184 users ≥ 100" in rec.why
    assert "$140,000, $1,400 per user at 15 tokens/s" in rec.why


# --- the desk ---------------------------------------------------------------------------------


def test_office_gets_a_sedan_within_the_circuit(catalog: CatalogSnapshot) -> None:
    workload, facility = example("station-on-15a-circuit")
    rec, _ = recommend(workload=workload, facility=facility, catalog=catalog)
    assert rec is not None
    # Llama-3.1-70B at FP8 = 70.6 GB; one 96 GB RTX PRO 6000 holds it for 2 users, and
    # 1,150 W is within 15 A × 120 V × 0.8 = 1,440 W
    assert rec.sku == "ws-1x-rtx-pro-6000"
    assert "1,150 W of the 1,440 W it carries continuously" in rec.why
    # the DGX Station's 1,600 W plugs in but runs over the 1,440 W continuous rating
    station = candidate(catalog, "dgx-station-gb300").vehicle
    fit, comfortable = building_fit(station, facility, 1)
    assert fit.fits and not comfortable
    # on 20 A: 20 × 120 × 0.8 = 1,920 W ≥ 1,600 W
    _, lab = example("station-on-20a-circuit")
    assert building_fit(station, lab, 1)[1] is True


def test_a_department_on_a_desk_circuit_needs_a_server_room(catalog: CatalogSnapshot) -> None:
    workload, facility = example("spark-for-a-department")
    # with the FP8 weights' default FP8 KV a DGX Station (252 GiB) holds 194 conversations and
    # a 4 × RTX PRO Max-Q workstation ~196, but 100 users' production serving is a server's
    # job ("hopeless for a department needing to host a production workload"): no desk-side
    # vehicle is offered, and an RTX PRO Server (7 kW, air) in a data-center rack is.
    rec, finding = recommend(workload=workload, facility=facility, catalog=catalog)
    assert rec is None and finding is not None and finding.severity == "critical"
    assert finding.metrics["unlocks"] == "rtx-pro-server-8x"
    assert finding.metrics["changes"] == ["a data-center rack of 7 kW with air cooling"]
    assert finding.metrics["needs_site"] == "datacenter"
    assert finding.metrics["needs_rack_power_kw"] == 7.0


def test_no_fleet_of_desk_side_vehicles(catalog: CatalogSnapshot) -> None:
    workload, _facility = example("spark-for-a-department")  # FP8 weights, FP8 KV default
    rec, _ = recommend(
        workload=workload,
        facility=Facility(name="Server room", rack_power_kw=15, racks_available=4),
        catalog=catalog,
    )
    assert rec is not None
    assert rec.vehicle not in {"compact car", "sedan", "station wagon"}


# --- nothing to size, nothing big enough --------------------------------------------------------


def test_nothing_to_size_is_an_info_finding(catalog: CatalogSnapshot) -> None:
    _, facility = example("cement-truck-for-a-school-bus")
    rec, finding = recommend(workload=Workload(kind="vdi"), facility=facility, catalog=catalog)
    assert rec is None and finding is not None
    assert (finding.check, finding.severity) == ("recommendation", "info")


def test_a_job_bigger_than_any_domain_is_a_warning(catalog: CatalogSnapshot) -> None:
    _, facility = example("train-on-rails")
    rec, finding = recommend(
        workload=Workload(kind="training", memory_gb=50_000), facility=facility, catalog=catalog
    )
    assert rec is None and finding is not None
    assert (finding.check, finding.severity) == ("recommendation", "warning")
    # the biggest domain on the lot: Vera Rubin NVL72, 72 × 288 GiB = 72 × 309.2 = 22,265 GB
    # × 0.9 = 20,039 GB
    assert "20,039 GB usable, less than 50,000 GB" in finding.detail
    assert finding.lever.startswith("Split the job")


# --- from a review's context ------------------------------------------------------------------


@pytest.mark.parametrize(("currency", "sku"), [("USD", "dgx-b200"), ("EUR", "dgx-h100")])
def test_quote_prices_count_only_in_dollars(
    catalog: CatalogSnapshot, currency: str, sku: str
) -> None:
    workload, facility = example("pcie-vans-for-one-finetune")
    ctx = context_build(
        workload=workload,
        facility=facility,
        quote=QuoteSummary(currency=currency, total=Decimal("100000")),
        systems=[quoted_system(catalog, "dgx-b200", 1, unit_price=100_000)],
        line_problems=[],
        catalog=catalog,
    )
    rec, _ = recommend_from_context(ctx)
    # 100,000 USD for a DGX B200 beats $300,000; 100,000 EUR is not compared with dollars
    assert rec is not None and rec.sku == sku


# --- wired into the engine --------------------------------------------------------------------


def test_the_review_carries_the_recommendation(catalog: CatalogSnapshot) -> None:
    workload, facility = example("pcie-vans-for-one-finetune")
    report = run(catalog, [vans(catalog)], workload, facility, total=Decimal("132000"))
    assert report.recommendation is not None
    assert (report.recommendation.sku, report.recommendation.nvlink_domain_gpus) == ("dgx-h100", 8)
    assert not any(f.check == "recommendation" for f in report.findings)


def test_the_review_says_why_there_is_none(catalog: CatalogSnapshot) -> None:
    workload, facility = example("train-without-rails")
    report = run(catalog, [quoted_system(catalog, "gb300-nvl72")], workload, facility)
    assert report.recommendation is None
    [finding] = [f for f in report.findings if f.check == "recommendation"]
    assert finding.severity == "critical" and finding.lever.startswith("Lay rails first")
    assert report.verdict == "fail"


@pytest.mark.parametrize(("users", "desk"), [(10, True), (11, False)])
def test_a_small_team_may_share_a_desk_a_department_may_not(
    catalog: CatalogSnapshot, users: int, desk: bool
) -> None:
    workload, _ = example("spark-for-a-department")
    workload = workload.model_copy(update={"concurrent_users": users})
    rec, _ = recommend(
        workload=workload,
        facility=Facility(name="Server room", rack_power_kw=15, racks_available=4),
        catalog=catalog,
    )
    # up to 10 users a desk-side vehicle may be the cheapest fit; from 11 it is never offered
    assert rec is not None
    assert (rec.vehicle in {"compact car", "sedan", "station wagon"}) is desk
