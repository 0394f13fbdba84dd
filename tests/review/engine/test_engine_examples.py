"""The acceptance table (shared/examples) through the engine, with the quoted systems built by
hand from the catalog fixture, judged with shared/tools/check_examples.py's own comparisons.

The command line runs the same folders end to end (quote parsing included); these tests pin the
engine's half: given the right vehicles, every expect.json condition holds.
"""

from __future__ import annotations

import csv
import importlib.util
import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from types import ModuleType

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.review import ReviewInput, review
from apps.review.engine.schemas import (
    Facility,
    QuotedSystem,
    QuoteSummary,
    ReviewReport,
    Workload,
    verdict_for,
)
from tests.conftest import CHECK_EXAMPLES, EXAMPLES
from tests.review.engine.engine_kit import ROW_RDHX, quoted_system


def _checker() -> ModuleType:
    path = CHECK_EXAMPLES
    spec = importlib.util.spec_from_file_location("check_examples", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = _checker()

Build = Callable[[CatalogSnapshot], list[QuotedSystem]]

# What quote intake turns each quote.csv into (one vehicle line each; the vans are a kit:
# 2 × SYS-521GE-TNRT chassis + 8 × L40S = two vans with four L40S each, NVLink domain 1).
SYSTEMS: dict[str, Build] = {
    "cement-truck-for-a-school-bus": lambda c: [quoted_system(c, "dgx-b300", 1)],
    "four-semis-in-a-2kw-room": lambda c: [quoted_system(c, "dgx-b200", 4)],
    "h200-semi-for-fp64": lambda c: [quoted_system(c, "dgx-h200", 1)],
    "muscle-car-for-fp64": lambda c: [quoted_system(c, "dgx-b300", 1)],
    "pcie-vans-for-one-finetune": lambda c: [
        quoted_system(
            c,
            "supermicro-sys-521ge-tnrt",
            2,
            gpu_key="l40s",
            gpus=4,
            domain=1,
            unit_price=28_000 + 4 * 9_500,
        )
    ],
    "semi-for-one-finetune": lambda c: [quoted_system(c, "dgx-b200", 1)],
    "spark-for-a-department": lambda c: [quoted_system(c, "dgx-spark", 1)],
    "spark-one-developer": lambda c: [quoted_system(c, "dgx-spark", 1)],
    "spark-qwen3-32b-8bit": lambda c: [quoted_system(c, "dgx-spark", 1)],
    "station-on-15a-circuit": lambda c: [quoted_system(c, "dgx-station-gb300", 1)],
    "station-on-20a-circuit": lambda c: [quoted_system(c, "dgx-station-gb300", 1)],
    "train-on-rails": lambda c: [quoted_system(c, "gb300-nvl72", 1)],
    "train-without-rails": lambda c: [quoted_system(c, "gb300-nvl72", 1)],
    "work-van-for-rag": lambda c: [quoted_system(c, "rtx-pro-server-8x", 1)],
}


def _expect(folder: Path) -> dict:
    return json.loads((folder / "expect.json").read_text(encoding="utf-8"))


def _reviewable_folders() -> list[Path]:
    """The field guide's one-line quotes whose review completes (exit 0). Bad-input folders
    belong to quote intake; the real bills of materials (folders with a README) are read by
    intake and checked end to end in tests/cli."""
    folders = sorted(
        p
        for p in EXAMPLES.iterdir()
        if (p / "expect.json").exists() and not (p / "README.md").exists()
    )
    return [p for p in folders if _expect(p).get("exit", 0) == 0]


FOLDERS = _reviewable_folders()


def _quote_total(folder: Path) -> Decimal:
    """Σ Extended Price of quote.csv: $515,000 for one DGX B200."""
    with (folder / "quote.csv").open(encoding="utf-8", newline="") as handle:
        return sum((Decimal(row["Extended Price"]) for row in csv.DictReader(handle)), Decimal(0))


def _review_folder(folder: Path, catalog: CatalogSnapshot) -> ReviewReport:
    inp = ReviewInput(
        quote=QuoteSummary(total=_quote_total(folder)),
        systems=SYSTEMS[folder.name](catalog),
        workload=Workload.model_validate_json((folder / "workload.json").read_text("utf-8")),
        facility=Facility.model_validate_json((folder / "facility.json").read_text("utf-8")),
    )
    return review(inp, catalog)


def _problems(expect: dict, report: dict) -> list[str]:
    """check_examples.py's judgement of one report (everything after the JSON is parsed)."""
    findings = report.get("findings") or []
    problems = []
    if "verdict" in expect and report.get("verdict") not in expect["verdict"]:
        problems.append(f"verdict {report.get('verdict')} not in {expect['verdict']}")
    for check, want in expect.get("checks", {}).items():
        got = CHECKER.worst(findings, check)
        if got is None:
            if not want.startswith("<="):
                problems.append(f"{check}: missing, want {want}")
        elif not CHECKER.cmp(CHECKER.SEV, got, want):
            problems.append(f"{check}: {got}, want {want}")
    sizing = report.get("sizing") or {}
    for field, (low, high) in expect.get("sizing", {}).items():
        value = sizing.get(field)
        if not isinstance(value, int | float) or not (low <= value <= high):
            problems.append(f"sizing.{field}={value}, want [{low}, {high}]")
    pressure = report.get("blood_pressure") or {}
    for who, want in expect.get("bp", {}).items():
        got = (pressure.get(who) or {}).get("level")
        if not CHECKER.cmp(CHECKER.BP, got, want):
            problems.append(f"bp.{who}={got}, want {want}")
    if "gpus" in expect:
        systems = report.get("systems") or []
        total = sum((s.get("quantity") or 0) * (s.get("gpus_per_system") or 0) for s in systems)
        if total != expect["gpus"]:
            problems.append(f"gpus={total}, want {expect['gpus']}")
    return problems


def test_every_reviewable_example_has_its_vehicles() -> None:
    # A new example folder without a builder here must fail, not be skipped.
    assert {f.name for f in FOLDERS} == set(SYSTEMS)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_example_holds(folder: Path, catalog: CatalogSnapshot) -> None:
    report = _review_folder(folder, catalog)
    as_json = json.loads(report.model_dump_json())
    assert _problems(_expect(folder), as_json) == []


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_example_report_is_consistent(folder: Path, catalog: CatalogSnapshot) -> None:
    report = _review_folder(folder, catalog)
    assert report.verdict == verdict_for(report.findings)
    # a right-fit vehicle, or a `recommendation` finding that says why there is none
    has_why_not = any(f.check == "recommendation" for f in report.findings)
    assert (report.recommendation is None) == has_why_not
    assert report.catalog_version == catalog.version
    for finding in report.findings:
        assert finding.title and finding.detail
        if finding.severity in {"warning", "critical"}:
            assert finding.lever, finding.title
        for figure in finding.unverified:
            assert figure in finding.sources


def test_checks_that_apply_appear_and_others_stay_out(catalog: CatalogSnapshot) -> None:
    # An office Spark with a model: throughput and circuit apply, rack checks do not.
    office = _review_folder(EXAMPLES / "spark-qwen3-32b-8bit", catalog)
    checks = {f.check for f in office.findings}
    assert {"quote_lines", "memory_fit", "nvlink_domain", "throughput", "utilization"} <= checks
    assert {"circuit", "arch_portability"} <= checks
    assert not checks & {"rack_power", "cooling", "floor_load", "fp64"}
    # A datacenter HPC job without a model: no throughput, no circuit, no memory checks.
    hpc = _review_folder(EXAMPLES / "h200-semi-for-fp64", catalog)
    checks = {f.check for f in hpc.findings}
    assert {"fp64", "rack_power", "cooling", "floor_load"} <= checks
    assert not checks & {"throughput", "utilization", "circuit", "memory_fit", "nvlink_domain"}
    assert hpc.sizing.decode_tokens_per_sec_bound is None
    assert hpc.sizing.job_memory_gb is None


def test_spark_sizing_spells_out_the_field_guide(catalog: CatalogSnapshot) -> None:
    report = _review_folder(EXAMPLES / "spark-qwen3-32b-8bit", catalog)
    # 273 GB/s ÷ (32.8 B params × 1 byte at 8 bits = 32.8 GB) = 8.32 tokens/s
    assert report.sizing.decode_tokens_per_sec_bound == pytest.approx(273 / 32.8, abs=0.01)
    # 32.8 GB weights + 2 × 64 × 8 × 128 × 1 B (FP8 KV, following the weights; was 2 B) ×
    # 8,192 tokens = 1.074 GB of KV for one user
    assert report.sizing.job_memory_gb == pytest.approx(32.8 + 1.074, abs=0.01)


def test_four_semis_sizing(catalog: CatalogSnapshot) -> None:
    report = _review_folder(EXAMPLES / "four-semis-in-a-2kw-room", catalog)
    # 4 × 14.3 kW = 57.2 kW, all in the one rack the room has
    assert report.sizing.power_kw == pytest.approx(57.2)
    assert report.sizing.rack_power_kw == pytest.approx(57.2)
    # one DGX B200 (14.3 kW) is over the 2 kW rack: no count of racks works, not "1 rack"
    assert report.sizing.racks_needed is None
    assert report.sizing.no_rack_fits == ["NVIDIA DGX B200"]
    # 4 × 313.9 lb = 1,255.6 lb
    assert report.sizing.weight_lb == pytest.approx(1255.6)


def test_unknown_model_preset_is_a_review_input_error(catalog: CatalogSnapshot) -> None:
    inp = ReviewInput(
        quote=QuoteSummary(),
        systems=[quoted_system(catalog, "dgx-spark")],
        workload=Workload(kind="inference", model="Foo-7B"),
        facility=ROW_RDHX,
    )
    with pytest.raises(ReviewInputError, match='unknown model preset "Foo-7B"'):
        review(inp, catalog)


def test_finance_thresholds_are_passed_in(catalog: CatalogSnapshot) -> None:
    folder = EXAMPLES / "semi-for-one-finetune"
    inp = ReviewInput(
        quote=QuoteSummary(total=_quote_total(folder)),
        systems=SYSTEMS[folder.name](catalog),
        workload=Workload.model_validate_json((folder / "workload.json").read_text("utf-8")),
        facility=ROW_RDHX,
    )
    # $515,000 is "high" under the defaults (100k ≤ spend < 1M) and "raised" under 1M/2M/5M.
    assert review(inp, catalog).blood_pressure.finance.level == "high"
    lenient = review(inp, catalog, finance_thresholds=(1_000, 1_000_000, 5_000_000))
    assert lenient.blood_pressure.finance.level == "raised"


STRANGE_QUOTES: dict[str, Build] = {
    "no systems": lambda c: [],
    "chassis without cards": lambda c: [
        quoted_system(c, "supermicro-sys-521ge-tnrt", 2, gpu_key="l40s", gpus=0)
    ],
    "zero quantity": lambda c: [quoted_system(c, "dgx-b200", 0)],
    "a mixed lot": lambda c: [
        quoted_system(c, "dgx-spark", 2),
        quoted_system(c, "dgx-b200"),
        quoted_system(c, "gb300-nvl72"),
    ],
}
STRANGE_LOADS = [
    {"kind": "inference", "model": "Qwen3-32B"},
    {"kind": "training", "model": "DeepSeek-V3 / R1"},
    {"kind": "lora", "model": "gpt-oss-120b", "precision": "fp4"},
    {"kind": "vision", "model": {"name": "Mine", "params_b": 7}},
    {"kind": "hpc"},
    {"kind": "vdi"},
]
STRANGE_ROOMS = [
    Facility(site="office"),
    Facility(),
    Facility(rack_power_kw=0.1, racks_available=0, cooling="liquid", floor_load_lb_per_sqft=1),
]


@pytest.mark.parametrize("quote", STRANGE_QUOTES, ids=str)
def test_the_engine_never_raises_on_a_strange_quote(quote: str, catalog: CatalogSnapshot) -> None:
    for load in STRANGE_LOADS:
        for room in STRANGE_ROOMS:
            inp = ReviewInput(
                quote=QuoteSummary(),
                systems=STRANGE_QUOTES[quote](catalog),
                workload=Workload.model_validate(load),
                facility=room,
            )
            report = review(inp, catalog)
            assert report.verdict == verdict_for(report.findings)
            assert {f.check for f in report.findings} >= {"quote_lines"}
            json.loads(report.model_dump_json())


def test_identical_lines_are_one_vehicle_for_the_racks(catalog: CatalogSnapshot) -> None:
    # two lines of 2 × DGX B200 are 4 semis: 4 racks of 20 kW, the row has exactly 4
    two_lines = [quoted_system(catalog, "dgx-b200", 2), quoted_system(catalog, "dgx-b200", 2)]
    inp = ReviewInput(
        quote=QuoteSummary(),
        systems=two_lines,
        workload=Workload(kind="training", memory_gb=100),
        facility=ROW_RDHX,
    )
    report = review(inp, catalog)
    assert report.sizing.racks_needed == 4
    assert report.worst("rack_power") == "ok"
    assert len(report.systems) == 2  # the report keeps the quote's lines as they were
