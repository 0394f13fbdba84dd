"""The bill-of-materials corpus (tests/fixtures/boms/; how many of each format is asserted in
test_the_corpus_is_all_there), written the way Dell, HPE, Lenovo, Cisco, Fujitsu, Eviden,
Supermicro, Gigabyte, ASUS, ASRock Rack, QCT, Inspur, H3C, NVIDIA partners, rack-scale ODMs
(Wiwynn, Foxconn), system integrators, workstation and desk-side builders, and distributors or
resellers in India, Switzerland, Germany, France, Italy, Spain, Brazil, the Netherlands, Poland,
Japan, China, Taiwan, Korea, Australia, the UK and the US send them (Shift-JIS, GBK, Big5,
EUC-KR and UTF-16 CSVs, multi-page and unruled PDFs, workbooks over several sheets among
them): every quote read end to end by intake, against the reading its expect.json states. The
binary quotes whose content should be reviewable are written by scripts under tests/fixtures/.

Data-line numbers are every row below the header in file order (banner, $0, subtotal, tax and
total rows included; a PDF's letterhead, terms and page furniture excluded), as
tests/fixtures/boms/README.md defines them.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake
from apps.quotes.parsing.seller import vendor_normalize

BOMS = Path(__file__).resolve().parent.parent / "fixtures" / "boms"
FOLDERS = sorted(p for p in BOMS.iterdir() if (p / "expect.json").exists())

#: Lines the reader reads otherwise than the corpus, and what it reads them as (none now:
#: a line that is misread is a failing test, or its quote waits in boms_pending).
KNOWN_MISREADS: dict[str, dict[int, str]] = {}


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
    assert len(FOLDERS) == 130
    assert (formats.count(".csv"), formats.count(".xlsx"), formats.count(".pdf")) == (74, 30, 26)


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
def test_vendor(folder: Path, catalog: CatalogSnapshot) -> None:
    # The seller the letterhead names, as a reader of the quote names it: the reseller,
    # never the maker in its tagline or lines ("Summit Ridge Systems, Inc. - Supermicro
    # Premier Partner" is Summit Ridge's), never the customer. Compared through
    # vendor_normalize: "EXXACT CORPORATION" and "Exxact Corporation" are one seller.
    vendor = _intake(folder, catalog).parsed.vendor
    assert vendor
    assert vendor_normalize(vendor) == vendor_normalize(_expect(folder)["vendor"])


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
