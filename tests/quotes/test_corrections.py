"""The account team's corrections laid over the reading (pure), and the reading in words.

Quotes: the shared examples' Dell configurator (2 × XE9680 with the HGX H200 board as an
"Included" sub-line, line 2) and the HP Z8 Fury with four Max-Q cards on their own line.
"""

from __future__ import annotations

import pytest

from apps.quotes.corrections import (
    CorrectionError,
    line_role,
    reading_words,
)
from apps.quotes.intake import quote_intake_parsed
from apps.quotes.matching import mapping_key
from apps.quotes.parsing import parse_upload
from apps.quotes.schemas import LineCorrection, QuotedSystem, QuoteLineOut
from tests.conftest import EXAMPLES

DELL = EXAMPLES / "dell-xe9680-configurator-per-system" / "quote.csv"
HP_Z8 = EXAMPLES / "hp-z8-fury-4x-maxq-on-15a" / "quote.csv"
XE9680_PART = ("Dell", "XE9680")


def _intake(path, catalog, **kw):
    return quote_intake_parsed(parse_upload(path.read_bytes(), path.name), catalog, **kw)


def _servers(intake, key: str) -> int:
    return sum(s.quantity for s in intake.systems if s.sku == key)


def _from_line(intake, line: int) -> list[QuotedSystem]:
    return [s for s in intake.systems if s.lines and s.lines[0] == line]


def test_confirming_a_sub_line_as_its_server_adds_no_server(catalog):
    """Line 2 ("1.1 NVIDIA HGX H200 141GB 700W SXM5, 8 GPUs", Included) confirmed as the
    XE9680 is part of line 1's 2 servers, not a third: 2 × 8 = 16 GPUs from line 1 either way."""
    before = _intake(DELL, catalog)
    assert before.summary.lines[1].part_number == "490-BKJR"
    after = _intake(DELL, catalog, mappings={mapping_key("490-BKJR"): XE9680_PART})
    assert _servers(after, "dell-xe9680") == _servers(before, "dell-xe9680")
    assert _from_line(after, 2) == []
    assert [s.quantity * s.gpus_per_system for s in _from_line(after, 1)] == [16]  # 2 × 8
    line = after.summary.lines[1]
    assert (line.kind, line.role, line.parent, line.sku) == ("other", "component", 1, None)


def test_a_confirmed_system_line_with_its_own_price_is_still_a_system(catalog):
    """Confirming a priced top-level line as a server is a server (line 1 here)."""
    after = _intake(DELL, catalog, mappings={mapping_key("210-BDJV"): XE9680_PART})
    assert [s.quantity for s in _from_line(after, 1)] == [2]


def test_a_service_line_corrected_as_a_service_is_no_longer_a_server(catalog):
    """Line 12 "Dell ProDeploy Plus for PowerEdge XE9680" (2 × $7,950) read as 2 more servers
    today: corrected as a service, the quote is 2 servers, 2 × 8 = 16 GPUs."""
    corrected = _intake(DELL, catalog, corrections={12: LineCorrection(role="service")})
    assert _servers(corrected, "dell-xe9680") == 2
    line = corrected.summary.lines[11]
    assert (line.role, line.kind, line.corrected, line.sku) == ("service", "other", True, None)
    assert "line 12 services" in corrected.summary.reading


def test_an_unread_line_corrected_as_a_system_becomes_that_vehicle(catalog):
    """Line 9 "iDRAC9, Datacenter 16G" is not read; corrected (wrongly, but it is the user's
    word) as a PowerEdge XE9680 it is 1 more server with the catalog's 8 × H200 SXM."""
    corrected = _intake(
        DELL, catalog, corrections={9: LineCorrection(role="system", system="dell-xe9680")}
    )
    (system,) = _from_line(corrected, 9)
    assert (system.sku, system.quantity, system.gpus_per_system) == ("dell-xe9680", 1, 8)
    line = corrected.summary.lines[8]
    assert (line.role, line.kind, line.match, line.sku) == (
        "system",
        "system",
        "alias",
        "dell-xe9680",
    )


