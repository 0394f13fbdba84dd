"""quote_lines: intake's line findings pass through; an empty or engine-less quote is critical."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.schemas import LineProblem
from apps.review.engine.checks import quote_lines
from apps.review.engine.schemas import Finding
from tests.review.engine.engine_kit import context, only, quoted_system

TRAINING = {"kind": "training", "memory_gb": 100}


def test_a_clean_quote_gets_one_ok(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", 2)], TRAINING)
    finding = only(quote_lines.check(ctx))
    assert finding.severity == "ok"
    # 2 systems × 8 GPUs = 16 GPUs
    assert finding.metrics["systems"] == 2
    assert finding.metrics["gpus"] == 16


def test_intake_findings_pass_through_without_an_extra_ok(catalog: CatalogSnapshot) -> None:
    unmatched = LineProblem(
        severity="warning",
        title="Line 3 matched nothing",
        detail="XYZ-1 is not in the catalog.",
    )
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, line_problems=[unmatched]
    )
    assert quote_lines.check(ctx) == [Finding(check="quote_lines", **unmatched.model_dump())]


def test_no_system_is_critical(catalog: CatalogSnapshot) -> None:
    finding = only(quote_lines.check(context(catalog, [], TRAINING)))
    assert (finding.severity, finding.title) == ("critical", "No GPU system on the quote")


def test_chassis_without_cards_is_critical(catalog: CatalogSnapshot) -> None:
    empty_van = quoted_system(catalog, "supermicro-sys-521ge-tnrt", 2, gpus=0)
    finding = only(quote_lines.check(context(catalog, [empty_van], TRAINING)))
    assert (finding.severity, finding.title) == ("critical", "Vehicles with no engines")