def test_gpus_per_system_correction_changes_gpus_domain_and_power(catalog):
    """The HP Z8 Fury (line 1) is read as the catalog's 1 × RTX PRO 6000 WS (600 W, 1.15 kW
    system). Corrected to 4 × RTX PRO 6000 Max-Q per system: 4 cards, PCIe so a 1-GPU
    domain, power 1.15 kW - 1 × 600 W + 4 × 300 W = 1.75 kW."""
    corrected = _intake(
        HP_Z8,
        catalog,
        corrections={1: LineCorrection(gpu="rtx-pro-6000-maxq", gpus_per_system=4)},
    )
    (system,) = _from_line(corrected, 1)
    assert (system.gpu_key, system.gpus_per_system, system.nvlink_domain_gpus) == (
        "rtx-pro-6000-maxq",
        4,
        1,
    )
    assert system.power_kw == pytest.approx(1.75)
    assert corrected.summary.lines[0].corrected is True


def test_a_gpu_count_on_a_board_line_applies_to_its_server(catalog):
    """Line 2 is the HGX board under line 1: "4 GPUs per system" there makes each XE9680
    a 4 × H200 SXM server, its NVLink domain 4 GPUs = 4 × 141 GB = 564 GB."""
    corrected = _intake(
        DELL, catalog, corrections={2: LineCorrection(role="gpu_board", gpus_per_system=4)}
    )
    (system,) = _from_line(corrected, 1)
    assert (system.gpus_per_system, system.nvlink_domain_gpus) == (4, 4)
    assert system.nvlink_domain_gpus * 141 == 564
    assert corrected.summary.lines[1].role == "gpu_board"


def test_a_system_the_catalog_does_not_know_is_a_clear_error(catalog):
    with pytest.raises(CorrectionError, match="no system 'dell-xe9999'"):
        _intake(DELL, catalog, corrections={1: LineCorrection(system="dell-xe9999")})
    with pytest.raises(CorrectionError, match="no GPU 'b999'"):
        _intake(DELL, catalog, corrections={1: LineCorrection(gpu="b999")})


def test_a_system_role_on_an_unread_line_needs_the_system(catalog):
    with pytest.raises(CorrectionError, match="line 9: say which system it is"):
        _intake(DELL, catalog, corrections={9: LineCorrection(role="system")})


def test_the_reading_in_words(catalog):
    """Two vehicles, their lines, the rest grouped by role with ranges."""
    systems = [
        QuotedSystem(
            sku="dell-xe9680",
            name="PowerEdge XE9680",
            form_factor="hgx_server",
            quantity=2,
            gpu="H200 SXM",
            gpu_key="h200-sxm",
            gpus_per_system=8,
            lines=[1, 2, 3],
        )
    ]
    lines = [
        QuoteLineOut(line=n, role=role, kind="other")
        for n, role in [(1, "system"), (2, "gpu_board"), (3, "component")]
    ] + [QuoteLineOut(line=n, role="service", kind="other") for n in range(4, 10)]
    text, confidence = reading_words(systems, lines, catalog)
    assert text == "2 × PowerEdge XE9680, each 8 × H200 SXM 141 GB (lines 1–3); lines 4–9 services"
    assert confidence == "high"


def test_reading_confidence_falls_with_unread_lines(catalog):
    """An unread line with a price is low (it may be hardware); without one, medium."""
    system = QuotedSystem(sku="x", name="X", form_factor="hgx_server", quantity=1, lines=[1])
    free = QuoteLineOut(line=2, kind="unknown")
    priced = QuoteLineOut(line=2, kind="unknown", unit_price="10.00")
    assert reading_words([system], [free], catalog)[1] == "medium"
    assert reading_words([system], [priced], catalog)[1] == "low"
    text, confidence = reading_words([], [free], catalog)
    assert (text, confidence) == ("no GPU system; line 2 not read", "low")


def test_line_role_falls_back_to_the_match_while_the_reader_gives_none():
    assert line_role(QuoteLineOut(line=1, kind="system")) == "system"
    assert line_role(QuoteLineOut(line=1, kind="bridge")) == "nvlink_bridge"
    assert line_role(QuoteLineOut(line=1, kind="other", role="service")) == "service"
